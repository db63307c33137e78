"""A scenario as JSON: the sections it sets, in full; the steps as written; saved atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gpuviz.atomic import write_atomic
from gpuviz.registry import PANEL_IDS
from gpuviz.scenario.decode import encode
from gpuviz.scenario.document import FORMAT_VERSION, Scenario, Step


def to_json(scenario: Scenario) -> dict[str, Any]:
    """The scenario as JSON data: the sections it sets, in full; the steps as written."""
    out: dict[str, Any] = {"version": FORMAT_VERSION, "title": scenario.title}
    if scenario.description:
        out["description"] = scenario.description
    out["arch"] = scenario.arch
    out["panels"] = list(scenario.panels)
    for pid in PANEL_IDS:
        if pid in scenario.sections:
            out[pid] = encode(scenario.sections[pid])
    if scenario.steps:
        out["steps"] = [step_to_json(s) for s in scenario.steps]
    return out


def step_to_json(step: Step) -> dict[str, Any]:
    """One step as scenario JSON: its title, and of the rest only what it has."""
    out: dict[str, Any] = {"title": step.title}
    if step.caption:
        out["caption"] = step.caption
    if step.predict:
        out["predict"] = step.predict
    if step.notes:
        out["notes"] = step.notes
    if step.changes:
        out["changes"] = {k: _plain(v) for k, v in step.changes.items()}
    if step.focus:
        out["focus"] = step.focus
    if step.select:
        out["select"] = list(step.select)
    if step.parts:
        out["parts"] = list(step.parts)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, (dict, MappingProxyType)):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def dumps_scenario(scenario: Scenario) -> str:
    return json.dumps(to_json(scenario), indent=2, ensure_ascii=False) + "\n"


def save_scenario(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write atomically (see :func:`write_atomic`)."""
    try:
        data = dumps_scenario(scenario).encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"the scenario holds text that is not valid Unicode (a lone surrogate, "
                         f"U+{ord(e.object[e.start]):04X}); remove it and save again") from None
    write_atomic(Path(path), data)
