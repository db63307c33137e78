"""A lecture's state: a plain, immutable object; each change makes a new one (``replace``),
so an undo history is a stack of lectures. Qt-free."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from gpuviz.scenario.document import Scenario


@dataclass(frozen=True)
class Lecture:
    """``step`` -1 is the overview; ``selection`` the keys selected by hand beyond the step's
    own; ``frame`` the playback position the clock was moved to at this step (None: the
    step's own frame); ``revealed`` the question steps whose answer the room has seen;
    ``edited_from`` the step whose state was edited by hand (the window then shows the edit
    at the overview, the step's caption marked stale); ``pages`` each view's chosen page
    (panel id → page index); ``saved`` the lecture as opened or saved (what its captions were
    written for; None: this scenario)."""

    scenario: Scenario
    step: int = -1
    selection: frozenset[str] = frozenset()
    frame: int | None = None
    revealed: frozenset[int] = frozenset()
    edited_from: int | None = None
    pages: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    presenting: bool = False
    saved: Scenario | None = None

    # --- reading -----------------------------------------------------------------------------
    @property
    def steps(self) -> int:
        return len(self.scenario.steps)

    def asks(self, k: int) -> bool:
        """Step ``k`` asks the room a question."""
        return 0 <= k < self.steps and bool(self.scenario.steps[k].predict)

    def is_veiled(self, k: int) -> bool:
        """Step ``k`` asks a question whose answer the room has not seen."""
        return self.asks(k) and k not in self.revealed

    @property
    def veiled(self) -> bool:
        return self.is_veiled(self.step)

    # --- changes: each a new lecture -------------------------------------------------------------
    def at(self, k: int) -> Lecture:
        """At step ``k`` (clamped; -1 the overview): the step's own frame and selection."""
        k = max(-1, min(k, self.steps - 1))
        if k == self.step:
            return self
        return replace(self, step=k, frame=None, edited_from=None)

    def reveal(self) -> Lecture:
        return replace(self, revealed=self.revealed | {self.step}) if self.veiled else self

    def veil_all(self) -> Lecture:
        return replace(self, revealed=frozenset())

    def with_frame(self, frame: int | None) -> Lecture:
        return replace(self, frame=frame)

    def with_selection(self, keys: Iterable[str]) -> Lecture:
        return replace(self, selection=frozenset(keys))

    def with_page(self, panel_id: str, page: int) -> Lecture:
        pages = dict(self.pages)
        pages[panel_id] = page
        return replace(self, pages=MappingProxyType(pages))

    def with_scenario(self, scenario: Scenario) -> Lecture:
        """An edit: the same step, its parts and pages kept (a step the edit removed: the
        overview)."""
        step = self.step if self.step < len(scenario.steps) else -1
        return replace(self, scenario=scenario, step=step)

    def with_panels(self, panels: tuple[str, ...]) -> Lecture:
        """The lecture's panels (shown or closed while authoring): part of the scenario, so
        saving, reopening and Reset Layout keep them."""
        return self.with_scenario(replace(self.scenario, panels=tuple(panels)))

    def presented(self, on: bool = True) -> Lecture:
        return replace(self, presenting=on)
