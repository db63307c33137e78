"""What a panel adds to its generated dock: one ``PanelExtras`` subclass per panel that needs
more than the generated controls (``gpuviz.ui.panel_extras``), named by its registry entry."""
