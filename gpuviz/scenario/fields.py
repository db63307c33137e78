"""Live values in step text: ``{pipeline.tiles}`` in a caption is replaced by the value the
scenario shows now, so a caption never says "six tiles" after the user set eight.

A field is ``{panel.field}`` or ``{panel.field.subfield}`` (a nested section such as
``sectors.pattern.stride``), or ``{panel.result.field}`` (what the panel's model computes from the
state shown, such as ``pipeline.result.total_time``), optionally with a format spec:
``{launch.n:,}``, ``{pipeline.load_time:.1f}``, checked against every value the field can hold
(``format_spec.py``). A tuple value is written with its items joined by
``×`` (a shape such as ``launch.block``: ``16×16``; one item: just the item); a whole float
without a spec as an integer (``30``, not ``30.0``). ``{{`` and ``}}`` are literal braces. Fields are checked when a scenario is loaded (:func:`field_problems`); an unknown panel or
field is an error that names its path in the file.
"""

from __future__ import annotations

import dataclasses
import typing
from string import Formatter
from typing import Any

from gpuviz.models.params import field_spec
from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario.format_spec import format_value, spec_problem
from gpuviz.scenario.problems import Problem, did_you_mean

_FORMATTER = Formatter()


def _parts(text: str) -> list[tuple[str, str | None, str]]:
    """(literal, field or None, spec) pieces of ``text``; raises ValueError on a stray brace."""
    out = []
    for literal, name, spec, conversion in _FORMATTER.parse(text):
        if conversion:
            raise ValueError(f"the field {{{name}!{conversion}}} has a conversion; write "
                             f"{{{name}}} or {{{name}:spec}}")
        out.append((literal, name, spec or ""))
    return out


def fields(text: str) -> list[str]:
    """The field names in ``text`` (``["pipeline.tiles", …]``); [] when it names none."""
    try:
        return [name for _lit, name, _spec in _parts(text) if name is not None]
    except ValueError:
        return []


def _resolve_type(path: list[str]) -> tuple[Any, str | None]:
    """The type a field path names, or None and what is wrong with it."""
    pid = path[0]
    if pid not in PANEL_IDS:
        return None, f"unknown panel {pid!r}" + did_you_mean(pid, PANEL_IDS)
    if len(path) < 2:
        return None, f"name a field of the {pid} section, e.g. {{{pid}.<field>}}"
    tp: Any = panel(pid).params_type
    start = 1
    if path[1] == RESULT and not _has_field(tp, RESULT):
        tp = typing.get_type_hints(panel(pid).model.compute).get("return")
        start = 2
        if len(path) < 3:
            return None, f"name a field of the {pid} result, e.g. {{{pid}.result.<field>}}"
    for i, name in enumerate(path[start:], start=start):
        if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
            return None, f"{'.'.join(path[:i])} has no fields"
        names = [f.name for f in dataclasses.fields(tp)]
        if name not in names:
            return None, (f"{'.'.join(path[:i])} has no field {name!r}" + did_you_mean(name, names)
                          + f" (fields: {', '.join(names)})")
        tp = field_spec(tp, name).type
    return tp, None


RESULT = "result"


def _has_field(tp: Any, name: str) -> bool:
    return dataclasses.is_dataclass(tp) and any(f.name == name for f in dataclasses.fields(tp))


def field_problems(text: str, path: str) -> list[Problem]:
    """Problems with the fields named in ``text`` (a step's caption at ``path`` in the file)."""
    try:
        parts = _parts(text)
    except ValueError as e:
        if "conversion" in str(e):
            return [Problem(path, str(e))]
        return [Problem(path, f"a brace that opens or closes no field ({e}); "
                              "write {{ and }} for literal braces")]
    problems = []
    for _lit, name, spec in parts:
        if name is None:
            continue
        tp, error = _resolve_type(name.split("."))
        if error is not None:
            problems.append(Problem(path, f"{{{name}}}: {error}"))
            continue
        if spec:
            why = spec_problem(spec, tp)
            if why is not None:
                problems.append(Problem(path, f"{{{name}:{spec}}}: the format does not apply "
                                              f"to this field ({why})"))
    return problems


def value_of(scenario: Any, name: str) -> Any:
    """The value ``panel.field[.sub…]`` has in ``scenario`` (a :class:`Scenario`)."""
    pid, *rest = name.split(".")
    value = scenario.section(pid)
    if rest and rest[0] == RESULT and not _has_field(value, RESULT):
        from gpuviz.scenario.compute import compute_all

        value, rest = compute_all(scenario, (pid,))[pid], rest[1:]
    for attr in rest:
        value = getattr(value, attr)
    return value


def format_fields(text: str, scenario: Any) -> str:
    """``text`` with each field replaced by its value in ``scenario``. A field that cannot be
    resolved (a file not checked at load) is left as written."""
    try:
        parts = _parts(text)
    except ValueError:
        return text
    out = []
    for literal, name, spec in parts:
        out.append(literal)
        if name is None:
            continue
        try:
            out.append(format_value(value_of(scenario, name), spec))
        except (AttributeError, KeyError, ValueError, TypeError, OverflowError):
            out.append("{" + name + (f":{spec}" if spec else "") + "}")
    return "".join(out)
