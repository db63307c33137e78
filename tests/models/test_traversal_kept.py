"""What the traversal model computes once and shares: an order's stack-distance pass (the run
drawn, its comparison, the dock's sweep and a change of capacity use one), and the cache's
state at a step (a layout search draws one step in a dozen designs)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from gpuviz.models import traversal, traversal_lru
from gpuviz.models.traversal import TraversalParams, compute, state_after, sweep


def _passes(monkeypatch) -> list[tuple[int, int]]:
    """Record every stack-distance pass of an order (it still runs)."""
    seen: list[tuple[int, int]] = []
    real = traversal_lru.panel_reuse

    def counted(order, rows, cols, k_tiles, in_flight, cancelled=None):
        seen.append((rows, cols))
        return real(order, rows, cols, k_tiles, in_flight, cancelled)

    monkeypatch.setattr(traversal_lru, "panel_reuse", counted)
    return seen


def test_the_sweep_and_a_new_capacity_reuse_the_passes_of_the_result(monkeypatch):
    seen = _passes(monkeypatch)
    # a grid no other test uses, so nothing of it is kept yet
    p = TraversalParams(rows=13, cols=11, k_tiles=3, order="hilbert", compare_order="grouped",
                        in_flight=2, capacity=9)
    r = compute(p)
    assert len(seen) == len(traversal.sweep_orders(p))  # one pass per order, the sweep's too
    again = sweep(p)  # what the dock's sweep runs beside the figure's result
    other = compute(replace(p, capacity=30))
    assert len(seen) == len(traversal.sweep_orders(p))
    assert again is not None and again.misses_by_order == r.misses_by_order
    assert other.main.reuse is r.main.reuse
    # and the answer is the one a fresh pass gives
    fresh = traversal_lru.panel_reuse(r.order, 13, 11, 3, 2)
    assert fresh is not None and np.array_equal(fresh.start, r.main.reuse.start)


def test_a_kept_pass_is_read_only():
    r = compute(TraversalParams(rows=9, cols=14, order="row-major"))
    assert not r.main.reuse.start.flags.writeable and not r.order.flags.writeable


def test_a_state_asked_again_is_the_one_kept():
    r = compute(TraversalParams(rows=10, cols=7, k_tiles=4, in_flight=3, capacity=6))
    a = state_after(r.main, 10, 7, 4, 3, 6, 5)
    assert state_after(r.main, 10, 7, 4, 3, 6, 5) is a
    b = state_after(r.main, 10, 7, 4, 3, 20, 5)  # another capacity: another state
    assert b is not a and b.a_resident.sum() >= a.a_resident.sum()
    assert not a.a_resident.flags.writeable
