"""From a scenario to a panel's figure: the one road every renderer takes."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.display import Figure, Group, Item, Rects, Segments
from gpuviz.figures.part_titles import part_title
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
    # some parts on a page of their own (not a slide or a view, whose layout fills the frame
    # with the figure's title): headed with the parts' name
    if target.parts is not None and target.chrome == "full" and not target.paged \
            and set(target.parts) != set(panel(panel_id).parts):
        target = replace(target, part_title=part_title(panel_id, target.parts))
    figure: Figure = panel(panel_id).figure.build(result, selection, theme, target)
    _built[0] += drawn_items(figure.items)
    return figure


# drawn items of every figure built in this process: the work a lecture export is bounded by
# (export/lecture.py's Work), the same on every machine under any load, where its time is not
_built = [0]


def built_items() -> int:
    """Drawn items of the figures built so far in this process (:func:`drawn_items`)."""
    return _built[0]


def uncount(figure: Figure) -> None:
    """Take a figure built only to check another (a kept design's) out of :func:`built_items`:
    the work it stands for is the figure it checked, counted already."""
    _built[0] -= drawn_items(figure.items)


def drawn_items(items: tuple[Item, ...]) -> int:
    """What painting ``items`` draws: one per shape or label, a batch's rows each."""
    n = 0
    for item in items:
        if isinstance(item, Group):
            n += drawn_items(item.items)
        elif isinstance(item, Rects):
            n += len(item.xywh)
        elif isinstance(item, Segments):
            n += len(item.xyxy)
        else:
            n += 1
    return n


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
