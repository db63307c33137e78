"""Turning model results into plain JSON values, deterministically."""

from __future__ import annotations

import dataclasses
import enum
import json
import math
from itertools import chain
from typing import Any

import numpy as np


def not_in_json(**kwargs: Any) -> Any:
    """A result field that figures draw from but the JSON output leaves out (per-cycle arrays,
    the parameters a measurement is looked up by, drawing layers): ``dataclasses.field`` with
    that mark, taking the same arguments."""
    return dataclasses.field(metadata={"json": False}, **kwargs)


def to_jsonable(value: Any) -> Any:
    """Plain JSON data for a result: dataclasses become objects, numpy values become numbers
    and lists, tuples become lists, non-finite floats become null. Fields declared with
    :func:`not_in_json` (what a figure draws from, not a documented output) are left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_jsonable(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.metadata.get("json", True)
        }
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        if all(type(v) is int for v in items):  # long per-step lists: no call per number
            return list(items)
        return [to_jsonable(v) for v in items]
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biu":  # integers and booleans are JSON as they are
            return value.tolist()
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return to_jsonable(value.item())
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"cannot turn {type(value).__name__} into JSON")


_SCALARS = {int, float, str, bool, type(None)}


def dumps(value: Any, indent: int = 2, _level: int = 0) -> str:
    """JSON text of plain data (``to_jsonable``'s output): objects and lists of objects one
    member a line, indented; a list of numbers, strings or null, or a list of such lists, on
    one line, so that per-step arrays of a long run stay short and go through the C encoder."""
    pad = " " * (indent * (_level + 1))
    if isinstance(value, dict):
        if not value:
            return "{}"
        members = ",\n".join(f"{pad}{json.dumps(str(k), ensure_ascii=False)}: "
                             f"{dumps(v, indent, _level + 1)}" for k, v in value.items())
        return "{\n" + members + "\n" + " " * (indent * _level) + "}"
    if isinstance(value, list) and value:
        kinds = set(map(type, value))
        flat = kinds <= _SCALARS or (kinds == {list} and set(
            map(type, chain.from_iterable(value))) <= _SCALARS)
        if not flat:
            items = ",\n".join(pad + dumps(v, indent, _level + 1) for v in value)
            return "[\n" + items + "\n" + " " * (indent * _level) + "]"
    return json.dumps(value, ensure_ascii=False)
