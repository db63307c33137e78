"""Qt-free figures: display lists built from model results and a theme (DESIGN.md)."""
