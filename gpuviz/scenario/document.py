"""The scenario: one JSON file with a title, an architecture, one section per panel id, the
panels to show, and the steps a lecturer walks through.

A step's ``changes`` are partial sections; a step with ``predict`` asks a question first and
shows its picture when revealed (predict, then reveal). Steps accumulate: the state at step k is the scenario
with the changes of steps 0 … k applied in order, so a lecture can build up one change at a time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field, replace
from types import MappingProxyType
from typing import Any

from gpuviz.keys import KEY_PATTERN
from gpuviz.models.arch import DEFAULT_ARCH
from gpuviz.registry import panel
from gpuviz.scenario.decode import decode_changes

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
    # The sections after each step, when the loader has just computed them while checking the
    # steps. Not a field: ``dataclasses.replace`` never carries it into a scenario whose sections
    # or steps differ; every other scenario derives its step states from its own steps.
    _step_sections: InitVar[tuple[Mapping[str, Any], ...]] = ()

    def __post_init__(self, _step_sections: tuple[Mapping[str, Any], ...]) -> None:
        if _step_sections and len(_step_sections) == len(self.steps):
            object.__setattr__(self, "_states", tuple(_step_sections))

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
        if k < 0 or not self.steps:
            return self
        states = self.step_states()
        return replace(self, sections=states[min(k, len(states) - 1)])

    def step_states(self) -> tuple[Mapping[str, Any], ...]:
        """The sections after each step: this scenario's sections with the changes of steps
        0 … k decoded over them in order. Derived from this scenario's own sections and steps
        and kept on it (a frozen scenario's steps never change), never copied from another."""
        states = self.__dict__.get("_states")
        if states is None:
            states = _accumulate(self.sections, self.steps)
            object.__setattr__(self, "_states", states)
        return states

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


def _accumulate(sections: Mapping[str, Any], steps: tuple[Step, ...]) -> tuple[Mapping[str, Any], ...]:
    """The sections after each step. A change that no longer decodes over the state before it
    (its panel's section was edited since the file was checked) leaves that section as it was."""
    current = dict(sections)
    states: list[Mapping[str, Any]] = []
    for step in steps:
        for pid, partial in step.changes.items():
            before = current.get(pid) or panel(pid).params_type()
            params = decode_changes(before, _plain(partial), pid, [])
            if isinstance(params, type(before)):
                current[pid] = params
        states.append(MappingProxyType(dict(current)))
    return tuple(states)


def _plain(value: Any) -> Any:
    """JSON data out of the read-only mappings a step keeps its changes in."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value
