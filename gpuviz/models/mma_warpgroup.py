"""Hopper ``wgmma``: the warpgroup, the accumulator layout, the matrix descriptor, completion.

Rules (PTX ISA, *Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions*):

- **Warpgroup.** "A warpgroup is a set of four contiguous warps such that the warp-rank of the
  first warp is a multiple of 4." Warp w of a block belongs to warpgroup w / 4; ``wgmma`` is
  ``.sync.aligned``: all four warps of the warpgroup must execute the same ``wgmma``, else the
  behaviour is undefined. Four warps that do not start at a multiple of 4 span two warpgroups.
- **Accumulator D of m64nNk16** (*Register Fragments*, "WGMMA .m64nNk16 register fragment layout
  for accumulator matrix D"): warp w of the warpgroup owns rows 16w … 16w + 15; lane l holds
  d_i at row 16w + l / 4 + 8·[i mod 4 ≥ 2], column 8·(i / 4) + 2·(l mod 4) + (i mod 2): the
  m16n8 C fragment repeated N / 8 times across. N / 2 ``.f32`` registers per thread.
- **A from registers**: warp w holds rows 16w … of A (64 × 16) as the m16n8k16 A fragment.
- **Matrix descriptor** (*Matrix Descriptor Format*): a 64-bit value; bits 0–13 start address
  >> 4, 16–29 leading-dimension byte offset >> 4, 32–45 stride-dimension byte offset >> 4,
  49–51 base offset (0 here), 62–63 swizzle mode (0 none, 1 128 B, 2 64 B, 3 32 B). The operand
  is read as *core matrices* of 8 rows × 16 bytes (*Shared Memory Matrix Layout*): without
  swizzling a core matrix is 128 contiguous bytes, the leading byte offset (LBO) steps between
  core matrices along K and the stride byte offset (SBO) between 8-row groups along M or N. With a
  32/64/128-byte swizzle (K-major), rows lie 32/64/128 bytes apart inside an 8-row atom whose
  16-byte chunks are XOR-swizzled (Swizzle⟨1|2|3,4,3⟩, as the TMA modes: :mod:`gpuviz.models.
  swizzle`); SBO steps between atoms; LBO is not used while one instruction's K (32 bytes of
  16-bit elements) lies inside one swizzle row. The K step of the next instruction advances the
  start address by 32 bytes.
- **Completion** (*wgmma.fence*, *wgmma.commit_group*, *wgmma.wait_group*): ``wgmma.mma_async``
  runs asynchronously. ``wgmma.fence`` orders earlier register accesses before it;
  ``commit_group`` closes a group of the issued operations; ``wait_group N`` waits until at most
  N groups are pending. Reading D, or overwriting the shared memory (or registers) an operation
  reads, is safe only once its group is complete.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpuviz.models.swizzle import PRESETS, swizzle_offsets

WARPGROUP_WARPS = 4
#: Descriptor swizzle-mode field of each mode.
DESCRIPTOR_MODE = {"none": 0, "128B": 1, "64B": 2, "32B": 3}
SWIZZLE_BYTES = {"none": 16, "32B": 32, "64B": 64, "128B": 128}
K_BYTES = 32  # one instruction's K of 16-bit elements: 16 × 2 bytes
N_CHOICES = (8, 16, 32, 64, 128, 256)


def warpgroup_of(warp: int) -> int:
    return warp // WARPGROUP_WARPS


def warpgroup_valid(first_warp: int, block_warps: int) -> bool:
    return first_warp % WARPGROUP_WARPS == 0 and first_warp + WARPGROUP_WARPS <= block_warps


def d_coordinates(warp: int, lane: int, i: int) -> tuple[int, int]:
    """(row, col) of d_i of lane ``lane`` of warp ``warp`` (0–3) of the warpgroup."""
    g, t = lane >> 2, lane % 4
    return 16 * warp + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * t + (i & 1)


def d_owner(n: int) -> np.ndarray:
    """(64, n, 3): warp in the warpgroup, lane, register index i of every element of D."""
    w, lane, i = np.meshgrid(np.arange(WARPGROUP_WARPS), np.arange(32), np.arange(n // 2),
                             indexing="ij")
    g, t = lane >> 2, lane % 4
    rows = 16 * w + g + 8 * ((i >> 1) & 1)
    cols = 8 * (i >> 2) + 2 * t + (i & 1)
    out = np.full((64, n, 3), -1, dtype=np.int64)
    out[rows, cols] = np.stack([w, lane, i], axis=-1)
    return out


def canonical_offsets(swizzle: str, k_steps: int) -> tuple[int, int]:
    """(LBO, SBO) in bytes of a dense K-major tile of 16-bit elements, ``k_steps`` instructions
    deep: without swizzle, the core matrices along K side by side (128 B apart) and 8-row groups
    after all of them (2 · k_steps · 128 B); with a swizzle, LBO unused (stated as 16, the
    smallest encodable) and SBO one 8-row atom."""
    if swizzle == "none":
        return 128, 2 * k_steps * 128
    return 16, 8 * SWIZZLE_BYTES[swizzle]


def step_start(start: int, lbo: int, swizzle: str, k_step: int) -> int:
    """The descriptor's start address for the instruction of K step ``k_step``."""
    return start + (k_step * 2 * lbo if swizzle == "none" else k_step * K_BYTES)


def row_pitch(swizzle: str) -> int:
    """Bytes between rows of one 8-row group (none: 16, rows of a core matrix are contiguous)."""
    return SWIZZLE_BYTES[swizzle]


def encode_descriptor(start: int, lbo: int, sbo: int, swizzle: str, base_offset: int = 0) -> int:
    return (((start & 0x3FFFF) >> 4)
            | ((lbo >> 4) & 0x3FFF) << 16
            | ((sbo >> 4) & 0x3FFF) << 32
            | (base_offset & 7) << 49
            | DESCRIPTOR_MODE[swizzle] << 62)


def element_offsets(rows: np.ndarray, kbytes: np.ndarray, k_step: int, start: int, lbo: int,
                    sbo: int, swizzle: str) -> np.ndarray:
    """Physical shared-memory byte addresses of bytes ``kbytes`` (0–31) of rows ``rows`` of one
    K-major operand read by the instruction of K step ``k_step`` through the descriptor
    (arrays broadcast against each other)."""
    rows, kbytes = np.asarray(rows, dtype=np.int64), np.asarray(kbytes, dtype=np.int64)
    chunk, inner = kbytes // 16, kbytes % 16
    base = step_start(start, lbo, swizzle, k_step)
    if swizzle == "none":
        return base + (rows // 8) * sbo + chunk * lbo + (rows % 8) * 16 + inner
    logical = base + (rows // 8) * sbo + (rows % 8) * row_pitch(swizzle) + chunk * 16 + inner
    b, m, s = PRESETS[swizzle]
    return swizzle_offsets(logical, b, m, s)


def element_offset(row: int, kbyte: int, k_step: int, start: int, lbo: int, sbo: int,
                   swizzle: str) -> int:
    """:func:`element_offsets` of one byte."""
    return int(element_offsets(np.asarray(row), np.asarray(kbyte), k_step, start, lbo, sbo,
                               swizzle))


@dataclass(frozen=True)
class CoreMatrix:
    """One 8-row × 16-byte core matrix the descriptor selects: rows' physical addresses."""

    group: int  # 8-row group along M or N
    chunk: int  # 16-byte chunk along K (0 or 1 within one instruction)
    row_addresses: tuple[int, ...]


def core_matrices(rows: int, k_step: int, start: int, lbo: int, sbo: int,
                  swizzle: str) -> tuple[CoreMatrix, ...]:
    out = []
    r = np.arange(8)
    for g in range(rows // 8):
        for chunk in range(2):
            addr = element_offsets(8 * g + r, np.asarray(16 * chunk), k_step, start, lbo, sbo,
                                   swizzle)
            out.append(CoreMatrix(g, chunk, tuple(int(a) for a in addr)))
    return tuple(out)


@dataclass(frozen=True)
class AsyncStep:
    """One event of the completion rule, with the state after it."""

    event: str  # e.g. "wgmma.mma_async (K step 1)"
    pending: tuple[int, ...]  # groups issued and not yet complete
    complete: tuple[int, ...]
    d_readable: bool
    reusable_stages: tuple[int, ...]  # operand buffers that may be overwritten
    note: str


def async_steps(stages: int, wait_pending: int) -> tuple[AsyncStep, ...]:
    """fence; ``stages`` × (mma_async, commit_group); wait_group ``wait_pending``; read D."""
    steps = [AsyncStep("wgmma.fence", (), (), False, (),
                       "orders earlier accumulator and A register writes before the "
                       "asynchronous operations")]
    pending: list[int] = []
    for s in range(stages):
        steps.append(AsyncStep(f"wgmma.mma_async (K step {s})", tuple(pending), (), False, (),
                               f"issued; reads stage {s}'s operands from shared memory "
                               "asynchronously"))
        pending.append(s)
        steps.append(AsyncStep(f"wgmma.commit_group (group {s})", tuple(pending), (), False, (),
                               f"group {s} closed; the warpgroup runs on"))
    def groups(ids: list[int]) -> str:
        return ("group " if len(ids) == 1 else "groups ") + ", ".join(map(str, ids))

    keep = min(wait_pending, len(pending))
    done = pending[:len(pending) - keep]
    left = pending[len(pending) - keep:]
    steps.append(AsyncStep(f"wgmma.wait_group {wait_pending}", tuple(left), tuple(done),
                           not left, tuple(done),
                           ("every group complete: D may be read, every stage reused"
                            if not left else
                            (f"{groups(done)} complete; " if done else "none complete; ")
                            + f"{groups(left)} may still run")))
    if left:
        steps.append(AsyncStep("read D", tuple(left), tuple(done), False, tuple(done),
                               f"hazard: D is read while {groups(left)} may still write it"))
    else:
        steps.append(AsyncStep("read D", (), tuple(done), True, tuple(done),
                               "safe: every group that writes D is complete"))
    return tuple(steps)
