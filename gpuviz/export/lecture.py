"""A lecture as its reader steps through it: the overview, then one page per step.

The one description of "what a step shows" that the web page, the handout and the slide deck
share: the step's title, its caption with live ``{panel.field}`` values filled in, its question
(predict, then reveal), the panels it shows and what it selects. Presenter notes travel only
where the medium has a place that the room does not see (a deck's speaker notes). Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpuviz.figures.layout import TARGETS, Target
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.fields import format_fields


@dataclass(frozen=True)
class Page:
    """One page of a lecture. ``number`` 0 is the overview; step k (0-based in the file) is
    page k + 1, the number every surface shows ("step 3 of 7")."""

    number: int
    title: str
    caption: str
    question: str
    notes: str
    panels: tuple[str, ...]
    selection: frozenset[str]
    state: Scenario
    source: Scenario

    @property
    def label(self) -> str:
        return "Overview" if self.number == 0 else f"Step {self.number}"

    def target(self, panel_id: str, size: str) -> Target:
        """The size preset's target, drawing only the parts this step names for the panel."""
        parts = self.source.step_parts(self.number - 1, panel_id) if self.number else None
        return TARGETS[size].showing(parts)


def lecture_pages(scenario: Scenario, steps: Sequence[int] | None = None,
                  panels: Sequence[str] | None = None) -> tuple[Page, ...]:
    """The overview and the steps (all of them, or the 0-based ``steps``), in order; each
    step shows its focus panel, else every panel (of ``panels``, if given)."""
    shown = tuple(panels) if panels else scenario.panels
    overview = scenario.at_step(-1)
    pages = [Page(0, scenario.title, format_fields(scenario.description, overview), "", "",
                  shown, frozenset(), overview, scenario)]
    wanted = range(len(scenario.steps)) if steps is None else steps
    for k in wanted:
        step = scenario.steps[k]
        state = scenario.at_step(k)
        panels = (step.focus,) if step.focus in shown else shown
        pages.append(Page(k + 1, step.title, format_fields(step.caption, state),
                          format_fields(step.predict, state), step.notes, panels,
                          scenario.step_selection(k), state, scenario))
    return tuple(pages)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
