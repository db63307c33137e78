"""The pipeline schedule: slot ownership, prefetch distance and the named waits."""

import itertools
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.pipeline import PipelineParams, compute, problems

DOUBLE = PipelineParams(tiles=6, buffers=2, load_time=2, compute_time=3, prefetch_distance=1)


def closed_form_time(load: float, compute_time: float, tiles: int) -> float:
    """The steady-state total with enough buffers: fill with the faster engine once, then the
    slower engine back to back for every tile."""
    return min(load, compute_time) + tiles * max(load, compute_time)


def kinds(result, kind):
    return [w for w in result.waits if w.kind == kind]


def test_one_buffer_serialises_load_and_compute():
    r = compute(replace(DOUBLE, buffers=1))
    assert r.total_time == 6 * (2 + 3)
    for prev, tile in itertools.pairwise(r.tiles):
        assert tile.load_start == prev.compute_end


def test_compute_slower_than_loading_a_loaded_tile_waits():
    r = compute(DOUBLE)
    ready = kinds(r, "tile_waits_for_compute")
    assert [(w.tile, w.start, w.end) for w in ready][:2] == [(1, 4.0, 5.0), (2, 7.0, 8.0)]
    assert all(r.tiles[w.tile].load_end == w.start and r.tiles[w.tile].compute_start == w.end
               for w in ready)


def test_loading_two_ahead_waits_for_the_slots_previous_consumer():
    r = compute(replace(DOUBLE, prefetch_distance=2))
    slot_waits = kinds(r, "load_waits_for_slot")
    first = slot_waits[0]
    assert (first.tile, first.slot, first.start, first.end) == (2, 0, 4.0, 5.0)
    # The wait ends exactly when tile 0, the slot's previous consumer, finishes computing.
    assert first.end == r.tiles[0].compute_end
    assert r.tiles[2].load_start == r.tiles[0].compute_end


def test_a_third_buffer_removes_the_slot_wait_of_tile_2():
    r = compute(replace(DOUBLE, prefetch_distance=2, buffers=3))
    assert not [w for w in kinds(r, "load_waits_for_slot") if w.tile == 2]
    assert r.tiles[2].load_start == r.tiles[1].load_end


def test_prefetch_distance_limits_how_far_loads_run_ahead():
    r = compute(replace(DOUBLE, buffers=4, prefetch_distance=1))
    for i in range(1, 6):
        assert r.tiles[i].load_start >= r.tiles[i - 1].compute_start
    assert kinds(r, "load_waits_for_prefetch")


def test_first_compute_waits_for_its_data():
    r = compute(DOUBLE)
    first = r.waits[0]
    assert (first.kind, first.tile, first.start, first.end) == ("compute_waits_for_data", 0, 0.0,
                                                                2.0)


def test_enough_buffers_closed_form_compute_bound():
    r = compute(PipelineParams(tiles=16, buffers=3, load_time=2, compute_time=3,
                               prefetch_distance=2))
    assert r.total_time == 2 + 16 * 3 == closed_form_time(2, 3, 16)


def test_closed_form_ratio_tends_to_one_as_tiles_grow():
    # load + n * max(load, compute) is the stated closed form; with a load-bound pipeline the
    # exact total is n * load + compute, and the two agree in the limit.
    ratios = []
    for n in (4, 16, 64):
        r = compute(PipelineParams(tiles=n, buffers=2, load_time=3, compute_time=2))
        ratios.append(r.total_time / (3 + n * 3))
    assert ratios == sorted(ratios)
    assert abs(ratios[-1] - 1) < 0.01


@given(st.integers(1, 40), st.integers(2, 6), st.integers(1, 6),
       st.integers(0, 9), st.integers(0, 9))
def test_enough_buffers_total_is_min_plus_n_times_max(n, buffers, distance, load, work):
    r = compute(PipelineParams(tiles=n, buffers=buffers, load_time=load, compute_time=work,
                               prefetch_distance=distance))
    assert r.total_time == closed_form_time(load, work, n)


@given(st.lists(st.integers(0, 9), min_size=1, max_size=12), st.data())
def test_schedule_respects_every_rule(loads, data):
    n = len(loads)
    computes = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))
    buffers = data.draw(st.integers(1, 4))
    distance = data.draw(st.integers(1, 4))
    r = compute(PipelineParams(tiles=n, buffers=buffers, load_times=tuple(map(float, loads)),
                               compute_times=tuple(map(float, computes)),
                               prefetch_distance=distance))
    t = r.tiles
    for i in range(n):
        assert t[i].slot == i % buffers
        assert t[i].load_end - t[i].load_start == loads[i]
        assert t[i].compute_end - t[i].compute_start == computes[i]
        assert t[i].compute_start >= t[i].load_end
        if i:
            assert t[i].load_start >= t[i - 1].load_end
            assert t[i].compute_start >= t[i - 1].compute_end
        if i >= buffers:
            assert t[i].load_start >= t[i - buffers].compute_end
        if i >= distance:
            assert t[i].load_start >= t[i - distance].compute_start
        # As soon as possible: the start equals one of its constraints.
        gates = {0.0} if i == 0 else {t[i - 1].load_end}
        if i >= buffers:
            gates.add(t[i - buffers].compute_end)
        if i >= distance:
            gates.add(t[i - distance].compute_start)
        assert t[i].load_start == max(gates)
    assert r.total_time >= r.lower_bound_time
    # Ownership bands of one slot never overlap.
    for s in range(buffers):
        bands = [(x.load_start, x.compute_end) for x in t if x.slot == s]
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(bands))


def test_per_tile_durations_must_match_the_tile_count():
    found = problems(PipelineParams(tiles=4, load_times=(1.0, 2.0)))
    assert [p for p, _ in found] == ["load_times"]
    assert "4 tiles" in found[0][1]
