"""From a scenario to a panel's figure: the one road every renderer takes."""

from __future__ import annotations

from gpuviz.figures.display import Figure
from gpuviz.figures.theme import Theme
from gpuviz.registry import panel
from gpuviz.scenario.compute import compute_all
from gpuviz.scenario.document import Scenario


def figure_for(scenario: Scenario, panel_id: str, theme: Theme,
               selection: frozenset[str] = frozenset()) -> Figure:
    result = compute_all(scenario, (panel_id,))[panel_id]
    return panel(panel_id).figure.build(result, selection, theme)


def frame_count(scenario: Scenario, panel_id: str) -> int:
    """Playback frames of the panel's figure (1 for a still figure)."""
    module = panel(panel_id).figure
    counter = getattr(module, "frame_count", None)
    if counter is None:
        return 1
    result = compute_all(scenario, (panel_id,))[panel_id]
    return max(1, int(counter(result)))
