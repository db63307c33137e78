"""The scenario: one JSON file with a title, an architecture, one section per panel id, the
panels to show, and the steps a lecturer walks through.

A step's ``changes`` are partial sections; a step with ``predict`` asks a question first and
shows its picture when revealed (predict, then reveal). Steps accumulate: the state at step k is the scenario
with the changes of steps 0 … k applied in order, so a lecture can build up one change at a time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from gpuviz.keys import KEY_PATTERN
from gpuviz.models.arch import DEFAULT_ARCH
from gpuviz.registry import panel

FORMAT_VERSION = 1
SELECTION_KEY = re.compile(KEY_PATTERN)


@dataclass(frozen=True)
class Step:
    title: str
    caption: str = ""
    changes: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    focus: str | None = None
    select: tuple[str, ...] = ()
    # a question for the room: the step's picture stays veiled until it is revealed
    predict: str = ""
    # for the lecturer only (the presenter screen): never shown to the room, never exported
    notes: str = ""
    # the figure parts this step shows (of its focus panel, or of whichever panels have them),
    # so that a slide carries one idea; empty: whole figures
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    title: str = "Untitled scenario"
    description: str = ""
    arch: str = DEFAULT_ARCH
    panels: tuple[str, ...] = ("launch",)
    sections: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    steps: tuple[Step, ...] = ()
    # the partial JSON each step's sections were decoded from, kept for saving
    _step_sections: tuple[Mapping[str, Any], ...] = field(default=(), compare=False, repr=False)

    def section(self, panel_id: str) -> Any:
        """The panel's parameters: this scenario's section, or the defaults."""
        if panel_id in self.sections:
            return self.sections[panel_id]
        return panel(panel_id).params_type()

    def with_section(self, panel_id: str, params: Any) -> Scenario:
        sections = dict(self.sections)
        sections[panel_id] = params
        return replace(self, sections=MappingProxyType(sections))

    def at_step(self, k: int) -> Scenario:
        """The scenario as it stands after steps 0 … k (k = -1: before any step)."""
        if k < 0 or not self._step_sections:
            return self
        k = min(k, len(self._step_sections) - 1)
        return replace(self, sections=self._step_sections[k])

    def step_selection(self, k: int) -> frozenset[str]:
        if 0 <= k < len(self.steps):
            return frozenset(self.steps[k].select)
        return frozenset()

    def step_parts(self, k: int, panel_id: str) -> tuple[str, ...] | None:
        """The parts of ``panel_id`` that step ``k`` shows, in the step's order; None (the
        whole figure) where the step names none of them, or focuses another panel."""
        if not 0 <= k < len(self.steps) or not self.steps[k].parts:
            return None
        step = self.steps[k]
        if step.focus is not None and step.focus != panel_id:
            return None
        own = panel(panel_id).parts
        return tuple(p for p in step.parts if p in own) or None
