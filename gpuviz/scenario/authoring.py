"""Making a lecture's steps from the application: a step records the difference between the
state the lecturer set up and the state of the step before it.

Every function returns a new :class:`Scenario` built through the scenario's JSON form
(``to_json`` → edit the step list → ``from_json``), so the accumulated step states are computed
and checked exactly as when the file is opened; a step list that would not load raises
:class:`ScenarioError` with the JSON paths the loader gives.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from gpuviz.keys import key_problem
from gpuviz.registry import PANEL_IDS
from gpuviz.scenario.decode import encode_changes
from gpuviz.scenario.document import Scenario, Step
from gpuviz.scenario.encode import step_to_json, to_json
from gpuviz.scenario.io import from_json
from gpuviz.scenario.problems import Problem, ScenarioError

STEP_TEXT_FIELDS = ("title", "caption", "predict", "notes")


def section_changes(before: Scenario, after: Scenario) -> dict[str, dict[str, Any]]:
    """Per panel id, the section fields of ``after`` that differ from ``before`` (nested objects
    compared field by field, lists as a whole), in registry order; unchanged panels are left out."""
    out: dict[str, dict[str, Any]] = {}
    for pid in PANEL_IDS:
        if pid not in before.sections and pid not in after.sections:
            continue
        diff = encode_changes(before.section(pid), after.section(pid))
        if diff:
            out[pid] = diff
    return out


def describe_changes(changes: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One line per changed field, ``panel.field = value`` (nested fields dotted)."""
    lines: list[str] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, Mapping) and value:
            for k, v in value.items():
                walk(f"{prefix}.{k}", v)
        else:
            lines.append(f"{prefix} = {json.dumps(_plain(value), ensure_ascii=False)}")

    for pid, partial in changes.items():
        walk(pid, partial)
    return lines


def default_focus(changes: Mapping[str, Any], fallback: str | None) -> str | None:
    """The panel a new step shows: the one panel it changes, else ``fallback``."""
    if len(changes) == 1:
        return next(iter(changes))
    return fallback


def check_selection(keys: Iterable[str]) -> list[str]:
    """The keys that are not selection keys such as ``lane:3`` (empty when all are fine)."""
    return [k for k in keys if key_problem(k) is not None]


def add_step(scenario: Scenario, shown: Scenario, after: int, title: str, caption: str = "",
             predict: str = "", notes: str = "", focus: str | None = None,
             select: Iterable[str] = (), parts: Iterable[str] = ()) -> tuple[Scenario, int]:
    """Insert a step after step ``after`` (-1: first) whose changes take the state of step
    ``after`` to the ``shown`` state. Returns the new scenario and the new step's index."""
    previous = scenario.at_step(after)
    index = max(0, min(after + 1, len(scenario.steps)))
    step: dict[str, Any] = {"title": title}
    for key, value in (("caption", caption), ("predict", predict), ("notes", notes)):
        if value:
            step[key] = value
    changes = section_changes(previous, shown)
    if changes:
        step["changes"] = changes
    if focus:
        step["focus"] = focus
    keys = list(select)
    if keys:
        step["select"] = keys
    if parts:
        step["parts"] = list(parts)
    steps = _steps_json(scenario)
    steps.insert(index, step)
    return with_steps(scenario, steps), index


def edit_step(scenario: Scenario, index: int, **fields: Any) -> Scenario:
    """Change a step's title, caption, predict, notes, focus, select, parts or changes; a text
    field set to "" and focus/select/parts set to None or empty are removed from the step."""
    steps = _steps_json(scenario)
    _check_index(scenario, index)
    step = steps[index]
    for key, value in fields.items():
        if key not in (*STEP_TEXT_FIELDS, "focus", "select", "parts", "changes"):
            raise TypeError(f"a step has no field {key!r}")
        if key in ("select", "parts"):
            value = list(value or ())
        if key == "changes":
            value = {k: _plain(v) for k, v in (value or {}).items()}
        if value or key == "title":
            step[key] = value
        else:
            step.pop(key, None)
    return with_steps(scenario, steps)


def move_step(scenario: Scenario, index: int, to: int) -> Scenario:
    """Move step ``index`` to position ``to`` (the others keep their order), each step still
    showing what it showed. A step stores its difference from the step before it; moved as
    is, "One SM: two waves" above "Block 32" would promise two waves over a figure with one.
    So the changes are rebased: every step's changes are recomputed from its new predecessor's
    state to its own state as it was."""
    _check_index(scenario, index)
    steps = _steps_json(scenario)
    states = [scenario.at_step(k) for k in range(len(steps))]
    to = max(0, min(to, len(steps) - 1))
    steps.insert(to, steps.pop(index))
    states.insert(to, states.pop(index))
    previous = scenario.at_step(-1)
    for step, state in zip(steps, states, strict=True):
        changes = section_changes(previous, state)
        if changes:
            step["changes"] = _plain(changes)
        else:
            step.pop("changes", None)
        previous = state
    return with_steps(scenario, steps)


def delete_step(scenario: Scenario, index: int) -> Scenario:
    """Remove step ``index``; the steps after it no longer build on its changes."""
    _check_index(scenario, index)
    steps = _steps_json(scenario)
    del steps[index]
    return with_steps(scenario, steps)


def with_steps(scenario: Scenario, steps: list[dict[str, Any]]) -> Scenario:
    """The scenario with this step list (JSON form), decoded and checked as on loading."""
    raw = to_json(scenario)
    raw.pop("steps", None)
    if steps:
        raw["steps"] = steps
    problems: list[Problem] = []
    out = from_json(raw, problems)
    if problems:
        raise ScenarioError("steps", problems)
    return out


def step_json(step: Step) -> dict[str, Any]:
    """A step as the scenario file writes it."""
    return _plain(step_to_json(step))


def _steps_json(scenario: Scenario) -> list[dict[str, Any]]:
    return [step_json(s) for s in scenario.steps]


def _check_index(scenario: Scenario, index: int) -> None:
    if not 0 <= index < len(scenario.steps):
        raise IndexError(f"step {index} of {len(scenario.steps)}")


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
