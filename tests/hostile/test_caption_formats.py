"""Caption format specs generated from the mini-language's grammar, against every kind of field:
a spec is accepted only if it formats every value of that kind (its extremes included) into a
bounded text, and what is accepted formats exactly as checked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.scenario.format_spec import (
    _SAMPLES,
    MAX_PRECISION,
    MAX_WIDTH,
    format_value,
    spec_problem,
)

KINDS = (bool, int, float, str, tuple[int, ...], tuple[float | None, ...])
sizes = st.one_of(st.none(), st.integers(0, 60), st.sampled_from([10**8, 999_999_999, 10**30]))


@st.composite
def specs(draw) -> str:
    parts = [draw(st.sampled_from(["", "<", ">", "^", "=", "*<", "0=", "{>"])),
             draw(st.sampled_from(["", "+", "-", " "])), draw(st.sampled_from(["", "z"])),
             draw(st.sampled_from(["", "#"])), draw(st.sampled_from(["", "0"]))]
    width = draw(sizes)
    parts.append("" if width is None else str(width))
    parts.append(draw(st.sampled_from(["", ",", "_"])))
    precision = draw(sizes)
    parts.append("" if precision is None else f".{precision}")
    parts.append(draw(st.sampled_from([*"bcdoxXneEfFgGs%", ""])))
    return "".join(parts)


def _values(kind) -> list:
    """Every value a field of ``kind`` may hold at its extremes (a tuple's items, None)."""
    if kind == tuple[int, ...]:
        return [(*_SAMPLES[int], *_SAMPLES[bool]), ()]
    if kind == tuple[float | None, ...]:
        return [(*_SAMPLES[float], None)]
    return list(_SAMPLES[kind])


@settings(max_examples=120, deadline=None)
@given(spec=specs(), kind=st.sampled_from(KINDS))
def test_an_accepted_spec_formats_every_value_of_its_kind_briefly(spec, kind):
    if spec_problem(spec, kind) is not None:
        return
    for value in _values(kind):
        assert len(format_value(value, spec)) <= 64 * 400


@settings(max_examples=60, deadline=None)
@given(width=st.integers(MAX_WIDTH + 1, 10**12), precision=st.integers(MAX_PRECISION + 1, 10**12),
       kind=st.sampled_from(KINDS))
def test_widths_and_precisions_past_the_bounds_are_refused(width, precision, kind):
    assert spec_problem(str(width), kind) is not None
    assert spec_problem(f".{precision}", kind) is not None
    assert spec_problem(f"{MAX_WIDTH}.{MAX_PRECISION}", float) is None


def test_type_c_is_refused_for_every_kind():
    for kind in KINDS:
        assert "type 'c'" in (spec_problem("c", kind) or "")
