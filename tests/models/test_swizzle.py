"""The XOR swizzle model: the mapping's laws and the readers' banks."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.swizzle import (
    PRESETS,
    SwizzleParams,
    SwizzleSpec,
    compute,
    problems,
    swizzle_offsets,
)


def test_seed_formula_is_the_128b_preset():
    offsets = np.arange(1024)
    assert np.array_equal(swizzle_offsets(offsets, *PRESETS["128B"]),
                          offsets ^ ((offsets & 0x380) >> 3))
    assert compute(SwizzleParams()).formula == "physical = offset ^ ((offset & 0x380) >> 3)"


def test_chunk_column_is_xored_with_the_row():
    r = compute(SwizzleParams())
    assert r.mapping == tuple(tuple(c ^ row for c in range(8)) for row in range(8))


def test_first_word_of_column_3_is_bank_12_linear_and_8_banks_swizzled():
    r = compute(SwizzleParams(column=3))
    assert r.linear_banks == (12,) * 8
    assert r.swizzled_banks == (12, 8, 4, 0, 28, 24, 20, 16)
    assert (r.distinct_linear, r.distinct_swizzled) == (1, 8)


def test_64b_and_32b_modes_give_4_and_2_distinct_banks():
    assert compute(SwizzleParams(swizzle=SwizzleSpec(mode="64B"))).distinct_swizzled == 4
    assert compute(SwizzleParams(swizzle=SwizzleSpec(mode="32B"))).distinct_swizzled == 2
    assert compute(SwizzleParams(swizzle=SwizzleSpec(mode="none"))).distinct_swizzled == 1


def test_problems_reject_overlapping_or_chunk_splitting_swizzles():
    assert problems(SwizzleParams(swizzle=SwizzleSpec(mode="custom", bits=3, base=4, shift=2)))
    assert problems(SwizzleParams(swizzle=SwizzleSpec(mode="custom", bits=2, base=3, shift=3)))
    assert problems(SwizzleParams(swizzle=SwizzleSpec(mode="custom", bits=3, base=4, shift=4)))
    assert problems(SwizzleParams(swizzle=SwizzleSpec(mode="custom", bits=2, base=4, shift=4))) \
        == []


@settings(deadline=None)
@given(st.integers(0, 4), st.integers(0, 6), st.integers(0, 4), st.integers(0, 12))
def test_every_swizzle_is_a_bijection_and_an_involution(bits, base, extra, region_bits):
    shift = bits + extra
    size = 1 << (bits + base + shift + 1)
    offsets = np.arange(size, dtype=np.int64) + (region_bits << 20)
    phys = swizzle_offsets(offsets, bits, base, shift)
    assert np.array_equal(np.sort(phys), offsets)
    assert np.array_equal(swizzle_offsets(phys, bits, base, shift), offsets)


@given(st.sampled_from(["128B", "64B", "32B", "none"]), st.integers(0, 7), st.integers(0, 3))
def test_presets_keep_row_and_low_bits(mode, column, word):
    r = compute(SwizzleParams(swizzle=SwizzleSpec(mode=mode), column=column, word=word))
    assert r.keeps_row_and_low_bits and r.bijection and r.involution
    assert all(o // 128 == row for o, row in zip(r.swizzled_offsets, range(8), strict=True))
