"""Shared-memory bank queues: which bank serves each lane's word, and in how many rounds.

Rule for 4-byte accesses (source text "GPU Architecture and CUDA Programming", *Shared memory is a banked
service*; source text "SIMT and GPUs", *Details that bite*; CUDA C++ Programming Guide, *Shared Memory*
for compute capability 5.x and later): shared memory has 32 banks of 4 bytes and successive 4-byte
words map to successive banks, ``bank = word mod 32``. Different words in one bank are served
one after another; any number of lanes reading the *same* word are served together (broadcast).
A warp's request therefore takes as many service rounds as the largest number of distinct words
any one bank must deliver — the ``conflict_degree``.

Rule for 8- and 16-byte accesses (CUDA C Programming Guide, *Shared Memory* of compute
capability 2.x, "64-Bit Accesses" and "128-Bit Accesses"; NVIDIA Nsight Compute counts
shared-memory *wavefronts*, each at most 32 banks × 4 bytes = 128 bytes; checked against an
H200, docs/hardware-notes.md): the warp is served in phases of 128 / access_bytes lanes — two
half-warps (lanes 0–15, 16–31) for 8 bytes, four quarter-warps (lanes 0–7, 8–15, …) for 16
bytes. Each lane's element covers access_bytes / 4 consecutive words (and as many banks). Within
one phase the 4-byte rule applies; the phases are served one after another, so ``rounds`` is the
sum over phases of each phase's largest bank queue.

Merged phases (measured on an H200, 1,272 shared-memory cases; not in NVIDIA's documentation): a
*load* of 8 or 16 bytes whose active lanes all read the same address as lane ``i XOR 1`` (lanes
0 and 1, 2 and 3, …), or all the same address as lane ``i XOR 2`` (lanes 0 and 2, 1 and 3, …),
counting a masked partner as agreeing, is served in phases twice as large: one phase of 32 lanes
for 8 bytes, two half-warps for 16 bytes. Each such pair takes one slot. Mixing the two pairings
in one warp, or any other sharing (lanes i and i XOR 3, 4, 8, 16; three lanes of four on one
address), keeps the fixed phases. Stores and ``ldmatrix`` never merge. ``fixed_phase_rounds``
keeps the fixed-phase count, ``merged_lane_groups`` the pairs that share a slot and
``merge_reason`` says why.

1- and 2-byte accesses read part of one word: lanes reading bytes of one word share it (one
round), as for 4-byte broadcasts. ``ldmatrix`` (op ldmatrix): lanes 0 … 8·matrices − 1 each give
the address of one 16-byte row; each 8 × 8 matrix (eight rows, 128 bytes) is one phase; ``.trans``
changes which registers receive the elements, not the rows read. Rounds equal Nsight Compute's
shared-memory wavefronts (``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`` / ``_op_st``) for
every measured case; they are not cycles.

Addresses: the pattern gives each lane an element index; its byte address is
``index · access_bytes``, optionally passed through the XOR swizzle of the ``swizzle`` panel
(:func:`gpuviz.models.swizzle.apply_swizzle`, applied to every word's byte address), so that both
figures agree on where a word lives; with ``follow_swizzle`` the swizzle panel's own
Swizzle⟨B,M,S⟩ is used (see :func:`link`).
"""

from dataclasses import dataclass, replace

import numpy as np

from gpuviz.models.expr import LANE_NAMES, ExprError, evaluate, lane_environment, parse
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param
from gpuviz.models.swizzle import (
    MODES,
    SwizzleSpec,
    apply_swizzle,
    formula,
    spec_problems,
    swizzle_bms,
)

WARP_LANES = 32
BANKS = 32
BANK_BYTES = 4
MAX_ELEMENT = 1 << 24  # 64 MiB of 4-byte words: far beyond any shared memory, still exact

#: XOR distances of the lane pairs whose shared address lets an 8- or 16-byte load merge phases.
MERGE_PARTNERS = (1, 2)

PATTERN_KINDS = ("stride", "column", "broadcast", "explicit", "expression")
DEPENDS_ON = ("swizzle",)


@dataclass(frozen=True)
class BankPattern:
    kind: str = param("stride", doc="How lanes choose their element: stride (start + lane·stride), "
                                    "column (lane i reads row i of a row-major array), broadcast "
                                    "(one element), explicit, or an expression.",
                      choices=PATTERN_KINDS)
    stride: int = param(1, doc="Elements between neighbouring lanes (kind stride).",
                        minimum=0, maximum=4096,
                        applies_when={"kind": ("stride",)})
    start: int = param(0, doc="Element read by lane 0 (kind stride).", minimum=0,
                       maximum=1 << 20,
                       applies_when={"kind": ("stride",)})
    row_width: int = param(32, doc="Elements per row of the row-major array (kind column).",
                           minimum=1, maximum=4096,
                           applies_when={"kind": ("column",)})
    padding: int = param(0, doc="Unused elements added to each row (kind column): a row takes "
                                "row_width + padding elements.", minimum=0, maximum=256,
                         applies_when={"kind": ("column",)})
    column: int = param(0, doc="The column every lane reads, lane i in row i (kind column).",
                        minimum=0, maximum=4095,
                        applies_when={"kind": ("column",)})
    index: int = param(0, doc="The element every lane reads (kind broadcast).",
                       minimum=0, maximum=1 << 20,
                       applies_when={"kind": ("broadcast",)})
    indices: tuple[int, ...] | None = param(
        None, doc="Element read by each of the 32 lanes (kind explicit).",
        minimum=0, maximum=MAX_ELEMENT, length=WARP_LANES,
        applies_when={"kind": ("explicit",)})
    expression: str | None = param(
        None, doc="Element index of each lane, e.g. 'lane * 33' or '(lane % 8) * 32 + lane // 8'; "
                  "names: " + ", ".join(LANE_NAMES) + " (kind expression).",
                  applies_when={"kind": ("expression",)})


@dataclass(frozen=True)
class BankSwizzle(SwizzleSpec):
    mode: str = param("none", doc="XOR swizzle of the addresses, as in the swizzle panel: none, a "
                                  "TMA preset (128B, 64B, 32B) or custom Swizzle⟨bits, base, "
                                  "shift⟩.", choices=MODES)


OPS = ("load", "store", "ldmatrix")


@dataclass(frozen=True)
class BankLdmatrix:
    matrices: int = param(4, doc="8 × 8 matrices of 16-bit elements one ldmatrix loads (x1, x2, "
                                 "x4): lanes 0 … 8·matrices − 1 each give the address of one "
                                 "16-byte row.", choices=(1, 2, 4))
    trans: bool = param(False, doc="ldmatrix .trans: the registers receive the transposed "
                                   "matrix; the rows read from shared memory are the same.")


@dataclass(frozen=True)
class BanksParams:
    op: str = param("load", doc="The instruction: a shared-memory load (ld.shared), a store "
                                "(st.shared) or ldmatrix (each lane gives one 16-byte row).",
                    choices=OPS)
    access_bytes: int = param(4, doc="Bytes each lane reads or writes: 1 or 2 (part of one "
                                     "word), 4 (one word), 8 or 16. ldmatrix always reads "
                                     "16-byte rows.",
                              choices=(1, 2, 4, 8, 16))
    ldmatrix: BankLdmatrix = param(doc="Shape of the ldmatrix instruction (op ldmatrix).",
                                   default_factory=BankLdmatrix)
    pattern: BankPattern = param(doc="Which element each lane reads.",
                                 default_factory=BankPattern)
    swizzle: BankSwizzle = param(doc="Optional XOR swizzle of the byte addresses.",
                                 default_factory=BankSwizzle)
    follow_swizzle: bool = param(False, doc="Use the swizzle panel's Swizzle⟨B,M,S⟩ instead of "
                                            "this section's own swizzle.")
    active_lanes: tuple[int, ...] = param(
        tuple(range(WARP_LANES)), doc="Lanes that take part in the access (others are masked).",
        minimum=0, maximum=WARP_LANES - 1, length=(0, WARP_LANES))


PARAMS = BanksParams


@dataclass(frozen=True)
class Slot:
    """One distinct word in one bank's queue, served in one round to all its readers."""

    bank: int
    word: int
    lanes: tuple[int, ...]
    phase: int
    round: int  # 1-based, over the whole request


@dataclass(frozen=True)
class BroadcastGroup:
    word: int
    lanes: tuple[int, ...]


@dataclass(frozen=True)
class BanksResult:
    op: str  # load, store or ldmatrix
    access_bytes: int
    pattern: str  # the pattern in words, e.g. "lane i reads row i, column 0 of rows of 33"
    words_per_lane: int
    active_lanes: tuple[int, ...]
    rounds: int
    conflict_degree: int
    distinct_words: int
    phases: int
    phase_lanes: tuple[tuple[int, int], ...]  # [first, last] lane of each phase
    phase_rounds: tuple[int, ...]
    element_of_lane: tuple[int | None, ...]
    word_of_lane: tuple[int | None, ...]  # first (physical) word of each lane
    bank_of_lane: tuple[int | None, ...]
    words_of_lane: tuple[tuple[int, ...] | None, ...]
    broadcast_groups: tuple[BroadcastGroup, ...]
    slots: tuple[Slot, ...]
    swizzle_formula: str | None
    # Merged phases (8- and 16-byte loads only; measured on an H200, docs/hardware-notes.md)
    fixed_phase_rounds: int  # rounds if the phases were the fixed half-/quarter-warps
    merged_by: int | None  # x when lanes i and i XOR x share slots (1 or 2); None: fixed phases
    merged_lane_groups: tuple[tuple[int, ...], ...]  # lanes sharing one slot (a lane alone: partner masked)
    merge_reason: str | None  # why the phases were merged, in words
    queue_depth: np.ndarray = not_in_json(repr=False, compare=False)  # distinct words per bank


def element_indices(p: BanksParams) -> np.ndarray:
    lanes = np.arange(WARP_LANES, dtype=np.int64)
    pat = p.pattern
    if pat.kind == "stride":
        return pat.start + lanes * pat.stride
    if pat.kind == "column":
        return lanes * (pat.row_width + pat.padding) + pat.column
    if pat.kind == "broadcast":
        return np.full(WARP_LANES, pat.index, dtype=np.int64)
    if pat.kind == "explicit":
        return np.asarray(pat.indices, dtype=np.int64)
    if pat.kind == "expression":
        out = evaluate(parse(pat.expression or "", LANE_NAMES, "int"), lane_environment(lanes))
        return np.broadcast_to(out, lanes.shape).astype(np.int64)
    raise ValueError(pat.kind)


def access_width(p: BanksParams) -> int:
    """Bytes each lane's address covers: the element size, or a 16-byte row for ldmatrix."""
    return 16 if p.op == "ldmatrix" else p.access_bytes


def address_lanes(p: BanksParams) -> np.ndarray:
    """The lanes whose addresses the instruction uses, sorted: the active lanes, and for ldmatrix
    only lanes 0 … 8·matrices − 1 (the others give no row address)."""
    lanes = sorted(set(p.active_lanes))
    if p.op == "ldmatrix":
        lanes = [x for x in lanes if x < 8 * p.ldmatrix.matrices]
    return np.array(lanes, dtype=np.int64)


def lane_offsets(p: BanksParams) -> np.ndarray:
    """Each lane's physical byte offset in shared memory (after the swizzle); −1 for a lane
    that gives no address. This is what an exported kernel accesses."""
    width = access_width(p)
    phys = apply_swizzle(element_indices(p) * width, p.swizzle)
    out = np.full(WARP_LANES, -1, dtype=np.int64)
    lanes = address_lanes(p)
    out[lanes] = phys[lanes]
    return out


def warnings(p: BanksParams) -> list[tuple[str, str]]:
    """An access that no lane takes part in needs no wavefront: computed, likely not meant."""
    if p.active_lanes:
        return []
    return [("active_lanes", "no lane is listed, so the access needs no wavefront; list the "
                             "lanes that take part (0 … 31 for the whole warp)")]


def problems(p: BanksParams) -> list[tuple[str, str]]:
    out = spec_problems(p.swizzle, "swizzle.")
    pat = p.pattern
    if len(set(p.active_lanes)) != len(p.active_lanes):
        out.append(("active_lanes", "a lane is listed twice"))
    if pat.kind == "column" and pat.column >= pat.row_width:
        out.append(("pattern.column", f"column {pat.column} is outside a row of "
                                      f"{pat.row_width} elements (0…{pat.row_width - 1})"))
    if pat.kind == "explicit" and pat.indices is None:
        out.append(("pattern.indices", "give the element each of the 32 lanes reads"))
    if pat.kind == "expression":
        if not pat.expression:
            out.append(("pattern.expression", "write the element index of each lane, "
                                              "e.g. 'lane * 33'"))
        else:
            try:
                idx = element_indices(p)
            except ExprError as e:
                out.append(("pattern.expression", str(e)))
            else:
                bad = np.flatnonzero((idx < 0) | (idx > MAX_ELEMENT))
                if len(bad):
                    out.append(("pattern.expression",
                                f"lane {int(bad[0])} gets element {int(idx[bad[0]])}, outside "
                                f"0…{MAX_ELEMENT}"))
    return out


def link(p: BanksParams, upstream: dict[str, object]) -> BanksParams:
    """With ``follow_swizzle``, read addresses through the swizzle the swizzle panel shows."""
    shown = upstream.get("swizzle")
    if not p.follow_swizzle or shown is None:
        return p
    b, m, s = shown.bits, shown.base, shown.shift  # type: ignore[attr-defined]
    return replace(p, swizzle=BankSwizzle(mode="custom", bits=b, base=m, shift=s))


def describe_pattern(pat: BankPattern) -> str:
    if pat.kind == "stride":
        start = f"{pat.start} + " if pat.start else ""
        step = "i" if pat.stride == 1 else f"{pat.stride}·i"
        return f"lane i reads element {start}{step}"
    if pat.kind == "column":
        row = pat.row_width + pat.padding
        pad = f" ({pat.row_width} + {pat.padding} padding)" if pat.padding else ""
        return f"lane i reads [i][{pat.column}] of rows of {row} elements{pad}"
    if pat.kind == "broadcast":
        return f"every lane reads element {pat.index}"
    if pat.kind == "explicit":
        return "each lane reads its listed element"
    return f"lane i reads element {pat.expression}"


def merge_partner(p: BanksParams, offsets: np.ndarray | None = None) -> int | None:
    """XOR distance x (1 or 2) when an 8- or 16-byte *load* qualifies for merged phases: every
    active lane reads the same address as lane ``i ^ x``, or that lane gives no address. None
    otherwise (stores, ldmatrix and 1-, 2- and 4-byte accesses never merge)."""
    width = access_width(p)
    if p.op != "load" or width not in (8, 16):
        return None
    off = lane_offsets(p) if offsets is None else offsets
    active = np.flatnonzero(off >= 0)
    if not len(active):
        return None
    for x in MERGE_PARTNERS:
        partner = off[active ^ x]
        if np.all((partner < 0) | (partner == off[active])):
            return x
    return None


def _merged_groups(offsets: np.ndarray, x: int) -> tuple[tuple[int, ...], ...]:
    """Lanes that share one slot: each active lane with its partner i ^ x when that partner is
    active too (they read the same address), else alone."""
    out: list[tuple[int, ...]] = []
    for lane in np.flatnonzero(offsets >= 0).tolist():
        mate = lane ^ x
        if mate < lane and offsets[mate] >= 0:
            continue
        out.append((lane, mate) if offsets[mate] >= 0 else (lane,))
    return tuple(out)


def _serve(words: np.ndarray, active: np.ndarray, phase_size: int, n_phases: int):
    """Serve the active lanes' words in ``n_phases`` phases of ``phase_size`` lanes."""
    w = words.shape[1]
    slots: list[Slot] = []
    phase_rounds: list[int] = []
    depth = np.zeros(BANKS, dtype=np.int64)
    conflict = 0
    offset = 0
    groups: list[BroadcastGroup] = []
    for ph in range(n_phases):
        lanes_here = active[(active // phase_size) == ph]
        if not len(lanes_here):
            phase_rounds.append(0)
            continue
        # Distinct words per bank, each with its readers, in order of first reader.
        readers: dict[int, list[int]] = {}
        for lane in lanes_here.tolist():
            for k in range(w):
                readers.setdefault(int(words[lane, k]), []).append(lane)
        per_bank: dict[int, list[int]] = {}
        for word in readers:
            per_bank.setdefault(word % BANKS, []).append(word)
        rounds_here = max(len(v) for v in per_bank.values())
        conflict = max(conflict, rounds_here)
        for bank, ws in per_bank.items():
            depth[bank] += len(ws)
            for i, word in enumerate(ws):
                slots.append(Slot(bank, word, tuple(readers[word]), ph, offset + i + 1))
        firsts: dict[int, list[int]] = {}
        for lane in lanes_here.tolist():
            firsts.setdefault(int(words[lane, 0]), []).append(lane)
        groups.extend(BroadcastGroup(word, tuple(ls)) for word, ls in firsts.items()
                      if len(ls) > 1)
        phase_rounds.append(rounds_here)
        offset += rounds_here
    return slots, phase_rounds, depth, conflict, offset, groups


def compute(p: BanksParams) -> BanksResult:
    width = access_width(p)
    w = max(1, width // BANK_BYTES)
    fixed_size = WARP_LANES // w
    idx = element_indices(p)
    active = address_lanes(p)
    # (lane, k) → the k-th word of the lane's element, through the swizzle (1- and 2-byte
    # elements lie inside one word)
    logical_bytes = idx[:, None] * width + np.arange(w)[None, :] * BANK_BYTES
    words = apply_swizzle(logical_bytes, p.swizzle) // BANK_BYTES  # (32, w)
    banks = words % BANKS

    fixed = _serve(words, active, fixed_size, w)
    offsets = lane_offsets(p)
    partner = merge_partner(p, offsets)
    if partner is None:
        phase_size, n_phases = fixed_size, w
        slots, phase_rounds, depth, conflict, offset, groups = fixed
        merged_groups: tuple[tuple[int, ...], ...] = ()
        reason = None
    else:
        phase_size, n_phases = 2 * fixed_size, w // 2
        slots, phase_rounds, depth, conflict, offset, groups = _serve(words, active, phase_size,
                                                                      n_phases)
        merged_groups = _merged_groups(offsets, partner)
        pair = "i and i + 1 (i even)" if partner == 1 else "i and i + 2 (i mod 4 < 2)"
        reason = (f"every lane reads the same address as lane i XOR {partner} (lanes {pair}), "
                  "or that lane is masked: each pair takes one slot, so a phase serves "
                  f"{phase_size} lanes instead of {fixed_size}")
    slots.sort(key=lambda s: (s.round, s.bank))
    is_active = np.zeros(WARP_LANES, dtype=bool)
    is_active[active] = True

    def per_lane(values: np.ndarray) -> tuple[int | None, ...]:
        return tuple(int(v) if ok else None for v, ok in zip(values, is_active, strict=True))

    b, m, s = swizzle_bms(p.swizzle)
    return BanksResult(
        access_bytes=width, pattern=describe_pattern(p.pattern), words_per_lane=w,
        active_lanes=tuple(int(x) for x in active),
        op=p.op, rounds=offset, conflict_degree=conflict,
        fixed_phase_rounds=fixed[4], merged_by=partner, merged_lane_groups=merged_groups,
        merge_reason=reason,
        distinct_words=len({sl.word for sl in slots}),
        phases=n_phases,
        phase_lanes=tuple((ph * phase_size, (ph + 1) * phase_size - 1) for ph in range(n_phases)),
        phase_rounds=tuple(phase_rounds),
        element_of_lane=per_lane(idx), word_of_lane=per_lane(words[:, 0]),
        bank_of_lane=per_lane(banks[:, 0]),
        words_of_lane=tuple(tuple(int(x) for x in words[i]) if is_active[i] else None
                            for i in range(WARP_LANES)),
        broadcast_groups=tuple(groups), slots=tuple(slots),
        swizzle_formula=formula(b, m, s).replace("offset", "address") if b else None,
        queue_depth=depth,
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("16 B, stride 4096, padded", {"access_bytes": 16, "pattern": {
            "kind": "stride", "stride": 4096, "start": 1048576, "row_width": 4096,
            "padding": 256}}),
        ("explicit words, custom swizzle", {"access_bytes": 16, "pattern": {
            "kind": "explicit", "indices": [(i * 104729) % 16777216 for i in range(32)]},
            "swizzle": {"mode": "custom", "bits": 8, "base": 16, "shift": 16}}),
    ]
