"""LRU stack distances of a request stream, exact, in O(n log n) with numpy.

The stack distance of a request is the number of distinct items used since its item's previous
use (0: the most recently used one); a first use has none (COLD). An LRU cache of capacity C
hits a request exactly when its distance is below C (Mattson et al., "Evaluation techniques for
storage hierarchies", IBM Systems Journal 9(2), 1970: LRU's inclusion property), so one pass
gives the hits at every capacity.
"""

from collections.abc import Callable
from typing import Any, cast

import numpy as np

COLD = np.iinfo(np.int64).max  # stack distance of a first use: a miss at any capacity


def smaller_later(values: np.ndarray,
                   cancelled: Callable[[], bool] | None = None) -> np.ndarray | None:
    """For a permutation ``values`` of 0 … n−1: how many later entries are smaller than each.

    A binary indexed tree over the values, run for all entries at once, one bit at a time from
    the top: at bit b the entries are grouped by their value's higher bits (stably, so each group
    keeps time order); an entry whose bit b is 1 is greater than every entry of its group whose
    bit b is 0, so it counts the group's 0-entries after it. Each level is a few O(n) array
    passes and a stable partition, n log n in all. None when ``cancelled`` reports true."""
    n = len(values)
    if n < 2:
        return np.zeros(n, dtype=np.int64)
    it = np.int32 if n < (1 << 31) - 1 else np.int64
    vals = values.astype(it)  # the value at each place of the current order
    acc = np.zeros(n, dtype=it)  # the count so far of the entry at each place
    place = np.arange(n, dtype=it)
    # integer work arrays of the width chosen above (typed Any: numpy's stubs lose the dtype)
    bit, start, zeros, before, tmp, dest = cast(Any, [np.empty(n, dtype=it) for _ in range(6)])
    acc = cast(Any, acc)
    for b in range((n - 1).bit_length() - 1, -1, -1):
        if cancelled is not None and cancelled():
            return None
        half = 1 << b
        np.right_shift(vals, b, out=bit)
        np.bitwise_and(bit, 1, out=bit)
        # the entries are grouped by value >> (b+1), and as the values are 0 … n−1 the group
        # of value v starts at place v >> (b+1) << (b+1); every earlier group is full
        np.bitwise_and(vals, ~(2 * half - 1), out=start)
        np.subtract(n, start, out=zeros)
        np.minimum(zeros, half, out=zeros)  # the group's 0-entries
        np.subtract(1, bit, out=tmp)
        np.cumsum(tmp, out=before)
        before -= tmp
        np.right_shift(start, 1, out=tmp)
        before -= tmp  # the group's 0-entries before this place
        np.subtract(zeros, before, out=tmp)
        tmp *= bit
        acc += tmp  # a 1-entry counts the group's 0-entries after it
        # stable partition inside each group: 0-entries to start + before, 1-entries after
        # all 0-entries, in order
        np.add(zeros, place, out=dest)
        dest -= before
        np.add(start, before, out=tmp)
        np.copyto(dest, tmp, where=bit == 0)
        vals, acc = _moved(vals, dest), _moved(acc, dest)
    # now place v holds value v
    return acc[values].astype(np.int64)


def _moved(values: np.ndarray, dest: np.ndarray) -> np.ndarray:
    out = np.empty_like(values)
    out[dest] = values
    return out


def stack_distances(requests: np.ndarray,
                    cancelled: Callable[[], bool] | None = None) -> np.ndarray | None:
    """LRU stack distance of each request (0 = the most recently used tile); COLD for a first
    use. None when ``cancelled`` reports true part-way.

    A request at time t whose tile was last used at time p has stack distance d = the number of
    distinct tiles used in (p, t). Each reuse is an interval (p, t); every time q in between
    either ends its own tile's uses before t (its interval (q, next use of q) lies inside (p, t))
    or is the last use of its tile before t. So d = (t − p − 1) − (intervals nested in (p, t)),
    and the nested ones are those starting after p and ending before t: for the sequence of
    next-use times, the later entries smaller than the one at p (``smaller_later``)."""
    req = np.asarray(requests, dtype=np.int64)
    n = len(req)
    out = np.full(n, COLD, dtype=np.int64)
    if n == 0:
        return out
    by_tile = np.argsort(req, kind="stable")
    again = req[by_tile[1:]] == req[by_tile[:-1]]
    later, earlier = by_tile[1:][again], by_tile[:-1][again]
    # next-use times as a permutation: reuse times ranked in time order, then "never" ones
    reused = np.zeros(n, dtype=bool)
    reused[later] = True
    rank = np.cumsum(reused) - 1
    next_rank = np.empty(n, dtype=np.int64)
    never = np.ones(n, dtype=bool)
    never[earlier] = False
    next_rank[earlier] = rank[later]
    next_rank[never] = len(later) + np.arange(n - len(later))
    nested = smaller_later(next_rank, cancelled)
    if nested is None:
        return None
    out[later] = later - earlier - 1 - nested[earlier]
    return out


def misses_at(distances: np.ndarray, capacities: np.ndarray) -> np.ndarray:
    """Misses of one request stream for each capacity (LRU inclusion: distance ≥ capacity)."""
    finite = np.sort(distances[distances != COLD])
    cold = len(distances) - len(finite)
    return cold + len(finite) - np.searchsorted(finite, capacities, side="left")
