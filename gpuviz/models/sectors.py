"""Global-memory sector map: which 32-byte sectors and 128-byte lines one warp's load touches.

Rule (seed "GPU Architecture and CUDA Programming", *Follow addresses into memory sectors*;
CUDA C++ Best Practices Guide, *Coalesced Access to Global Memory*; seed "SIMT and GPUs",
*Details that bite*: "Global accesses are served in 32-byte transactions"):

- Each active lane reads one naturally aligned element of ``element_bytes`` bytes at
  ``base_offset + index · element_bytes`` (or at ``base_offset + addresses[lane]`` for an
  explicit list), so it covers the byte range [address, address + element_bytes).
- The warp's request is served in aligned 32-byte sectors: the sectors are the distinct values of
  ``byte // 32`` over every byte any active lane reads; lines are the distinct ``byte // 128``.
- ``fetched_bytes`` = 32 × sectors. ``requested_bytes`` counts each distinct byte the lanes ask for
  once (32 lanes reading one float request 4 bytes), so ``efficiency`` = requested / fetched ≤ 1.
  ``lane_bytes`` is the plain sum over active lanes (128 for that broadcast).

The count is of sector requests for this simplified access, not a measurement of DRAM bytes or
time: caches, repeated accesses, instruction width and the architecture change lower-level traffic
(as the seed says). Inactive (masked) lanes request nothing.

The active lanes and the launch coordinates an expression may use follow the warp selected in the
``launch`` panel when ``follow_launch`` is set (see :func:`link`); on their own the defaults are all
32 lanes of warp 0 of block 0.
"""

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from gpuviz.models.expr import LANE_NAMES, ExprError, evaluate, lane_environment, parse
from gpuviz.models.params import param

WARP_LANES = 32
SECTOR_BYTES = 32
LINE_BYTES = 128
SWEEP_STRIDES = tuple(range(1, 33))
MAX_ADDRESS = 1 << 40

PATTERN_KINDS = ("stride", "reversed", "permutation", "broadcast", "explicit", "expression")
DEPENDS_ON = ("launch",)


@dataclass(frozen=True)
class SectorPattern:
    kind: str = param("stride", doc="How lanes choose their element: stride (lane·stride), "
                                    "reversed (31−lane), permutation, broadcast (one element), "
                                    "explicit byte offsets, or an expression.",
                      choices=PATTERN_KINDS)
    stride: int = param(1, doc="Elements between neighbouring lanes (kind stride).",
                        minimum=0, maximum=4096)
    index: int = param(0, doc="The element every lane reads (kind broadcast).",
                       minimum=0, maximum=1 << 30)
    permutation: tuple[int, ...] | None = param(
        None, doc="Element read by each lane: a reordering of 0…31 (kind permutation).",
        minimum=0, maximum=WARP_LANES - 1, length=WARP_LANES)
    addresses: tuple[int, ...] | None = param(
        None, doc="Byte offset from the base read by each of the 32 lanes (kind explicit).",
        minimum=0, maximum=1 << 30, length=WARP_LANES)
    expression: str | None = param(
        None, doc="Element index of each lane, e.g. 'lane * 8' or 'tid % 16 * 32 + tid // 16'; "
                  "names: " + ", ".join(LANE_NAMES) + " (kind expression).")


@dataclass(frozen=True)
class SectorsParams:
    element_bytes: int = param(4, doc="Bytes each lane reads (4 = one float).",
                               choices=(1, 2, 4, 8, 16))
    base_offset: int = param(0, doc="Byte address of element 0; a multiple of the element size "
                                    "(0 = aligned to a sector).", minimum=0, maximum=1 << 30)
    pattern: SectorPattern = param(doc="Which element each lane reads.",
                                   default_factory=SectorPattern)
    follow_launch: bool = param(True, doc="Take the active lanes and launch coordinates from the "
                                          "warp selected in the launch panel.")
    active_lanes: tuple[int, ...] = param(
        tuple(range(WARP_LANES)),
        doc="Lanes that take part in the load (others are masked); from launch while following it.",
        minimum=0, maximum=WARP_LANES - 1, length=(0, WARP_LANES))
    warp: int = param(
        0, doc="Warp number within its block (sets tid and threadIdx); from launch while "
               "following it.", minimum=0, maximum=1023)
    warp_size: int = param(
        32, doc="Threads per warp of the launch (64 for AMD wavefronts; the map shows lanes 0–31).",
        choices=(32, 64))
    block_idx: tuple[int, ...] = param(
        (0, 0, 0), doc="blockIdx (x, y, z) of the warp; from launch while following it.",
        minimum=0, maximum=(1 << 31) - 1, length=3)
    block_dim: tuple[int, ...] = param(
        (32, 1, 1), doc="blockDim (x, y, z) of the launch; from launch while following it.",
        minimum=1, maximum=1024, length=3)


PARAMS = SectorsParams


@dataclass(frozen=True)
class SectorsResult:
    element_bytes: int
    base_offset: int
    pattern: str  # the pattern in words, e.g. "lane i reads element 8·i"
    stride: int | None  # the element stride, for the stride pattern
    follows_launch: bool
    warp: int
    block_idx: tuple[int, ...]
    active_lanes: tuple[int, ...]
    sector_count: int
    sectors: tuple[int, ...]  # address // 32, sorted
    line_count: int
    lines: tuple[int, ...]  # address // 128, sorted
    requested_bytes: int
    lane_bytes: int
    fetched_bytes: int
    efficiency: float
    lane_addresses: tuple[int | None, ...]  # per lane, None when inactive
    lane_ranges: tuple[tuple[int, int] | None, ...]  # [start, end) bytes per lane
    sector_of_lane: tuple[int | None, ...]
    sweep_strides: tuple[int, ...]
    stride_sweep: tuple[int, ...]  # sectors per request for element strides 1…32
    error: str | None  # why some lanes have no address (an expression failing after linking)
    _addresses: np.ndarray = field(repr=False, compare=False)  # per lane, −1 when inactive


def _coordinates(p: SectorsParams, lanes: np.ndarray) -> dict[str, np.ndarray]:
    return lane_environment(lanes, warp=p.warp, warp_size=p.warp_size,
                            block_idx=tuple(p.block_idx), block_dim=tuple(p.block_dim))


def element_indices(p: SectorsParams) -> np.ndarray:
    """The element index of each of the 32 lanes (kinds other than explicit)."""
    lanes = np.arange(WARP_LANES, dtype=np.int64)
    pat = p.pattern
    if pat.kind == "stride":
        return lanes * pat.stride
    if pat.kind == "reversed":
        return WARP_LANES - 1 - lanes
    if pat.kind == "permutation":
        return np.asarray(pat.permutation, dtype=np.int64)
    if pat.kind == "broadcast":
        return np.full(WARP_LANES, pat.index, dtype=np.int64)
    if pat.kind == "expression":
        expr = parse(pat.expression or "", LANE_NAMES)
        out = evaluate(expr, _coordinates(p, lanes))
        return np.broadcast_to(out, lanes.shape).astype(np.int64)
    raise ValueError(f"kind {pat.kind!r} has no element indices")


def lane_byte_addresses(p: SectorsParams) -> np.ndarray:
    """The byte address each of the 32 lanes reads (whether active or not)."""
    if p.pattern.kind == "explicit":
        return p.base_offset + np.asarray(p.pattern.addresses, dtype=np.int64)
    return p.base_offset + element_indices(p) * p.element_bytes


def problems(p: SectorsParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pat = p.pattern
    if p.base_offset % p.element_bytes:
        out.append(("base_offset", f"the base offset {p.base_offset} is not a multiple of the "
                                   f"element size {p.element_bytes}; loads must be naturally "
                                   "aligned"))
    if len(set(p.active_lanes)) != len(p.active_lanes):
        out.append(("active_lanes", "a lane is listed twice"))
    if pat.kind == "permutation":
        if pat.permutation is None:
            out.append(("pattern.permutation", "give the element each of the 32 lanes reads"))
        elif sorted(pat.permutation) != list(range(WARP_LANES)):
            out.append(("pattern.permutation", "must contain each of 0…31 exactly once"))
    elif pat.kind == "explicit":
        if pat.addresses is None:
            out.append(("pattern.addresses", "give one byte offset for each of the 32 lanes"))
        else:
            for lane, a in enumerate(pat.addresses):
                if a % p.element_bytes:
                    out.append((f"pattern.addresses[{lane}]",
                                f"{a} is not a multiple of the element size {p.element_bytes}"))
                    break
    elif pat.kind == "expression":
        if not pat.expression:
            out.append(("pattern.expression", "write the element index of each lane, "
                                              "e.g. 'lane * 2'"))
        else:
            try:
                idx = element_indices(p)
            except ExprError as e:
                out.append(("pattern.expression", str(e)))
            else:
                bad = np.flatnonzero((idx < 0) | (idx * p.element_bytes > MAX_ADDRESS))
                if len(bad):
                    out.append(("pattern.expression",
                                f"lane {int(bad[0])} gets element {int(idx[bad[0]])}, outside "
                                f"0…{MAX_ADDRESS // p.element_bytes}"))
    return out


def link(p: SectorsParams, upstream: dict[str, object]) -> SectorsParams:
    """Follow the warp selected in ``launch``: its valid lanes are the active lanes here, and its
    block, warp and block shape give the expression names their values."""
    launch = upstream.get("launch")
    if not p.follow_launch or launch is None:
        return p
    active = tuple(int(x) for x in launch.active_lanes if x < WARP_LANES)  # type: ignore[attr-defined]
    return dataclasses.replace(
        p,
        active_lanes=active,
        warp=int(launch.selected_warp),  # type: ignore[attr-defined]
        warp_size=int(launch.warp_size),  # type: ignore[attr-defined]
        block_idx=tuple(int(v) for v in launch.selected_block_idx),  # type: ignore[attr-defined]
        block_dim=tuple(int(v) for v in launch.block),  # type: ignore[attr-defined]
    )


def describe_pattern(pat: SectorPattern) -> str:
    if pat.kind == "stride":
        return "lane i reads element i" if pat.stride == 1 else \
            f"lane i reads element {pat.stride}·i"
    if pat.kind == "reversed":
        return "lane i reads element 31 − i"
    if pat.kind == "permutation":
        return "each lane reads one of elements 0…31, permuted"
    if pat.kind == "broadcast":
        return f"every lane reads element {pat.index}"
    if pat.kind == "explicit":
        return "each lane reads its listed byte offset"
    return f"lane i reads element {pat.expression}"


def _footprint(addresses: np.ndarray, size: int) -> tuple[np.ndarray, int]:
    """(sorted distinct sectors, distinct bytes) of aligned element reads at ``addresses``."""
    if addresses.size == 0:
        return np.zeros(0, dtype=np.int64), 0
    first = addresses // SECTOR_BYTES
    last = (addresses + size - 1) // SECTOR_BYTES
    sectors = np.unique(np.concatenate([first, last]))
    distinct_bytes = int(np.unique(addresses[:, None] + np.arange(size)).size)
    return sectors, distinct_bytes


def sweep(p: SectorsParams, active: np.ndarray) -> tuple[int, ...]:
    """Sectors per request when lane i reads element i·s, for s = 1…32 (other settings kept)."""
    strides = np.asarray(SWEEP_STRIDES, dtype=np.int64)[:, None]
    addr = p.base_offset + strides * active[None, :] * p.element_bytes
    first = addr // SECTOR_BYTES
    last = (addr + p.element_bytes - 1) // SECTOR_BYTES
    both = np.sort(np.concatenate([first, last], axis=1), axis=1)
    if both.shape[1] == 0:
        return tuple(0 for _ in SWEEP_STRIDES)
    counts = 1 + np.count_nonzero(np.diff(both, axis=1), axis=1)
    return tuple(int(c) for c in counts)


def compute(p: SectorsParams) -> SectorsResult:
    size = p.element_bytes
    active = np.array(sorted(set(p.active_lanes)), dtype=np.int64)
    error = None
    # problems() vetted the expression with the section's own coordinates; linking to another
    # warp can still make it fail, which is shown rather than raised.
    try:
        all_addr = lane_byte_addresses(p)
    except ExprError as e:
        error = f"pattern.expression: {e}"
        all_addr = np.full(WARP_LANES, -1, dtype=np.int64)
    bad = active[(all_addr[active] < 0) | (all_addr[active] > MAX_ADDRESS)]
    if len(bad):
        error = error or (f"lane {int(bad[0])} gets address {int(all_addr[bad[0]])}, outside "
                          f"0…{MAX_ADDRESS}; such lanes are left out")
        active = np.setdiff1d(active, bad)
    act_addr = all_addr[active]
    sectors, requested = _footprint(act_addr, size)
    lines = np.unique(sectors // (LINE_BYTES // SECTOR_BYTES))
    addresses = np.full(WARP_LANES, -1, dtype=np.int64)
    addresses[active] = act_addr
    fetched = SECTOR_BYTES * len(sectors)
    is_active = np.zeros(WARP_LANES, dtype=bool)
    is_active[active] = True
    lane_addresses = tuple(int(a) if ok else None for a, ok in zip(addresses, is_active,
                                                                    strict=True))
    return SectorsResult(
        element_bytes=size, base_offset=p.base_offset, pattern=describe_pattern(p.pattern),
        stride=p.pattern.stride if p.pattern.kind == "stride" else None,
        follows_launch=p.follow_launch, warp=p.warp, block_idx=tuple(p.block_idx),
        active_lanes=tuple(int(x) for x in active),
        sector_count=len(sectors), sectors=tuple(int(s) for s in sectors),
        line_count=len(lines), lines=tuple(int(x) for x in lines),
        requested_bytes=requested, lane_bytes=size * len(active), fetched_bytes=fetched,
        efficiency=requested / fetched if fetched else 0.0,
        lane_addresses=lane_addresses,
        lane_ranges=tuple((a, a + size) if a is not None else None for a in lane_addresses),
        sector_of_lane=tuple(a // SECTOR_BYTES if a is not None else None
                             for a in lane_addresses),
        sweep_strides=SWEEP_STRIDES, stride_sweep=sweep(p, active), error=error,
        _addresses=addresses,
    )
