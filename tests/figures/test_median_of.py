"""budget.median_of, the slide budget's median without the statistics module: the same value
as statistics.median for any list of sizes."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpuviz.figures.budget import median_of


@given(st.lists(st.one_of(st.integers(-1000, 1000),
                          st.floats(0.5, 200.0, allow_nan=False)), min_size=1, max_size=40))
def test_median_of_is_statistics_median(values):
    assert median_of(values) == statistics.median(values)


def test_no_median_of_nothing():
    with pytest.raises(ValueError):
        median_of([])
