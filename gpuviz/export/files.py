"""Writing one panel's figure to a file in any format: the single entry point for the GUI's
Export dialog and ``gpuviz export``."""

from __future__ import annotations

import hashlib
from pathlib import Path

from gpuviz import __version__
from gpuviz.export.sizes import fitted_width, smallest_text_pt
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.layout import TARGETS
from gpuviz.figures.scene import figure_for, takes_target
from gpuviz.figures.theme import theme
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.io import dumps_scenario, write_atomic

SMALLEST_LEGIBLE_PT = 5.0


def export_figure(scenario: Scenario, panel_id: str, path: Path, *, fmt: str = "svg",
                  theme_name: str = "screen", size: str = "natural", dpi: int = 200,
                  selection: frozenset[str] = frozenset(), text_as_paths: bool = False) -> str:
    """Write the figure; returns a note for the user ("" or a warning about small type).

    Every file names the gpuviz version and the scenario's hash in its metadata; the same
    inputs give the same bytes (SVG and PNG)."""
    metadata = export_metadata(scenario, panel_id, theme_name, size)
    if takes_target(panel_id):  # laid out for the size, at its real type sizes
        figure = figure_for(scenario, panel_id, theme(theme_name), selection, TARGETS[size])
        width = None
    else:
        figure = figure_for(scenario, panel_id, theme(theme_name), selection)
        width = fitted_width(figure, size)
    if fmt == "svg":
        svg = figure_to_svg(figure, width, text_as_paths=text_as_paths, metadata=metadata)
        write_atomic(Path(path), svg.encode("utf-8"))
    else:
        from gpuviz.export.raster import write_raster  # Qt only for PDF and PNG

        write_raster(figure, Path(path), fmt, width, dpi, metadata)
    smallest = smallest_text_pt(figure, width)
    if smallest and smallest < SMALLEST_LEGIBLE_PT:
        return f"  (note: smallest text is {smallest:.1f} pt at this size)"
    return ""


def scenario_hash(scenario: Scenario) -> str:
    """SHA-256 of the scenario's canonical JSON: the same state, the same hash."""
    return hashlib.sha256(dumps_scenario(scenario).encode("utf-8")).hexdigest()


def export_metadata(scenario: Scenario, panel_id: str, theme_name: str, size: str) -> dict[str, str]:
    return {"version": __version__, "scenario-sha256": scenario_hash(scenario), "panel": panel_id,
            "theme": theme_name, "size": size}
