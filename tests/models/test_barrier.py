"""Block barriers: the hazards each missing barrier lets through, under explicit interleavings."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.barrier import BarrierParams, compute, problems

BOTH = BarrierParams(threads=4, valid_threads=4, tiles=2, neighbour_offset=1,
                     schedule="thread_order")


def hazards(result, kind):
    return [(h.threads, h.address, h.tile) for h in result.hazards if h.kind == kind]


def test_both_barriers_thread_order_is_safe_and_reads_the_neighbours_value():
    r = compute(BOTH)
    assert r.safe and not r.hazards
    assert r.outputs == r.expected_outputs == ((2.0, 3.0, 4.0, 1.0), (6.0, 7.0, 8.0, 5.0))


def test_missing_first_barrier_reads_before_the_write():
    r = compute(replace(BOTH, first_barrier=False))
    assert not r.safe
    assert hazards(r, "read_before_write")[0] == ((0, 1), 1, 0)
    assert not hazards(r, "write_before_read")


def test_missing_second_barrier_overwrites_before_the_read():
    r = compute(replace(BOTH, second_barrier=False))
    assert hazards(r, "write_before_read") == [((2, 3), 3, 0)]
    h = r.hazards[0]
    assert (h.expected, h.seen) == (4.0, 8.0)
    assert not hazards(r, "read_before_write")


def test_round_robin_hides_the_missing_first_barrier():
    r = compute(replace(BOTH, first_barrier=False, schedule="round_robin"))
    assert r.safe


def test_explicit_picks_run_first_then_thread_order():
    r = compute(replace(BOTH, first_barrier=False, schedule="explicit", picks=(1, 0, 0)))
    ops = [(e.thread, e.op) for e in r.events[:3]]
    assert ops == [(1, "write"), (0, "write"), (0, "read")]
    assert ((0, 1), 1, 0) not in hazards(r, "read_before_write")


def test_a_pick_of_a_thread_waiting_at_a_barrier_does_nothing():
    r = compute(replace(BOTH, schedule="explicit", picks=(0, 0, 0)))
    assert r.idle_picks == 1
    assert [e.op for e in r.events[:2]] == ["write", "arrive"]


def test_out_of_range_threads_store_zeros_and_keep_the_block_safe():
    r = compute(replace(BOTH, valid_threads=3))
    assert r.safe and not r.contract_broken
    writes = [e for e in r.events if e.op == "write" and e.thread == 3]
    assert [e.value for e in writes] == [0.0, 0.0]
    assert sum(1 for e in r.events if e.op == "arrive" and e.thread == 3) == 4


def test_early_return_breaks_the_contract_and_leaves_a_slot_unwritten():
    r = compute(replace(BOTH, valid_threads=3, early_return=True))
    assert r.contract_broken and not r.safe
    assert r.returned_threads == (3,)
    assert [(h.kind, h.threads, h.address) for h in r.hazards] == \
        [("uninitialised_read", (2,), 3)] * 2


def test_barrier_releases_only_when_every_running_thread_arrived():
    r = compute(BOTH)
    arrived: set[int] = set()
    for e in r.events:
        if e.op == "arrive":
            arrived.add(e.thread)
        elif e.op == "release":
            assert arrived == {0, 1, 2, 3}
            arrived = set()


@given(st.integers(2, 8), st.integers(1, 3), st.lists(st.integers(0, 7), max_size=60),
       st.data())
def test_with_both_barriers_every_interleaving_is_safe(threads, tiles, picks, data):
    offset = data.draw(st.integers(1, threads - 1))
    picks = tuple(p % threads for p in picks)
    r = compute(BarrierParams(threads=threads, valid_threads=threads, tiles=tiles,
                              neighbour_offset=offset, schedule="explicit", picks=picks))
    assert r.safe
    assert r.outputs == r.expected_outputs


@given(st.integers(2, 8), st.lists(st.integers(0, 7), max_size=60), st.booleans(),
       st.booleans())
def test_every_read_is_either_correct_or_a_reported_hazard(threads, picks, first, second):
    picks = tuple(p % threads for p in picks)
    r = compute(BarrierParams(threads=threads, valid_threads=threads, tiles=2,
                              first_barrier=first, second_barrier=second, schedule="explicit",
                              picks=picks))
    wrong = {(k, t) for k in range(2) for t in range(threads)
             if r.outputs[k][t] != r.expected_outputs[k][t]}
    reported = {(h.tile, h.threads[0]) for h in r.hazards}
    assert reported >= wrong


def test_problems_name_the_offending_field():
    bad = BarrierParams(threads=4, valid_threads=5, neighbour_offset=4, picks=(9,))
    assert [p for p, _ in problems(bad)] == ["valid_threads", "neighbour_offset", "picks"]


def test_picks_are_ignored_unless_the_schedule_is_explicit():
    assert compute(replace(BOTH, picks=(3, 3))) == compute(BOTH)
