"""Every request's stack distance from one K level (models/traversal_lru.py) against the plain
pass over the whole request stream, and the counts at real GEMM sizes against that pass."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.stack_distance import COLD, misses_at, stack_distances
from gpuviz.models.traversal import TraversalParams, compute, tile_order
from gpuviz.models.traversal_lru import (
    misses_at as reuse_misses_at,
)
from gpuviz.models.traversal_lru import (
    misses_per_request,
    panel_reuse,
    request_stream,
)


def distances_of_every_request(reuse):
    """The (start + kk · slope) of each panel request, placed where the full stream has it."""
    k, p = reuse.k_tiles, reuse.in_flight
    block = np.bincount(reuse.step, minlength=reuse.steps)[reuse.step]
    kk = np.arange(k)[None, :]
    at = (reuse.step * 2 * p * k)[:, None] + kk * block[:, None] + reuse.place[:, None]
    cold = reuse.start == COLD
    d = np.where(cold[:, None], COLD, np.where(cold, 0, reuse.start)[:, None] + kk *
                 reuse.slope[:, None])
    out = np.empty(at.size, dtype=np.int64)
    out[at.ravel()] = d.ravel()
    return out


@st.composite
def runs(draw):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    order = draw(st.permutations(list(range(rows * cols))))
    r, c = np.divmod(np.array(order, dtype=np.int64), cols)
    return rows, cols, np.stack([r, c], axis=1), draw(st.integers(1, 6)), draw(st.integers(1, 7))


@settings(max_examples=150, deadline=None)
@given(runs())
def test_every_request_has_the_distance_of_the_plain_pass(run):
    rows, cols, order, k_tiles, in_flight = run
    reuse = panel_reuse(order, rows, cols, k_tiles, in_flight)
    requests, _ = request_stream(order, rows, k_tiles, in_flight)
    assert distances_of_every_request(reuse).tolist() == stack_distances(requests).tolist()


@settings(max_examples=60, deadline=None)
@given(runs(), st.lists(st.integers(1, 90), min_size=1, max_size=6))
def test_misses_at_every_capacity_are_the_plain_passes(run, capacities):
    rows, cols, order, k_tiles, in_flight = run
    reuse = panel_reuse(order, rows, cols, k_tiles, in_flight)
    requests, _ = request_stream(order, rows, k_tiles, in_flight)
    caps = np.array(capacities)
    want = misses_at(stack_distances(requests), caps).tolist()
    assert reuse_misses_at(reuse, caps).tolist() == want
    assert [int(misses_per_request(reuse, c).sum()) for c in capacities] == want


def test_a_real_size_run_counts_what_the_plain_pass_counts():
    # 4096² with 128 × 128 tiles, K in tiles of 32 (k_tiles 128), 132 in flight: 262,144
    # requests, at the H200 partition's capacity in 8 KiB tiles (3,840) and around it
    p = TraversalParams(rows=32, cols=32, k_tiles=128, in_flight=132, order="hilbert",
                        cache="l2-partition", arch="h200", tile_bytes=8192,
                        sweep_capacities=(100, 1000, 3000, 3500, 4000, 8000))
    r = compute(p)
    requests, step = request_stream(tile_order("hilbert", 32, 32), 32, 128, 132)
    sd = stack_distances(requests)
    assert r.capacity == 3840
    assert r.misses == int(misses_at(sd, np.array([3840]))[0])
    assert r.loads_per_step.tolist() == np.bincount(step[sd >= 3840]).tolist()
    assert r.misses_by_order["hilbert"] == tuple(misses_at(sd, np.array(r.capacities)).tolist())
