"""The O(n log n) stack-distance pass against a plain LRU cache, request by request."""

from collections import OrderedDict

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.stack_distance import smaller_later
from gpuviz.models.traversal import (
    COLD,
    TraversalParams,
    compute,
    request_stream,
    stack_distances,
)


def plain_stack_distances(requests):
    """Move-to-front list: the position of each request's tile before it moves to the front."""
    stack: list[int] = []
    out = []
    for tile in requests:
        if tile in stack:
            d = stack.index(tile)
            out.append(d)
            del stack[d]
        else:
            out.append(None)
        stack.insert(0, tile)
    return out


def plain_lru_hits(requests, capacity):
    """An LRU cache of ``capacity`` tiles (None: unbounded): hit or miss per request."""
    cache: OrderedDict[int, None] = OrderedDict()
    hits = []
    for tile in requests:
        hits.append(tile in cache)
        if tile in cache:
            cache.move_to_end(tile)
        else:
            cache[tile] = None
            if capacity is not None and len(cache) > capacity:
                cache.popitem(last=False)
    return hits


tile_streams = st.lists(st.integers(0, 12), max_size=120)


@settings(max_examples=300, deadline=None)
@given(tile_streams)
def test_stack_distance_equals_a_move_to_front_list(requests):
    got = stack_distances(np.array(requests, dtype=np.int64)).tolist()
    want = [int(COLD) if d is None else d for d in plain_stack_distances(requests)]
    assert got == want


@settings(max_examples=200, deadline=None)
@given(tile_streams, st.integers(1, 14))
def test_a_request_hits_exactly_when_its_distance_is_below_the_capacity(requests, capacity):
    sd = stack_distances(np.array(requests, dtype=np.int64))
    assert (sd < capacity).tolist() == plain_lru_hits(requests, capacity)


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(40))).flatmap(
    lambda p: st.integers(0, 40).map(lambda n: p[:n])))
def test_smaller_later_counts_like_a_double_loop(prefix):
    # a permutation of 0 … n−1 built from a prefix of a larger one, by rank
    values = np.argsort(np.argsort(np.array(prefix, dtype=np.int64)))
    want = [sum(1 for w in values[i + 1:] if w < v) for i, v in enumerate(values.tolist())]
    assert smaller_later(values).tolist() == want


@st.composite
def explicit_orders(draw):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    order = draw(st.permutations(list(range(rows * cols))))
    return rows, cols, tuple(order)


@settings(max_examples=80, deadline=None)
@given(explicit_orders(), st.integers(1, 3), st.integers(1, 4),
       st.one_of(st.none(), st.integers(1, 20)), st.lists(st.integers(1, 30), min_size=1,
                                                          max_size=5))
def test_every_number_of_a_run_and_its_sweep_matches_a_plain_lru(grid, k_tiles, in_flight,
                                                                 capacity, capacities):
    rows, cols, explicit = grid
    p = TraversalParams(rows=rows, cols=cols, order="explicit", explicit=explicit,
                        k_tiles=k_tiles, in_flight=in_flight, capacity=capacity,
                        sweep_capacities=tuple(capacities))
    r = compute(p)
    requests, step = request_stream(r.order, rows, k_tiles, in_flight)
    hits = np.array(plain_lru_hits(requests.tolist(), capacity), dtype=bool)
    assert r.hits == int(hits.sum()) and r.misses == int((~hits).sum())
    assert r.hits_per_step.tolist() == np.bincount(step[hits], minlength=r.steps).tolist()
    assert r.loads_per_step.tolist() == np.bincount(step[~hits], minlength=r.steps).tolist()
    assert r.cumulative_loads.tolist() == np.cumsum(r.loads_per_step).tolist()
    is_a = requests < rows * k_tiles
    assert r.a_loads == int((~hits & is_a).sum()) and r.b_loads == int((~hits & ~is_a).sum())
    assert r.cumulative_loads_by_order["explicit"] == tuple(r.cumulative_loads.tolist())
    for cap, misses in zip(r.capacities, r.misses_by_order["explicit"], strict=True):
        assert misses == plain_lru_hits(requests.tolist(), cap).count(False)


def test_cancelling_stops_the_pass():
    assert stack_distances(np.arange(100) % 7, cancelled=lambda: True) is None
