"""The LRU of a tiled GEMM's request stream, exact, from one K level of it.

The stream (gpuviz.models.traversal): step s runs ``P_s`` output tiles; for kk = 0 … K − 1 each
of them in turn requests A(i, kk) then B(kk, j). Call the 2·P_s requests of step s at one kk its
*block*: every kk repeats the block's pattern of panels (A row i, B column j) on tiles of its
own kk, and tiles of different kk are different tiles. So the stack distance of a request (the
distinct tiles used since the tile's previous use) splits by kk level. For a panel x used in
step s whose previous use was in step s' (none between), with M the panels of the steps
strictly between, T the panels after x's last place in the block of s', H those before x's
first place in the block of s, and U_t the panels of step t, the request at level kk has

    d(kk) = |T ∪ M ∪ H| + (K − 1 − kk) · |U_s' ∪ M| + kk · |M ∪ U_s|

(levels above kk were used in s' and between, levels below kk between and in s); a reuse inside
one block has the same distance at every kk. Every request of a K-deep run is therefore one of
the 2·tiles requests of the K = 1 stream, its distance linear in kk: a + kk · b. The three
counts come from two plain stack-distance passes (:mod:`gpuviz.models.stack_distance`): the K = 1
stream gives D0 = |T ∪ M ∪ H|, and the K = 2 stream gives D0 + |U_s' ∪ M| (kk = 0) and
D0 + |M ∪ U_s| (kk = 1). Hits at any capacity C follow (LRU inclusion: a request hits exactly
when its distance is below C) by counting, per panel request, the kk with a + kk · b ≥ C: the
cost is that of 6·tiles requests, whatever K is, with the same answer as a plain LRU over every
request (tests/models/test_traversal_lru.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gpuviz.models.stack_distance import COLD, stack_distances
from gpuviz.models.traversal_orders import tile_order


def request_stream(order: np.ndarray, rows: int, k_tiles: int,
                   in_flight: int) -> tuple[np.ndarray, np.ndarray]:
    """Every tile request in time order and the step that makes it. A tile A(i, kk) is
    ``i·k_tiles + kk``; B(kk, j) is ``rows·k_tiles + j·k_tiles + kk``."""
    n = len(order)
    steps = -(-n // in_flight)
    padded = np.full((steps * in_flight, 2), -1, dtype=np.int64)
    padded[:n] = order
    wave = padded.reshape(steps, 1, in_flight, 2)
    kk = np.arange(k_tiles, dtype=np.int64).reshape(1, k_tiles, 1)
    a = wave[..., 0] * k_tiles + kk
    b = rows * k_tiles + wave[..., 1] * k_tiles + kk
    ids = np.stack([a, b], axis=-1)  # (steps, k_tiles, in_flight, 2)
    valid = np.broadcast_to((wave[..., 0] >= 0)[..., None], ids.shape)
    step = np.broadcast_to(np.arange(steps, dtype=np.int64).reshape(steps, 1, 1, 1), ids.shape)
    return ids[valid], step[valid]


@dataclass(frozen=True)
class PanelReuse:
    """One run's requests, one entry per request of the K = 1 stream (a *panel request*): the
    panel (A row i is i, B column j is rows + j), the step, the place in its step's block, and
    the stack distance of its request at level kk, ``start + kk · slope`` (COLD in ``start``
    for a first use)."""

    rows: int
    cols: int
    k_tiles: int
    in_flight: int
    steps: int
    panel: np.ndarray
    step: np.ndarray
    place: np.ndarray
    start: np.ndarray
    slope: np.ndarray

    @property
    def requests(self) -> int:
        return len(self.panel) * self.k_tiles

    def is_a(self) -> np.ndarray:
        return self.panel < self.rows


def panel_reuse(order: np.ndarray, rows: int, cols: int, k_tiles: int, in_flight: int,
                cancelled: Callable[[], bool] | None = None) -> PanelReuse | None:
    """The distances of every request of a run, as above. None when ``cancelled`` reports
    true part-way."""
    one, step = request_stream(order, rows, 1, in_flight)
    n = len(one)
    steps = int(step[-1]) + 1 if n else 0
    d1 = stack_distances(one, cancelled)
    if d1 is None:
        return None
    # the K = 2 stream: block kk = 0 of each step, then block kk = 1 (tile ids 2·panel + kk)
    first = np.searchsorted(step, np.arange(steps), side="left")  # each step's first request
    place = np.arange(n, dtype=np.int64) - first[step]
    size = np.diff(np.append(first, n))[step]  # the block size of each request's step
    two = np.empty(2 * n, dtype=np.int64)
    at0 = 2 * first[step] + place
    two[at0] = 2 * one
    two[at0 + size] = 2 * one + 1
    d2 = stack_distances(two, cancelled)
    if d2 is None:
        return None
    cold = d1 == COLD
    d0 = np.where(cold, 0, d1)
    x = np.where(cold, 0, d2[at0] - d0)  # |U_s' ∪ M|
    y = np.where(cold, 0, d2[at0 + size] - d0)  # |M ∪ U_s|
    start = np.where(cold, COLD, d0 + (k_tiles - 1) * x)
    return PanelReuse(rows=rows, cols=cols, k_tiles=k_tiles, in_flight=in_flight, steps=steps,
                      panel=one, step=step, place=place, start=start, slope=y - x)


def misses_per_request(reuse: PanelReuse, capacity: int | None,
                       start: np.ndarray | None = None,
                       slope: np.ndarray | None = None) -> np.ndarray:
    """For each panel request, how many of its K requests miss in an LRU of ``capacity``
    tiles (None: unbounded, so only first uses miss)."""
    a = reuse.start if start is None else start
    b = reuse.slope if slope is None else slope
    k = reuse.k_tiles
    cold = a == COLD
    if capacity is None:
        return np.where(cold, k, 0)
    c = int(capacity)
    a_ = np.where(cold, c, a)  # a cold request misses at every kk, as a distance ≥ C would
    up = b > 0
    down = b < 0
    # b = 0: all K or none; b > 0: kk ≥ ⌈(C − a)/b⌉; b < 0: kk ≤ ⌊(a − C)/|b|⌋
    flat = np.where(a_ >= c, k, 0)
    safe = np.where(b == 0, 1, b)
    rising = k - np.clip(-((a_ - c) // safe), 0, k)
    falling = np.clip((a_ - c) // (-safe) + 1, 0, k)
    out = np.where(up, rising, np.where(down, falling, flat))
    return np.where(cold, k, out)


def misses_at(reuse: PanelReuse, capacities: np.ndarray,
              cancelled: Callable[[], bool] | None = None) -> np.ndarray | None:
    """Misses of the whole run at each capacity. Panel requests with the same (start, slope)
    are counted once, weighted; capacities go in chunks that keep the work arrays small."""
    a, b, weight = _distinct_pairs(reuse.start, reuse.slope)
    out = np.empty(len(capacities), dtype=np.int64)
    chunk = max(1, (1 << 22) // max(len(a), 1))
    for lo in range(0, len(capacities), chunk):
        if cancelled is not None and cancelled():
            return None
        caps = np.asarray(capacities[lo:lo + chunk], dtype=np.int64)
        counts = _misses_grid(a, b, reuse.k_tiles, caps)
        out[lo:lo + chunk] = counts @ weight
    return out


def _distinct_pairs(start: np.ndarray,
                    slope: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (start, slope) pairs and how often each occurs: one lexicographic sort
    (``np.unique(..., axis=1)`` sorts the pairs as opaque records, ten times slower)."""
    if len(start) == 0:
        return start[:0], slope[:0], np.zeros(0, dtype=np.int64)
    by = np.lexsort((slope, start))
    s, d = start[by], slope[by]
    new = np.empty(len(s), dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    new[1:] |= d[1:] != d[:-1]
    at = np.flatnonzero(new)
    return s[at], d[at], np.diff(np.append(at, len(s)))


def _misses_grid(a: np.ndarray, b: np.ndarray, k: int, caps: np.ndarray) -> np.ndarray:
    """(capacities, pairs) misses of each (start, slope) pair at each capacity."""
    cold = a == COLD
    a_ = np.where(cold, 0, a)[None, :]
    b_ = b[None, :]
    c = caps[:, None]
    safe = np.where(b_ == 0, 1, b_)
    flat = np.where(a_ >= c, k, 0)
    rising = k - np.clip(-((a_ - c) // safe), 0, k)
    falling = np.clip((a_ - c) // (-safe) + 1, 0, k)
    out = np.where(b_ > 0, rising, np.where(b_ < 0, falling, flat))
    out[:, cold] = k
    return out


def loads_per_step(reuse: PanelReuse, capacity: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(loads, misses per panel request) at ``capacity``: loads per step."""
    miss = misses_per_request(reuse, capacity)
    return np.bincount(reuse.step, weights=miss, minlength=reuse.steps).astype(np.int64), miss


ReuseKey = tuple[str, int, int, int, int, int, tuple[int, ...]]
_REUSE: OrderedDict[ReuseKey, tuple[np.ndarray, PanelReuse]] = OrderedDict()
_REUSE_BUSY: dict[ReuseKey, threading.Event] = {}
_REUSE_LOCK = threading.Lock()
REUSE_KEPT = 10  # two explicit runs' five orders (at 65,536 tiles, 5.8 MB each)


def kept_reuse(name: str, rows: int, cols: int, group_m: int, explicit: tuple[int, ...],
               k_tiles: int, in_flight: int, cancelled: Callable[[], bool] | None = None
               ) -> tuple[np.ndarray, PanelReuse | None]:
    """An order over the grid and its requests' stack distances (:func:`panel_reuse`), which
    depend only on the order and the grid, depth and tiles in flight, not on the cache: kept
    for the last few, so that the sweep, the run drawn and a change of capacity share one
    pass, and computed once while several threads ask at the same time (the dock's sweep and
    the figure's result). ``(order, None)`` when ``cancelled`` reports true part-way."""
    key: ReuseKey = (name, rows, cols, k_tiles, in_flight, group_m if name == "grouped" else 0,
                     explicit if name == "explicit" else ())
    while True:
        with _REUSE_LOCK:
            hit = _REUSE.get(key)
            if hit is not None:
                _REUSE.move_to_end(key)
                return hit
            busy = _REUSE_BUSY.get(key)
            mine = busy is None
            if busy is None:
                busy = _REUSE_BUSY[key] = threading.Event()
        if mine:
            break
        while not busy.wait(0.05):  # another thread is computing it
            if cancelled is not None and cancelled():
                return tile_order(name, rows, cols, group_m, explicit), None
    reuse = None
    try:
        order = tile_order(name, rows, cols, group_m, explicit)
        reuse = panel_reuse(order, rows, cols, k_tiles, in_flight, cancelled)
        if reuse is not None:
            for a in (order, reuse.panel, reuse.step, reuse.place, reuse.start, reuse.slope):
                a.setflags(write=False)  # shared by every result that uses them
    finally:
        with _REUSE_LOCK:
            del _REUSE_BUSY[key]
            if reuse is not None:
                _REUSE[key] = (order, reuse)
                while len(_REUSE) > REUSE_KEPT:
                    _REUSE.popitem(last=False)
        busy.set()
    return order, reuse


@dataclass(frozen=True)
class Resident:
    """The cache after some steps: which tiles it holds, and what the last of those steps
    loaded and hit, as (panels, K) masks (A rows first, then B columns)."""

    resident: np.ndarray
    loaded: np.ndarray
    hit: np.ndarray
    hits: int
    loads: int


def resident_after(reuse: PanelReuse, capacity: int | None, step: int) -> Resident:
    """The resident set of an LRU of ``capacity`` tiles after ``step`` steps (the C most
    recently used distinct tiles) and what step ``step`` (1-based) hit and loaded."""
    k = reuse.k_tiles
    panels = reuse.rows + reuse.cols
    step = max(0, min(step, reuse.steps))
    end = int(np.searchsorted(reuse.step, step, side="left"))
    begin = int(np.searchsorted(reuse.step, step - 1, side="left")) if step else end
    # a panel's latest request before the end: its tiles' latest uses are that request at
    # each kk, at time base(step) + kk · block(step) + place
    last = np.full(panels, -1, dtype=np.int64)
    seen, back = np.unique(reuse.panel[:end][::-1], return_index=True)
    last[seen] = end - 1 - back
    used = np.flatnonzero(last >= 0)
    resident = np.zeros((panels, k), dtype=bool)
    if len(used):
        at = last[used]
        s = reuse.step[at]
        first = np.searchsorted(reuse.step, s, side="left")
        block = np.searchsorted(reuse.step, s, side="right") - first
        base = 2 * reuse.in_flight * k * s
        kk = np.arange(k, dtype=np.int64)[None, :]
        time = base[:, None] + kk * block[:, None] + reuse.place[at][:, None]
        if capacity is None or capacity >= time.size:
            resident[used] = True
        else:
            flat = time.ravel()
            keep = np.argpartition(-flat, capacity - 1)[:capacity]
            mask = np.zeros(flat.size, dtype=bool)
            mask[keep] = True
            resident[used] = mask.reshape(time.shape)
    loaded = np.zeros((panels, k), dtype=bool)
    hit = np.zeros((panels, k), dtype=bool)
    hits = loads = 0
    if end > begin:
        a = reuse.start[begin:end, None]
        b = reuse.slope[begin:end, None]
        kk = np.arange(k, dtype=np.int64)[None, :]
        cold = a == COLD
        distance = np.where(cold, 0, a) + kk * b
        if capacity is None:
            miss = np.broadcast_to(cold, distance.shape)
        else:
            miss = cold | (distance >= capacity)
        # a tile is loaded in the step if any of its requests missed; hit if one hit and none
        # missed
        tile = (reuse.panel[begin:end, None] * k + kk).ravel()
        flat = miss.ravel()
        loaded = (np.bincount(tile[flat], minlength=panels * k) > 0).reshape(panels, k)
        hit = (np.bincount(tile[~flat], minlength=panels * k) > 0).reshape(panels, k)
        loads = int(np.count_nonzero(miss))
        hits = miss.size - loads
    return Resident(resident=resident, loaded=loaded, hit=hit & ~loaded, hits=hits, loads=loads)
