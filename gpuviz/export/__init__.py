"""Writing figures to files: SVG by our own Qt-free writer, PDF and PNG through the Qt painter."""
