"""Load, validate and save scenario files.

Every way a file can be wrong becomes a :class:`ScenarioError` whose lines read
``file: json.path: message``: not UTF-8, empty, malformed JSON (with line and column), duplicate
keys, wrong types, unknown keys (with "did you mean"), values out of range, a missing or newer
format version. Saving is atomic: a temporary file in the same folder, flushed, then renamed
over the target, so a crash never leaves half a scenario.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gpuviz.models.arch import preset_names
from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario.decode import _BAD, decode_dataclass, encode, encode_changes, merge
from gpuviz.scenario.document import FORMAT_VERSION, SELECTION_KEY, Scenario, Step
from gpuviz.scenario.fields import field_problems
from gpuviz.scenario.problems import Problem, ScenarioError, describe, did_you_mean, join

TOP_KEYS = ("version", "title", "description", "arch", "panels", "steps")
STEP_KEYS = ("title", "caption", "predict", "notes", "changes", "focus", "select")
MAX_BYTES = 8 * 1024 * 1024


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ScenarioError(source, [Problem("$", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError(source, [Problem("$", "this is a folder, not a scenario file")]) from None
    except OSError as e:
        raise ScenarioError(source, [Problem("$", f"cannot read the file ({e.strerror})")]) from None
    return loads_scenario(data, source)


def loads_scenario(data: bytes | str, source: str = "<scenario>") -> Scenario:
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise ScenarioError(source, [Problem("$", f"the file is {len(data):,} bytes; a scenario "
                                                      f"is at most {MAX_BYTES:,} bytes")])
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ScenarioError(source, [Problem("$", f"the file is not UTF-8 text (byte "
                                                      f"0x{data[e.start]:02x} at offset {e.start})")]) from None
    else:
        text = data
    if not text.strip():
        raise ScenarioError(source, [Problem("$", 'the file is empty; a scenario is a JSON object '
                                                  'such as {"version": 1, "title": "…"}')])
    try:
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ScenarioError(source, [Problem(f"line {e.lineno}, column {e.colno}",
                                             f"this is not valid JSON: {e.msg}")]) from None
    except _DuplicateKey as e:
        raise ScenarioError(source, [Problem("$", str(e))]) from None
    problems: list[Problem] = []
    scenario = from_json(raw, problems)
    if problems:
        raise ScenarioError(source, problems)
    return scenario


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(f'the key "{k}" appears twice in one object')
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


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

    known = TOP_KEYS + PANEL_IDS
    for key in raw:
        if key not in known:
            problems.append(Problem(key, "unknown key" + did_you_mean(key, known)
                                    + f" (scenario keys: {', '.join(TOP_KEYS)}; panel sections: "
                                      f"{', '.join(PANEL_IDS)})"))
    title = _string(raw, "title", "Untitled scenario", problems)
    description = _string(raw, "description", "", problems)
    arch = _string(raw, "arch", Scenario.arch, problems)
    names = preset_names()
    if "arch" in raw and isinstance(raw["arch"], str) and arch not in names:
        problems.append(Problem("arch", f"unknown architecture {arch!r}" + did_you_mean(arch, names)
                                + f" (presets: {', '.join(names)})"))

    sections: dict[str, Any] = {}
    section_json: dict[str, dict[str, Any]] = {}
    for pid in PANEL_IDS:
        if pid in raw:
            params = _section(pid, raw[pid], pid, problems)
            if params is not None:
                sections[pid] = params
                section_json[pid] = encode(params)

    panels = _panels(raw, sections, problems)
    _check_scenario_arch(arch, panels, sections, problems)
    steps, step_sections = _steps(raw.get("steps", []), sections, section_json, problems)
    return Scenario(title=title, description=description, arch=arch, panels=panels,
                    sections=MappingProxyType(sections), steps=steps, _step_sections=step_sections)


def _check_scenario_arch(arch: str, panels: tuple[str, ...], sections: dict[str, Any],
                         problems: list[Problem]) -> None:
    """Panels that follow the scenario's architecture must accept it."""
    from gpuviz.scenario.compute import with_scenario_arch

    if arch not in preset_names():
        return
    for pid in panels:
        params = sections.get(pid) or panel(pid).params_type()
        followed = with_scenario_arch(params, arch)
        if followed is params:
            continue
        for _sub, message in panel(pid).problems(followed):
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
    return value


def decode_section(pid: str, raw: Any, path: str | None = None) -> tuple[Any | None, list[Problem]]:
    """A panel section from JSON data, checked as a scenario file's would be: the params, or
    None and the problems (paths start at ``path``, by default the panel id)."""
    problems: list[Problem] = []
    params = _section(pid, raw, path or pid, problems)
    return params, problems


def _section(pid: str, raw: Any, path: str, problems: list[Problem]) -> Any | None:
    p = panel(pid)
    before = len(problems)
    params = decode_dataclass(p.params_type, raw, path, problems)
    if params is _BAD or len(problems) > before:
        return None
    for sub, message in p.problems(params):
        problems.append(Problem(join(path, sub) if sub else path, message))
    return params if len(problems) == before else None


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
            hint = did_you_mean(pid, PANEL_IDS) if isinstance(pid, str) else ""
            problems.append(Problem(join("panels", i), f"unknown panel {describe(pid)}{hint} "
                                                       f"(panels: {', '.join(PANEL_IDS)})"))
        elif pid in out:
            problems.append(Problem(join("panels", i), f"panel {pid!r} is listed twice"))
        else:
            out.append(pid)
    return tuple(out) or ("launch",)


def _steps(value: Any, sections: dict[str, Any], section_json: dict[str, dict[str, Any]],
           problems: list[Problem]) -> tuple[tuple[Step, ...], tuple[Any, ...]]:
    if not isinstance(value, list):
        problems.append(Problem("steps", f"expected a list of steps, got {describe(value)}"))
        return (), ()
    steps: list[Step] = []
    states: list[Any] = []
    current = dict(sections)
    current_json = {k: dict(v) for k, v in section_json.items()}
    for i, raw in enumerate(value):
        path = join("steps", i)
        if not isinstance(raw, dict):
            problems.append(Problem(path, f"a step is an object with a title, got {describe(raw)}"))
            continue
        for key in raw:
            if key not in STEP_KEYS:
                problems.append(Problem(join(path, key), "unknown step key"
                                        + did_you_mean(key, STEP_KEYS)
                                        + f" (step keys: {', '.join(STEP_KEYS)})"))
        if not isinstance(raw.get("title"), str):
            problems.append(Problem(join(path, "title"), "every step needs a title (a string)"))
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
                                    + (did_you_mean(focus, PANEL_IDS) if isinstance(focus, str) else "")))
            focus = None
        select = raw.get("select", [])
        if not isinstance(select, list) or not all(isinstance(s, str) and SELECTION_KEY.match(s)
                                                   for s in select):
            problems.append(Problem(join(path, "select"), 'expected a list of keys such as '
                                                          '["lane:3", "block:2"]'))
            select = []
        changes = raw.get("changes", {})
        if not isinstance(changes, dict):
            problems.append(Problem(join(path, "changes"), f"expected an object of panel sections, "
                                                           f"got {describe(changes)}"))
            changes = {}
        for pid, partial in changes.items():
            cpath = join(join(path, "changes"), pid)
            if pid not in PANEL_IDS:
                problems.append(Problem(cpath, "unknown panel" + did_you_mean(pid, PANEL_IDS)))
                continue
            if not isinstance(partial, dict):
                problems.append(Problem(cpath, f"expected an object of settings, got {describe(partial)}"))
                continue
            base = current_json.get(pid) or encode(panel(pid).params_type())
            merged = merge(base, partial)
            params = _section(pid, merged, cpath, problems)
            if params is not None:
                current[pid] = params
                current_json[pid] = encode(params)
        title = raw.get("title")
        steps.append(Step(title=title if isinstance(title, str) else "",
                          caption=caption,
                          changes=MappingProxyType({k: MappingProxyType(v) for k, v in changes.items()
                                                    if isinstance(v, dict)}),
                          focus=focus, select=tuple(select), predict=predict,
                          notes=notes))
        states.append(MappingProxyType(dict(current)))
    return tuple(steps), tuple(states)


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
        out["steps"] = [_step_json(s) for s in scenario.steps]
    return out


def _step_json(step: Step) -> dict[str, Any]:
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
    """Write atomically: a temporary file beside the target, fsync, then rename over it."""
    write_atomic(Path(path), dumps_scenario(scenario).encode("utf-8"))


def write_atomic(path: Path, data: bytes) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


__all__ = ["decode_section", "dumps_scenario", "encode_changes", "load_scenario", "loads_scenario",
           "save_scenario", "to_json", "write_atomic"]
