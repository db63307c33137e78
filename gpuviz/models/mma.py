"""Tensor-core fragments: who owns every element of a matrix instruction's operands.

Four parts, each exact and from the PTX ISA (the rules and their sections are in the docstrings
of :mod:`gpuviz.models.mma_fragments` and :mod:`gpuviz.models.mma_warpgroup`):

- **fragments** of a warp-level ``mma.sync.aligned`` (m16n8k16 f16/bf16 → f16/f32, m16n8k8 tf32
  → f32, m16n8k32 s8/u8 → s32, m8n8k4 f64): for A, B and C/D, the lane, element, 32-bit register
  and half or byte of each element; registers per thread. One warp executes the instruction.
- **feed**: ``ldmatrix``/``stmatrix`` .x1/.x2/.x4 (``.trans``) moving an m16n8k16 A or B fragment
  between shared memory and registers: which lane gives which row address, and the wavefronts
  those rows take under a row-major, padded or swizzled tile, counted by the banks model
  (:mod:`gpuviz.models.banks`, which the H200 measurements check).
- **warpgroup**: Hopper ``wgmma.mma_async`` m64nNk16 (f16/bf16 → f32): whether four warps form a
  warpgroup, the accumulator's owners, A from registers or shared memory, the matrix
  descriptor's core matrices, and the commit/wait completion rule, stepped.
- **hierarchy**: a block tile split into warp tiles of m16n8k16 tiles: accumulator registers per
  thread, and the resident blocks the register file then allows (the occupancy model's rule).

A warp-level instruction involves one warp; only ``wgmma`` needs four warps, and they must be an
aligned warpgroup ("tensor cores always need four warps" is too broad).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpuviz.models import banks
from gpuviz.models import mma_fragments as frag
from gpuviz.models import mma_warpgroup as wg
from gpuviz.models.arch import DEFAULT_ARCH, preset_names
from gpuviz.models.params import param
from gpuviz.models.swizzle import apply_swizzle

SHAPES = tuple(frag.SHAPES)
DTYPES = ("f16", "bf16", "tf32", "s8", "u8", "f64")
ACCUMULATORS = ("f32", "f16", "s32", "f64")
LAYOUTS = ("row-major", "padded", "swizzled")
SWIZZLES = ("128B", "64B", "32B")
DESCRIPTOR_SWIZZLES = ("none", "32B", "64B", "128B")
#: The figure's parts, in the order they are drawn.
PARTS = ("fragment-a", "fragment-b", "fragment-c", "feed", "warpgroup", "descriptor",
         "completion", "hierarchy")
FRAGMENT_PARTS = PARTS[:3]


@dataclass(frozen=True)
class MmaFeed:
    op: str = param("ldmatrix", doc="ldmatrix (shared memory → registers) or stmatrix "
                                    "(registers → shared memory).", choices=("ldmatrix",
                                                                             "stmatrix"))
    operand: str = param("a", doc="The m16n8k16 operand moved: a (16 × 16) or b (16 × 8; with "
                                  "x4, two n8 tiles side by side).", choices=("a", "b"))
    matrices: int = param(4, doc="8 × 8 matrices of 16-bit elements (x1, x2, x4): lanes 0 … "
                                 "8·matrices − 1 each give one 16-byte row address.",
                          choices=(1, 2, 4))
    trans: bool = param(False, doc=".trans: the tile is stored transposed (A as K × M, B as "
                                   "K × N); each lane still receives its fragment.")
    layout: str = param("row-major", doc="How the tile lies in shared memory: row-major, "
                                         "padded rows, or XOR-swizzled 16-byte chunks.",
                        choices=LAYOUTS)
    row_elements: int = param(64, doc="16-bit elements per stored row of the tile (its K "
                                      "extent: 64 = 128 bytes).", minimum=8, maximum=512)
    padding: int = param(8, doc="Unused 16-bit elements after each row (layout padded).",
                         minimum=0, maximum=64)
    swizzle: str = param("128B", doc="XOR swizzle of the byte addresses (layout swizzled): the "
                                     "TMA modes, as in the swizzle panel.", choices=SWIZZLES)


@dataclass(frozen=True)
class MmaWarpgroup:
    n: int = param(64, doc="N of wgmma.mma_async m64nNk16.", choices=wg.N_CHOICES)
    first_warp: int = param(0, doc="Warp rank (in the block) of the first of the four "
                                   "contiguous warps that execute the wgmma.",
                            minimum=0, maximum=28)
    block_warps: int = param(4, doc="Warps in the block.", minimum=1, maximum=32)
    a_source: str = param("registers", doc="Where A comes from: registers (each warp holds its "
                                           "16 rows as an m16n8k16 A fragment) or shared "
                                           "memory through a descriptor.",
                          choices=("registers", "shared"))
    swizzle: str = param("128B", doc="Swizzle mode of the descriptor (and of the K-major "
                                     "operand tiles in shared memory).",
                         choices=DESCRIPTOR_SWIZZLES)
    k_steps: int = param(1, doc="wgmma instructions along K (16 elements each); a swizzled "
                                "tile's row holds swizzle bytes / 32 of them.",
                         minimum=1, maximum=4)
    start_address: int = param(0, doc="B's start address in bytes from a 1024-byte-aligned "
                                      "shared buffer (a multiple of 16).",
                               minimum=0, maximum=1 << 17)
    leading_byte_offset: int | None = param(
        None, doc="LBO in bytes: between core matrices along K (no swizzle); empty: the dense "
                  "tile's.", minimum=16, maximum=(1 << 18) - 16)
    stride_byte_offset: int | None = param(
        None, doc="SBO in bytes: between 8-row groups along N (M for A); empty: the dense "
                  "tile's.", minimum=16, maximum=(1 << 18) - 16)
    stages: int = param(2, doc="Commit groups issued before waiting (the completion part).",
                        minimum=1, maximum=4)
    wait_pending: int = param(0, doc="N of wgmma.wait_group N: groups allowed to stay "
                                     "pending.", minimum=0, maximum=4)


@dataclass(frozen=True)
class MmaHierarchy:
    block_m: int = param(128, doc="Rows of the block tile (of C).", minimum=16, maximum=512)
    block_n: int = param(128, doc="Columns of the block tile.", minimum=8, maximum=512)
    warps_m: int = param(2, doc="Warps along M.", minimum=1, maximum=16)
    warps_n: int = param(2, doc="Warps along N.", minimum=1, maximum=16)
    other_registers: int = param(40, doc="Registers per thread besides accumulators and "
                                         "fragments (addresses, loop counters; an estimate).",
                                 minimum=0, maximum=200)


@dataclass(frozen=True)
class MmaParams:
    shape: str = param("m16n8k16", doc="Warp-level mma.sync shape.", choices=SHAPES)
    dtype: str = param("f16", doc="Input type of A and B (f16/bf16 for m16n8k16, tf32 for "
                                  "m16n8k8, s8/u8 for m16n8k32, f64 for m8n8k4).",
                       choices=DTYPES)
    accumulator: str = param("f32", doc="Type of C and D (f32 or f16 for f16 inputs, s32 for "
                                        "8-bit, f64 for f64).", choices=ACCUMULATORS)
    lane: int | None = param(None, doc="A lane whose elements are marked in A, B and C.",
                             minimum=0, maximum=31)
    show: tuple[str, ...] = param(FRAGMENT_PARTS, doc="The parts of the figure shown: "
                                  + ", ".join(PARTS) + ".", choices=PARTS, length=(1, 8))
    feed: MmaFeed = param(doc="ldmatrix / stmatrix feeding the fragment.",
                          default_factory=MmaFeed)
    warpgroup: MmaWarpgroup = param(doc="Hopper wgmma.", default_factory=MmaWarpgroup)
    hierarchy: MmaHierarchy = param(doc="Block tile → warp tiles → MMA tiles.",
                                    default_factory=MmaHierarchy)
    arch: str | None = param(None, doc="Architecture preset of the hierarchy's register file; "
                                       "empty means the scenario's.", choices=preset_names())


PARAMS = MmaParams


@dataclass(frozen=True)
class FeedRow:
    lane: int
    matrix: int
    row: int  # stored row of the tile
    col: int  # first stored column
    address: int  # physical byte address (after padding or swizzle)
    bank: int  # first bank of the 16-byte row


@dataclass(frozen=True)
class FeedResult:
    op: str
    operand: str
    matrices: int
    trans: bool
    layout: str
    row_bytes: int  # pitch of the stored tile
    swizzle: str | None
    rows: tuple[FeedRow, ...]
    wavefronts: int
    matrix_wavefronts: tuple[int, ...]
    ideal_wavefronts: int  # one per 8 × 8 matrix
    registers: tuple[tuple[tuple[int, int, int, int], ...], ...]  # lane → (reg, half, row, col)
    banks: banks.BanksResult = field(repr=False)


@dataclass(frozen=True)
class WarpgroupResult:
    n: int
    first_warp: int
    warps: tuple[int, ...]
    block_warps: int
    valid: bool
    warpgroups: tuple[int, ...]  # the warpgroup of each of the four warps
    reason: str
    d_owner: np.ndarray  # (64, n, 3): warp in group, lane, register
    d_registers_per_thread: int
    a_source: str
    a_registers_per_thread: int
    swizzle: str
    k_steps: int
    leading_byte_offset: int
    stride_byte_offset: int
    start_address: int
    descriptor: int  # encoded, start relative to the 1024-byte-aligned buffer
    descriptor_hex: str
    b_core_matrices: tuple[wg.CoreMatrix, ...]  # of K step 0
    b_row_offsets: np.ndarray  # (k_steps, n, 32): physical byte of each row's 32 bytes
    a_row_offsets: np.ndarray | None  # (k_steps, 64, 32) when A is in shared memory
    async_steps: tuple[wg.AsyncStep, ...]


@dataclass(frozen=True)
class HierarchyResult:
    block_m: int
    block_n: int
    warps: int
    warp_m: int
    warp_n: int
    mma_tiles: int  # m16n8 tiles per warp
    accumulator_registers: int
    fragment_registers: int  # A and B fragments of one k step
    other_registers: int
    registers_per_thread: int
    threads_per_block: int
    arch: str
    blocks_per_sm: int
    warps_per_sm: int
    register_limit: int  # blocks the register file allows
    limiter: str
    accumulator_share: float  # accumulators / registers per thread


@dataclass(frozen=True)
class MmaResult:
    shape: str
    dtype: str
    accumulator: str
    m: int
    n: int
    k: int
    lane: int | None
    show: tuple[str, ...]
    a: frag.Fragment = field(repr=False)
    b: frag.Fragment = field(repr=False)
    c: frag.Fragment = field(repr=False)
    a_owner: np.ndarray  # (M, K, 2) lane, element
    b_owner: np.ndarray  # (K, N, 2)
    c_owner: np.ndarray  # (M, N, 2)
    registers_per_thread: dict  # 32-bit registers of a, b, c
    elements_per_thread: dict
    feed: FeedResult
    ldmatrix_wavefronts: int
    warpgroup: WarpgroupResult
    warpgroup_valid: bool
    hierarchy: HierarchyResult


def problems(p: MmaParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if len(set(p.show)) != len(p.show):
        out.append(("show", "a part is listed twice"))
    if p.dtype not in frag.INPUT_TYPES[p.shape]:
        out.append(("dtype", f"{p.shape} takes {' or '.join(frag.INPUT_TYPES[p.shape])} "
                             f"inputs, not {p.dtype}"))
    elif p.accumulator not in frag.ACCUMULATORS[p.dtype]:
        out.append(("accumulator", f"{p.dtype} inputs accumulate in "
                                   f"{' or '.join(frag.ACCUMULATORS[p.dtype])}, not "
                                   f"{p.accumulator}"))
    f = p.feed
    pitch = (f.row_elements + (f.padding if f.layout == "padded" else 0)) * 2
    if pitch % 16:
        out.append(("feed.padding" if f.layout == "padded" else "feed.row_elements",
                    f"rows of {pitch} bytes: every ldmatrix row address must be 16-byte "
                    "aligned (a multiple of 8 elements)"))
    needed = 16 if f.operand == "a" or f.matrices == 4 else 8
    if f.row_elements < needed:
        out.append(("feed.row_elements", f"the stored rows must hold at least {needed} "
                                         "elements"))
    w = p.warpgroup
    if w.start_address % 16:
        out.append(("warpgroup.start_address", "a descriptor's start address is a multiple "
                                               "of 16 bytes"))
    for name in ("leading_byte_offset", "stride_byte_offset"):
        v = getattr(w, name)
        if v is not None and v % 16:
            out.append((f"warpgroup.{name}", "byte offsets are multiples of 16"))
    if w.swizzle != "none" and w.k_steps * wg.K_BYTES > wg.SWIZZLE_BYTES[w.swizzle]:
        most = wg.SWIZZLE_BYTES[w.swizzle] // wg.K_BYTES
        out.append(("warpgroup.k_steps", f"a {w.swizzle} swizzle row holds {most} K step"
                                         f"{'s' if most != 1 else ''} of 16 elements"))
    h = p.hierarchy
    if h.block_m % (16 * h.warps_m):
        out.append(("hierarchy.warps_m", f"{h.block_m} rows do not split into {h.warps_m} "
                                         "warp tiles of whole m16 tiles"))
    if h.block_n % (8 * h.warps_n):
        out.append(("hierarchy.warps_n", f"{h.block_n} columns do not split into {h.warps_n} "
                                         "warp tiles of whole n8 tiles"))
    if h.warps_m * h.warps_n > 32:
        out.append(("hierarchy.warps_n", "a block has at most 32 warps"))
    regs = hierarchy_registers(h)
    if regs > MAX_REGISTERS:
        out.append(("hierarchy", f"a {h.block_m // h.warps_m} × {h.block_n // h.warps_n} warp "
                                 f"tile needs {regs:,} registers per thread; a thread has at "
                                 f"most {MAX_REGISTERS} (CUDA C++ Programming Guide, Technical "
                                 "Specifications per Compute Capability): more warps, or a "
                                 "smaller block tile"))
    out.extend(_arch_lacks(p))
    if not out:
        out.extend(_warpgroup_bounds(p))
    return out


DESCRIPTOR_ADDRESS_LIMIT = 1 << 18  # 14 bits of address >> 4 (PTX ISA, matrix descriptor)


def _warpgroup_bounds(p: MmaParams) -> list[tuple[str, str]]:
    """B's tile, and A's in shared memory after it, within a block's shared memory (the
    preset's opt-in maximum) and at start addresses the descriptor's 14-bit field encodes."""
    from gpuviz.models.arch import preset_value

    w = p.warpgroup
    arch = p.arch or DEFAULT_ARCH
    limit = int(preset_value(arch, "shared_memory_per_block_optin") or 0)
    end = int(_offsets(w.n, w, w.start_address).max()) + 1
    if w.a_source == "shared":
        start = a_shared_start(w)
        if start >= DESCRIPTOR_ADDRESS_LIMIT:
            return [("warpgroup.start_address",
                     f"A's tile would start at byte {start:,}, past the {DESCRIPTOR_ADDRESS_LIMIT:,}"
                     " bytes a descriptor's 14-bit start address encodes (PTX ISA, Matrix "
                     "Descriptor Format)")]
        end = int(_offsets(64, w, start).max()) + 1
    if limit and end > limit:
        on = f" on the {p.arch}" if p.arch else ""
        return [("warpgroup",
                 f"the tiles the descriptors address reach byte {end:,} of shared memory; a "
                 f"block{on} holds at most {limit:,} bytes (CUDA C++ Programming Guide, "
                 "shared memory per block after opting in)")]
    return []


MAX_REGISTERS = 255  # per thread, every compute capability from 3.5 on


def hierarchy_registers(h: MmaHierarchy) -> int:
    """Registers per thread of a warp tile: f32 C (4 a m16n8 tile), the A and B fragments of
    one k16 step, and the others the kernel keeps; not capped (what cannot run is refused)."""
    warp_m, warp_n = max(16, h.block_m // h.warps_m), max(8, h.block_n // h.warps_n)
    acc = 4 * (warp_m // 16) * (warp_n // 8)
    return acc + 4 * (warp_m // 16) + 2 * (warp_n // 8) + h.other_registers


def _arch_lacks(p: MmaParams) -> list[tuple[str, str]]:
    """The instructions drawn that the architecture does not have (PTX ISA 8.x, Warp Level
    Matrix Multiply-Accumulate Instructions, target ISA notes): ``mma.sync`` m16n8 shapes and
    ``ldmatrix`` need sm_80 (ldmatrix sm_75), ``wgmma`` sm_90a; AMD GPUs run none of them."""
    from gpuviz.models.arch import load_preset

    arch = p.arch or DEFAULT_ARCH
    preset = load_preset(arch)
    if preset.get("vendor") != "nvidia":
        return [("arch", f"the {arch} preset is an AMD GPU: mma.sync, ldmatrix and wgmma are "
                         "NVIDIA PTX instructions (AMD's matrix cores run MFMA instead)")]
    cc = tuple(int(x) for x in str(preset.get("compute_capability", "9.0")).split("."))
    if cc < (8, 0):
        return [("arch", f"the {arch} preset is compute capability {cc[0]}.{cc[1]}: the "
                         "m16n8 mma.sync shapes drawn need sm_80 and ldmatrix sm_75 (PTX ISA, "
                         "Warp Level Matrix Multiply-Accumulate Instructions)")]
    if cc < (9, 0) and any(part in ("warpgroup", "descriptor", "completion") for part in p.show):
        return [("show", f"the {arch} preset is compute capability {cc[0]}.{cc[1]}: wgmma "
                         "needs sm_90a (PTX ISA, Asynchronous Warpgroup Level Matrix "
                         "Instructions)")]
    return []


def feed_offsets(f: MmaFeed) -> tuple[int, list[int | None]]:
    """(row pitch in bytes, each lane's logical byte offset of its row or None)."""
    pitch = (f.row_elements + (f.padding if f.layout == "padded" else 0)) * 2
    out: list[int | None] = []
    for lane in range(32):
        row = frag.row_of_lane(f.operand, f.trans, f.matrices, lane)
        out.append(None if row is None else row[1] * pitch + row[2] * 2)
    return pitch, out


def stored_position(f: MmaFeed, row: int, col: int) -> tuple[int, int]:
    """(stored row, stored column) of operand element (row, col) (A: M × K, B: K × N)."""
    if f.operand == "a":
        return (col, row) if f.trans else (row, col)
    return (row, col) if f.trans else (col, row)


def physical_address(f: MmaFeed, stored_row: int, stored_col: int) -> int:
    """Byte address of a stored element of the tile, after padding or swizzle."""
    pitch, _ = feed_offsets(f)
    logical = stored_row * pitch + stored_col * 2
    swz = banks.BankSwizzle(mode=f.swizzle if f.layout == "swizzled" else "none")
    return int(apply_swizzle(np.asarray(logical, dtype=np.int64), swz))


def _feed(f: MmaFeed) -> FeedResult:
    pitch, offsets = feed_offsets(f)
    swz = f.swizzle if f.layout == "swizzled" else "none"
    bp = banks.BanksParams(
        op="ldmatrix", ldmatrix=banks.BankLdmatrix(matrices=f.matrices, trans=f.trans),
        pattern=banks.BankPattern(kind="explicit",
                                  indices=tuple((o or 0) // 16 for o in offsets)),
        swizzle=banks.BankSwizzle(mode=swz))
    br = banks.compute(bp)
    physical = banks.lane_offsets(bp)
    rows = []
    for lane in range(8 * f.matrices):
        j, r, c = frag.row_of_lane(f.operand, f.trans, f.matrices, lane)  # type: ignore[misc]
        rows.append(FeedRow(lane, j, r, c, int(physical[lane]), int(physical[lane]) // 4 % 32))
    regs = tuple(tuple((j, h, *frag.register_element(f.operand, f.trans, lane, j, h))
                       for j in range(f.matrices) for h in range(2)) for lane in range(32))
    return FeedResult(op=f.op, operand=f.operand, matrices=f.matrices, trans=f.trans,
                      layout=f.layout, row_bytes=pitch, swizzle=swz if swz != "none" else None,
                      rows=tuple(rows), wavefronts=br.rounds,
                      matrix_wavefronts=tuple(br.phase_rounds[:f.matrices]),
                      ideal_wavefronts=f.matrices, registers=regs, banks=br)


def warpgroup_offsets(w: MmaWarpgroup) -> tuple[int, int]:
    lbo, sbo = wg.canonical_offsets(w.swizzle, w.k_steps)
    return (w.leading_byte_offset if w.leading_byte_offset is not None else lbo,
            w.stride_byte_offset if w.stride_byte_offset is not None else sbo)


def a_shared_start(w: MmaWarpgroup) -> int:
    """A's tile (64 rows) follows B's in the same buffer, on a 1024-byte boundary."""
    end = int(_offsets(w.n, w, w.start_address).max()) + 1
    return -(-end // 1024) * 1024


def _offsets(rows: int, w: MmaWarpgroup, start: int) -> np.ndarray:
    lbo, sbo = warpgroup_offsets(w)
    r, b = np.arange(rows)[:, None], np.arange(32)[None, :]
    return np.stack([wg.element_offsets(r, b, s, start, lbo, sbo, w.swizzle)
                     for s in range(w.k_steps)])


def _warpgroup(w: MmaWarpgroup) -> WarpgroupResult:
    warps = tuple(range(w.first_warp, w.first_warp + 4))
    valid = wg.warpgroup_valid(w.first_warp, w.block_warps)
    groups = tuple(wg.warpgroup_of(x) for x in warps)
    if valid:
        reason = (f"warps {warps[0]}–{warps[-1]} are warpgroup {groups[0]}: four contiguous "
                  f"warps whose first rank {w.first_warp} is a multiple of 4")
    elif w.first_warp % 4:
        g0 = groups[0]
        reason = (f"warps {warps[0]}–{warps[-1]} are not a warpgroup: the first rank "
                  f"{w.first_warp} is not a multiple of 4, so they span warpgroups "
                  f"{g0} (warps {4 * g0}–{4 * g0 + 3}) and {g0 + 1}; wgmma is .sync.aligned "
                  "over a warpgroup, and a warpgroup whose four warps do not all execute it "
                  "is undefined behaviour")
    else:
        reason = (f"the block has {w.block_warps} warp{'s' if w.block_warps != 1 else ''}: "
                  f"warps {warps[0]}–{warps[-1]} do not all exist, so warpgroup {groups[0]} "
                  "is incomplete and a wgmma on it is undefined behaviour")
    lbo, sbo = warpgroup_offsets(w)
    a_off = _offsets(64, w, a_shared_start(w)) if w.a_source == "shared" else None
    return WarpgroupResult(
        n=w.n, first_warp=w.first_warp, warps=warps, block_warps=w.block_warps, valid=valid,
        warpgroups=groups, reason=reason, d_owner=wg.d_owner(w.n),
        d_registers_per_thread=w.n // 2, a_source=w.a_source,
        a_registers_per_thread=4 if w.a_source == "registers" else 0,
        swizzle=w.swizzle, k_steps=w.k_steps, leading_byte_offset=lbo, stride_byte_offset=sbo,
        start_address=w.start_address,
        descriptor=wg.encode_descriptor(w.start_address, lbo, sbo, w.swizzle),
        descriptor_hex=f"0x{wg.encode_descriptor(w.start_address, lbo, sbo, w.swizzle):016x}",
        b_core_matrices=wg.core_matrices(min(w.n, 64), 0, w.start_address, lbo, sbo,
                                         w.swizzle),
        b_row_offsets=_offsets(w.n, w, w.start_address), a_row_offsets=a_off,
        async_steps=wg.async_steps(w.stages, w.wait_pending))


def _hierarchy(h: MmaHierarchy, arch: str) -> HierarchyResult:
    from gpuviz.models.occupancy import OccupancyParams, arch_values, blocks_per_sm

    warp_m, warp_n = max(16, h.block_m // h.warps_m), max(8, h.block_n // h.warps_n)
    tiles = (warp_m // 16) * (warp_n // 8)
    acc = 4 * tiles  # f32 C of one m16n8: 4 registers per thread
    frags = 4 * (warp_m // 16) + 2 * (warp_n // 8)  # A and B of one k16 step
    regs = acc + frags + h.other_registers  # problems() refuses more than MAX_REGISTERS
    warps = h.warps_m * h.warps_n
    threads = 32 * warps
    values = arch_values(OccupancyParams(arch=arch))
    lim = blocks_per_sm(values, regs, threads, 0, 0)
    keys = ("warps", "registers", "shared_memory", "blocks")
    blocks = min(int(lim[k]) for k in keys)
    limiter = next(k for k in keys if int(lim[k]) == blocks)
    return HierarchyResult(
        block_m=h.block_m, block_n=h.block_n, warps=warps, warp_m=warp_m, warp_n=warp_n,
        mma_tiles=tiles, accumulator_registers=acc, fragment_registers=frags,
        other_registers=h.other_registers, registers_per_thread=regs,
        threads_per_block=threads, arch=arch, blocks_per_sm=blocks,
        warps_per_sm=blocks * warps, register_limit=int(lim["registers"]), limiter=limiter,
        accumulator_share=acc / regs)


def canonical(p: MmaParams) -> MmaParams:
    """What a measurement of these parameters depends on: the fragment load (``feed``) alone;
    the shipped H200 cases are looked up by it."""
    return type(p)(feed=p.feed)


def compute(p: MmaParams) -> MmaResult:
    m, n, k = frag.SHAPES[p.shape]
    dtype = p.dtype if p.dtype in frag.INPUT_TYPES[p.shape] else frag.INPUT_TYPES[p.shape][0]
    acc = (p.accumulator if p.accumulator in frag.ACCUMULATORS[dtype]
           else frag.ACCUMULATORS[dtype][0])
    a, b = frag.fragment(p.shape, "a", dtype), frag.fragment(p.shape, "b", dtype)
    c = frag.fragment(p.shape, "c", acc)
    feed = _feed(p.feed)
    group = _warpgroup(p.warpgroup)
    return MmaResult(
        shape=p.shape, dtype=dtype, accumulator=acc, m=m, n=n, k=k, lane=p.lane,
        show=tuple(dict.fromkeys(x for x in p.show if x in PARTS)), a=a, b=b, c=c,
        a_owner=a.owner, b_owner=b.owner, c_owner=c.owner,
        registers_per_thread={"a": a.registers_per_lane, "b": b.registers_per_lane,
                              "c": c.registers_per_lane},
        elements_per_thread={"a": a.elements_per_lane, "b": b.elements_per_lane,
                             "c": c.elements_per_lane},
        feed=feed, ldmatrix_wavefronts=feed.wavefronts, warpgroup=group,
        warpgroup_valid=group.valid, hierarchy=_hierarchy(p.hierarchy, p.arch or DEFAULT_ARCH))


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        # every part drawn, the widest tile rows, m64n256k16 with four K steps and stages, the
        # largest block tile over a block of 32 warps
        ("all parts, n 256, 512-element rows", {
            "show": ["fragment-a", "fragment-b", "fragment-c", "feed", "warpgroup",
                     "descriptor", "completion", "hierarchy"],
            "feed": {"layout": "padded", "row_elements": 512, "padding": 64, "matrices": 4},
            "warpgroup": {"n": 256, "k_steps": 4, "stages": 4, "wait_pending": 4,
                          "block_warps": 32, "first_warp": 28},
            "hierarchy": {"block_m": 256, "block_n": 256, "warps_m": 4, "warps_n": 8}}),
        ("m16n8k32 s8, swizzled", {"shape": "m16n8k32", "dtype": "s8", "accumulator": "s32",
                                   "feed": {"layout": "swizzled", "swizzle": "32B",
                                            "row_elements": 512}}),
    ]
