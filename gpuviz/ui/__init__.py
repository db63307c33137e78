"""The application: main window, docks, document, painter on screen (Qt lives only here and in
the PDF/PNG part of export)."""
