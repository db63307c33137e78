"""The bank queue model: rounds, conflicts, broadcasts and phases."""

from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.banks import BankPattern, BanksParams, BankSwizzle, compute, problems


def test_word_stride_1_is_one_round():
    r = compute(BanksParams())
    assert (r.rounds, r.conflict_degree) == (1, 1)
    assert r.bank_of_lane == tuple(range(32))


def test_column_of_a_32_wide_array_is_32_rounds_in_bank_0():
    r = compute(BanksParams(pattern=BankPattern(kind="column", row_width=32)))
    assert r.rounds == 32
    assert set(r.bank_of_lane) == {0}
    assert r.word_of_lane == tuple(32 * i for i in range(32))


def test_row_padded_to_33_is_one_round():
    r = compute(BanksParams(pattern=BankPattern(kind="column", row_width=32, padding=1)))
    assert r.rounds == 1
    assert sorted(r.bank_of_lane) == list(range(32))


def test_broadcast_of_one_word_is_one_round_and_one_group():
    r = compute(BanksParams(pattern=BankPattern(kind="broadcast", index=7)))
    assert (r.rounds, r.conflict_degree, r.distinct_words) == (1, 1, 1)
    [group] = r.broadcast_groups
    assert group.word == 7 and group.lanes == tuple(range(32))
    [slot] = r.slots
    assert slot.bank == 7 and len(slot.lanes) == 32


def test_stride_2_is_a_two_way_conflict():
    r = compute(BanksParams(pattern=BankPattern(stride=2)))
    assert r.rounds == 2
    bank0 = [s for s in r.slots if s.bank == 0]
    assert [(s.word, s.round) for s in bank0] == [(0, 1), (32, 2)]


def test_8_byte_accesses_are_served_as_two_half_warps():
    r = compute(BanksParams(access_bytes=8))
    assert r.phases == 2
    assert r.phase_lanes == ((0, 15), (16, 31))
    assert r.phase_rounds == (1, 1)
    assert r.rounds == 2
    assert r.words_of_lane[1] == (2, 3)


def test_16_byte_accesses_are_served_as_four_quarter_warps():
    r = compute(BanksParams(access_bytes=16, pattern=BankPattern(stride=2)))
    assert r.phase_lanes == ((0, 7), (8, 15), (16, 23), (24, 31))
    assert r.phase_rounds == (2, 2, 2, 2)
    assert r.conflict_degree == 2
    assert r.rounds == 8


def test_a_phase_without_active_lanes_takes_no_round():
    r = compute(BanksParams(access_bytes=8, active_lanes=tuple(range(16))))
    assert r.phase_rounds == (1, 0)
    assert r.rounds == 1


def test_swizzle_spreads_a_chunk_column_over_eight_bank_groups():
    pattern = BankPattern(kind="expression", expression="lane % 8 * 8 + 3")
    linear = compute(BanksParams(access_bytes=16, pattern=pattern))
    swizzled = compute(BanksParams(access_bytes=16, pattern=pattern,
                                   swizzle=BankSwizzle(mode="128B")))
    assert linear.phase_rounds == (8, 8, 8, 8)
    assert swizzled.phase_rounds == (1, 1, 1, 1)
    assert swizzled.bank_of_lane[:8] == (12, 8, 4, 0, 28, 24, 20, 16)


def test_problems_name_the_offending_field():
    assert problems(BanksParams(pattern=BankPattern(kind="column", column=40)))[0][0] == \
        "pattern.column"
    assert problems(BanksParams(pattern=BankPattern(kind="explicit")))[0][0] == "pattern.indices"
    [(path, msg)] = problems(BanksParams(pattern=BankPattern(kind="expression",
                                                             expression="lane ** 2")))
    assert path == "pattern.expression" and "at character 6" in msg
    bad_swizzle = BankSwizzle(mode="custom", bits=3, base=2, shift=1)
    assert problems(BanksParams(swizzle=bad_swizzle))[0][0] == "swizzle.shift"


patterns = st.one_of(
    st.builds(BankPattern, kind=st.just("stride"), stride=st.integers(0, 70),
              start=st.integers(0, 100)),
    st.builds(BankPattern, kind=st.just("column"), row_width=st.integers(1, 70),
              padding=st.integers(0, 5), column=st.just(0)),
    st.builds(BankPattern, kind=st.just("explicit"),
              indices=st.lists(st.integers(0, 200), min_size=32, max_size=32).map(tuple)),
)


@given(patterns, st.sampled_from([4, 8, 16]), st.sets(st.integers(0, 31), min_size=1),
       st.sampled_from(["none", "128B", "64B", "32B"]))
def test_rounds_are_at_least_one_and_at_most_the_distinct_words(pattern, width, lanes, mode):
    r = compute(BanksParams(access_bytes=width, pattern=pattern,
                            active_lanes=tuple(sorted(lanes)), swizzle=BankSwizzle(mode=mode)))
    assert 1 <= r.rounds <= r.distinct_words
    assert r.conflict_degree <= r.rounds
    # every active lane's words are in some slot, with the lane among its readers
    for lane in lanes:
        for word in r.words_of_lane[lane]:
            assert any(s.word == word and lane in s.lanes for s in r.slots)


def test_link_reads_through_the_swizzle_panels_mapping():
    from gpuviz.models import swizzle
    from gpuviz.models.banks import link

    shown = swizzle.compute(swizzle.SwizzleParams(swizzle=swizzle.SwizzleSpec(mode="64B")))
    p = BanksParams(follow_swizzle=True)
    linked = link(p, {"swizzle": shown})
    assert (linked.swizzle.bits, linked.swizzle.base, linked.swizzle.shift) == (2, 4, 3)
    assert link(BanksParams(), {"swizzle": shown}) == BanksParams()
