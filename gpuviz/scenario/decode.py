"""Reading JSON values into a panel's frozen parameter dataclass, and back.

The decoder is driven entirely by the dataclass, read as its field descriptions
(:func:`gpuviz.models.params.field_specs`: type, optional, minimum, maximum, choices, length).
It collects every problem with its JSON path instead of stopping at the first.
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing
from typing import Any

from gpuviz.models.params import FieldSpec, field_specs
from gpuviz.scenario.problems import Problem, describe, did_you_mean, join

BAD = object()  # what a decoder returns for a value that did not decode (its problems recorded)
MAX_INT = 2**62  # the largest whole number any setting takes (as the expression language)
_SURROGATE = re.compile("[\ud800-\udfff]")


def decode_dataclass(cls: type, value: Any, path: str, problems: list[Problem]) -> Any:
    """An instance of ``cls`` from a JSON object, or ``BAD`` after recording problems."""
    kwargs = _decode_fields(cls, value, path, problems)
    return BAD if kwargs is BAD else cls(**kwargs)


def decode_changes(current: Any, partial: Any, path: str, problems: list[Problem]) -> Any:
    """``current`` (a valid parameter dataclass) with the fields ``partial`` names decoded and
    replaced; a nested object is merged over the current value first, as a step's changes are.
    The same result as decoding ``merge(encode(current), partial)`` without decoding again the
    fields that did not change."""
    kwargs = _decode_fields(type(current), partial, path, problems, current)
    return BAD if kwargs is BAD else dataclasses.replace(current, **kwargs)


def _decode_fields(cls: type, value: Any, path: str, problems: list[Problem],
                   current: Any = None) -> Any:
    """The fields of ``cls`` that the JSON object ``value`` names, decoded (a nested object
    merged over ``current``'s value first, when ``current`` is given), or ``BAD`` after
    recording problems."""
    if not isinstance(value, dict):
        problems.append(Problem(path, f"expected an object of settings, got {describe(value)}"))
        return BAD
    fields = {f.name: f for f in field_specs(cls)}
    kwargs: dict[str, Any] = {}
    ok = True
    for key, raw in value.items():
        if key not in fields:
            problems.append(Problem(join(path, key), "unknown setting" + did_you_mean(key, fields, problems)
                                    + f" (known: {', '.join(fields)})"))
            ok = False
            continue
        if current is not None:
            old = getattr(current, key)
            if isinstance(raw, dict) and dataclasses.is_dataclass(old):
                raw = merge(encode(old), raw)
        decoded = decode_value(fields[key], raw, join(path, key), problems)
        if decoded is BAD:
            ok = False
        else:
            kwargs[key] = decoded
    return kwargs if ok else BAD


def decode_value(spec: FieldSpec, raw: Any, path: str, problems: list[Problem]) -> Any:
    """The value of the field ``spec`` describes, from JSON, or ``BAD`` after problems."""
    if raw is None:
        if spec.optional:
            return None
        problems.append(Problem(path, f"must not be null; expected {_expected(spec.type)}"))
        return BAD
    record = spec.record
    if record is not None:
        return decode_dataclass(record, raw, path, problems)
    if spec.is_tuple:
        return _decode_tuple(spec, raw, path, problems)
    return _decode_scalar(spec, raw, path, problems)


def _expected(tp: Any) -> str:
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is str:
        return "a string"
    if typing.get_origin(tp) is tuple:
        return f"a list of {_expected(typing.get_args(tp)[0])}s"
    if dataclasses.is_dataclass(tp):
        return "an object"
    return str(tp)


def _decode_scalar(spec: FieldSpec, raw: Any, path: str, problems: list[Problem]) -> Any:
    tp = spec.type
    if tp is bool:
        if not isinstance(raw, bool):
            problems.append(Problem(path, f"expected true or false, got {describe(raw)}"))
            return BAD
        return raw
    if tp is int:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or (
            isinstance(raw, float) and not raw.is_integer()
        ):
            problems.append(Problem(path, f"expected a whole number, got {describe(raw)}"))
            return BAD
        raw = int(raw)
        if abs(raw) > MAX_INT:  # no setting needs more; numpy's int64 could not hold it
            problems.append(Problem(path, f"must be within ±2**62, got {_shown(raw)}"))
            return BAD
    elif tp is float:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or (
                isinstance(raw, float) and not math.isfinite(raw)):
            problems.append(Problem(path, f"expected a number, got {describe(raw)}"))
            return BAD
        try:
            raw = float(raw)
        except OverflowError:  # an integer beyond the largest double
            problems.append(Problem(path, f"expected a number within ±1.8e308, got "
                                          f"{describe(raw)}"))
            return BAD
    elif tp is str:
        if not isinstance(raw, str):
            problems.append(Problem(path, f"expected a string, got {describe(raw)}"))
            return BAD
        if _SURROGATE.search(raw):
            problems.append(Problem(path, "holds half of a surrogate pair (U+D800…U+DFFF) on its "
                                          "own, which is not a character"))
            return BAD
    else:
        raise TypeError(f"unsupported parameter type {tp!r} at {path}")
    return raw if _in_range(raw, path, spec, problems) else BAD


def _in_range(v: Any, path: str, spec: FieldSpec, problems: list[Problem]) -> bool:
    lo, hi, choices = spec.minimum, spec.maximum, spec.choices
    if choices is not None and v not in choices:
        shown = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
        hint = did_you_mean(v, [str(c) for c in choices], problems) if isinstance(v, str) else ""
        problems.append(Problem(path, f"must be one of {shown}; got {v!r}{hint}"))
        return False
    if lo is not None and v < lo:
        problems.append(Problem(path, f"must be at least {lo}, got {_shown(v)}"))
        return False
    if hi is not None and v > hi:
        problems.append(Problem(path, f"must be at most {hi}, got {_shown(v)}"))
        return False
    return True


def _plain_ints(item: FieldSpec, raw: list[Any]) -> bool:
    """Whether every entry of ``raw`` is a whole number (not a bool, not a float) that the
    entry's bounds accept: such a list (an explicit order of 65,536 tiles) is taken at once,
    with the answer entry by entry decoding would give."""
    if item.type is not int or item.record is not None or item.choices is not None or not raw \
            or not all(type(v) is int for v in raw):
        return False
    lo, hi = min(raw), max(raw)
    return lo >= -MAX_INT and hi <= MAX_INT and (item.minimum is None or lo >= item.minimum) \
        and (item.maximum is None or hi <= item.maximum)


def _decode_tuple(spec: FieldSpec, raw: Any, path: str, problems: list[Problem]) -> Any:
    if not isinstance(raw, list):
        problems.append(Problem(path, f"expected {_expected(spec.type)}, got {describe(raw)}"))
        return BAD
    bounds = spec.length_range
    if bounds is not None:
        lo, hi = bounds
        if not lo <= len(raw) <= hi:
            want = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            problems.append(Problem(path, f"expected {want} entries, got {len(raw)}"))
            return BAD
    item = spec.item
    if _plain_ints(item, raw):
        return tuple(raw)
    items = []
    ok = True
    for i, value in enumerate(raw):
        v = decode_value(item, value, join(path, i), problems)
        ok = ok and v is not BAD
        items.append(v)
    return tuple(items) if ok else BAD


def encode(value: Any) -> Any:
    """JSON data for a parameter dataclass (all fields, defaults included)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        if all(type(v) in _PLAIN for v in value):  # a list of numbers: no element to unfold
            return list(value)
        return [encode(v) for v in value]
    return value


_PLAIN = frozenset((int, float, str, bool, type(None)))


def encode_changes(base: Any, changed: Any) -> dict[str, Any]:
    """The fields of ``changed`` that differ from ``base`` (nested objects compared deeply)."""
    a, b = encode(base), encode(changed)
    return _diff(a, b)


def _diff(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            sub = _diff(a[k], v)
            if sub:
                out[k] = sub
        elif a.get(k) != v:
            out[k] = v
    return out


def merge(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Deep merge of partial JSON ``changes`` over ``base``."""
    out = dict(base)
    for k, v in changes.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = v
    return out


def _shown(v: Any) -> str:
    """A value for a message: a huge integer as its digit count, not hundreds of digits."""
    return describe(v)[len("the number "):] if isinstance(v, (int, float)) and not (
        isinstance(v, int) and abs(v) >= 10**24) else describe(v)
