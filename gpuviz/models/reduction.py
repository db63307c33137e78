"""Warp shuffle reduction: who owns which partial sum at each level, exactly.

The rule (source text "GPU Architecture and CUDA Programming", section "A reduction changes the
ownership of partial results"): with all 32 lanes executing every shuffle, ::

    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane < offset) sum += other;
    }

leaves the warp's sum in lane 0. At each level the lanes below ``offset`` (the active prefix)
each combine two disjoint contributor sets; the lanes above keep historic values. The butterfly
variant (``sum += __shfl_xor_sync(mask, sum, offset)``) leaves the sum in every lane.

Variants the source text warns about, each computed rather than asserted:

- partial warp: fewer than 32 lanes hold data. With ``neutral_zeros`` every lane executes the
  shuffles and the missing lanes hold 0 (correct). With ``active_mask`` only the data lanes
  execute and the mask names only them; a shuffle whose source lane is outside the mask returns
  an undefined value (CUDA Programming Guide, warp shuffle functions), so replacing the mask alone
  does not make the reduction correct. Undefined values are NaN here and the result is ``None``.
- block scope: each warp reduces its 32 values, warp leaders store partials to shared memory,
  a barrier, then warp 0 reduces them. ``initialised_only`` reads a partial only for lanes below
  the warp count and a neutral zero otherwise; ``fixed_32`` reads 32 entries whatever the warp
  count, and the entries no warp wrote are uninitialised (source text: "A fixed 32-entry reduction is
  invalid when fewer than 32 warp partials have been initialized").
- float32 order: the same values summed in float32 by the tree and left to right can differ; both
  sums are computed with numpy float32 next to the exact sum.

Contributor sets are indices of the stage's inputs: input lanes at warp scope, warp partials in
the final stage at block scope.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param

WARP = 32
OFFSETS = (16, 8, 4, 2, 1)


@dataclass(frozen=True)
class ReductionParams:
    values: tuple[float, ...] = param(
        tuple(float(v) for v in range(1, 33)),
        doc="The values to sum, one per thread in order (at warp scope at most 32); each "
            "within ±1e30, so that even 1024 of them sum within float32's range (±3.4e38).",
        length=(1, 1024), minimum=-1e30, maximum=1e30)
    pattern: str = param("shfl_down", doc="shfl_down: offsets 16, 8, 4, 2, 1 into lane 0; xor: "
                                          "the butterfly that leaves the sum in every lane.",
                         choices=("shfl_down", "xor"))
    scope: str = param("warp", doc="warp: one warp's reduction; block: warp partials through "
                                   "shared memory, a barrier, and a final warp reduction.",
                       choices=("warp", "block"))
    partial_warp: str = param(
        "neutral_zeros",
        doc="When fewer than 32 lanes hold data at warp scope: neutral_zeros (all lanes execute, "
            "missing lanes hold 0) or active_mask (only the data lanes execute, the mask names "
            "only them).",
        choices=("neutral_zeros", "active_mask"))
    final_read: str = param(
        "initialised_only",
        doc="At block scope, which shared partials the final warp reads: initialised_only "
            "(neutral zeros past the warp count) or fixed_32 (always 32 entries).",
        choices=("initialised_only", "fixed_32"))
    arithmetic: str = param(
        "exact", doc="exact: sums of the values as given; float32: every addition rounded to "
                     "float32, as the GPU's float does.",
        choices=("exact", "float32"))


PARAMS = ReductionParams


@dataclass(frozen=True)
class UndefinedRead:
    level: int  # 1-based: the level whose shuffle read it; 0 for the shared-memory read
    lane: int
    source: int
    text: str


@dataclass(frozen=True)
class ReductionResult:
    result: float | None
    levels: tuple[tuple[float | None, ...], ...]  # level 0 = inputs; values per lane
    contributors: tuple[tuple[tuple[int, ...], ...], ...]  # [level][lane] -> input indices
    offsets: tuple[int, ...]
    active_prefix: tuple[int, ...]  # per level: lanes holding current partials (32 for xor)
    owners: tuple[tuple[int, ...], ...]  # per level: lanes whose partial is current
    contributor_unit: str  # "lane" or "warp"
    warps: int
    warp_partials: tuple[float | None, ...]
    shared_partials: tuple[float | None, ...]  # the 32 entries the final warp reads (block)
    undefined_reads: tuple[UndefinedRead, ...]
    correct: bool
    flags: tuple[str, ...]
    exact_sum: float
    float32_tree_sum: float
    float32_sequential_sum: float
    order_dependent: bool
    # Per warp, its levels (block scope) for the figure.
    warp_levels: tuple[tuple[tuple[float | None, ...], ...], ...] = not_in_json()


def problems(params: ReductionParams) -> list[tuple[str, str]]:
    if params.scope == "warp" and len(params.values) > WARP:
        return [("values", f"a warp has 32 lanes but {len(params.values)} values are given; "
                           f"use scope \"block\" for more than 32.")]
    return []


def _tree(values: np.ndarray, executing: np.ndarray, pattern: str, dtype: type
          ) -> tuple[list[np.ndarray], list[list[frozenset[int]]], list[tuple[int, int, int]]]:
    """One warp's shuffle levels. ``executing`` marks the lanes in the mask; a read from a lane
    outside it is undefined (NaN). Returns values per level, contributor sets per level, and the
    (level, lane, source) of each undefined read."""
    sums: np.ndarray = values.astype(dtype).copy()
    sums[~executing] = np.nan
    levels = [sums.copy()]
    contrib = [[frozenset([i]) if executing[i] else frozenset() for i in range(WARP)]]
    undefined: list[tuple[int, int, int]] = []
    lanes = np.arange(WARP)
    for depth, off in enumerate(OFFSETS, start=1):
        if pattern == "xor":
            src = lanes ^ off
            takes = executing.copy()
        else:
            src = lanes + off
            # A source past the warp width returns the caller's own value (shfl_down semantics);
            # only lanes below offset add it.
            takes = executing & (lanes < off)
        in_range = src < WARP
        src_c = np.where(in_range, src, lanes)
        other = sums[src_c]
        bad = takes & in_range & ~executing[src_c]
        other = np.where(bad, np.nan, other)
        new = sums.copy()
        new[takes] = (sums[takes] + other[takes]).astype(dtype)
        prev = contrib[-1]
        row = list(prev)
        for lane in np.flatnonzero(takes):
            s = int(src_c[lane])
            row[lane] = prev[lane] | prev[s]
            if bad[lane]:
                undefined.append((depth, int(lane), s))
        sums = new
        levels.append(sums.copy())
        contrib.append(row)
    return levels, contrib, undefined


def _as_values(arr: np.ndarray) -> tuple[float | None, ...]:
    return tuple(None if math.isnan(float(v)) else float(v) for v in arr)


def compute(params: ReductionParams) -> ReductionResult:
    dtype = np.float32 if params.arithmetic == "float32" else np.float64
    vals = np.asarray(params.values, dtype=np.float64)
    n = len(vals)
    flags: list[str] = []
    undefined: list[UndefinedRead] = []
    warp_levels: list[tuple[tuple[float | None, ...], ...]] = []

    if params.scope == "warp":
        warps = 1
        padded = np.zeros(WARP)
        padded[:n] = vals
        if n < WARP and params.partial_warp == "active_mask":
            executing = np.arange(WARP) < n
            flags.append(f"only lanes 0–{n - 1} execute, with a mask naming only them; "
                         f"shuffles that read lanes {n}–31 return undefined values")
        else:
            executing = np.ones(WARP, dtype=bool)
        levels, contrib, bad = _tree(padded, executing, params.pattern, dtype)
        for depth, lane, src in bad:
            undefined.append(UndefinedRead(depth, lane, src,
                                           f"level {depth}: lane {lane} reads lane {src}, "
                                           f"which is not in the mask"))
        warp_partials: tuple[float | None, ...] = (_as_values(levels[-1][:1])[0],)
        shared: tuple[float | None, ...] = ()
        unit = "lane"
    else:
        warps = -(-n // WARP)
        padded = np.zeros(warps * WARP)
        padded[:n] = vals
        full = np.ones(WARP, dtype=bool)
        partials = np.full(WARP, np.nan)
        for w in range(warps):
            lv, _, _ = _tree(padded[w * WARP:(w + 1) * WARP], full, params.pattern, dtype)
            warp_levels.append(tuple(_as_values(level) for level in lv))
            partials[w] = lv[-1][0]
        if params.final_read == "fixed_32":
            first = partials.copy()
            if warps < WARP:
                flags.append(f"the final warp reads 32 shared entries, but only {warps} warp "
                             f"partials were stored; entries {warps}–31 are uninitialised")
                for lane in range(warps, WARP):
                    undefined.append(UndefinedRead(0, lane, lane,
                                                   f"lane {lane} reads uninitialised shared "
                                                   f"entry {lane}"))
        else:
            first = np.where(np.arange(WARP) < warps, partials, 0.0)
        levels, contrib, _ = _tree(np.nan_to_num(first, nan=0.0), full, params.pattern, dtype)
        # Uninitialised entries are unknown values: carry NaN through the levels they reach.
        levels, contrib = _poison(levels, contrib, np.isnan(first))
        warp_partials = _as_values(partials[:warps])
        shared = _as_values(first)
        unit = "warp"

    final = levels[-1][0]
    result = None if math.isnan(float(final)) else float(final)
    exact = _exact_sum(params.values)
    tree32, seq32 = _float32_sums(params.values, params.pattern)
    actives = tuple(WARP if params.pattern == "xor" else off for off in OFFSETS)
    owners = [tuple(range(WARP))]
    for a in actives:
        owners.append(tuple(range(a)))
    correct = result is not None and not undefined
    if params.arithmetic == "float32" and result is not None and result != exact:
        flags.append(f"float32 rounding: the tree gives {result:.9g}, the exact sum is "
                     f"{exact:.9g}")
    return ReductionResult(
        result=result,
        levels=tuple(_as_values(level) for level in levels),
        contributors=tuple(tuple(tuple(sorted(s)) for s in row) for row in contrib),
        offsets=OFFSETS,
        active_prefix=(WARP, *actives),
        owners=tuple(owners),
        contributor_unit=unit,
        warps=warps,
        warp_partials=warp_partials,
        shared_partials=shared,
        undefined_reads=tuple(undefined),
        correct=correct,
        flags=tuple(flags),
        exact_sum=exact,
        float32_tree_sum=tree32,
        float32_sequential_sum=seq32,
        order_dependent=tree32 != seq32,
        warp_levels=tuple(warp_levels),
    )


def _poison(levels: list[np.ndarray], contrib: list[list[frozenset[int]]], unknown: np.ndarray
            ) -> tuple[list[np.ndarray], list[list[frozenset[int]]]]:
    bad = set(np.flatnonzero(unknown).tolist())
    if not bad:
        return levels, contrib
    out = []
    for values, row in zip(levels, contrib, strict=True):
        values = values.copy()
        for lane, s in enumerate(row):
            if s & bad:
                values[lane] = np.nan
        out.append(values)
    return out, contrib


def _exact_sum(values: tuple[float, ...]) -> float:
    return float(sum((Fraction(v) for v in values), Fraction(0)))


def _float32_sums(values: tuple[float, ...], pattern: str) -> tuple[float, float]:
    """The float32 sum in tree order (per warp, then over warp partials) and left to right."""
    v32 = np.asarray(values, dtype=np.float32)
    seq = np.float32(0)
    for v in v32:
        seq = np.float32(seq + v)
    warps = -(-len(v32) // WARP)
    padded = np.zeros(warps * WARP, dtype=np.float32)
    padded[: len(v32)] = v32
    full = np.ones(WARP, dtype=bool)
    partials = np.zeros(WARP, dtype=np.float32)
    for w in range(warps):
        lv, _, _ = _tree(padded[w * WARP:(w + 1) * WARP], full, pattern, np.float32)
        partials[w] = lv[-1][0]
    if warps == 1:
        tree = partials[0]
    else:
        lv, _, _ = _tree(partials, full, pattern, np.float32)
        tree = lv[-1][0]
    return float(tree), float(seq)


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("1024 values, block, float32", {"values": [1e30 / (i + 1) for i in range(1024)],
                                         "scope": "block", "arithmetic": "float32",
                                         "pattern": "xor", "partial_warp": "active_mask"}),
        ("1024 values, block, exact", {"values": [(-1) ** i * 1e6 / (i + 1)
                                                  for i in range(1024)],
                                       "scope": "block", "final_read": "fixed_32"}),
    ]
