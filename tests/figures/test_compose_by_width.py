"""composition.by_width: a width's blocks built once for a composition, as far as they were
taken (a design given up early builds nothing more), and asked again where building raised."""

from __future__ import annotations

import pytest

from gpuviz.figures.composition import by_width


def test_a_width_is_built_once_and_replayed_as_far_as_taken():
    made: list[tuple[float, int]] = []

    def blocks(width):
        for i in range(3):
            made.append((width, i))
            yield (width, i)

    kept = by_width(blocks)
    first = kept(10.0)
    assert next(first) == (10.0, 0)  # given up after one block: one built
    assert made == [(10.0, 0)]
    assert list(kept(10.0)) == [(10.0, 0), (10.0, 1), (10.0, 2)]
    assert list(kept(10.0)) == [(10.0, 0), (10.0, 1), (10.0, 2)]
    assert made == [(10.0, i) for i in range(3)]  # each built once
    assert list(kept(20.0)) == [(20.0, 0), (20.0, 1), (20.0, 2)]
    assert len(made) == 6


def test_a_width_whose_building_raised_is_built_again():
    calls = []

    def blocks(width):
        calls.append(width)
        yield "a"
        if len(calls) == 1:
            raise ValueError("crowded")
        yield "b"

    kept = by_width(blocks)
    with pytest.raises(ValueError):
        list(kept(5.0))
    assert list(kept(5.0)) == ["a", "b"]
    assert calls == [5.0, 5.0]
