"""Warp-level ``mma.sync`` fragments and ``ldmatrix``/``stmatrix`` rows: who holds each element.

Rules (PTX ISA, *Warp-level Matrix Fragment* figures, "Matrix Fragments for mma.m16n8k16 with
floating point type", "… mma.m16n8k8" (``.tf32``), "… mma.m16n8k32" (``.s8``/``.u8``) and
"… mma.m8n8k4 with .f64"): a warp's 32 lanes hold A (row-major, M × K), B (column-major,
K × N) and C/D (M × N) in registers. With ``groupID = lane >> 2`` and
``threadID_in_group = lane % 4`` (here g and t), element i of a lane's fragment lies at

=============  ==========================================  ====================================
shape, type    A (row, col)                                B (row = k, col = n)
=============  ==========================================  ====================================
m16n8k16 16b   g + 8·[i mod 4 ≥ 2],  2t + (i mod 2) + 8·[i ≥ 4]   2t + (i mod 2) + 8·[i ≥ 2],  g
m16n8k8 tf32   g + 8·(i mod 2),      t + 4·[i ≥ 2]               t + 4·i,  g
m16n8k32 8b    g + 8·[i mod 8 ≥ 4],  4t + (i mod 4) + 16·[i ≥ 8] 4t + (i mod 4) + 16·[i ≥ 4],  g
m8n8k4 f64     g,  t                                             t,  g
=============  ==========================================  ====================================

and C/D of every m16n8 shape at (g + 8·[i ≥ 2], 2t + (i mod 2)); of m8n8k4 at (g, 2t + i). A
32-bit register holds two 16-bit elements (element 2j in the low half of register j), four
8-bit elements (element 4j + b in byte b), one ``.tf32`` or ``.f32``/``.s32`` element; an
``.f64`` element takes a 64-bit register (two 32-bit registers). ``f16`` accumulators pack two
elements per register like 16-bit inputs.

``ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`` and ``stmatrix`` (PTX ISA, *Warp-level
matrix load/store instructions*): lanes 0 … 8·x − 1 each give the shared-memory address of one
16-byte row (lane l: row l mod 8 of matrix l / 8); register j of lane l receives (or gives) row
l / 4, columns 2·(l mod 4) and + 1 of matrix j, or with ``.trans`` column l / 4, rows 2·(l mod 4)
and + 1. Which rows of an operand tile the matrices are follows from the fragment tables: for A,
matrix j is rows 8·(j mod 2) …, columns 8·(j / 2) …; for B (stored n-major, k contiguous) matrix j
is n 8·(j / 2) …, k 8·(j mod 2) …; with ``.trans`` the tile is stored transposed. The shared-memory
wavefronts of those rows are counted by the banks model (:mod:`gpuviz.models.banks`, op
``ldmatrix``: one phase per 8 × 8 matrix), after the row-major, padded or swizzled tile layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Shape → (M, N, K) of one warp-level instruction.
SHAPES: dict[str, tuple[int, int, int]] = {
    "m16n8k16": (16, 8, 16),
    "m16n8k8": (16, 8, 8),
    "m16n8k32": (16, 8, 32),
    "m8n8k4": (8, 8, 4),
}
#: Input types of each shape, and the accumulator types each input type allows.
INPUT_TYPES: dict[str, tuple[str, ...]] = {
    "m16n8k16": ("f16", "bf16"),
    "m16n8k8": ("tf32",),
    "m16n8k32": ("s8", "u8"),
    "m8n8k4": ("f64",),
}
ACCUMULATORS: dict[str, tuple[str, ...]] = {
    "f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "s8": ("s32",), "u8": ("s32",),
    "f64": ("f64",),
}
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "s8": 8, "u8": 8, "f64": 64, "f32": 32, "s32": 32}


def elements_per_register(dtype: str) -> int:
    """Elements one 32-bit register holds (an f64 element takes two registers: 1/2 → 1)."""
    return max(1, 32 // BITS[dtype])


def registers_of(dtype: str, elements: int) -> int:
    """32-bit registers a lane needs for ``elements`` of ``dtype``."""
    if dtype == "f64":
        return 2 * elements
    return elements // elements_per_register(dtype)


def a_coordinates(shape: str, lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    if shape == "m16n8k16":
        return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >= 4)
    if shape == "m16n8k8":
        return g + 8 * (i & 1), t + 4 * (i >= 2)
    if shape == "m16n8k32":
        return g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >= 8)
    return g, t


def b_coordinates(shape: str, lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    if shape == "m16n8k16":
        return 2 * t + (i & 1) + 8 * (i >= 2), g
    if shape == "m16n8k8":
        return t + 4 * i, g
    if shape == "m16n8k32":
        return 4 * t + (i & 3) + 16 * (i >= 4), g
    return t, g


def c_coordinates(shape: str, lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    if shape == "m8n8k4":
        return g, 2 * t + i
    return g + 8 * (i >= 2), 2 * t + (i & 1)


def fragment_sizes(shape: str) -> tuple[int, int, int]:
    """Elements per lane of A, B and C."""
    m, n, k = SHAPES[shape]
    return m * k // 32, k * n // 32, m * n // 32


@dataclass(frozen=True)
class Fragment:
    """One operand of one instruction: ``owner[row][col] = (lane, element)``."""

    operand: str  # "a", "b", "c"
    rows: int
    cols: int
    dtype: str
    elements_per_lane: int
    elements_per_register: int
    registers_per_lane: int  # 32-bit registers
    owner: np.ndarray  # (rows, cols, 2): lane, element index

    def lane_of(self, row: int, col: int) -> int:
        return int(self.owner[row, col, 0])

    def element_of(self, row: int, col: int) -> int:
        return int(self.owner[row, col, 1])

    def register_of(self, row: int, col: int) -> int:
        """The 32-bit register (of the lane's fragment) holding the element."""
        i = self.element_of(row, col)
        return 2 * i if self.dtype == "f64" else i // self.elements_per_register

    def part_of(self, row: int, col: int) -> int:
        """Which half (16-bit) or byte (8-bit) of its register the element is (0: the low)."""
        return self.element_of(row, col) % self.elements_per_register

    def cells_of_lane(self, lane: int) -> list[tuple[int, int, int]]:
        """(element, row, col) of every element the lane holds, in element order."""
        rows, cols = np.nonzero(self.owner[:, :, 0] == lane)
        cells = [(int(self.owner[r, c, 1]), int(r), int(c)) for r, c in zip(rows, cols,
                                                                              strict=True)]
        return sorted(cells)


def fragment(shape: str, operand: str, dtype: str) -> Fragment:
    m, n, k = SHAPES[shape]
    rows, cols = {"a": (m, k), "b": (k, n), "c": (m, n)}[operand]
    coords = {"a": a_coordinates, "b": b_coordinates, "c": c_coordinates}[operand]
    per_lane = rows * cols // 32
    owner = np.full((rows, cols, 2), -1, dtype=np.int64)
    for lane in range(32):
        for i in range(per_lane):
            r, c = coords(shape, lane, i)
            owner[r, c] = (lane, i)
    assert (owner >= 0).all(), f"{shape} {operand}: a cell without an owner"
    return Fragment(operand, rows, cols, dtype, per_lane, elements_per_register(dtype),
                    registers_of(dtype, per_lane), owner)


# --------------------------------------------------------------------------------------------
# ldmatrix / stmatrix


def matrix_origin(operand: str, trans: bool, j: int) -> tuple[int, int]:
    """(stored row, stored column) of the top-left element of 8 × 8 matrix j in the operand's
    stored tile: A is stored M × K (``.trans``: K × M); B n-major N × K (``.trans``: K × N)."""
    if operand == "a":
        return (8 * (j // 2), 8 * (j % 2)) if trans else (8 * (j % 2), 8 * (j // 2))
    return (8 * (j % 2), 8 * (j // 2)) if trans else (8 * (j // 2), 8 * (j % 2))


def row_of_lane(operand: str, trans: bool, matrices: int, lane: int) -> tuple[int, int, int] | None:
    """(matrix, stored row, first stored column) whose address lane ``lane`` gives, or None."""
    if lane >= 8 * matrices:
        return None
    j = lane // 8
    r0, c0 = matrix_origin(operand, trans, j)
    return j, r0 + lane % 8, c0


def register_element(operand: str, trans: bool, lane: int, j: int, half: int) -> tuple[int, int]:
    """(row, col) in the operand (A: M × K; B: K × N) of half ``half`` of register j."""
    r0, c0 = matrix_origin(operand, trans, j)
    if trans:
        sr, sc = r0 + 2 * (lane % 4) + half, c0 + lane // 4
    else:
        sr, sc = r0 + lane // 4, c0 + 2 * (lane % 4) + half
    # stored coordinates → operand coordinates
    if operand == "a":
        return (sc, sr) if trans else (sr, sc)
    return (sr, sc) if trans else (sc, sr)
