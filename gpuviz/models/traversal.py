"""Output-tile traversal order and operand reuse through an LRU cache.

Source text: "Reuse also depends on the route through output tiles". Output tile (i, j) of C needs the
A row panel i and the B column panel j, each ``k_tiles`` tiles deep along K: A tiles (i, kk) and
B tiles (kk, j) for kk = 0 … k_tiles − 1 (with the default ``k_tiles = 1`` K folds away and each
panel is one tile). Two C tiles in one row share their A tiles; two in one column share their B
tiles, so the visiting order decides how much a cache can reuse.

Orders over the grid: :mod:`gpuviz.models.traversal_orders`.

The cache experiment: ``in_flight`` output tiles run at once (think: one per SM). Step s runs
the tiles ``order[s·P : (s+1)·P]`` with P = in_flight; within a step all of them walk K together,
so for kk = 0, 1, … each tile of the step in turn requests A(i, kk) then B(kk, j). Requests go
to one LRU cache counted in tiles (``capacity``, or unbounded): a request for a resident tile is
a hit and refreshes it; any other request is a miss, loads the tile (counted in tiles) and, when
the cache is full, evicts the least recently used tile.

LRU has the inclusion property, so one pass computes each request's stack distance (how many
distinct tiles were used since its previous use); a request hits in a cache of capacity C exactly
when its stack distance is below C. That gives per-step hits and loads for any capacity and the
whole sweep (misses against capacity, for every order) from one pass per order. The pass reads
one K level of the stream, not all of it (:mod:`gpuviz.models.traversal_lru`): every request's
distance is linear in kk, so a 16384² GEMM with 128 × 128 tiles and its real K depth (16.8 M
requests) costs what 98,304 requests cost, with the same answer as a plain LRU.

The cache's size (``cache``): ``tiles`` takes ``capacity`` as given. ``l2-whole`` and
``l2-partition`` derive it from the architecture preset's ``l2_bytes`` in tiles of
``tile_bytes``: the whole L2, or one of its two partitions (half of it). The A100's L2 is
"divided into two partitions", each of which "localizes and caches data for memory accesses
from SMs in the GPCs directly connected to the partition" (NVIDIA A100 Tensor Core GPU
Architecture whitepaper, "A100 L2 Cache"; the H200 measurements below behave the same), so an
operand that SMs on both sides read can take space in both, and a tiled GEMM whose operands are
read from every SM gets about one partition's worth of reuse. ``l2_reserved_bytes`` is taken
off the cache (off each partition) for C tiles and other traffic. Measured on an H200
(docs/hardware-notes.md, ``resources/measurements/h200-traversal.json`` and
``h200-traversal-sizes.json``): one partition with nothing reserved matches DRAM traffic within
5 % for four orders at N = 2048–8192 with K steps of 64, and within 1.5 % for six orders at
N = 8192 and 16384 with K steps of 32; at 4096, where A and B are about twice a partition,
Hilbert, GROUP_M 4 and GROUP_M 16 are off by −24 %, +34 % and −11 %; the data bound the space C takes out of a partition's operand reuse to under
about 1.3 MiB, so the default reserves nothing. The LRU leaves out set associativity, address
hashing, C write-back and other traffic.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from gpuviz.models.arch import DEFAULT_ARCH, load_preset, preset_names, preset_value
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param
from gpuviz.models.stack_distance import COLD, misses_at, stack_distances
from gpuviz.models.traversal_lru import (
    PanelReuse,
    kept_reuse,
    loads_per_step,
    request_stream,
    resident_after,
)
from gpuviz.models.traversal_lru import misses_at as reuse_misses_at
from gpuviz.models.traversal_orders import (
    grouped_order,
    hilbert_order,
    multiply_in_order,
    tile_order,
)

__all__ = ["COLD", "grouped_order", "hilbert_order", "misses_at", "multiply_in_order",
           "request_stream", "stack_distances", "tile_order"]

ORDERS = ("row-major", "column-major", "hilbert", "grouped", "explicit")
SWEEP_ORDERS = ("row-major", "column-major", "hilbert", "grouped")
CACHES = ("tiles", "l2-whole", "l2-partition")
L2_PARTITIONS = 2  # A100 whitepaper: the L2 is divided into two partitions
# The model's cost grows with the tiles of the grid, not with K (gpuviz.models.traversal_lru);
# at the largest grid and depth accepted (65,536 tiles, k_tiles 1,024: 134 M requests per order)
# a run with its comparison, the sweep over every order, the figure and the JSON of `gpuviz
# compute` cost at most 1.5 s of CPU and 300 MB (benchmarks/bench_limits.py, "traversal" rows;
# benchmarks/bench_traversal_sizes.py: 16384² with 128 × 128 tiles and k_tiles 512, 0.3 s).
MAX_TILES = 1 << 16
MAX_K_TILES = 1024
MAX_SWEEP_POINTS = 1024  # capacities of one sweep (bench_limits.py, "sweep capacities")
SWEEP_POINTS = 32
LOG_SWEEP_RATIO = 100  # from this many tiles fitting, the sweep's capacities are spread by ratio
LOG_SWEEP_POINTS = 48


@dataclass(frozen=True)
class TraversalParams:
    rows: int = param(8, doc="Output tile rows (M / tile height).", minimum=1, maximum=1024)
    cols: int = param(12, doc="Output tile columns (N / tile width).", minimum=1, maximum=1024)
    order: str = param("row-major", doc="The order in which output tiles are visited.",
                       choices=ORDERS)
    compare_order: str = param("none", doc="A second order drawn beside the first on the same "
                               "grid and cache ('none' for one).", choices=("none", *ORDERS))
    group_m: int = param(4, doc="Tile rows per group of the grouped (Triton GROUP_M) order.",
                         minimum=1, maximum=1024)
    explicit: tuple[int, ...] = param((), doc="The explicit order: every linear tile number "
                                      "row·cols + col exactly once.", minimum=0,
                                      maximum=MAX_TILES - 1, length=(0, MAX_TILES))
    k_tiles: int = param(1, doc="Depth of each A row panel and B column panel in tiles along K "
                         "(1 folds K away).", minimum=1, maximum=MAX_K_TILES)
    in_flight: int = param(1, doc="Output tiles processed at once (think: SMs).", minimum=1,
                           maximum=4096)
    capacity: int | None = param(8, doc="LRU cache capacity in tiles; empty for unbounded.",
                                 minimum=1, maximum=1_000_000)
    cache: str = param("tiles", doc="How the LRU is sized: 'tiles' takes capacity; 'l2-whole' "
                       "the architecture's whole L2; 'l2-partition' one of its two L2 "
                       "partitions (half the L2), less l2_reserved_bytes.", choices=CACHES)
    arch: str | None = param(None, doc="Architecture preset whose L2 sizes the cache (l2-whole, "
                             "l2-partition); empty means the scenario's architecture.",
                             choices=preset_names())
    tile_bytes: int = param(16384, doc="Bytes of one A or B tile, to count the L2 in tiles "
                            "(128 × 64 bf16 = 16 KiB).", minimum=1, maximum=1 << 26)
    l2_reserved_bytes: int = param(0, doc="L2 bytes (of each partition for l2-partition) set "
                                   "aside for C tiles and other traffic.", minimum=0,
                                   maximum=1 << 30)
    sweep: bool = param(True, doc="Also compute misses against capacity for every order.")
    sweep_capacities: tuple[int, ...] = param((), doc="Capacities of the sweep; empty for "
                                              "32 spread up to every tile fitting.", minimum=1,
                                              maximum=1_000_000, length=(0, MAX_SWEEP_POINTS))


PARAMS = TraversalParams


@dataclass(frozen=True)
class OrderRun:
    """One order through the cache: what each step hit and loaded."""

    order_name: str
    order: np.ndarray  # (tiles, 2) int: the (row, col) visited at each position
    loads_per_step: np.ndarray
    hits_per_step: np.ndarray
    cumulative_loads: np.ndarray
    a_loads: int
    b_loads: int
    hits: int
    misses: int
    reuse: PanelReuse = not_in_json()  # every request's stack distance, one K level at a time

    @property
    def accesses(self) -> int:
        return self.reuse.requests


@dataclass(frozen=True)
class SweepResult:
    capacities: tuple[int, ...]
    misses_by_order: dict[str, tuple[int, ...]]
    # loads so far after each step, at the scenario's own capacity
    cumulative_loads_by_order: dict[str, tuple[int, ...]]


@dataclass(frozen=True)
class TraversalResult:
    rows: int
    cols: int
    k_tiles: int
    in_flight: int
    capacity: int | None
    group_m: int
    cache: str  # how the capacity was sized (CACHES)
    cache_label: str  # the cache in words (cache_label)
    steps: int
    accesses: int
    distinct_tiles: int
    order_name: str
    order: np.ndarray
    loads_per_step: np.ndarray
    hits_per_step: np.ndarray
    cumulative_loads: np.ndarray
    a_loads: int
    b_loads: int
    hits: int
    misses: int
    # tiles loaded ÷ distinct A and B tiles: the DRAM bytes read ÷ the bytes of A and B that
    # the cache lets through (1.0 = every operand byte read once)
    operand_traffic: float
    compare: OrderRun | None
    capacities: tuple[int, ...]
    misses_by_order: dict[str, tuple[int, ...]]
    cumulative_loads_by_order: dict[str, tuple[int, ...]]
    main: OrderRun = not_in_json()
    # what was computed (the figure looks up a measurement of it)
    params: TraversalParams = not_in_json()


# --------------------------------------------------------------------------- cache


def _run(name: str, params: TraversalParams) -> OrderRun:
    order, reuse = order_reuse(name, params)
    assert reuse is not None  # only a cancelled computation has none, and nothing cancels this one
    loads, miss = loads_per_step(reuse, effective_capacity(params))
    requests = np.bincount(reuse.step, minlength=reuse.steps) * params.k_tiles
    is_a = reuse.is_a()
    misses = int(loads.sum())
    return OrderRun(
        order_name=name, order=order, loads_per_step=loads, hits_per_step=requests - loads,
        cumulative_loads=np.cumsum(loads), a_loads=int(miss[is_a].sum()),
        b_loads=int(miss[~is_a].sum()), hits=reuse.requests - misses, misses=misses,
        reuse=reuse)


def order_reuse(name: str, params: TraversalParams,
                cancelled: Callable[[], bool] | None = None
                ) -> tuple[np.ndarray, PanelReuse | None]:
    """The order ``name`` over the grid of ``params`` and its requests' stack distances, shared
    (:func:`gpuviz.models.traversal_lru.kept_reuse`)."""
    return kept_reuse(name, params.rows, params.cols, params.group_m, params.explicit,
                      params.k_tiles, params.in_flight, cancelled)


def l2_arch(params: TraversalParams) -> str:
    return params.arch or DEFAULT_ARCH


def l2_cache_bytes(params: TraversalParams) -> int | None:
    """The L2 bytes the LRU stands for: the whole L2 or one partition, less the reserve; None
    when the capacity is given in tiles."""
    if params.cache == "tiles":
        return None
    l2 = int(preset_value(l2_arch(params), "l2_bytes"))
    size = l2 if params.cache == "l2-whole" else l2 // L2_PARTITIONS
    return size - params.l2_reserved_bytes


def effective_capacity(params: TraversalParams) -> int | None:
    """The LRU's capacity in tiles: ``capacity`` for ``cache = "tiles"``, else the L2 bytes of
    :func:`l2_cache_bytes` in whole tiles of ``tile_bytes`` (at least 1)."""
    size = l2_cache_bytes(params)
    if size is None:
        return params.capacity
    return max(1, size // params.tile_bytes)


def cache_label(params: TraversalParams) -> str:
    """The cache in words, e.g. "LRU of one L2 partition of the NVIDIA H200 …: 1,920 tiles"."""
    cap = effective_capacity(params)
    if params.cache == "tiles":
        return "LRU, unbounded" if cap is None else f"LRU of {cap:,} tiles"
    part = "the whole L2" if params.cache == "l2-whole" else "one L2 partition (half the L2)"
    reserve = (f", {params.l2_reserved_bytes:,} B reserved" if params.l2_reserved_bytes else "")
    return (f"LRU of {part} of the {arch_short(l2_arch(params))}{reserve}: {cap:,} tiles of "
            f"{params.tile_bytes:,} B")


def arch_short(name: str) -> str:
    return load_preset(name)["name"].split(" (")[0]


def distinct_tiles(params: TraversalParams) -> int:
    return (params.rows + params.cols) * params.k_tiles


def sweep_capacities(params: TraversalParams) -> tuple[int, ...]:
    """The sweep's capacities: the scenario's, or spread from 1 to every tile fitting: 32 evenly,
    or, from LOG_SWEEP_RATIO tiles up, 48 by equal ratios (a real L2 holds thousands of tiles,
    and what happens at 10 and at 100 tiles matters as much as at 3,000)."""
    if params.sweep_capacities:
        return tuple(sorted(set(params.sweep_capacities)))
    top = distinct_tiles(params)
    spread = (np.geomspace(1, top, LOG_SWEEP_POINTS) if top >= LOG_SWEEP_RATIO
              else np.linspace(1, top, SWEEP_POINTS)).round()
    l2_tiles = effective_capacity(params)
    if params.cache != "tiles" and l2_tiles is not None:  # the L2's own size is on the sweep
        spread = np.append(spread, min(l2_tiles, top))
    return tuple(int(v) for v in np.unique(spread))


def sweep_orders(params: TraversalParams) -> tuple[str, ...]:
    names = list(SWEEP_ORDERS)
    if "explicit" in (params.order, params.compare_order):
        names.append("explicit")
    return tuple(names)


def sweep(params: TraversalParams, progress: Callable[[int, int], None] | None = None,
          cancelled: Callable[[], bool] | None = None,
          known: dict[str, PanelReuse] | None = None) -> SweepResult | None:
    """Misses against capacity for every order. ``progress(done, total)`` is called after each
    order; ``cancelled()`` is polled while working and stops the sweep (None is returned).
    ``known`` maps order names to the reuse already computed for these parameters."""
    capacities = sweep_capacities(params)
    caps = np.asarray(capacities, dtype=np.int64)
    names = sweep_orders(params)
    out: dict[str, tuple[int, ...]] = {}
    cumulative: dict[str, tuple[int, ...]] = {}
    capacity = effective_capacity(params)
    for done, name in enumerate(names):
        if cancelled is not None and cancelled():
            return None
        reuse = (known or {}).get(name)
        if reuse is None:
            reuse = order_reuse(name, params, cancelled)[1]
            if reuse is None:
                return None
        misses = reuse_misses_at(reuse, caps, cancelled)
        if misses is None:
            return None
        out[name] = tuple(misses.tolist())
        loads, _ = loads_per_step(reuse, capacity)
        cumulative[name] = tuple(np.cumsum(loads).tolist())
        if progress is not None:
            progress(done + 1, len(names))
    return SweepResult(capacities, out, cumulative)


def _listed(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def problems(params: TraversalParams) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    tiles = params.rows * params.cols
    if tiles > MAX_TILES:
        found.append(("rows", f"The grid has {tiles} tiles; at most {MAX_TILES} are supported."))
    if params.cache != "tiles":
        preset = load_preset(l2_arch(params))
        if params.cache == "l2-partition" and not (
                preset["vendor"] == "nvidia" and float(preset["compute_capability"]) >= 8.0):
            found.append(("cache", f"The {preset['name']} is not known to split its L2 into two "
                          "partitions (the A100 whitepaper describes that design, H200 "
                          "measurements agree); use "
                          "l2-whole or a capacity in tiles."))
        size = l2_cache_bytes(params)
        if size is not None and size < params.tile_bytes:
            found.append(("l2_reserved_bytes", f"The reserve leaves {max(size, 0):,} bytes of L2, "
                          f"less than one tile of {params.tile_bytes:,} bytes."))
    if "explicit" in (params.order, params.compare_order):
        given = np.asarray(params.explicit, dtype=np.int64)
        if len(given) != tiles or not np.array_equal(np.sort(given), np.arange(tiles)):
            out_of_range = sorted({int(v) for v in given if v >= tiles})[:3]
            seen: set[int] = set()
            dup: list[int] = []
            for v in params.explicit:
                if v in seen and len(dup) < 3:
                    dup.append(v)
                seen.add(v)
            detail = []
            if out_of_range:
                detail.append(f"{_listed(out_of_range)} "
                              f"{'is not a tile' if len(out_of_range) == 1 else 'are not tiles'}"
                              f" of a {params.rows} × {params.cols} grid")
            if dup:
                detail.append(f"{_listed(dup)} {'appears' if len(dup) == 1 else 'appear'} "
                              "more than once")
            if len(given) != tiles:
                detail.append(f"it lists {len(given)} tiles, the grid has {tiles}")
            found.append(("explicit", "The explicit order must list every tile number "
                          f"0–{tiles - 1} exactly once: " + "; ".join(detail) + "."))
    return found


def compute(params: TraversalParams, progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> TraversalResult:
    main = _run(params.order, params)
    compare = None
    if params.compare_order != "none":
        compare = _run(params.compare_order, params)
    capacities: tuple[int, ...] = ()
    misses_by_order: dict[str, tuple[int, ...]] = {}
    cumulative_by_order: dict[str, tuple[int, ...]] = {}
    if params.sweep:
        known = {main.order_name: main.reuse}
        if compare is not None:
            known[compare.order_name] = compare.reuse
        result = sweep(params, progress, cancelled, known)
        if result is not None:
            capacities, misses_by_order = result.capacities, result.misses_by_order
            cumulative_by_order = result.cumulative_loads_by_order
    return TraversalResult(
        rows=params.rows, cols=params.cols, k_tiles=params.k_tiles, in_flight=params.in_flight,
        capacity=effective_capacity(params), group_m=params.group_m, cache=params.cache,
        cache_label=cache_label(params),
        steps=len(main.loads_per_step), accesses=main.accesses,
        distinct_tiles=distinct_tiles(params), order_name=main.order_name, order=main.order,
        loads_per_step=main.loads_per_step, hits_per_step=main.hits_per_step,
        cumulative_loads=main.cumulative_loads, a_loads=main.a_loads, b_loads=main.b_loads,
        hits=main.hits, misses=main.misses,
        operand_traffic=main.misses / max(distinct_tiles(params), 1), compare=compare,
        capacities=capacities,
        misses_by_order=misses_by_order, cumulative_loads_by_order=cumulative_by_order,
        main=main, params=params,
    )


def without_sweep(params: TraversalParams) -> TraversalParams:
    return replace(params, sweep=False)


def canonical(params: TraversalParams) -> TraversalParams:
    """What a measurement of these parameters depends on: the main order's DRAM traffic at the
    cache's size. The sweep and the order drawn beside it change nothing of it, nor does a
    capacity the L2 sizes, GROUP_M outside the grouped order, or an explicit order outside the
    explicit one; those fields are reset to their defaults."""
    d = TraversalParams()
    changes: dict[str, object] = {"sweep": d.sweep, "sweep_capacities": d.sweep_capacities,
                                  "compare_order": d.compare_order}
    if params.cache != "tiles":
        changes["capacity"] = d.capacity
    if params.order != "grouped":
        changes["group_m"] = d.group_m
    if params.order != "explicit":
        changes["explicit"] = d.explicit
    return replace(params, **changes)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- state at a step


@dataclass(frozen=True)
class StepState:
    """The cache after ``step`` steps (0 = before the first)."""

    step: int
    visited: int  # output tiles finished
    a_resident: np.ndarray  # (rows, k_tiles) bool
    b_resident: np.ndarray  # (k_tiles, cols) bool
    a_loaded: np.ndarray  # (rows, k_tiles) bool: missed (loaded) during this step
    b_loaded: np.ndarray
    a_hit: np.ndarray  # (rows, k_tiles) bool: hit during this step
    b_hit: np.ndarray
    hits: int  # during this step
    loads: int


_STATES: OrderedDict[tuple[int, int, int | None, int], tuple[OrderRun, StepState]] = \
    OrderedDict()
_STATES_LOCK = threading.Lock()
STATES_KEPT = 16  # a view's layout search builds the figure of one step in every design


def state_after(run: OrderRun, rows: int, cols: int, k_tiles: int, in_flight: int,
                capacity: int | None, step: int) -> StepState:
    """Which A and B tiles are resident after ``step`` steps, and what that step hit and loaded.

    The resident set of an LRU cache of capacity C is the C most recently used distinct tiles.
    The last few states asked for are kept (with their run, so its id names it while kept)."""
    steps = len(run.loads_per_step)
    step = max(0, min(step, steps))
    key = (id(run), in_flight, capacity, step)
    with _STATES_LOCK:
        hit = _STATES.get(key)
        if hit is not None and hit[0] is run:
            _STATES.move_to_end(key)
            return hit[1]
    state = _state_after(run, rows, capacity, step, in_flight)
    with _STATES_LOCK:
        _STATES[key] = (run, state)
        while len(_STATES) > STATES_KEPT:
            _STATES.popitem(last=False)
    return state


def _state_after(run: OrderRun, rows: int, capacity: int | None, step: int,
                 in_flight: int) -> StepState:
    got = resident_after(run.reuse, capacity, step)

    def split(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return v[:rows], v[rows:].T

    ar, br = split(got.resident)
    al, bl = split(got.loaded)
    ah, bh = split(got.hit)
    for m in (ar, br, al, bl, ah, bh):  # kept and shared by the figures that draw it
        m.setflags(write=False)
    return StepState(step=step, visited=min(step * in_flight, len(run.order)), a_resident=ar,
                     b_resident=br, a_loaded=al, b_loaded=bl, a_hit=ah, b_hit=bh,
                     hits=got.hits, loads=got.loads)


def _snake(rows: int, cols: int) -> list[int]:
    return [r * cols + (c if r % 2 == 0 else cols - 1 - c) for r in range(rows)
            for c in range(cols)]


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("256×256, k 1024, explicit order", {"rows": 256, "cols": 256, "k_tiles": 1024,
                                             "order": "explicit", "compare_order": "hilbert",
                                             "explicit": _snake(256, 256),
                                             "capacity": 64}),
        ("256×256, k 1024, hilbert vs grouped", {"rows": 256, "cols": 256, "k_tiles": 1024,
                                                 "order": "hilbert", "compare_order": "grouped",
                                                 "group_m": 3, "capacity": 1_000_000}),
        ("1024×64, k 1024, column vs hilbert", {"rows": 1024, "cols": 64, "k_tiles": 1024,
                                                "order": "column-major",
                                                "compare_order": "hilbert", "capacity": 700}),
        ("256×256, k 1024, in flight 4096", {"rows": 256, "cols": 256, "k_tiles": 1024,
                                             "in_flight": 4096, "order": "grouped",
                                             "compare_order": "row-major", "capacity": 2000}),
        ("128×128, k 1024, unbounded", {"rows": 128, "cols": 128, "k_tiles": 1024,
                                        "order": "hilbert", "compare_order": "grouped",
                                        "capacity": None}),
        ("1024 sweep capacities", {"rows": 256, "cols": 256, "k_tiles": 1024, "order": "hilbert",
                                   "sweep_capacities": list(range(1, 1025))}),
        ("H200 L2 partition, 16384², k 512", {"rows": 128, "cols": 128, "k_tiles": 512,
                                              "in_flight": 132, "order": "hilbert",
                                              "compare_order": "grouped", "group_m": 8,
                                              "cache": "l2-partition", "arch": "h200",
                                              "tile_bytes": 8192}),
    ]
