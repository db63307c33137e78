"""Which LRU capacities give a measured traffic: why a traversal case disagrees.

An order's requests have the same stack distances whatever the cache's size
(:mod:`gpuviz.models.traversal_lru`), so one pass gives the LRU's DRAM traffic at every capacity
(Mattson et al., "Evaluation techniques for storage hierarchies", IBM Systems Journal 9(2),
1970: the inclusion property). Scanning capacities from half to one and a half times the
cache's own size says whether *any* LRU gives a measured traffic within a tolerance:

* where some capacity does, but not the cache's own, the order's reuse distances crowd near
  the capacity, and the real L2's edge decides (a cyclic scan read by every SM of an H200 keeps
  all of 28 MiB, 27 % of 32 MiB and none of 36 MiB: ``l2_scan`` in
  ``resources/measurements/h200-traversal-sizes.json``), which an all-or-nothing LRU does not
  have;
* where none does, the reuse distances alone cannot give the measured traffic: what the model
  leaves out decides it (which SMs read which tiles, across the two L2 partitions; the order in
  which a wave's requests arrive). At 4096² the H200's GROUP_M 4 and the H100's GROUP_M 16 are
  such cases: row-major has the LRU traffic of GROUP_M 4 within 4 % at every capacity up to
  36 MiB, yet the H200 read 4.61 × the bytes of A and B for it and 3.57 × for GROUP_M 4.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from gpuviz.models.traversal import (
    TraversalParams,
    distinct_tiles,
    effective_capacity,
    order_reuse,
)
from gpuviz.models.traversal_lru import misses_at

SPAN = (0.5, 1.5)  # the capacities scanned, as fractions of the cache's own
# every capacity in tiles up to this many (an order's window can be a few tiles wide: the H200's
# Hilbert curve at 4096² with 16 KiB tiles matches at 1,786 tiles alone), evenly spread beyond
POINTS = 8192


@dataclass(frozen=True)
class CapacityFit:
    """The LRU's traffic (tiles loaded ÷ distinct A and B tiles) at each scanned capacity (in
    tiles), and the capacities whose traffic is within ``tolerance`` of ``measured``."""

    capacity: int  # the cache's own, in tiles
    tile_bytes: int
    capacities: tuple[int, ...]
    traffic: tuple[float, ...]
    measured: float
    tolerance: float
    matching: tuple[int, ...]

    def mib(self, tiles: int) -> float:
        return tiles * self.tile_bytes / (1 << 20)

    @property
    def own_matches(self) -> bool:
        return self.capacity in self.matching

    def nearest_window(self) -> tuple[int, int] | None:
        """The run of scanned capacities, all matching, that holds the matching capacity
        nearest the cache's own: (first, last) in tiles; None where none matches."""
        if not self.matching:
            return None
        caps = self.capacities
        near = set(self.matching)
        at = caps.index(min(self.matching, key=lambda c: (abs(c - self.capacity), c)))
        lo = hi = at
        while lo > 0 and caps[lo - 1] in near:
            lo -= 1
        while hi + 1 < len(caps) and caps[hi + 1] in near:
            hi += 1
        return caps[lo], caps[hi]


def capacity_fit(params: TraversalParams, measured: float, tolerance: float,
                 span: tuple[float, float] = SPAN, points: int = POINTS) -> CapacityFit | None:
    """The LRU of ``params`` at capacities over ``span`` times its own (its own among them):
    every one, or ``points`` spread evenly where there are more; None for an unbounded
    cache. Kept for the last few (the figure asks it at every redraw of a measured state)."""
    try:
        return _kept_fit(params, measured, tolerance, span, points)
    except TypeError:  # parameters that cannot be hashed: worked out afresh
        return _capacity_fit(params, measured, tolerance, span, points)


def _capacity_fit(params: TraversalParams, measured: float, tolerance: float,
                  span: tuple[float, float], points: int) -> CapacityFit | None:
    own = effective_capacity(params)
    if own is None:
        return None
    lo, hi = max(1, round(span[0] * own)), max(1, round(span[1] * own))
    spread = (np.arange(lo, hi + 1) if hi - lo < points
              else np.linspace(lo, hi, points).round())
    caps = np.unique(np.append(spread, own).astype(np.int64))
    _, reuse = order_reuse(params.order, replace(params, sweep=False))
    assert reuse is not None  # nothing cancels this pass
    missed = misses_at(reuse, caps)
    assert missed is not None
    traffic = missed / max(distinct_tiles(params), 1)
    near = np.abs(traffic - measured) <= tolerance * measured
    return CapacityFit(capacity=own, tile_bytes=params.tile_bytes,
                       capacities=tuple(caps.tolist()), traffic=tuple(traffic.tolist()),
                       measured=measured, tolerance=tolerance,
                       matching=tuple(caps[near].tolist()))


def reason(fit: CapacityFit) -> str:
    """Why the LRU of the cache's own size misses the measurement, in a sentence or two: the
    capacities nearest its own that would give the measurement, and whether they are near
    enough (within the tolerance) for the reuse distances to decide."""
    own = fit.mib(fit.capacity)
    window = fit.nearest_window()
    leaves_out = ("so the reuse distances alone do not decide it: what the model leaves out "
                  "does (which SMs read which tiles across the two L2 partitions, the order a "
                  "wave's requests arrive in).")
    if window is None:
        lo, hi = fit.mib(fit.capacities[0]), fit.mib(fit.capacities[-1])
        return (f"No LRU of {lo:.3g}–{hi:.3g} MiB gives the measured traffic within "
                + f"{fit.tolerance:.0%}".replace("%", " %") + ", " + leaves_out)
    lo, hi = fit.mib(window[0]), fit.mib(window[1])
    size = f"{lo:.3g} MiB" if f"{lo:.3g}" == f"{hi:.3g}" else f"{lo:.3g}–{hi:.3g} MiB"
    nearest = min(window, key=lambda c: abs(c - fit.capacity))
    off = nearest / fit.capacity - 1
    if abs(off) > fit.tolerance:
        return (f"Only an LRU of {size}, {abs(off):.0%} ".replace("%", " %")
                + f"{'larger' if off > 0 else 'smaller'} than this cache's {own:.3g} MiB, "
                "gives it, " + leaves_out)
    return (f"An LRU of {size} gives it, not {own:.3g} MiB: this order's reuse distances "
            "crowd near the capacity, where an LRU's all-or-nothing rule is least like the "
            "real L2 (the blocks' schedule and the K step were measured and ruled out).")


_kept_fit = lru_cache(maxsize=16)(_capacity_fit)
