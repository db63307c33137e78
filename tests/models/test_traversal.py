"""The traversal model: tile orders, the LRU cache experiment, the sweep and the product."""

from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.traversal import (
    SWEEP_ORDERS,
    TraversalParams,
    compute,
    grouped_order,
    hilbert_order,
    multiply_in_order,
    problems,
    request_stream,
    state_after,
    sweep,
    tile_order,
)

sizes = st.integers(1, 24)


def lru_reference(requests, capacity):
    """A plain LRU cache, one request at a time: (hit per request, resident set at the end)."""
    cache: OrderedDict[int, None] = OrderedDict()
    hits = []
    for tile in requests:
        if tile in cache:
            cache.move_to_end(tile)
            hits.append(True)
        else:
            hits.append(False)
            cache[tile] = None
            if capacity is not None and len(cache) > capacity:
                cache.popitem(last=False)
    return np.array(hits, dtype=bool), set(cache)


def triton_grouped(pid, num_pid_m, num_pid_n, group_m):
    """The grouped ordering as Triton's matmul tutorial writes it, one program id at a time."""
    num_pid_in_group = group_m * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * group_m
    group_size_m = min(num_pid_m - first_pid_m, group_m)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@given(sizes, sizes, st.sampled_from(SWEEP_ORDERS), st.integers(1, 8))
def test_every_order_visits_every_tile_exactly_once(rows, cols, name, group_m):
    order = tile_order(name, rows, cols, group_m)
    assert sorted(map(tuple, order.tolist())) == [(r, c) for r in range(rows) for c in range(cols)]


def test_hilbert_steps_to_a_4_neighbour_on_every_rectangle_up_to_24():
    for rows in range(1, 25):
        for cols in range(1, 25):
            path = hilbert_order(rows, cols)
            steps = np.abs(np.diff(path, axis=0)).sum(axis=1)
            assert np.all(steps == 1), (rows, cols)


@settings(max_examples=30)
@given(st.integers(1, 90), st.integers(1, 90))
def test_hilbert_steps_to_a_4_neighbour_on_larger_rectangles(rows, cols):
    path = hilbert_order(rows, cols)
    assert len(path) == rows * cols
    assert np.all(np.abs(np.diff(path, axis=0)).sum(axis=1) == 1)


@given(sizes, sizes, st.integers(1, 10))
def test_grouped_order_is_tritons_group_m_ordering(rows, cols, group_m):
    expected = [triton_grouped(pid, rows, cols, group_m) for pid in range(rows * cols)]
    assert list(map(tuple, grouped_order(rows, cols, group_m).tolist())) == expected


def test_row_and_column_major_orders():
    assert tile_order("row-major", 2, 3).tolist() == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1],
                                                       [1, 2]]
    assert tile_order("column-major", 2, 3).tolist() == [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2],
                                                          [1, 2]]


def test_explicit_order_must_be_a_permutation_of_every_tile():
    ok = TraversalParams(rows=2, cols=2, order="explicit", explicit=(3, 1, 0, 2))
    assert problems(ok) == []
    assert tile_order("explicit", 2, 2, explicit=(3, 1, 0, 2)).tolist() == [[1, 1], [0, 1],
                                                                           [0, 0], [1, 0]]
    for bad in ((0, 1, 2), (0, 1, 2, 2), (0, 1, 2, 4)):
        [(path, sentence)] = problems(TraversalParams(rows=2, cols=2, order="explicit",
                                                      explicit=bad))
        assert path == "explicit"
        assert "exactly once" in sentence


def test_an_explicit_list_is_ignored_when_no_order_uses_it():
    assert problems(TraversalParams(rows=2, cols=2, explicit=(9,))) == []


def test_a_tile_needs_its_a_row_panel_and_b_column_panel_k_tiles_deep():
    requests, step = request_stream(np.array([[1, 2]]), rows=3, k_tiles=2, in_flight=1)
    # A tiles are numbered row * k_tiles + kk, B tiles after all A tiles.
    assert requests.tolist() == [1 * 2 + 0, 6 + 2 * 2 + 0, 1 * 2 + 1, 6 + 2 * 2 + 1]
    assert step.tolist() == [0, 0, 0, 0]


def test_tiles_in_flight_walk_k_together_within_a_step():
    order = np.array([[0, 0], [0, 1], [1, 0]])
    requests, step = request_stream(order, rows=2, k_tiles=2, in_flight=2)
    a = lambda r, k: r * 2 + k  # noqa: E731
    b = lambda c, k: 4 + c * 2 + k  # noqa: E731
    assert requests.tolist() == [a(0, 0), b(0, 0), a(0, 0), b(1, 0),
                                 a(0, 1), b(0, 1), a(0, 1), b(1, 1),
                                 a(1, 0), b(0, 0), a(1, 1), b(0, 1)]
    assert step.tolist() == [0] * 8 + [1] * 4


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(SWEEP_ORDERS),
       st.integers(1, 5), st.integers(1, 5), st.one_of(st.none(), st.integers(1, 30)))
def test_counts_agree_with_a_plain_lru_cache(rows, cols, name, k_tiles, in_flight, capacity):
    p = TraversalParams(rows=rows, cols=cols, order=name, k_tiles=k_tiles, in_flight=in_flight,
                        capacity=capacity, sweep=False)
    r = compute(p)
    requests, step = request_stream(r.order, rows, k_tiles, in_flight)
    hits, resident = lru_reference(requests.tolist(), capacity)
    assert r.hits == int(hits.sum()) and r.misses == int((~hits).sum())
    assert r.loads_per_step.tolist() == np.bincount(step[~hits], minlength=r.steps).tolist()
    is_a = requests < rows * k_tiles
    assert r.a_loads == int((~hits & is_a).sum()) and r.b_loads == int((~hits & ~is_a).sum())
    final = state_after(r.main, rows, cols, k_tiles, in_flight, capacity, r.steps)
    got = set(np.flatnonzero(final.a_resident.ravel()).tolist())
    got |= {rows * k_tiles + c * k_tiles + k for k, c in zip(*np.nonzero(final.b_resident),
                                                              strict=True)}
    assert got == resident


@given(sizes, sizes, st.sampled_from(SWEEP_ORDERS), st.integers(1, 3))
def test_an_unbounded_cache_loads_every_tile_exactly_once(rows, cols, name, k_tiles):
    r = compute(TraversalParams(rows=rows, cols=cols, order=name, k_tiles=k_tiles,
                                capacity=None, sweep=False))
    assert r.misses == (rows + cols) * k_tiles == r.distinct_tiles
    assert r.a_loads == rows * k_tiles and r.b_loads == cols * k_tiles


@given(sizes, sizes, st.sampled_from(SWEEP_ORDERS), st.integers(1, 40))
def test_loads_add_up(rows, cols, name, capacity):
    r = compute(TraversalParams(rows=rows, cols=cols, order=name, capacity=capacity,
                                sweep=False))
    assert r.hits + r.misses == r.accesses == 2 * rows * cols
    assert r.a_loads + r.b_loads == r.misses == int(r.cumulative_loads[-1])
    assert len(r.order) == rows * cols and r.steps == rows * cols


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 4), st.integers(1, 2))
def test_sweep_misses_never_grow_with_capacity(rows, cols, in_flight, k_tiles):
    r = compute(TraversalParams(rows=rows, cols=cols, in_flight=in_flight, k_tiles=k_tiles))
    for name, misses in r.misses_by_order.items():
        assert list(misses) == sorted(misses, reverse=True), name
        # the last default capacity holds every tile: each is loaded once
        assert misses[-1] == r.distinct_tiles


def test_sweep_point_equals_a_run_at_that_capacity():
    p = TraversalParams(rows=6, cols=7, in_flight=2, sweep_capacities=(3, 5, 9))
    r = compute(p)
    for name in SWEEP_ORDERS:
        for cap, misses in zip(r.capacities, r.misses_by_order[name], strict=True):
            single = compute(TraversalParams(rows=6, cols=7, in_flight=2, order=name,
                                             capacity=cap, sweep=False))
            assert single.misses == misses


def test_sweep_reports_progress_and_stops_when_cancelled():
    p = TraversalParams(rows=16, cols=16)
    seen = []
    result = sweep(p, progress=lambda done, total: seen.append((done, total)))
    assert result is not None
    assert seen == [(i, len(SWEEP_ORDERS)) for i in range(1, len(SWEEP_ORDERS) + 1)]
    assert sweep(p, cancelled=lambda: True) is None


def test_state_after_step_zero_is_an_empty_cache():
    r = compute(TraversalParams(rows=3, cols=4, sweep=False))
    s = state_after(r.main, 3, 4, 1, 1, r.capacity, 0)
    assert not s.a_resident.any() and not s.b_resident.any()
    assert s.hits == 0 and s.loads == 0 and s.visited == 0


def test_state_after_a_step_never_holds_more_than_the_capacity():
    r = compute(TraversalParams(rows=8, cols=12, capacity=5, order="hilbert", sweep=False))
    for step in range(r.steps + 1):
        s = state_after(r.main, 8, 12, 1, 1, 5, step)
        assert s.a_resident.sum() + s.b_resident.sum() <= 5
        if step:
            assert s.hits == r.hits_per_step[step - 1] and s.loads == r.loads_per_step[step - 1]


@pytest.mark.parametrize("name", [*SWEEP_ORDERS, "explicit"])
def test_the_product_is_the_same_for_every_order(name):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((5 * 3, 4 * 3))
    b = rng.standard_normal((4 * 3, 7 * 3))
    explicit = tuple(rng.permutation(5 * 7).tolist())
    order = tile_order(name, 5, 7, group_m=2, explicit=explicit)
    reference = multiply_in_order(a, b, 3, 3, 3, tile_order("row-major", 5, 7))
    assert np.array_equal(multiply_in_order(a, b, 3, 3, 3, order), reference)
    assert np.allclose(reference, a @ b)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(SWEEP_ORDERS), st.integers(1, 4),
       st.integers(1, 3), st.one_of(st.none(), st.integers(1, 20)))
def test_the_resident_set_after_every_step_is_a_plain_lru_caches(rows, cols, name, k_tiles,
                                                                   in_flight, capacity):
    r = compute(TraversalParams(rows=rows, cols=cols, order=name, k_tiles=k_tiles,
                                in_flight=in_flight, capacity=capacity, sweep=False))
    requests, step = request_stream(r.order, rows, k_tiles, in_flight)
    for k in range(r.steps + 1):
        _, resident = lru_reference(requests[step < k].tolist(), capacity)
        s = state_after(r.main, rows, cols, k_tiles, in_flight, capacity, k)
        got = set(np.flatnonzero(s.a_resident.ravel()).tolist())
        got |= {rows * k_tiles + c * k_tiles + kk for kk, c in zip(*np.nonzero(s.b_resident),
                                                                    strict=True)}
        assert got == resident, k
