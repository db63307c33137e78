"""Load, validate and save scenario files.

Every way a file can be wrong becomes a :class:`ScenarioError` whose lines read
``file: json.path: message``: not UTF-8, empty, malformed JSON (with line and column), duplicate
keys, wrong types, unknown keys (with "did you mean"), values out of range, a missing or newer
format version. Saving is atomic: a temporary file in the same folder, flushed, then renamed
over the target, so a crash never leaves half a scenario.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import tempfile
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gpuviz.models.arch import preset_names
from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario.decode import _BAD, decode_changes, decode_dataclass, encode, encode_changes
from gpuviz.scenario.document import FORMAT_VERSION, SELECTION_KEY, Scenario, Step
from gpuviz.scenario.fields import field_problems
from gpuviz.scenario.parts import step_parts
from gpuviz.scenario.problems import Problem, ScenarioError, describe, did_you_mean, join

TOP_KEYS = ("version", "title", "description", "arch", "panels", "steps")
STEP_KEYS = ("title", "caption", "predict", "notes", "changes", "focus", "select", "parts")
MAX_BYTES = 8 * 1024 * 1024
MAX_NESTING = 64  # lists and objects inside one another (a scenario needs about 6)
MAX_STEPS = 250  # a lecture has tens; each step costs up to ~40 ms to check
MAX_DIGITS = 400  # digits of one number literal (a double has at most 17 significant ones)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    source = str(path)
    return loads_scenario(read_limited(path, source), source)


def read_limited(path: str | os.PathLike[str], source: str | None = None) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_BYTES`, or a ScenarioError. Never reads
    more than the limit (``/dev/zero`` and the like end at once), and never waits on a FIFO."""
    source = str(path) if source is None else source
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ScenarioError(source, [Problem("$", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError(source, [Problem("$", "this is a folder, not a scenario file")]) from None
    except (OSError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e)
        raise ScenarioError(source, [Problem("$", f"cannot read the file ({why})")]) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ScenarioError(source, [Problem("$", "this is a folder, not a scenario file")])
        if not stat.S_ISREG(info.st_mode):
            raise ScenarioError(source, [Problem("$", f"this is {_file_kind(info.st_mode)}, not a "
                                                      "regular file; a scenario is a .json file")])
        if info.st_size > MAX_BYTES:
            raise ScenarioError(source, [Problem("$", _too_big(info.st_size))])
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_BYTES:  # it grew while being read
            raise ScenarioError(source, [Problem("$", _too_big(total, "at least "))])
        return b"".join(chunks)
    except OSError as e:
        raise ScenarioError(source, [Problem("$", f"cannot read the file ({e.strerror})")]) from None
    finally:
        os.close(fd)


def _too_big(size: int, prefix: str = "") -> str:
    return f"the file is {prefix}{size:,} bytes; a scenario is at most {MAX_BYTES:,} bytes"


def _file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def loads_scenario(data: bytes | str, source: str = "<scenario>") -> Scenario:
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ScenarioError(source, [Problem("$", f"the text holds a character that is not "
                                                      f"valid Unicode (a lone surrogate at "
                                                      f"character {e.start + 1})")]) from None
    if len(data) > MAX_BYTES:
        raise ScenarioError(source, [Problem("$", _too_big(len(data)))])
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


def parse_json(text: str, source: str) -> Any:
    """JSON data from ``text``, or a ScenarioError at the line and column of the first fault.
    Beyond plain JSON syntax: no duplicate keys, no NaN or Infinity, no number that does not fit
    a float or has more than :data:`MAX_DIGITS` digits, nothing nested deeper than
    :data:`MAX_NESTING` (checked before parsing, so the parser never recurses that deep)."""
    deep = _too_deep_at(text)
    if deep is not None:
        raise ScenarioError(source, [Problem(_position(text, deep), f"lists and objects are "
                                             f"nested more than {MAX_NESTING} deep")])
    try:
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                         parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as e:
        raise ScenarioError(source, [Problem(f"line {e.lineno}, column {e.colno}",
                                             f"this is not valid JSON: {e.msg}")]) from None
    except _DuplicateKey as e:
        raise ScenarioError(source, [Problem("$", str(e))]) from None
    except _BadNumber as e:
        at = _find_number(_blank_strings(text), e.literal)
        raise ScenarioError(source, [Problem(_position(text, at), e.reason)]) from None
    except RecursionError:  # not reached after the nesting check; kept as a last guard
        raise ScenarioError(source, [Problem("$", "lists and objects are nested too deeply")]) \
            from None
    if _MAYBE_SURROGATE.search(text):
        found = _lone_surrogate(raw, "$")
        if found is not None:
            raise ScenarioError(source, [Problem(found, "a \\u escape names half of a surrogate "
                                                        "pair (U+D800…U+DFFF) on its own, which is "
                                                        "not a character")])
    return raw


_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _lone_surrogate(node: Any, path: str) -> str | None:
    """The path of the first string (or key) holding a lone surrogate, or None."""
    if isinstance(node, str):
        return path if _SURROGATE.search(node) else None
    if isinstance(node, dict):
        for k, v in node.items():
            if _SURROGATE.search(k):
                return join(path, k)
            found = _lone_surrogate(v, join(path, k))
            if found is not None:
                return found
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found = _lone_surrogate(v, join(path, i))
            if found is not None:
                return found
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _blank_strings(text: str) -> str:
    """``text`` with every string literal's contents replaced by spaces (same length), so that
    brackets and words inside strings are not mistaken for structure."""
    if '"' not in text:
        return text
    return _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


def _too_deep_at(text: str) -> int | None:
    """The offset where nesting first exceeds :data:`MAX_NESTING`, or None."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None
    blanked = _blank_strings(text)
    import numpy as np

    codes = np.frombuffer(blanked.encode("utf-32-le"), dtype=np.uint32)
    step = (np.isin(codes, (ord("["), ord("{"))).astype(np.int32)
            - np.isin(codes, (ord("]"), ord("}"))).astype(np.int32))
    depth = np.cumsum(step)
    over = np.flatnonzero(depth > MAX_NESTING)
    return int(over[0]) if len(over) else None


def _position(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


class _BadNumber(ValueError):
    def __init__(self, literal: str, reason: str):
        super().__init__(reason)
        self.literal = literal
        self.reason = reason


def _int(literal: str) -> int:
    if len(literal) <= MAX_DIGITS:
        return int(literal)
    digits = len(literal.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _BadNumber(literal, f"this number has {digits:,} digits; numbers in a scenario "
                                  f"have at most {MAX_DIGITS}")
    return int(literal)


def _float(literal: str) -> float:
    if len(literal) > MAX_DIGITS + 20:
        raise _BadNumber(literal, f"this number is {len(literal):,} characters long; numbers in "
                                  f"a scenario have at most {MAX_DIGITS} digits")
    value = float(literal)
    if not math.isfinite(value):
        raise _BadNumber(literal, f"the number {literal} is too large to represent "
                                  "(beyond ±1.8e308)")
    return value


def _find_number(blanked: str, literal: str) -> int:
    """Where ``literal`` (a number, NaN or Infinity) first stands as a value, not inside a word
    or a string; 0 when it cannot be found."""
    pattern = re.compile(r"(?<![\w.+-])" + re.escape(literal) + r"(?![\w.])")
    found = pattern.search(blanked)
    return found.start() if found else 0


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
    raise _BadNumber(name, f"this is not valid JSON: {name} is not a JSON number")


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
    return value


def decode_section(pid: str, raw: Any, path: str | None = None) -> tuple[Any | None, list[Problem]]:
    """A panel section from JSON data, checked as a scenario file's would be: the params, or
    None and the problems (paths start at ``path``, by default the panel id)."""
    problems: list[Problem] = []
    params = _section(pid, raw, path or pid, problems)
    return params, problems


def _section(pid: str, raw: Any, path: str, problems: list[Problem]) -> Any | None:
    before = len(problems)
    params = decode_dataclass(panel(pid).params_type, raw, path, problems)
    if params is _BAD or len(problems) > before:
        return None
    return _checked(pid, params, path, problems)


def _section_changes(pid: str, current: Any, partial: dict[str, Any], path: str,
                     problems: list[Problem]) -> Any | None:
    """``current`` with a step's partial section applied: only the fields it names are decoded
    (the others were valid already), then the model checks the whole section."""
    before = len(problems)
    params = decode_changes(current, partial, path, problems)
    if params is _BAD or len(problems) > before:
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
    check = getattr(panel(pid).model, "problems", None)
    return tuple(check(params)) if check is not None else ()


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
        if not isinstance(select, list) or not all(isinstance(s, str) and SELECTION_KEY.match(s)
                                                   for s in select):
            problems.append(Problem(join(path, "select"), 'expected a list of keys such as '
                                                          '["lane:3", "block:2"]'))
            select = []
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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash never leaves half a file, and nothing the user
    owns is lost:

    - a symbolic link stays a link: its target is written (the link's folder never gets a copy);
    - an existing file keeps its permission bits, owner and group (as far as this user may);
    - a new file gets the permissions the umask allows (0644 with the usual umask);
    - the data goes to a temporary file beside the target, is flushed and fsynced, renamed over
      the target, and the folder is fsynced so the rename itself survives a crash;
    - a file with several hard links is rewritten in place, so that every link keeps seeing the
      one file (a rename would split them): the new content is written and fsynced to a
      temporary file first (kept if the in-place write is interrupted), the space is reserved,
      then the file is overwritten, truncated and fsynced;
    - never inside the installed gpuviz package (the bundled scenarios and resources).
    """
    target = Path(os.path.realpath(path))
    refuse_package_target(target)
    try:
        existing: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        existing = None
    if existing is not None and stat.S_ISREG(existing.st_mode) and existing.st_nlink > 1:
        _write_in_place(target, data)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        if existing is not None and stat.S_ISREG(existing.st_mode):
            os.fchmod(fd, stat.S_IMODE(existing.st_mode))
            _keep_owner(fd, existing)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_folder(target.parent)


def _keep_owner(fd: int, existing: os.stat_result) -> None:
    if (existing.st_uid, existing.st_gid) == (os.getuid(), os.getgid()):
        return
    for uid, gid in ((existing.st_uid, existing.st_gid), (-1, existing.st_gid)):
        try:
            os.fchown(fd, uid, gid)
            return
        except OSError:  # only root gives a file away; a member of its group may keep the group
            continue


def _write_in_place(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    with open(target, "r+b") as f:
        if hasattr(os, "posix_fallocate") and data:
            try:
                os.posix_fallocate(f.fileno(), 0, len(data))  # no ENOSPC half-way through
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, getattr(errno, "ENOTSUP", -1)):
                    os.unlink(tmp)
                    raise
        f.write(data)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())
    os.unlink(tmp)
    _fsync_folder(target.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder
        pass
    finally:
        os.close(fd)


def package_folders() -> list[Path]:
    """The installed folders that gpuviz reads and must never write: its bundled scenarios and
    resources."""
    from importlib import resources

    out = []
    for name in ("gpuviz.scenarios", "gpuviz.resources"):
        try:
            out.append(Path(os.path.realpath(str(resources.files(name)))))
        except (ModuleNotFoundError, TypeError, OSError):
            continue
    return out


def refuse_package_target(target: Path) -> None:
    """PermissionError when ``target`` (resolved) lies inside :func:`package_folders`."""
    resolved = Path(os.path.realpath(target))
    for folder in package_folders():
        if resolved == folder or folder in resolved.parents:
            raise PermissionError(errno.EACCES, "this is inside the installed gpuviz package "
                                                "(its bundled files are read-only); save a copy "
                                                "in another folder", str(target))


__all__ = ["decode_section", "dumps_scenario", "encode_changes", "load_scenario", "loads_scenario",
           "save_scenario", "to_json", "write_atomic"]
