"""From a scenario to a panel's figure: the one road every renderer takes."""

from __future__ import annotations

from gpuviz.figures.display import Figure
from gpuviz.figures.targets import NATURAL, Target
from gpuviz.figures.theme import Theme
from gpuviz.registry import panel
from gpuviz.scenario.compute import compute_all
from gpuviz.scenario.document import Scenario


def figure_for(scenario: Scenario, panel_id: str, theme: Theme,
               selection: frozenset[str] = frozenset(), target: Target = NATURAL) -> Figure:
    """The panel's figure for the scenario, laid out for ``target``.

    ``target.showing(parts, chrome)`` draws only those of the panel's parts
    (``registry.panel(id).parts``), in that order, inside that chrome ("full", "legend",
    "none"); the figure's ``parts`` names those drawn. A view in the app:
    ``view_target(width_mm, aspect).showing(["rack"])``."""
    result = compute_all(scenario, (panel_id,))[panel_id]
    return build_figure(panel_id, result, selection, theme, target)


def build_figure(panel_id: str, result: object, selection: frozenset[str], theme: Theme,
                 target: Target = NATURAL) -> Figure:
    """``figures.<panel_id>.build`` for ``target``: every panel's figure is laid out for its
    target (``registry.FigureModule``)."""
    figure: Figure = panel(panel_id).figure.build(result, selection, theme, target)
    return figure


def drawn_parts(scenario: Scenario, panel_id: str,
                selection: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The parts the panel's whole figure draws for this scenario (of ``panel(id).parts``,
    those it has: a one-warp reduction has no block stage)."""
    from gpuviz.figures.theme import theme

    return figure_for(scenario, panel_id, theme("print"), selection).parts


def frame_count(scenario: Scenario, panel_id: str) -> int:
    """Playback frames of the panel's figure (1 for a still figure)."""
    p = panel(panel_id)
    if not p.animated:
        return 1
    return p.frame_count(compute_all(scenario, (panel_id,))[panel_id])
