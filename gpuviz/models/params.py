"""Declaring a panel's parameters once: defaults, documentation and valid ranges.

A panel's parameters are a frozen dataclass whose fields are made with :func:`param`. The same
declaration drives the scenario loader's validation, the JSON Schema, the CLI's documentation
and the dock's controls, so a range is written in exactly one place.

Supported field types: ``int``, ``float``, ``bool``, ``str`` (optionally with ``choices``),
``tuple[int, ...]`` / ``tuple[float, ...]`` / ``tuple[str, ...]`` (optionally with ``length``),
``X | None`` of any of these, a nested params dataclass, and ``tuple[Dataclass, ...]``.

Every reader of a declaration (the loader, the schema, caption fields, the form, the table
editor) reads it through :func:`field_specs`: one :class:`FieldSpec` per field, its type taken
apart once. A record tagged by a field (a pattern's ``kind``) says which of its fields apply to
which tag with ``applies_when``; the form shows only those.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple


def param(
    default: Any = dataclasses.MISSING,
    *,
    doc: str,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: Sequence[Any] | None = None,
    length: int | tuple[int, int] | None = None,
    applies_when: Mapping[str, Sequence[Any]] | None = None,
    default_factory: Callable[[], Any] | None = None,
) -> Any:
    """A dataclass field carrying its documentation and its valid range.

    ``minimum``/``maximum`` bound numbers, and each item of a tuple of numbers.
    ``choices`` lists the allowed values of a string or number (each item, for tuples).
    ``length`` fixes a tuple's length, exactly or as an inclusive (low, high) range.
    ``applies_when={"kind": ("stride",)}``: the field means something only while the record's
    ``kind`` field has one of those values (it is kept, and checked, whatever the kind).
    """
    when = None
    if applies_when is not None:
        ((tag, values),) = applies_when.items()  # one tag field per record
        when = (tag, tuple(values))
    metadata = {
        "doc": doc,
        "minimum": minimum,
        "maximum": maximum,
        "choices": tuple(choices) if choices is not None else None,
        "length": length,
        "applies_when": when,
    }
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


SCALARS = (bool, int, float, str)


class FieldSpec(NamedTuple):
    """One field of a parameter dataclass (or a tuple's item), its type taken apart. (A named
    tuple: it is defined at every start, and a frozen dataclass of a dozen fields costs several
    times as much to define.)"""

    name: str
    type: Any  # the type without ``| None``: a scalar, ``tuple[X, ...]`` or a dataclass
    optional: bool = False  # ``X | None``: null allowed (the scenario fills it in, or "automatic")
    doc: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] | None = None
    length: int | tuple[int, int] | None = None
    # (tag field, values): the field applies only while the record's tag has one of the values
    applies_when: tuple[str, tuple[Any, ...]] | None = None
    has_default: bool = False  # a declared default value (not a default_factory)
    default: Any = None
    factory: Callable[[], Any] | None = None  # the declared default_factory

    @property
    def record(self) -> type | None:
        """The nested parameter dataclass, for a field holding one."""
        tp = self.type
        return tp if isinstance(tp, type) and dataclasses.is_dataclass(tp) else None

    @property
    def is_tuple(self) -> bool:
        return typing.get_origin(self.type) is tuple

    @property
    def item(self) -> FieldSpec:
        """A tuple's item: its type, with the field's bounds and choices (not for records)."""
        optional, item_type = _optional(typing.get_args(self.type)[0])
        if isinstance(item_type, type) and dataclasses.is_dataclass(item_type):
            return FieldSpec(self.name, item_type, optional)
        return FieldSpec(self.name, item_type, optional, doc=self.doc, minimum=self.minimum,
                         maximum=self.maximum, choices=self.choices)

    @property
    def length_range(self) -> tuple[int, int] | None:
        """(low, high) entries of a tuple, inclusive, when the declaration fixes them."""
        if self.length is None:
            return None
        return (self.length, self.length) if isinstance(self.length, int) else self.length

    def applies(self, record: Any) -> bool:
        """Whether the field means something in ``record`` (the instance holding it)."""
        if self.applies_when is None:
            return True
        tag, values = self.applies_when
        return getattr(record, tag) in values


def _optional(tp: Any) -> tuple[bool, Any]:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return True, args[0]
    return False, tp


@cache
def field_specs(cls: type) -> tuple[FieldSpec, ...]:
    """The fields of the dataclass ``cls``, in declaration order (cached per class)."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        optional, inner = _optional(hints[f.name])
        meta = f.metadata
        factory = None if f.default_factory is dataclasses.MISSING else f.default_factory
        out.append(FieldSpec(f.name, inner, optional, doc=meta.get("doc", "") or "",
                             minimum=meta.get("minimum"), maximum=meta.get("maximum"),
                             choices=meta.get("choices"), length=meta.get("length"),
                             applies_when=meta.get("applies_when"),
                             has_default=f.default is not dataclasses.MISSING,
                             default=None if f.default is dataclasses.MISSING else f.default,
                             factory=factory))
    return tuple(out)


def field_spec(cls: type, name: str) -> FieldSpec:
    for spec in field_specs(cls):
        if spec.name == name:
            return spec
    raise KeyError(name)
