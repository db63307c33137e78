"""XOR swizzle of a 1024-byte shared-memory region: where each 16-byte chunk is stored.

Rule (source text "GPU Architecture and CUDA Programming", *XOR changes storage addresses without
changing the matrix*): within one 1024-byte-aligned region, 8 rows × 128 bytes of eight 16-byte
chunks each, the physical byte offset is

    physical = offset ^ ((offset & 0x380) >> 3)

It keeps the row (bits 7–9) and the low four byte bits, XORs the three chunk-column bits (4–6)
with the three row bits, and applying it twice restores the offset.

This is the member Swizzle⟨3,4,3⟩ of the CUTLASS/CuTe family Swizzle⟨B,M,S⟩ (``cute/swizzle.hpp``)
on byte offsets: the B bits starting at bit M+S are XORed into the B bits starting at bit M,

    physical = offset ^ ((offset & (((1 << B) − 1) << (M + S))) >> S),     S ≥ B.

The TMA shared-memory swizzle modes of Hopper (CUDA C++ Programming Guide, *Tensor Memory
Access*, swizzle modes; CuTe's ``Layout_K_SW32/64/128_Atom``) are, in bytes: 128B =
Swizzle⟨3,4,3⟩ (pattern repeats every 1024 bytes), 64B = Swizzle⟨2,4,3⟩ (every 512 bytes) and
32B = Swizzle⟨1,4,3⟩ (every 256 bytes).

Banks: shared memory has 32 banks of 4 bytes; the bank of a byte address is (address // 4) mod 32
(CUDA C++ Programming Guide, *Shared Memory*, compute capability 5.x and later). The figure
follows one reader per row that reads the first word of a chosen logical chunk column (or another
word of it), as the source text's illustration does: linear, column 3's first word is bank 12 in every
row; swizzled, the eight readers hit eight distinct banks. It illustrates address mapping, not
every lane or transaction of a Tensor Core instruction.
"""

from dataclasses import dataclass

import numpy as np

from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param

REGION_BYTES = 1024
ROW_BYTES = 128
CHUNK_BYTES = 16
ROWS = REGION_BYTES // ROW_BYTES  # 8
CHUNKS_PER_ROW = ROW_BYTES // CHUNK_BYTES  # 8
BANKS = 32
BANK_BYTES = 4

#: Swizzle⟨B, M, S⟩ of each named mode, on byte offsets.
PRESETS: dict[str, tuple[int, int, int]] = {
    "none": (0, 4, 3),
    "32B": (1, 4, 3),
    "64B": (2, 4, 3),
    "128B": (3, 4, 3),
}
MODES = ("128B", "64B", "32B", "none", "custom")


# B, M and S are the record's own only in custom mode: a preset's form shows none of them
# (they stayed editable with stale values: Swizzle⟨1,4,3⟩ drawn, "bits 3" in its field)
CUSTOM_ONLY = {"mode": ("custom",)}


@dataclass(frozen=True)
class SwizzleSpec:
    mode: str = param("128B", doc="Swizzle mode: a TMA preset (128B, 64B, 32B), none, or custom "
                                  "Swizzle⟨bits, base, shift⟩.", choices=MODES)
    bits: int = param(3, doc="B of a custom Swizzle⟨B,M,S⟩: how many bits are XORed.",
                      minimum=0, maximum=8, applies_when=CUSTOM_ONLY)
    base: int = param(4, doc="M of a custom Swizzle⟨B,M,S⟩: the lowest byte-address bit that "
                             "changes (4 keeps 16-byte chunks whole).", minimum=0, maximum=16,
                      applies_when=CUSTOM_ONLY)
    shift: int = param(3, doc="S of a custom Swizzle⟨B,M,S⟩: how far the row bits are shifted "
                              "down onto the column bits (at least B).", minimum=0, maximum=16,
                       applies_when=CUSTOM_ONLY)


def swizzle_bms(spec: SwizzleSpec) -> tuple[int, int, int]:
    """(B, M, S) of a spec: a preset's, or the spec's own for ``custom``."""
    if spec.mode == "custom":
        return spec.bits, spec.base, spec.shift
    return PRESETS[spec.mode]


def swizzle_offsets(offsets: "np.ndarray | int", bits: int, base: int, shift: int) -> np.ndarray:
    """Swizzle⟨bits, base, shift⟩ applied to byte offsets (vectorised)."""
    off = np.asarray(offsets, dtype=np.int64)
    if bits == 0:
        return off.copy()
    mask = ((1 << bits) - 1) << (base + shift)
    return off ^ ((off & mask) >> shift)


def apply_swizzle(offsets: "np.ndarray | int", spec: SwizzleSpec) -> np.ndarray:
    """The physical byte offsets of logical byte offsets under ``spec``."""
    return swizzle_offsets(offsets, *swizzle_bms(spec))


def spec_problems(spec: SwizzleSpec, prefix: str = "") -> list[tuple[str, str]]:
    """Checks that field ranges cannot express: S ≥ B (else the XOR is not a bijection)."""
    out: list[tuple[str, str]] = []
    if spec.mode != "custom":
        return out
    if spec.shift < spec.bits:
        out.append((f"{prefix}shift", f"shift ({spec.shift}) must be at least bits "
                                      f"({spec.bits}); otherwise the bits XORed in overlap the "
                                      "bits they change and the mapping is not one-to-one"))
    if spec.bits + spec.base + spec.shift > 40:
        out.append((f"{prefix}bits", "bits + base + shift must stay within 40 address bits"))
    return out


@dataclass(frozen=True)
class SwizzleParams:
    swizzle: SwizzleSpec = param(doc="The XOR swizzle applied to the region.",
                                 default_factory=SwizzleSpec)
    column: int = param(3, doc="Logical 16-byte chunk column (0–7) that one reader per row reads.",
                        minimum=0, maximum=CHUNKS_PER_ROW - 1)
    word: int = param(0, doc="Which 4-byte word of the chunk each reader reads (0 = the first).",
                      minimum=0, maximum=CHUNK_BYTES // BANK_BYTES - 1)


PARAMS = SwizzleParams


def problems(p: SwizzleParams) -> list[tuple[str, str]]:
    out = spec_problems(p.swizzle, "swizzle.")
    b, m, s = swizzle_bms(p.swizzle)
    if not out and b and m < 4:
        out.append(("swizzle.base", "the grid shows 16-byte chunks; a base below 4 would move "
                                    "bytes inside a chunk, so use a base of at least 4"))
    if not out and b and m + s + b > 10:
        out.append(("swizzle.shift", f"Swizzle⟨{b},{m},{s}⟩ reads address bit {m + s + b - 1}, "
                                     "outside the 1024-byte region this grid shows; keep "
                                     "bits + base + shift ≤ 10"))
    return out


@dataclass(frozen=True)
class SwizzleResult:
    bits: int
    base: int
    shift: int
    formula: str
    #: mapping[row][logical chunk column] = physical chunk column in the same row
    mapping: tuple[tuple[int, ...], ...]
    keeps_row_and_low_bits: bool
    bijection: bool
    involution: bool
    column: int
    word: int
    reader_rows: tuple[int, ...]
    linear_offsets: tuple[int, ...]
    swizzled_offsets: tuple[int, ...]
    linear_banks: tuple[int, ...]
    swizzled_banks: tuple[int, ...]
    distinct_linear: int
    distinct_swizzled: int
    byte_map: np.ndarray = not_in_json(repr=False, compare=False)  # physical offset of each of 1024


def reader_of_lane(lane: int) -> int:
    """The reader (row) a warp's lane stands for: lane l reads row l mod 8, as a warp's 16-byte
    reads down a chunk column go, eight rows per quarter-warp phase (and ldmatrix's eight row
    addresses per 8 × 8 matrix)."""
    return lane % ROWS


def chunk_column_of_bank(bank: int) -> int:
    """The physical chunk column that holds bank ``bank`` in every row: a 128-byte row spans all
    32 banks, chunk column c banks 4c … 4c + 3."""
    return (bank % BANKS) * BANK_BYTES // CHUNK_BYTES


def formula(b: int, m: int, s: int) -> str:
    if b == 0:
        return "physical = offset"
    mask = ((1 << b) - 1) << (m + s)
    return f"physical = offset ^ ((offset & {mask:#x}) >> {s})"


def compute(p: SwizzleParams) -> SwizzleResult:
    b, m, s = swizzle_bms(p.swizzle)
    offsets = np.arange(REGION_BYTES, dtype=np.int64)
    phys = swizzle_offsets(offsets, b, m, s)
    keeps = bool(np.all((phys >> 7) == (offsets >> 7)) and np.all((phys & 15) == (offsets & 15)))
    bijection = bool(np.array_equal(np.sort(phys), offsets))
    involution = bool(np.array_equal(swizzle_offsets(phys, b, m, s), offsets))

    phys_chunks = phys[::CHUNK_BYTES]
    mapping = tuple(
        tuple(int((phys_chunks[r * CHUNKS_PER_ROW + c] % ROW_BYTES) // CHUNK_BYTES)
              for c in range(CHUNKS_PER_ROW))
        for r in range(ROWS)
    )

    rows = np.arange(ROWS, dtype=np.int64)
    lin = rows * ROW_BYTES + p.column * CHUNK_BYTES + p.word * BANK_BYTES
    swz = swizzle_offsets(lin, b, m, s)
    lin_banks = (lin // BANK_BYTES) % BANKS
    swz_banks = (swz // BANK_BYTES) % BANKS
    return SwizzleResult(
        bits=b, base=m, shift=s, formula=formula(b, m, s), mapping=mapping,
        keeps_row_and_low_bits=keeps, bijection=bijection, involution=involution,
        column=p.column, word=p.word, reader_rows=tuple(int(r) for r in rows),
        linear_offsets=tuple(int(v) for v in lin), swizzled_offsets=tuple(int(v) for v in swz),
        linear_banks=tuple(int(v) for v in lin_banks),
        swizzled_banks=tuple(int(v) for v in swz_banks),
        distinct_linear=len(set(lin_banks.tolist())),
        distinct_swizzled=len(set(swz_banks.tolist())),
        byte_map=phys,
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("custom, 128B span", {"swizzle": {"mode": "custom", "bits": 3, "base": 4, "shift": 3},
                               "column": 7, "word": 3}),
    ]
