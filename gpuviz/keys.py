"""Selection keys, parsed and formatted in one place.

Every shape a user can point at carries a key: ``kind:value`` where the value is one number
(``lane:3``, ``bank:0``), several (``tile:2,5``, ``partial:1,17``) or a range (``cycles:0-199``).
Figures, docks, the document and exports read selections through these functions instead of
slicing strings. ``frame:<n>`` is the playback position, carried in the selection.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FRAME = "frame"
CYCLES = "cycles"
#: The shape of a key (the scenario schema's pattern for a step's ``select``).
KEY_PATTERN = r"^[a-z_]+:[A-Za-z0-9_,.%>\-]*$"
#: The characters a name part keeps as they are (``>`` for an edge's ``source->target``); any
#: other is written ``%XX``, its UTF-8 bytes
_NAME_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.->")
MAX_DIGITS = 18  # digits of a number in a key (every index gpuviz draws is below 2**62)
# keys one selection may name (a step's select, --select): every lane of four 64-lane warps;
# each key selected is outlined in every figure built, and 65,536 of them took 9 s to export
MAX_SELECTED = 256
_KEY = re.compile(KEY_PATTERN)
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def key_problem(text: object) -> str | None:
    """Why ``text`` is not a selection key (the whole text, no trailing newline; no number of
    more than :data:`MAX_DIGITS` digits), or None."""
    if not isinstance(text, str) or not _KEY.fullmatch(text):
        return "not a selection key such as lane:3 or tile:2,5"
    long = _LONG_NUMBER.search(text)
    if long:
        return (f"a number of {len(long.group()):,} digits; a number in a selection key has at "
                f"most {MAX_DIGITS}")
    return None


def key(kind: str, *values: int | str) -> str:
    """``key("tile", 2, 5)`` → ``"tile:2,5"``; ``key("thread", "naive", 5)`` →
    ``"thread:naive,5"``. The one way a selection key is built: numbers are written as integers
    (a numpy integer or a bool-free int alike), names as given where they are letters, digits,
    ``_``, ``.``, ``-`` and ``>``, any other character as ``%XX`` of its UTF-8 bytes
    (``key("series", "K = 4,096")`` → ``"series:K%20%3D%204%2C096"``), so that every key has
    the shape a scenario's ``select`` takes and a name's commas never read as separators."""
    parts = []
    for v in values:
        parts.append(_escaped(v) if isinstance(v, str) else str(int(v)))
    return f"{kind}:{','.join(parts)}"


def _escaped(name: str) -> str:
    return "".join(c if c in _NAME_SAFE else "".join(f"%{b:02X}" for b in c.encode("utf-8"))
                   for c in name)



def prefix(kind: str, *values: int | str) -> str:
    """The start every key of ``kind`` with these leading values shares: ``prefix("thread",
    "naive")`` → ``"thread:naive,"`` (for matching a family of keys)."""
    return key(kind, *values) + ("," if values else "")


def parse(text: str) -> tuple[str, tuple[int, ...]] | None:
    """``"tile:2,5"`` → ``("tile", (2, 5))``; None for a key whose value is not numbers."""
    kind, sep, value = text.partition(":")
    if not sep or not kind:
        return None
    try:
        return kind, tuple(int(v) for v in value.split(","))
    except ValueError:
        return None


def of_kind(selection: Iterable[str], kind: str, arity: int | None = None) -> list[tuple[int, ...]]:
    """The values of the selected keys of one kind (optionally with exactly ``arity`` numbers),
    sorted."""
    out = []
    for text in selection:
        parsed = parse(text)
        if parsed and parsed[0] == kind and (arity is None or len(parsed[1]) == arity):
            out.append(parsed[1])
    return sorted(out)


def numbers(selection: Iterable[str], kind: str) -> set[int]:
    """``{"lane:3", "lane:7"}`` → ``{3, 7}``."""
    return {v[0] for v in of_kind(selection, kind, 1)}


def frame_of(selection: Iterable[str]) -> int | None:
    """The playback frame carried by the selection; the earliest if several are present."""
    frames = [n for n in numbers(selection, FRAME) if n >= 0]
    return min(frames) if frames else None


def without_frame(selection: Iterable[str]) -> frozenset[str]:
    return frozenset(k for k in selection if not k.startswith(f"{FRAME}:"))


def at_frame(selection: Iterable[str], frame: int) -> frozenset[str]:
    """The selection with its playback position set to ``frame``."""
    return without_frame(selection) | {key(FRAME, frame)}


def cycle_window(selection: Iterable[str]) -> tuple[int, int] | None:
    """The visible cycle range ``cycles:a-b`` (inclusive), if the selection carries one."""
    for text in selection:
        kind, _, value = text.partition(":")
        if kind != CYCLES:
            continue
        head, sep, tail = value.partition("-")
        if sep and head.isdigit() and tail.isdigit() and int(head) <= int(tail):
            return int(head), int(tail)
    return None


def cycles(first: int, last: int) -> str:
    return f"{CYCLES}:{int(first)}-{int(last)}"


def without_cycles(selection: Iterable[str]) -> frozenset[str]:
    return frozenset(k for k in selection if not k.startswith(f"{CYCLES}:"))
