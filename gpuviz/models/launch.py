"""Launch explorer: which thread owns which index, which warps exist, which lanes are masked.

Rules (source text "GPU Architecture and CUDA Programming", *Follow one thread from launch to output*;
CUDA C++ Programming Guide, *Thread Hierarchy*):

- A block's linear thread id is ``x + y·Bx + z·Bx·By`` (x varies fastest). Consecutive linear ids
  form a warp of ``warp_size`` lanes, whatever shape the block is drawn in.
- A block of T threads has ⌈T / warp_size⌉ warps; lanes past T in the last warp do not exist.
- A thread is *valid* when its global coordinate lies inside the problem extent; the others are
  masked by the bounds guard (``if (i < n)``) but still occupy their lanes.
- The global index of a valid thread is its global coordinate flattened over the extent, x fastest;
  for a 1-D launch that is ``blockIdx.x·blockDim.x + threadIdx.x``.
- Dispatch waves are an illustration, not a CUDA scheduling guarantee: blocks in linear order fill
  ``sm_count × slots_per_sm`` slots per wave, round-robin over the SMs.
- Tile quantization: an M×N output covered by TM×TN tiles needs ⌈M/TM⌉·⌈N/TN⌉ tiles, each with
  TM·TN output slots; wave quantization puts those tiles on ``sm_count × blocks_per_sm`` slots.
"""

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from gpuviz.models.params import param
from gpuviz.models.threads import MAX_BLOCK_THREADS, MAX_GRID_YZ, block_problems, warp_problems

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_BLOCK_THREADS", "LaunchParams", "LaunchResult", "compute", "problems",
           "warnings"]
MAX_GRID_BLOCKS = 1 << 20  # beyond this even an aggregated drawing stops being useful


@dataclass(frozen=True)
class QuantizationParams:
    matrix_m: int = param(33, doc="Rows of the output matrix.", minimum=1, maximum=1 << 20)
    matrix_n: int = param(33, doc="Columns of the output matrix.", minimum=1, maximum=1 << 20)
    tile_m: int = param(32, doc="Rows of one output tile.", minimum=1, maximum=4096)
    tile_n: int = param(32, doc="Columns of one output tile.", minimum=1, maximum=4096)
    sm_count: int = param(132, doc="SMs the tiles are spread over (132 on H100 SXM).",
                          minimum=1, maximum=1024)
    blocks_per_sm: int = param(1, doc="Tiles resident on one SM at a time.", minimum=1, maximum=64)


@dataclass(frozen=True)
class LaunchParams:
    n: int | None = param(130, doc="Problem size of a 1-D launch (valid indices 0 … n−1).",
                          minimum=1, maximum=1 << 40)
    extent: tuple[int, ...] | None = param(
        None, doc="Problem extent (x, y, z) of a multi-dimensional launch; replaces n.",
        minimum=1, maximum=1 << 31, length=(1, 3))
    grid: tuple[int, ...] | None = param(
        None, doc="Blocks per dimension (x, y, z); by default just enough to cover the extent "
                  "(fewer leave elements unprocessed: accepted with a warning).",
        minimum=1, maximum=(1 << 31) - 1, length=(1, 3))
    block: tuple[int, ...] = param((64,), doc="Threads per block in (x, y, z).",
                                   minimum=1, maximum=1024, length=(1, 3))
    warp_size: int = param(32, doc="Lanes per warp: 32 on NVIDIA, 64 for AMD CDNA wavefronts.",
                           choices=(32, 64))
    sm_count: int = param(2, doc="Synthetic SMs in the dispatch illustration.", minimum=1, maximum=64)
    slots_per_sm: int = param(2, doc="Block slots per synthetic SM.", minimum=1, maximum=32)
    selected_block: int = param(0, doc="Linear id of the selected block (x fastest).", minimum=0)
    selected_warp: int = param(0, doc="Warp of the selected block whose lanes are shown.", minimum=0)
    quantization: QuantizationParams = param(doc="Tile and wave quantization of a matrix output.",
                                             default_factory=QuantizationParams)


PARAMS = LaunchParams


@dataclass(frozen=True)
class Lane:
    lane: int
    tid: int  # linear thread id within the block
    thread: tuple[int, int, int]  # threadIdx
    global_coord: tuple[int, int, int]
    global_index: int | None  # None when masked
    exists: bool  # False for lanes past the end of the block
    valid: bool


@dataclass(frozen=True)
class LaunchResult:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    extent: tuple[int, int, int]
    warp_size: int
    blocks: int
    threads_per_block: int
    threads_launched: int
    valid_threads: int
    warps_per_block: int
    warps_launched: int
    sm_count: int
    slots_per_sm: int
    slots_per_wave: int
    waves: int
    selected_block: int
    selected_block_idx: tuple[int, int, int]
    selected_block_wave: int
    selected_block_sm: int
    selected_block_valid: int
    selected_warp: int
    active_lanes: tuple[int, ...]
    masked_lanes: tuple[int, ...]
    lanes: tuple[Lane, ...]
    warp_valid_lanes: tuple[int, ...]  # valid lanes per warp of the selected block
    matrix: tuple[int, int]
    tile: tuple[int, int]
    tiles: int
    tiles_m: int
    tiles_n: int
    tile_slots: int
    tile_valid: int
    tile_slots_per_wave: int
    tile_sms: int  # the SMs the tiles are spread over: tile_slots_per_wave = tile_sms × tiles_per_sm
    tiles_per_sm: int
    wave_count: int
    last_wave_fill: float
    # Validity separates per axis: block (i, j, k) has span(0, i) · span(1, j) · span(2, k)
    # valid threads, span(d, i) = clip(extent[d] − i·block[d], 0, block[d]). Spans are computed
    # when asked for, never stored per block (a grid of 2^20 blocks would hold 2^20 of them).

    def _span(self, d: int, i: int) -> int:
        return min(max(self.extent[d] - i * self.block[d], 0), self.block[d])

    def block_valid(self, b: int) -> int:
        """Valid threads of block ``b`` (linear id, x fastest)."""
        gx, gy, _ = self.grid
        return (self._span(0, b % gx) * self._span(1, (b // gx) % gy)
                * self._span(2, b // (gx * gy)))

    def block_counts(self) -> tuple[int, int, int]:
        """(wholly valid, partly masked, wholly masked) blocks."""
        full = [min(g, e // b) for g, e, b in zip(self.grid, self.extent, self.block, strict=True)]
        nonzero = [min(g, -(-e // b)) for g, e, b in zip(self.grid, self.extent, self.block,
                                                          strict=True)]
        whole = full[0] * full[1] * full[2]
        empty = self.blocks - nonzero[0] * nonzero[1] * nonzero[2]
        return whole, self.blocks - whole - empty, empty

    def block_valid_all(self) -> "np.ndarray":
        """Valid threads of every block, in linear order (x fastest), as a read-only int32
        array. The last few are kept (a figure laid out for a view reads them for every design
        it tries; a list of 2^20 Python ints cost 0.17 s each time), not one per cached result."""
        return _valid_per_block(self.grid, self.block, self.extent)


@lru_cache(maxsize=4)
def _valid_per_block(grid: tuple[int, int, int], block: tuple[int, int, int],
                     extent: tuple[int, int, int]) -> "np.ndarray":
    import numpy as np  # only the figures drawing every block read these (not the first frame)

    sx, sy, sz = (np.clip(extent[d] - np.arange(grid[d], dtype=np.int64) * block[d], 0,
                          block[d]).astype(np.int32) for d in range(3))
    every = (sz[:, None, None] * sy[None, :, None] * sx[None, None, :]).reshape(-1)
    every.flags.writeable = False
    return every


def _pad3(values: tuple[int, ...], fill: int = 1) -> tuple[int, int, int]:
    v = tuple(int(x) for x in values) + (fill,) * (3 - len(values))
    return v[0], v[1], v[2]


def resolve_shape(p: LaunchParams) -> tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]:
    """(grid, block, extent) as 3-tuples, filling whichever of grid and extent was left out."""
    block = _pad3(p.block)
    if p.extent is not None:
        extent = _pad3(p.extent)
    elif p.n is not None:
        extent = (int(p.n), 1, 1)
    else:
        extent = None
    if p.grid is not None:
        grid = _pad3(p.grid)
    elif extent is not None:
        gx, gy, gz = (-(-e // b) for e, b in zip(extent, block, strict=True))
        grid = (gx, gy, gz)
    else:
        grid = (1, 1, 1)
    if extent is None:
        ex, ey, ez = (g * b for g, b in zip(grid, block, strict=True))
        extent = (ex, ey, ez)
    return grid, block, extent


def problems(p: LaunchParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if p.n is not None and p.extent is not None:
        out.append(("extent", "give either n (a 1-D launch) or extent, not both"))
    if p.n is None and p.extent is None and p.grid is None:
        out.append(("n", "say how big the problem is: give n, extent or grid"))
    threads = math.prod(p.block)
    out += block_problems(p.block, "block")
    if out:
        return out
    grid, _, _ = resolve_shape(p)
    if grid[1] > MAX_GRID_YZ or grid[2] > MAX_GRID_YZ:
        out.append(("grid", f"gridDim.y and gridDim.z are at most {MAX_GRID_YZ}"))
    blocks = grid[0] * grid[1] * grid[2]
    if blocks > MAX_GRID_BLOCKS:
        out.append(("grid" if p.grid is not None else ("extent" if p.extent is not None else "n"),
                    f"this launch has {blocks:,} blocks; drawing more than {MAX_GRID_BLOCKS:,} "
                    "blocks would need millions of items — use a smaller problem or larger blocks"))
        return out
    if p.selected_block >= blocks:
        out.append(("selected_block", f"block {p.selected_block} does not exist; "
                                      f"this launch has blocks 0 … {blocks - 1}"))
    out += warp_problems(p.selected_warp, p.warp_size, threads, "selected_warp")
    return out


def warnings(p: LaunchParams) -> list[tuple[str, str]]:
    """What a launch the model computes exactly likely did not mean: a grid given with too few
    blocks leaves elements that no thread processes (each thread handles one element, as the
    CUDA Programming Guide's vector-add launch does). A selected warp whose every lane is
    masked is no warning: showing one is what the panel is for."""
    out: list[tuple[str, str]] = []
    grid, block, extent = resolve_shape(p)
    short = [d for d in range(3) if grid[d] * block[d] < extent[d]]
    if short:
        d, total = short[0], math.prod(extent)
        covered = math.prod(min(extent[i], grid[i] * block[i]) for i in range(3))
        need = -(-extent[d] // block[d])
        out.append(("grid", f"the grid covers {covered:,} of the {total:,} elements (along "
                            f"{'xyz'[d]}: {grid[d]:,} block{'s' if grid[d] != 1 else ''} × "
                            f"{block[d]:,} threads < {extent[d]:,}); each thread handles one "
                            f"element, so {total - covered:,} are never processed: give at "
                            f"least {need:,} blocks along {'xyz'[d]}, or leave grid out"))
    return out


def compute(p: LaunchParams) -> LaunchResult:
    grid, block, extent = resolve_shape(p)
    bx, by, bz = block
    threads_per_block = bx * by * bz
    blocks = grid[0] * grid[1] * grid[2]
    ws = p.warp_size
    warps_per_block = -(-threads_per_block // ws)

    valid_threads = math.prod(min(extent[d], grid[d] * block[d]) for d in range(3))

    slots = p.sm_count * p.slots_per_sm
    waves = -(-blocks // slots)
    sel = min(p.selected_block, blocks - 1)
    sel_idx = (sel % grid[0], (sel // grid[0]) % grid[1], sel // (grid[0] * grid[1]))
    warp = min(p.selected_warp, warps_per_block - 1)

    lanes = []
    for lane in range(ws):
        tid = warp * ws + lane
        exists = tid < threads_per_block
        t = (tid % bx, (tid // bx) % by, tid // (bx * by))
        g = tuple(sel_idx[d] * block[d] + t[d] for d in range(3))
        valid = exists and all(g[d] < extent[d] for d in range(3))
        gi = g[0] + g[1] * extent[0] + g[2] * extent[0] * extent[1] if valid else None
        lanes.append(Lane(lane, tid, t, g, gi, exists, valid))  # type: ignore[arg-type]

    # valid threads of the selected block along each axis (a thread is valid iff all three are)
    # as flags in linear order, built row by row with list arithmetic (no numpy on the start-up
    # path, whose first figure is a launch)
    lx, ly, lz = (min(max(extent[d] - sel_idx[d] * block[d], 0), block[d]) for d in range(3))
    row = [1] * lx + [0] * (bx - lx)
    plane = row * ly + [0] * (bx * (by - ly))
    ok = plane * lz + [0] * (bx * by * (block[2] - lz))
    warp_valid = [sum(ok[i:i + ws]) for i in range(0, threads_per_block, ws)]

    q = p.quantization
    tiles_m, tiles_n = -(-q.matrix_m // q.tile_m), -(-q.matrix_n // q.tile_n)
    tiles = tiles_m * tiles_n
    per_wave = q.sm_count * q.blocks_per_sm
    wave_count = -(-tiles // per_wave)
    last_fill = (tiles - (wave_count - 1) * per_wave) / per_wave

    return LaunchResult(
        grid=grid, block=block, extent=extent, warp_size=ws, blocks=blocks,
        threads_per_block=threads_per_block, threads_launched=blocks * threads_per_block,
        valid_threads=valid_threads, warps_per_block=warps_per_block,
        warps_launched=blocks * warps_per_block, sm_count=p.sm_count,
        slots_per_sm=p.slots_per_sm, slots_per_wave=slots, waves=waves,
        selected_block=sel, selected_block_idx=sel_idx, selected_block_wave=sel // slots,
        selected_block_sm=(sel % slots) % p.sm_count, selected_block_valid=math.prod(
            min(max(extent[d] - sel_idx[d] * block[d], 0), block[d]) for d in range(3)),
        selected_warp=warp,
        active_lanes=tuple(ln.lane for ln in lanes if ln.valid),
        masked_lanes=tuple(ln.lane for ln in lanes if not ln.valid),
        lanes=tuple(lanes), warp_valid_lanes=tuple(warp_valid),
        matrix=(q.matrix_m, q.matrix_n), tile=(q.tile_m, q.tile_n), tiles=tiles, tiles_m=tiles_m, tiles_n=tiles_n, tile_slots=tiles * q.tile_m * q.tile_n,
        tile_valid=q.matrix_m * q.matrix_n, tile_slots_per_wave=per_wave,
        tile_sms=q.sm_count, tiles_per_sm=q.blocks_per_sm, wave_count=wave_count,
        last_wave_fill=last_fill,
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("1-D, 2^20 blocks of 1024", {"grid": [1 << 20], "block": [1024]}),
        ("3-D grid 1024×32×32", {"grid": [1024, 32, 32], "block": [16, 8, 8], "warp_size": 64,
                                 "sm_count": 64, "slots_per_sm": 32,
                                 "selected_block": (1 << 20) - 1, "selected_warp": 15}),
        ("quantization at its bounds", {"n": 130, "quantization": {
            "matrix_m": 1048576, "matrix_n": 1048576, "tile_m": 1, "tile_n": 1,
            "sm_count": 1, "blocks_per_sm": 1}}),
    ]
