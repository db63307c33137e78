"""Panel-specific additions to the generated dock: extra widgets, and what a click on a key
does (``activate(document, key)``). A panel without a module here gets the generated dock."""
