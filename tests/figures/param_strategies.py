"""Hypothesis strategies for a panel's parameters, read from the model's own declaration
(:func:`gpuviz.models.params.field_specs`: type, bounds, choices, length, ``applies_when``).

A value the declaration cannot state (an expression, a permutation, a graph, a selection that
must lie inside the launch drawn) is given as a *shape*: a strategy, or a function of the fields
drawn before it returning one, under the field's dotted path (a record's fields shaped by a
function are drawn after its others, in declaration order). A *cap*
lowers a field's maximum (or a tuple's most entries) to keep a test's cost down; it never widens
what the model accepts. The model's ``problems`` stays the judge of what is valid: callers
``assume`` there are none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st

from gpuviz.models.params import FieldSpec, field_spec, field_specs

Shape = st.SearchStrategy[Any] | Callable[[dict[str, Any]], st.SearchStrategy[Any]]

UNBOUNDED_INT = 1 << 16  # the most a field with no declared maximum is drawn up to (uncapped)


def params_strategy(cls: type, shapes: Mapping[str, Shape] | None = None,
                    caps: Mapping[str, float] | None = None) -> st.SearchStrategy[Any]:
    """Instances of the parameter dataclass ``cls`` within its declaration."""
    return _record(cls, "", dict(shapes or {}), dict(caps or {}))


def _record(cls: type, prefix: str, shapes: dict[str, Shape], caps: dict[str, float]):
    specs = field_specs(cls)

    @st.composite
    def draw_record(draw):
        drawn: dict[str, Any] = {}
        # fields whose shape reads others are drawn after the rest (in declaration order)
        reads = [callable(shapes.get(prefix + s.name)) and
                 not isinstance(shapes.get(prefix + s.name), st.SearchStrategy) for s in specs]
        for spec in [s for s, r in zip(specs, reads, strict=True) if not r] + \
                [s for s, r in zip(specs, reads, strict=True) if r]:
            if spec.applies_when is not None:
                tag, values = spec.applies_when
                if drawn[tag] not in values:  # the field means nothing here: its default
                    drawn[spec.name] = spec.factory() if spec.factory else spec.default
                    continue
            path = prefix + spec.name
            shape = shapes.get(path)
            if shape is not None:
                strategy = shape if isinstance(shape, st.SearchStrategy) else shape(drawn)
            else:
                strategy = _field(spec, path, shapes, caps)
            drawn[spec.name] = draw(strategy)
        return cls(**{spec.name: drawn[spec.name] for spec in specs})

    return draw_record()


def _field(spec: FieldSpec, path: str, shapes: dict[str, Shape], caps: dict[str, float]):
    if spec.record is not None:
        value = _record(spec.record, path + ".", shapes, caps)
    elif spec.is_tuple:
        item = spec.item
        low, high = spec.length_range or (0, 8)
        high = int(min(high, caps.get(path + "[]", high)))
        inner = (_record(item.record, path + "[].", shapes, caps) if item.record is not None
                 else _scalar(item, path, caps))
        value = st.lists(inner, min_size=low, max_size=max(low, high)).map(tuple)
    else:
        value = _scalar(spec, path, caps)
    return st.one_of(st.none(), value) if spec.optional else value


def _scalar(spec: FieldSpec, path: str, caps: dict[str, float]):
    if spec.choices is not None:
        return st.sampled_from(spec.choices)
    tp = spec.type
    if tp is bool:
        return st.booleans()
    if tp is int:
        low = int(spec.minimum) if spec.minimum is not None else 0
        high = int(spec.maximum) if spec.maximum is not None else low + UNBOUNDED_INT
        return st.integers(low, max(low, min(high, int(caps.get(path, high)))))
    if tp is float:
        low = spec.minimum if spec.minimum is not None else 0.0
        high = spec.maximum if spec.maximum is not None else low + UNBOUNDED_INT
        return st.floats(low, max(low, min(high, caps.get(path, high))), allow_nan=False,
                         allow_infinity=False)
    raise TypeError(f"{path}: a {tp} is not declared by bounds or choices; give it a shape")


def declared(cls: type, name: str, caps: Mapping[str, float] | None = None,
             optional: bool = False) -> st.SearchStrategy[Any]:
    """The field ``name`` of ``cls`` as its declaration draws it (never None unless
    ``optional``): what a shape builds on."""
    spec = field_spec(cls, name)
    return _field(spec._replace(optional=optional and spec.optional), name, {}, dict(caps or {}))
