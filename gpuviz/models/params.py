"""Declaring a panel's parameters once: defaults, documentation and valid ranges.

A panel's parameters are a frozen dataclass whose fields are made with :func:`param`. The same
declaration drives the scenario loader's validation, the JSON Schema, the CLI's documentation
and the dock's controls, so a range is written in exactly one place.

Supported field types: ``int``, ``float``, ``bool``, ``str`` (optionally with ``choices``),
``tuple[int, ...]`` / ``tuple[float, ...]`` / ``tuple[str, ...]`` (optionally with ``length``),
``X | None`` of any of these, a nested params dataclass, and ``tuple[Dataclass, ...]``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any


def param(
    default: Any = dataclasses.MISSING,
    *,
    doc: str,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: Sequence[Any] | None = None,
    length: int | tuple[int, int] | None = None,
    default_factory: Callable[[], Any] | None = None,
) -> Any:
    """A dataclass field carrying its documentation and its valid range.

    ``minimum``/``maximum`` bound numbers, and each item of a tuple of numbers.
    ``choices`` lists the allowed values of a string or number (each item, for tuples).
    ``length`` fixes a tuple's length, exactly or as an inclusive (low, high) range.
    """
    metadata = {
        "doc": doc,
        "minimum": minimum,
        "maximum": maximum,
        "choices": tuple(choices) if choices is not None else None,
        "length": length,
    }
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)
