"""The banks model's rules measured on an H200: merged phases for 8- and 16-byte loads, stores,
ldmatrix and 1- and 2-byte elements (docs/hardware-notes.md)."""

import pytest

from gpuviz.models.banks import BankLdmatrix, BankPattern, BanksParams, compute, lane_offsets


def explicit(idx, **kw):
    return BanksParams(pattern=BankPattern(kind="explicit", indices=tuple(idx)), **kw)


def expr(e, **kw):
    return BanksParams(pattern=BankPattern(kind="expression", expression=e), **kw)


def test_pairs_of_neighbours_on_one_8_byte_element_merge_the_half_warps():
    # lanes 2k and 2k+1 read element k: 16 distinct 8-byte elements fill the 32 banks once
    r = compute(expr("lane // 2", access_bytes=8))
    assert r.merged_by == 1
    assert (r.fixed_phase_rounds, r.rounds, r.phases) == (2, 1, 1)
    assert r.phase_lanes == ((0, 31),)
    assert r.merged_lane_groups[:2] == ((0, 1), (2, 3))
    assert len(r.merged_lane_groups) == 16
    assert "XOR 1" in r.merge_reason


def test_lanes_two_apart_on_one_16_byte_element_merge_quarters_into_half_warps():
    # lane i reads element (i // 4) * 2 + i % 2: lanes i and i ^ 2 agree
    r = compute(expr("lane // 4 * 2 + lane % 2", access_bytes=16))
    assert r.merged_by == 2
    assert r.phase_lanes == ((0, 15), (16, 31))
    assert (r.fixed_phase_rounds, r.rounds) == (4, 2)


def test_mixed_pairings_keep_the_fixed_phases():
    # quads alternate aabb (i ^ 1) and abab (i ^ 2): neither holds for the whole warp
    idx = []
    for q in range(8):
        a, b = 2 * q, 2 * q + 1
        idx += [a, a, b, b] if q % 2 == 0 else [a, b, a, b]
    r = compute(explicit(idx, access_bytes=8))
    assert r.merged_by is None and r.merge_reason is None
    assert r.rounds == r.fixed_phase_rounds == 2


@pytest.mark.parametrize("x", [3, 4, 8, 16])
def test_other_partner_lanes_do_not_merge(x):
    r = compute(explicit([min(i, i ^ x) for i in range(32)], access_bytes=16))
    assert r.merged_by is None


def test_a_masked_partner_counts_as_agreeing():
    # only even lanes, lane i reading element i / 2: each lane's i ^ 1 partner is masked, and
    # each half-warp's 8 lanes read 8 consecutive 16-byte elements (128 bytes, every bank once)
    r = compute(expr("lane // 2", access_bytes=16, active_lanes=tuple(range(0, 32, 2))))
    assert r.merged_by == 1
    assert r.merged_lane_groups == tuple((i,) for i in range(0, 32, 2))
    assert r.fixed_phase_rounds == 4 and r.rounds == 2


def test_stores_never_merge():
    load = compute(expr("lane // 2", access_bytes=8))
    store = compute(expr("lane // 2", access_bytes=8, op="store"))
    assert load.rounds == 1 and store.rounds == 2 and store.merged_by is None


def test_merging_can_leave_the_count_unchanged_when_the_merged_phase_conflicts():
    # pairs on elements 0, 32: both in banks 0–1; the merged warp still needs 2 rounds per pair
    r = compute(expr("lane % 2 * 32", access_bytes=8))
    assert r.merged_by == 2  # lanes i and i ^ 2 agree
    assert (r.fixed_phase_rounds, r.rounds) == (4, 2)


def test_one_byte_elements_share_words():
    assert compute(BanksParams(access_bytes=1)).rounds == 1  # 32 bytes in 8 words
    # bytes 128 apart: 32 words, all in bank 0
    assert compute(BanksParams(access_bytes=1, pattern=BankPattern(stride=128))).rounds == 32
    # 2-byte elements two apart: words 0, 1, …, 31
    assert compute(BanksParams(access_bytes=2, pattern=BankPattern(stride=2))).rounds == 1


@pytest.mark.parametrize(("n", "pitch", "rounds"), [(1, 1, 1), (4, 1, 4), (4, 8, 32), (2, 4, 8),
                                                    (4, 9, 4), (1, 16, 8)])
def test_ldmatrix_serves_one_matrix_per_phase(n, pitch, rounds):
    # lanes 0 … 8n−1 each give one 16-byte row, rows `pitch` chunks of 16 bytes apart
    r = compute(BanksParams(op="ldmatrix", ldmatrix=BankLdmatrix(matrices=n),
                            pattern=BankPattern(stride=pitch)))
    assert r.rounds == rounds
    assert r.active_lanes == tuple(range(8 * n))
    assert r.merged_by is None


def test_ldmatrix_trans_reads_the_same_rows():
    a = compute(BanksParams(op="ldmatrix", pattern=BankPattern(stride=8)))
    b = compute(BanksParams(op="ldmatrix", ldmatrix=BankLdmatrix(trans=True),
                            pattern=BankPattern(stride=8)))
    assert a.rounds == b.rounds == 32


def test_lane_offsets_follow_the_swizzle_and_mask():
    from gpuviz.models.banks import BankSwizzle

    p = BanksParams(access_bytes=16, pattern=BankPattern(kind="column", row_width=8),
                    swizzle=BankSwizzle(mode="128B"), active_lanes=tuple(range(8)))
    off = lane_offsets(p)
    assert list(off[8:]) == [-1] * 24
    # row i, chunk 0, XORed with row i: chunk i of row i
    assert list(off[:8]) == [i * 128 + 16 * i for i in range(8)]
