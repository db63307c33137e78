"""A parameter declaration read once: each field's type taken apart, its bounds, and which
values of its record's tag it applies to."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.models.params import field_spec, field_specs
from gpuviz.models.sectors import SectorPattern, SectorsParams
from gpuviz.registry import PANELS


def test_a_field_is_described_once_with_its_type_bounds_and_default():
    permutation = field_spec(SectorPattern, "permutation")
    assert (permutation.optional, permutation.is_tuple, permutation.item.type) == (True, True, int)
    assert permutation.item.maximum == permutation.maximum and permutation.length is not None
    pattern = field_spec(SectorsParams, "pattern")
    assert pattern.record is SectorPattern and not pattern.has_default
    assert field_specs(SectorsParams) is field_specs(SectorsParams)  # cached per class


def test_pattern_fields_apply_to_their_kind_only():
    stride, index = field_spec(SectorPattern, "stride"), field_spec(SectorPattern, "index")
    assert stride.applies(SectorPattern(kind="stride")) and not index.applies(SectorPattern())
    assert index.applies(replace(SectorPattern(), kind="broadcast"))


def test_every_tag_names_a_field_of_its_record_and_one_of_its_choices():
    def records(cls, seen):
        for spec in field_specs(cls):
            inner = spec.record or (spec.item.record if spec.is_tuple else None)
            if inner is not None and inner not in seen:
                seen.add(inner)
                records(inner, seen)
        return seen

    for cls in {c for p in PANELS for c in records(p.params_type, {p.params_type})}:
        for spec in field_specs(cls):
            if spec.applies_when is not None:
                tag, values = spec.applies_when
                assert set(values) <= set(field_spec(cls, tag).choices or ()), (cls, spec.name)
