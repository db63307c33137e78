"""Load and validate scenario files.

Every way a file can be wrong becomes a :class:`ScenarioError` whose lines read
``file: json.path: message``: not UTF-8, empty, malformed JSON (with line and column), duplicate
keys, wrong types, unknown keys (with "did you mean"), values out of range, a missing or newer
format version. The bytes are read bounded (``reading.py``) and parsed strictly
(``strict_json.py``); writing a scenario is ``encode.py``, atomically (``gpuviz/atomic.py``).
"""

from __future__ import annotations

import os
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from gpuviz.keys import MAX_SELECTED, key_problem
from gpuviz.models.arch import preset_names
from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario.decode import BAD, decode_changes, decode_dataclass
from gpuviz.scenario.document import FORMAT_VERSION, Scenario, Step
from gpuviz.scenario.fields import field_problems
from gpuviz.scenario.parts import step_parts
from gpuviz.scenario.problems import Problem, ScenarioError, describe, did_you_mean, join
from gpuviz.scenario.reading import MAX_BYTES, read_limited, too_big
from gpuviz.scenario.strict_json import MAX_DIGITS, MAX_NESTING, parse_json

TOP_KEYS = ("version", "title", "description", "arch", "panels", "steps")
STEP_KEYS = ("title", "caption", "predict", "notes", "changes", "focus", "select", "parts")
MAX_STEPS = 250  # a lecture has tens; each step costs up to ~40 ms to check
# characters of a title (the scenario's, a step's: a window title, a line of the step list)
# and of a text (a description, caption, question or notes: a paragraph or a page); a step
# title of 7 million characters took the app 2.7 s and 450 MB to show, a question of 7.5
# million its veiled export 5.8 s
MAX_TITLE = 300
MAX_TEXT = 20_000
TEXT_LIMITS = {"title": (MAX_TITLE, "a title"), "description": (MAX_TEXT, "a description"),
               "caption": (MAX_TEXT, "a caption"), "predict": (MAX_TEXT, "a question"),
               "notes": (MAX_TEXT, "the notes")}


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    source = str(path)
    return loads_scenario(read_limited(path, source), source)


def loads_scenario(data: bytes | str, source: str = "<scenario>") -> Scenario:
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ScenarioError(source, [Problem("$", f"the text holds a character that is not "
                                                      f"valid Unicode (a lone surrogate at "
                                                      f"character {e.start + 1})")]) from None
    if len(data) > MAX_BYTES:
        raise ScenarioError(source, [Problem("$", too_big(len(data)))])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ScenarioError(source, [Problem("$", f"the file is not UTF-8 text (byte "
                                                  f"0x{data[e.start]:02x} at offset {e.start})")]) from None
    if not text.strip():
        raise ScenarioError(source, [Problem("$", 'the file is empty; a scenario is a JSON object '
                                                  'such as {"version": 1, "title": "…"}')])
    raw = parse_json(text, source)
    problems: list[Problem] = []
    scenario = from_json(raw, problems)
    if problems:
        raise ScenarioError(source, problems)
    return scenario



def from_json(raw: Any, problems: list[Problem]) -> Scenario:
    """A Scenario from parsed JSON, appending every problem found (returns defaults if any)."""
    if not isinstance(raw, dict):
        problems.append(Problem("$", f"a scenario is a JSON object, got {describe(raw)}"))
        return Scenario()
    version = raw.get("version")
    if "version" not in raw:
        problems.append(Problem("version", f'missing; a scenario says which format it uses, '
                                           f'e.g. "version": {FORMAT_VERSION}'))
        return Scenario()
    if isinstance(version, bool) or not isinstance(version, int):
        problems.append(Problem("version", f"expected a whole number, got {describe(version)}"))
        return Scenario()
    if version > FORMAT_VERSION:
        problems.append(Problem("version", f"this scenario uses format version {version}, newer "
                                           f"than this gpuviz reads ({FORMAT_VERSION}); "
                                           "update gpuviz to open it"))
        return Scenario()
    if version < 1:
        problems.append(Problem("version", f"format versions start at 1, got {version}"))
        return Scenario()
    raw = migrate(raw, version)

    known = frozenset(TOP_KEYS + PANEL_IDS)
    listed = (f" (scenario keys: {', '.join(TOP_KEYS)}; panel sections: "
              f"{', '.join(PANEL_IDS)})")
    for key in raw:
        if key not in known:
            problems.append(Problem(key, "unknown key"
                                    + did_you_mean(key, TOP_KEYS + PANEL_IDS, problems) + listed))
    title = _string(raw, "title", "Untitled scenario", problems)
    description = _string(raw, "description", "", problems)
    arch = _string(raw, "arch", Scenario.arch, problems)
    names = preset_names()
    if "arch" in raw and isinstance(raw["arch"], str) and arch not in names:
        problems.append(Problem("arch", f"unknown architecture {arch!r}" + did_you_mean(arch, names)
                                + f" (presets: {', '.join(names)})"))

    sections: dict[str, Any] = {}
    for pid in PANEL_IDS:
        if pid in raw:
            params = _section(pid, raw[pid], pid, problems)
            if params is not None:
                sections[pid] = params

    panels = _panels(raw, sections, problems)
    _check_scenario_arch(arch, panels, sections, problems)
    steps, step_sections = _steps(raw.get("steps", []), arch, panels, sections, problems)
    scenario = Scenario(title=title, description=description, arch=arch, panels=panels,
                        sections=MappingProxyType(sections), steps=steps,
                        _step_sections=step_sections)
    if not problems:
        _check_linked(scenario, problems)
    return scenario


def _check_linked(scenario: Scenario, problems: list[Problem]) -> None:
    """A panel that follows another (sectors follows the warp selected in launch) is checked again
    once linked, in the base and in every step's state: an expression that fails only for the
    followed warp is reported at load, with its path, never met later."""
    from gpuviz.scenario.compute import effective_params

    linked = [pid for pid in scenario.panels if panel(pid).depends_on]
    if not linked:
        return
    checked: set[str] = set()
    states = [(None, scenario)] + [(k, scenario.at_step(k)) for k in range(len(scenario.steps))]
    for k, state in states:
        for pid in linked:
            where = pid if k is None else f"steps[{k}].changes.{pid}"
            try:
                params = effective_params(state, pid)
            except Exception as exc:  # the panel followed cannot be computed in this state
                problems.append(Problem(where, f"the panel it follows cannot be computed here: "
                                               f"{exc}"))
                continue
            seen = f"{pid}:{params!r}"
            if seen in checked:
                continue
            checked.add(seen)
            for sub, message in panel(pid).problems(params):
                follows = ", ".join(panel(pid).depends_on)
                problems.append(Problem(join(where, sub) if sub else where,
                                        f"with what it follows from {follows}: {message}"))


def _check_scenario_arch(arch: str, panels: tuple[str, ...], sections: dict[str, Any],
                         problems: list[Problem]) -> None:
    """Panels that follow the scenario's architecture must accept it."""
    for pid in panels:
        params = sections.get(pid) or panel(pid).params_type()
        for message in _arch_problems(arch, pid, params):
            problems.append(Problem("arch", f"the {pid} panel follows the scenario's "
                                            f"architecture here: {message}"))


def migrate(raw: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring an older format version up to the current one (version 1 is the first)."""
    return raw


def _string(raw: dict[str, Any], key: str, default: str, problems: list[Problem]) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str):
        problems.append(Problem(key, f"expected a string, got {describe(value)}"))
        return default
    _long_text(raw, key, key, problems)
    return value


def _long_text(raw: dict[str, Any], key: str, path: str, problems: list[Problem]) -> None:
    """A problem for a text of ``raw`` longer than its limit (:data:`TEXT_LIMITS`)."""
    value, (limit, noun) = raw.get(key), TEXT_LIMITS.get(key, (0, ""))
    if isinstance(value, str) and noun and len(value) > limit:
        problems.append(Problem(path, f"is {len(value):,} characters long; {noun} has at most "
                                      f"{limit:,}"))


def decode_section(pid: str, raw: Any, path: str | None = None) -> tuple[Any | None, list[Problem]]:
    """A panel section from JSON data, checked as a scenario file's would be: the params, or
    None and the problems (paths start at ``path``, by default the panel id)."""
    problems: list[Problem] = []
    params = _section(pid, raw, path or pid, problems)
    return params, problems


def _section(pid: str, raw: Any, path: str, problems: list[Problem]) -> Any | None:
    before = len(problems)
    params = decode_dataclass(panel(pid).params_type, raw, path, problems)
    if params is BAD or len(problems) > before:
        return None
    return _checked(pid, params, path, problems)


def _section_changes(pid: str, current: Any, partial: dict[str, Any], path: str,
                     problems: list[Problem]) -> Any | None:
    """``current`` with a step's partial section applied: only the fields it names are decoded
    (the others were valid already), then the model checks the whole section."""
    before = len(problems)
    params = decode_changes(current, partial, path, problems)
    if params is BAD or len(problems) > before:
        return None
    return _checked(pid, params, path, problems)


def _checked(pid: str, params: Any, path: str, problems: list[Problem]) -> Any | None:
    found = _model_problems(pid, params)
    for sub, message in found:
        problems.append(Problem(join(path, sub) if sub else path, message))
    return None if found else params


def _model_problems(pid: str, params: Any) -> tuple[tuple[str, str], ...]:
    """The model's own checks (cached: a lecture's steps often return to an earlier state)."""
    try:
        return _cached_model_problems(pid, params)
    except TypeError:  # parameters that cannot be hashed are checked every time
        return _uncached_model_problems(pid, params)


def _uncached_model_problems(pid: str, params: Any) -> tuple[tuple[str, str], ...]:
    return tuple(panel(pid).problems(params))


_cached_model_problems = lru_cache(maxsize=256)(_uncached_model_problems)


def _arch_problems(arch: str, pid: str, params: Any) -> list[str]:
    """Why a section that follows the scenario's architecture (its own ``arch`` empty) cannot
    follow ``arch``; empty when it has its own or the model accepts it."""
    from gpuviz.scenario.compute import with_scenario_arch

    if arch not in preset_names():
        return []
    followed = with_scenario_arch(params, arch)
    if followed is params:
        return []
    return [message for _sub, message in _model_problems(pid, followed)]


def panel_problems(scenario: Scenario, pid: str) -> list[Problem]:
    """Why ``pid`` cannot be computed for ``scenario`` (a panel asked for that is not among the
    scenario's panels follows the scenario's architecture, which its model may not accept)."""
    return [Problem("arch", f"the {pid} panel follows the scenario's architecture here: {m}")
            for m in _arch_problems(scenario.arch, pid, scenario.section(pid))]


def _panels(raw: dict[str, Any], sections: dict[str, Any], problems: list[Problem]) -> tuple[str, ...]:
    if "panels" not in raw:
        return tuple(sections) or ("launch",)
    value = raw["panels"]
    if not isinstance(value, list) or not value:
        problems.append(Problem("panels", f"expected a non-empty list of panel ids, got {describe(value)}"))
        return ("launch",)
    out = []
    for i, pid in enumerate(value):
        if not isinstance(pid, str) or pid not in PANEL_IDS:
            hint = did_you_mean(pid, PANEL_IDS, problems) if isinstance(pid, str) else ""
            problems.append(Problem(join("panels", i), f"unknown panel {describe(pid)}{hint} "
                                                       f"(panels: {', '.join(PANEL_IDS)})"))
        elif pid in out:
            problems.append(Problem(join("panels", i), f"panel {pid!r} is listed twice"))
        else:
            out.append(pid)
    return tuple(out) or ("launch",)


def _steps(value: Any, arch: str, panels: tuple[str, ...], sections: dict[str, Any],
           problems: list[Problem]) -> tuple[tuple[Step, ...], tuple[Any, ...]]:
    """The steps and the sections after each. The base is validated once; a step's changes are
    decoded field by field over the state before it, and only the panels it changes are checked
    again (every expression for every lane of the new state included)."""
    if not isinstance(value, list):
        problems.append(Problem("steps", f"expected a list of steps, got {describe(value)}"))
        return (), ()
    if len(value) > MAX_STEPS:
        problems.append(Problem("steps", f"{len(value):,} steps; a scenario has at most "
                                         f"{MAX_STEPS:,}"))
        return (), ()
    steps: list[Step] = []
    states: list[Any] = []
    current = dict(sections)
    for i, raw in enumerate(value):
        path = join("steps", i)
        if not isinstance(raw, dict):
            problems.append(Problem(path, f"a step is an object with a title, got {describe(raw)}"))
            continue
        for key in raw:
            if key not in STEP_KEYS:
                problems.append(Problem(join(path, key), "unknown step key"
                                        + did_you_mean(key, STEP_KEYS, problems)
                                        + f" (step keys: {', '.join(STEP_KEYS)})"))
        if not isinstance(raw.get("title"), str):
            problems.append(Problem(join(path, "title"), "every step needs a title (a string)"))
        for key in ("title", "caption", "predict", "notes"):
            _long_text(raw, key, join(path, key), problems)
        predict = raw.get("predict", "")
        if not isinstance(predict, str):
            problems.append(Problem(join(path, "predict"), f"expected a question (a string), "
                                                           f"got {describe(predict)}"))
            predict = ""
        caption = raw.get("caption", "")
        if not isinstance(caption, str):
            problems.append(Problem(join(path, "caption"), f"expected a string, got {describe(caption)}"))
            caption = ""
        problems.extend(field_problems(caption, join(path, "caption")))
        problems.extend(field_problems(predict, join(path, "predict")))
        notes = raw.get("notes", "")
        if not isinstance(notes, str):
            problems.append(Problem(join(path, "notes"), f"expected a string, got {describe(notes)}"))
            notes = ""
        focus = raw.get("focus")
        if focus is not None and focus not in PANEL_IDS:
            problems.append(Problem(join(path, "focus"), f"unknown panel {describe(focus)}"
                                    + (did_you_mean(focus, PANEL_IDS, problems) if isinstance(focus, str) else "")))
            focus = None
        select = raw.get("select", [])
        if not isinstance(select, list):
            problems.append(Problem(join(path, "select"), 'expected a list of keys such as '
                                                          '["lane:3", "block:2"]'))
            select = []
        if len(select) > MAX_SELECTED:
            problems.append(Problem(join(path, "select"), f"lists {len(select):,} keys; a step "
                                                          f"selects at most {MAX_SELECTED}"))
            select = []
        for i, key in enumerate(select):
            why = key_problem(key)
            if why is not None:
                problems.append(Problem(join(join(path, "select"), i), why))
                select = []
                break
        parts = step_parts(raw.get("parts", []), focus or panels, join(path, "parts"), problems)
        changes = raw.get("changes", {})
        if not isinstance(changes, dict):
            problems.append(Problem(join(path, "changes"), f"expected an object of panel sections, "
                                                           f"got {describe(changes)}"))
            changes = {}
        for pid, partial in changes.items():
            cpath = join(join(path, "changes"), pid)
            if pid not in PANEL_IDS:
                problems.append(Problem(cpath, "unknown panel" + did_you_mean(pid, PANEL_IDS, problems)))
                continue
            if not isinstance(partial, dict):
                problems.append(Problem(cpath, f"expected an object of settings, got {describe(partial)}"))
                continue
            before = current.get(pid) or panel(pid).params_type()
            params = _section_changes(pid, before, partial, cpath, problems)
            if params is not None:
                arch_issues = _arch_problems(arch, pid, params) if pid in panels else []
                for message in arch_issues:
                    problems.append(Problem(cpath, f"the {pid} panel follows the scenario's "
                                                   f"architecture here: {message}"))
                if not arch_issues:
                    current[pid] = params
        title = raw.get("title")
        steps.append(Step(title=title if isinstance(title, str) else "",
                          caption=caption,
                          changes=MappingProxyType({k: MappingProxyType(v) for k, v in changes.items()
                                                    if isinstance(v, dict)}),
                          focus=focus, select=tuple(select), predict=predict,
                          notes=notes, parts=parts))
        states.append(MappingProxyType(dict(current)))
    return tuple(steps), tuple(states)


__all__ = ["MAX_BYTES", "MAX_DIGITS", "MAX_NESTING", "MAX_STEPS", "decode_section",
           "load_scenario", "loads_scenario", "panel_problems"]
