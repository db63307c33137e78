"""Global-memory sector map: which 32-byte sectors and 128-byte lines one warp's load touches.

Rule (source text "GPU Architecture and CUDA Programming", *Follow addresses into memory sectors*;
CUDA C++ Best Practices Guide, *Coalesced Access to Global Memory*; source text "SIMT and GPUs",
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
(as the source text says). Inactive (masked) lanes request nothing.

A warp has ``warp_size`` lanes: 32 on NVIDIA, 64 for an AMD wavefront. Every pattern is over
that many lanes (reversed reads element warp_size − 1 − lane; a permutation or an explicit list has
one entry per lane).

The active lanes, the warp size and the launch coordinates an expression may use follow the warp
selected in the ``launch`` panel when ``follow_launch`` is set (see :func:`link`); on their own the
defaults are all 32 lanes of warp 0 of block 0. A permutation or explicit list whose length does
not match the linked warp size is reported in the result's ``error``; the lanes it does not cover
are left out.
"""

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from gpuviz.models.expr import LANE_NAMES, ExprError, evaluate, lane_environment, parse
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param
from gpuviz.models.threads import block_index_problems, block_problems, warp_problems

WARP_LANES = 32  # lanes of an NVIDIA warp, the default warp size
MAX_LANES = 64  # lanes of an AMD wavefront, the largest warp size
WARP_SIZES = (WARP_LANES, MAX_LANES)
SECTOR_BYTES = 32
LINE_BYTES = 128
SWEEP_STRIDES = tuple(range(1, 33))
MAX_ADDRESS = 1 << 40

PATTERN_KINDS = ("stride", "reversed", "permutation", "broadcast", "explicit", "expression")
DEPENDS_ON = ("launch",)


@dataclass(frozen=True)
class SectorPattern:
    kind: str = param("stride", doc="How lanes choose their element: stride (lane·stride), "
                                    "reversed (warp_size−1−lane), permutation, broadcast (one element), "
                                    "explicit byte offsets, or an expression.",
                      choices=PATTERN_KINDS)
    stride: int = param(1, doc="Elements between neighbouring lanes (kind stride).",
                        minimum=0, maximum=4096,
                        applies_when={"kind": ("stride",)})
    index: int = param(0, doc="The element every lane reads (kind broadcast).",
                       minimum=0, maximum=1 << 30,
                       applies_when={"kind": ("broadcast",)})
    permutation: tuple[int, ...] | None = param(
        None, doc="Element read by each lane: a reordering of 0 … warp_size−1, one entry per "
                  "lane (kind permutation).",
        minimum=0, maximum=MAX_LANES - 1, length=WARP_SIZES,
        applies_when={"kind": ("permutation",)})
    addresses: tuple[int, ...] | None = param(
        None, doc="Byte offset from the base read by each lane, one entry per lane of the warp "
                  "(kind explicit).",
        minimum=0, maximum=1 << 30, length=WARP_SIZES,
        applies_when={"kind": ("explicit",)})
    expression: str | None = param(
        None, doc="Element index of each lane, e.g. 'lane * 8' or 'tid % 16 * 32 + tid // 16'; "
                  "names: " + ", ".join(LANE_NAMES) + " (kind expression).",
                  applies_when={"kind": ("expression",)})


@dataclass(frozen=True)
class SectorsParams:
    op: str = param("load", doc="The instruction: a global load (ld.global) or store "
                                "(st.global); both are served in the same 32-byte sectors.",
                    choices=("load", "store"))
    element_bytes: int = param(4, doc="Bytes each lane reads (4 = one float).",
                               choices=(1, 2, 4, 8, 16))
    base_offset: int = param(0, doc="Byte address of element 0; a multiple of the element size "
                                    "(0 = aligned to a sector).", minimum=0, maximum=1 << 30)
    pattern: SectorPattern = param(doc="Which element each lane reads.",
                                   default_factory=SectorPattern)
    follow_launch: bool = param(True, doc="Take the active lanes and launch coordinates from the "
                                          "warp selected in the launch panel.")
    active_lanes: tuple[int, ...] | None = param(
        None,
        doc="Lanes that take part in the load (others are masked), each below warp_size; null "
            "(left out) means every lane of the warp, an empty list none; from launch while "
            "following it.",
        minimum=0, maximum=MAX_LANES - 1, length=(0, MAX_LANES))
    warp: int = param(
        0, doc="Warp number within its block (sets tid and threadIdx); from launch while "
               "following it.", minimum=0, maximum=1023)
    warp_size: int = param(
        WARP_LANES, doc="Lanes per warp: 32 on NVIDIA, 64 for an AMD wavefront; from launch while "
                        "following it.",
        choices=WARP_SIZES)
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
    warp_size: int  # lanes of the warp, 32 or 64; every per-lane tuple has this length
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
    lane_addresses: tuple[int | None, ...]  # per lane of the warp, None when inactive
    lane_ranges: tuple[tuple[int, int] | None, ...]  # [start, end) bytes per lane
    sector_of_lane: tuple[int | None, ...]
    sweep_strides: tuple[int, ...]
    stride_sweep: tuple[int, ...]  # sectors per request for element strides 1…32
    error: str | None  # why some lanes have no address (an expression failing after linking)
    addresses: np.ndarray = not_in_json(repr=False, compare=False)  # per lane, −1 when inactive


def _coordinates(p: SectorsParams, lanes: np.ndarray) -> dict[str, np.ndarray]:
    return lane_environment(lanes, warp=p.warp, warp_size=p.warp_size,
                            block_idx=tuple(p.block_idx), block_dim=tuple(p.block_dim))


def _per_lane(values: tuple[int, ...] | None, n: int) -> np.ndarray:
    """A per-lane list cut or padded to ``n`` lanes; −1 marks a lane the list does not cover."""
    out = np.full(n, -1, dtype=np.int64)
    if values:
        k = min(n, len(values))
        out[:k] = np.asarray(values[:k], dtype=np.int64)
    return out


def lane_list(pat: SectorPattern) -> tuple[str, tuple[int, ...] | None] | None:
    """(field name, values) of the pattern's per-lane list, for the kinds that have one."""
    if pat.kind == "permutation":
        return "permutation", pat.permutation
    if pat.kind == "explicit":
        return "addresses", pat.addresses
    return None


def element_indices(p: SectorsParams) -> np.ndarray:
    """The element index of each of the ``warp_size`` lanes (kinds other than explicit); −1 for a
    lane a permutation does not cover."""
    n = p.warp_size
    lanes = np.arange(n, dtype=np.int64)
    pat = p.pattern
    if pat.kind == "stride":
        return lanes * pat.stride
    if pat.kind == "reversed":
        return n - 1 - lanes
    if pat.kind == "permutation":
        return _per_lane(pat.permutation, n)
    if pat.kind == "broadcast":
        return np.full(n, pat.index, dtype=np.int64)
    if pat.kind == "expression":
        expr = parse(pat.expression or "", LANE_NAMES, "int")
        out = evaluate(expr, _coordinates(p, lanes))
        return np.broadcast_to(out, lanes.shape).astype(np.int64)
    raise ValueError(f"kind {pat.kind!r} has no element indices")


def lane_byte_addresses(p: SectorsParams) -> np.ndarray:
    """The byte address each of the ``warp_size`` lanes reads (whether active or not); −1 for a
    lane a permutation or explicit list does not cover."""
    if p.pattern.kind == "explicit":
        offsets = _per_lane(p.pattern.addresses, p.warp_size)
        return np.where(offsets < 0, -1, p.base_offset + offsets)
    idx = element_indices(p)
    beyond = np.flatnonzero(idx > MAX_ADDRESS // p.element_bytes)
    if len(beyond):  # idx · element_bytes would leave int64 and wrap; never compute it
        lane = int(beyond[0])
        raise ExprError(f"lane {lane} gets element {int(idx[lane])}, beyond the largest "
                        f"address {MAX_ADDRESS}", 0)
    if p.pattern.kind == "permutation":
        return np.where(idx < 0, -1, p.base_offset + idx * p.element_bytes)
    return p.base_offset + idx * p.element_bytes


def problems(p: SectorsParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pat = p.pattern
    if p.base_offset % p.element_bytes:
        out.append(("base_offset", f"the base offset {p.base_offset} is not a multiple of the "
                                   f"element size {p.element_bytes}; loads must be naturally "
                                   "aligned"))
    n = p.warp_size
    shape = block_problems(p.block_dim, "block_dim")
    out += shape or warp_problems(p.warp, n, math.prod(p.block_dim), "warp")
    out += block_index_problems(p.block_idx, "block_idx")
    listed_lanes = p.active_lanes or ()
    if len(set(listed_lanes)) != len(listed_lanes):
        out.append(("active_lanes", "a lane is listed twice"))
    for i, lane in enumerate(listed_lanes):
        if lane >= n:
            out.append((f"active_lanes[{i}]", f"lane {lane} does not exist in a warp of {n} "
                                              f"lanes (0 … {n - 1})"))
            break
    if pat.kind == "permutation":
        if pat.permutation is None:
            out.append(("pattern.permutation", f"give the element each of the {n} lanes reads"))
        elif len(pat.permutation) != n:
            out.append(("pattern.permutation", f"has {len(pat.permutation)} entries; a warp of "
                                               f"{n} lanes needs one per lane"))
        elif sorted(pat.permutation) != list(range(n)):
            out.append(("pattern.permutation", f"must contain each of 0 … {n - 1} exactly once"))
    elif pat.kind == "explicit":
        if pat.addresses is None:
            out.append(("pattern.addresses", f"give one byte offset for each of the {n} lanes"))
        elif len(pat.addresses) != n:
            out.append(("pattern.addresses", f"has {len(pat.addresses)} entries; a warp of {n} "
                                             "lanes needs one byte offset per lane"))
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
                bad = np.flatnonzero((idx < 0) | (idx > MAX_ADDRESS // p.element_bytes))
                if len(bad):
                    out.append(("pattern.expression",
                                f"lane {int(bad[0])} gets element {int(idx[bad[0]])}, outside "
                                f"0…{MAX_ADDRESS // p.element_bytes}"))
    if not out:  # every element fits; with the base offset its address may not
        addr = lane_byte_addresses(p)
        past = np.flatnonzero(addr > MAX_ADDRESS)
        if len(past):
            lane = int(past[0])
            where = {"explicit": "pattern.addresses", "expression": "pattern.expression"}.get(
                pat.kind, "base_offset")
            out.append((where, f"lane {lane} reads address {int(addr[lane]):,} "
                               f"(base_offset {p.base_offset:,} + its offset), past the largest "
                               f"address {MAX_ADDRESS:,} (2**40)"))
    return out


def warnings(p: SectorsParams) -> list[tuple[str, str]]:
    """A load that no listed lane takes part in requests nothing: computed (0 sectors), but
    likely not what was meant (null is every lane). A warp followed from launch whose lanes are
    all masked is no warning: that is a lesson the launch and sectors panels teach together."""
    if p.follow_launch or p.active_lanes is None or p.active_lanes:
        return []
    return [("active_lanes", "no lane is listed, so the load requests nothing (0 sectors); "
                             "leave active_lanes out (null) for every lane of the warp")]


def link(p: SectorsParams, upstream: dict[str, object]) -> SectorsParams:
    """Follow the warp selected in ``launch``: its valid lanes are the active lanes here, and its
    block, warp and block shape give the expression names their values."""
    launch = upstream.get("launch")
    if not p.follow_launch or launch is None:
        return p
    warp_size = int(launch.warp_size)  # type: ignore[attr-defined]
    active = tuple(int(x) for x in launch.active_lanes if x < warp_size)  # type: ignore[attr-defined]
    return dataclasses.replace(
        p,
        active_lanes=active,
        warp=int(launch.selected_warp),  # type: ignore[attr-defined]
        warp_size=warp_size,
        block_idx=tuple(int(v) for v in launch.selected_block_idx),  # type: ignore[attr-defined]
        block_dim=tuple(int(v) for v in launch.block),  # type: ignore[attr-defined]
    )


def describe_pattern(pat: SectorPattern, warp_size: int = WARP_LANES) -> str:
    if pat.kind == "stride":
        return "lane i reads element i" if pat.stride == 1 else \
            f"lane i reads element {pat.stride}·i"
    if pat.kind == "reversed":
        return f"lane i reads element {warp_size - 1} − i"
    if pat.kind == "permutation":
        return f"each lane reads one of elements 0…{warp_size - 1}, permuted"
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
    n = p.warp_size
    chosen = range(n) if p.active_lanes is None else set(p.active_lanes)
    active = np.array(sorted(x for x in chosen if 0 <= x < n), dtype=np.int64)
    error = None
    listed = lane_list(p.pattern)
    if listed is not None and listed[1] is not None and len(listed[1]) != n:
        # problems() checked the list against the section's own warp size; a linked launch can
        # change it, which is shown rather than raised.
        name, values = listed[0], listed[1]
        k = len(values)
        left_out = f"lanes {k}–{n - 1} have no entry and are left out" if k < n else \
            f"entries past lane {n - 1} are ignored"
        error = f"pattern.{name}: {k} entries for a warp of {n} lanes; {left_out}"
    # problems() vetted the expression with the section's own coordinates; linking to another
    # warp can still make it fail, which is shown rather than raised.
    try:
        all_addr = lane_byte_addresses(p)
    except ExprError as e:
        error = f"pattern.expression: {e}"
        all_addr = np.full(n, -1, dtype=np.int64)
    bad = active[(all_addr[active] < 0) | (all_addr[active] > MAX_ADDRESS)]
    if len(bad):
        error = error or (f"lane {int(bad[0])} gets address {int(all_addr[bad[0]])}, outside "
                          f"0…{MAX_ADDRESS}; such lanes are left out")
        active = np.setdiff1d(active, bad)
    act_addr = all_addr[active]
    sectors, requested = _footprint(act_addr, size)
    lines = np.unique(sectors // (LINE_BYTES // SECTOR_BYTES))
    addresses = np.full(n, -1, dtype=np.int64)
    addresses[active] = act_addr
    fetched = SECTOR_BYTES * len(sectors)
    is_active = np.zeros(n, dtype=bool)
    is_active[active] = True
    lane_addresses = tuple(int(a) if ok else None for a, ok in zip(addresses, is_active,
                                                                    strict=True))
    return SectorsResult(
        element_bytes=size, base_offset=p.base_offset, pattern=describe_pattern(p.pattern, n),
        stride=p.pattern.stride if p.pattern.kind == "stride" else None,
        follows_launch=p.follow_launch, warp=p.warp, warp_size=n, block_idx=tuple(p.block_idx),
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
        addresses=addresses,
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("64 lanes, 16 B, stride 4096", {"warp_size": 64, "element_bytes": 16,
                                         "base_offset": 1 << 30, "follow_launch": False,
                                         "pattern": {"kind": "stride", "stride": 4096}}),
        ("64 scattered addresses", {"warp_size": 64, "element_bytes": 16, "follow_launch": False,
                                    "pattern": {"kind": "explicit", "addresses": [
                                        (i * 7919 * 4096) % (1 << 30) for i in range(64)]}}),
    ]
