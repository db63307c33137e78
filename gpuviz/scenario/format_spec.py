"""The format specifications a caption field may carry (``{launch.n:,}``, ``{pipeline.load_time:.1f}``).

A spec is Python's format-specification mini-language (Python Language Reference, *Format
Specification Mini-Language*), restricted so that no value a field can hold formats to more
than a caption line's worth of text, and no value raises:

- the width is at most :data:`MAX_WIDTH` and the precision at most :data:`MAX_PRECISION`
  (``{launch.n:999999999}`` would otherwise allocate a gigabyte);
- the presentation type must apply to every kind of value the field can hold (an integer field
  takes ``d``, ``x``, ``,`` …; a float field ``f``, ``e``, ``g``, ``%``; text ``s``); a field that
  may be empty (null) is written ``None`` whatever its spec; ``c`` (the character with that code)
  is refused: no field holds character codes, and most integers are none.

:func:`spec_problem` checks a spec against the kinds of value a field can hold; :func:`format_value`
formats exactly as checked.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from typing import Any

MAX_WIDTH = 40  # characters a field's value may be padded to
MAX_PRECISION = 20  # digits after the point (a double has 17 significant ones)
MAX_ITEMS = 64  # items of a tuple a caption writes (a warp's lanes); then "… (N values)"

_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?"
                   r"(?P<zero>0)?(?P<width>\d+)?(?P<grouping>[,_])?(?:\.(?P<precision>\d+))?"
                   r"(?P<type>[a-zA-Z%])?", re.DOTALL)
INT_TYPES = frozenset("bdoxXn")
FLOAT_TYPES = frozenset("eEfFgGn%")
TEXT_TYPES = frozenset("s")

#: Values of each kind that a check formats: the extremes a field of that kind can hold.
_SAMPLES: dict[type, tuple[Any, ...]] = {
    bool: (True, False),
    int: (0, -(1 << 62), 1 << 62),
    float: (0.0, -1.7976931348623157e308, 5e-324, float("inf"), float("nan")),
    str: ("", "a"),
}


def spec_problem(spec: str, tp: Any) -> str | None:
    """Why ``spec`` cannot format every value of type ``tp`` (a field's declared type), or None."""
    m = _SPEC.fullmatch(spec)
    if m is None:
        return "not a format specification such as ',', '.2f' or '>8'"
    width, precision, kind = m.group("width"), m.group("precision"), m.group("type")
    if width is not None and int(width) > MAX_WIDTH:
        return f"a width of {int(width):,}; a field is padded to at most {MAX_WIDTH} characters"
    if precision is not None and int(precision) > MAX_PRECISION:
        return f"a precision of {int(precision):,}; a field has at most {MAX_PRECISION} digits"
    if kind == "c":
        return "type 'c' writes the character with that code; no field holds character codes"
    kinds = value_kinds(tp)
    for k in kinds:
        allowed = {int: INT_TYPES | FLOAT_TYPES, bool: INT_TYPES | FLOAT_TYPES,
                   float: FLOAT_TYPES, str: TEXT_TYPES}.get(k)
        if allowed is None:
            return "this field holds a group of settings; write it without a format"
        if kind is not None and kind not in allowed:
            return f"type {kind!r} does not apply to {_NAMES[k]}"
        for sample in _SAMPLES[k]:
            try:
                format_value(sample, spec)
            except (ValueError, TypeError, OverflowError) as e:
                return f"for {_NAMES[k]}: {e}"
    return None


_NAMES = {bool: "a yes/no value", int: "a whole number", float: "a number", str: "text"}


def value_kinds(tp: Any) -> set[type]:
    """The kinds of scalar a field of type ``tp`` holds (a tuple's items, a union's members;
    ``None`` left out: it is written ``None``)."""
    origin = typing.get_origin(tp)
    if origin is tuple or origin is list:
        return set().union(*(value_kinds(a) for a in typing.get_args(tp) if a is not Ellipsis))
    if origin is typing.Union or type(tp).__name__ == "UnionType":
        return set().union(*(value_kinds(a) for a in typing.get_args(tp)))
    if tp is type(None):
        return set()
    if tp in _SAMPLES:
        return {tp}
    if isinstance(tp, type) and issubclass(tp, (int, float, str)):
        return {next(k for k in (bool, int, float, str) if issubclass(tp, k))}
    return {object}


def format_value(value: Any, spec: str) -> str:
    """``value`` as a caption writes it: a tuple's items joined by ``×`` (each with the spec; the
    first :data:`MAX_ITEMS`, then how many there are), a whole float without a spec as an
    integer, ``None`` as ``None``."""
    if isinstance(value, (tuple, list)):
        shown = "×".join(format_value(v, spec) for v in value[:MAX_ITEMS])
        return shown if len(value) <= MAX_ITEMS else f"{shown}×… ({len(value):,} values)"
    if value is None or dataclasses.is_dataclass(value):
        return str(value)
    if hasattr(value, "item") and not isinstance(value, (int, float, str)):
        value = value.item()  # a numpy scalar in a result
    if not spec and isinstance(value, float) and value.is_integer():
        return str(int(value))
    return format(value, spec)
