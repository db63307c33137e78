"""Writing one panel's figure to a file in any format: the single entry point for the GUI's
Export dialog and ``gpuviz export``."""

from __future__ import annotations

from pathlib import Path

from gpuviz.export.sizes import fitted_width, smallest_text_pt
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.layout import TARGETS
from gpuviz.figures.scene import figure_for, takes_target
from gpuviz.figures.theme import theme
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.io import write_atomic

SMALLEST_LEGIBLE_PT = 5.0


def export_figure(scenario: Scenario, panel_id: str, path: Path, *, fmt: str = "svg",
                  theme_name: str = "screen", size: str = "natural", dpi: int = 200,
                  selection: frozenset[str] = frozenset()) -> str:
    """Write the figure; returns a note for the user ("" or a warning about small type)."""
    if takes_target(panel_id):  # laid out for the size, at its real type sizes
        figure = figure_for(scenario, panel_id, theme(theme_name), selection, TARGETS[size])
        width = None
    else:
        figure = figure_for(scenario, panel_id, theme(theme_name), selection)
        width = fitted_width(figure, size)
    if fmt == "svg":
        write_atomic(Path(path), figure_to_svg(figure, width).encode("utf-8"))
    else:
        from gpuviz.export.raster import write_raster  # Qt only for PDF and PNG

        write_raster(figure, Path(path), fmt, width, dpi)
    smallest = smallest_text_pt(figure, width)
    if smallest and smallest < SMALLEST_LEGIBLE_PT:
        return f"  (note: smallest text is {smallest:.1f} pt at this size)"
    return ""
