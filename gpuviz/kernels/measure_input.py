"""The files ``gpuviz measure`` reads, read as scenarios are: bounded (a regular file of at most
8 MiB; a FIFO or device is refused at once), strict JSON, and the shape checked with the JSON path
of each fault before anything is computed or written. Every fault is a :class:`MeasureInputError`
whose lines read ``file: json.path: message``."""

from __future__ import annotations

import os
from typing import Any

from gpuviz.registry import MEASURED_PANELS, panel
from gpuviz.scenario.problems import Problem, ScenarioError, describe, join
from gpuviz.scenario.reading import read_limited
from gpuviz.scenario.strict_json import parse_json

PANELS = MEASURED_PANELS  # the registry's panels with a measured quantity


class MeasureInputError(ScenarioError):
    """A measurement, cases or profiler file that cannot be used, with the path of each fault."""


def _json(path: str | os.PathLike[str], what: str) -> Any:
    source = str(path)
    data = read_limited(path, source, what)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise MeasureInputError(source, [Problem("$", f"not UTF-8 text (byte at offset "
                                                      f"{e.start})")]) from None
    return parse_json(text, source)


def read_text(path: str | os.PathLike[str], what: str = "an ncu CSV") -> str:
    """A profiler's text output, bounded like every other input."""
    return read_limited(path, str(path), what, ".csv").decode("utf-8", errors="replace")


def _case_problems(case: Any, path: str, measured: bool) -> list[Problem]:
    if not isinstance(case, dict):
        return [Problem(path, f"a case is an object with id, panel and section, got "
                              f"{describe(case)}")]
    out = []
    for key, kind, name in (("id", str, "text"), ("panel", str, "a panel id"),
                            ("section", dict, "an object (the panel's scenario section)")):
        if key not in case:
            out.append(Problem(join(path, key), f"missing; every case gives its {key}"))
        elif not isinstance(case[key], kind):
            out.append(Problem(join(path, key), f"expected {name}, got {describe(case[key])}"))
    if isinstance(case.get("panel"), str) and case["panel"] not in PANELS:
        out.append(Problem(join(path, "panel"), f"{describe(case['panel'])} has no measured "
                                                f"quantity (panels: {', '.join(PANELS)})"))
    numbers = ["measured"] if measured else []
    if case.get("panel") in PANELS:  # what its kernel module reads beside the section
        numbers += panel(case["panel"]).measure.case_numbers
    for key in numbers:
        value = case.get(key)
        if key not in case:
            out.append(Problem(join(path, key), "missing"))
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            out.append(Problem(join(path, key), f"expected a number, got {describe(value)}"))
        elif key != "measured" and value <= 0:
            out.append(Problem(join(path, key), f"must be positive, got {value}"))
    return out


def load_measurement(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A measurement file, its shape checked: an object with a list of ``cases`` (each with id,
    panel, section and measured), optional ``tolerance`` (a number ≥ 0) and
    ``known_disagreements`` (an object of texts)."""
    data = _json(path, "a measurement")
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise MeasureInputError(str(path), [Problem("$", f"a measurement file is a JSON object "
                                                         f"with a list of cases, got "
                                                         f"{describe(data)}")])
    cases = data.get("cases")
    if "cases" not in data:
        problems.append(Problem("cases", "missing; a measurement file lists its cases"))
    elif not isinstance(cases, list):
        problems.append(Problem("cases", f"expected a list of cases, got {describe(cases)}"))
    else:
        for i, case in enumerate(cases):
            problems += _case_problems(case, join("cases", i), measured=True)
    tol = data.get("tolerance", 0.0)
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or tol < 0:
        problems.append(Problem("tolerance", f"expected a number ≥ 0, got {describe(tol)}"))
    known = data.get("known_disagreements", {})
    if not isinstance(known, dict) or not all(isinstance(v, str) for v in known.values()):
        problems.append(Problem("known_disagreements", "expected an object of case id → "
                                                       "explanation (text)"))
    if problems:
        raise MeasureInputError(str(path), problems)
    return data


def load_cases(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The cases of ``gpuviz measure import`` (``case.json`` beside an exported kernel): one case
    object or a list of them, each with id, panel and section."""
    data = _json(path, "a cases")
    cases = data if isinstance(data, list) else [data]
    problems: list[Problem] = []
    if not cases:
        problems.append(Problem("$", "no cases; give one case object or a list of them"))
    for i, case in enumerate(cases):
        problems += _case_problems(case, join("$", i) if isinstance(data, list) else "$",
                                   measured=False)
    if problems:
        raise MeasureInputError(str(path), problems)
    return cases
