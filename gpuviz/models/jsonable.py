"""Turning model results into plain JSON values, deterministically."""

from __future__ import annotations

import dataclasses
import enum
import math
from typing import Any

import numpy as np


def to_jsonable(value: Any) -> Any:
    """Plain JSON data for a result: dataclasses become objects, numpy values become numbers
    and lists, tuples become lists, non-finite floats become null. Private fields (leading
    underscore) are left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_jsonable(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not f.name.startswith("_")
        }
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [to_jsonable(v) for v in items]
    if isinstance(value, np.ndarray):
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
