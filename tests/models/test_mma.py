"""The mma model against the PTX ISA's fragment formulas, written out here independently of the
model (PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32 / m8n8k4", ldmatrix,
"WGMMA .m64nNk16 register fragment layout for accumulator matrix D", the matrix descriptor)."""

from __future__ import annotations

import pytest

from gpuviz.models import mma
from gpuviz.models.mma_fragments import fragment


def isa_a(shape, lane, i):
    gid, tig = lane // 4, lane % 4
    if shape == "m16n8k16":  # a0..a7, .f16x2 / .bf16x2
        row = gid if i in (0, 1, 4, 5) else gid + 8
        col = tig * 2 + (i & 1) if i < 4 else tig * 2 + (i & 1) + 8
    elif shape == "m16n8k8":  # a0..a3, .tf32
        row = gid if i in (0, 2) else gid + 8
        col = tig if i in (0, 1) else tig + 4
    elif shape == "m16n8k32":  # a0..a15, .s8/.u8
        row = gid if i < 4 or 8 <= i < 12 else gid + 8
        col = tig * 4 + (i & 3) if i < 8 else tig * 4 + (i & 3) + 16
    else:  # m8n8k4 .f64
        row, col = gid, tig
    return row, col


def isa_b(shape, lane, i):
    gid, tig = lane // 4, lane % 4
    if shape == "m16n8k16":
        k = tig * 2 + (i & 1) if i < 2 else tig * 2 + (i & 1) + 8
    elif shape == "m16n8k8":
        k = tig if i == 0 else tig + 4
    elif shape == "m16n8k32":
        k = tig * 4 + (i & 3) if i < 4 else tig * 4 + (i & 3) + 16
    else:
        k = tig
    return k, gid


def isa_c(shape, lane, i):
    gid, tig = lane // 4, lane % 4
    if shape == "m8n8k4":
        return gid, tig * 2 + i
    return (gid if i < 2 else gid + 8), tig * 2 + (i & 1)


CASES = [("m16n8k16", "f16", "f32", (4, 2, 4)), ("m16n8k16", "f16", "f16", (4, 2, 2)),
         ("m16n8k16", "bf16", "f32", (4, 2, 4)), ("m16n8k8", "tf32", "f32", (4, 2, 4)),
         ("m16n8k32", "s8", "s32", (4, 2, 4)), ("m16n8k32", "u8", "s32", (4, 2, 4)),
         ("m8n8k4", "f64", "f64", (2, 2, 4))]


@pytest.mark.parametrize("shape,dtype,acc,regs", CASES)
def test_every_fragment_cell_is_where_the_isa_puts_it(shape, dtype, acc, regs):
    r = mma.compute(mma.MmaParams(shape=shape, dtype=dtype, accumulator=acc))
    for table, isa in ((r.a_owner, isa_a), (r.b_owner, isa_b), (r.c_owner, isa_c)):
        per_lane = table.shape[0] * table.shape[1] // 32
        for lane in range(32):
            for i in range(per_lane):
                row, col = isa(shape, lane, i)
                assert tuple(table[row, col]) == (lane, i), (shape, lane, i)
    assert (r.registers_per_thread["a"], r.registers_per_thread["b"],
            r.registers_per_thread["c"]) == regs


def test_c_9_3_of_m16n8k16_is_lane_5_c3_in_register_3():
    r = mma.compute(mma.MmaParams())
    assert (r.c.lane_of(9, 3), r.c.element_of(9, 3), r.c.register_of(9, 3)) == (5, 3, 3)
    f16 = fragment("m16n8k16", "c", "f16")
    assert (f16.register_of(9, 3), f16.part_of(9, 3)) == (1, 1)  # high half of register 1
    s8 = fragment("m16n8k32", "a", "s8")
    assert (s8.lane_of(9, 22), s8.register_of(9, 22), s8.part_of(9, 22)) == (5, 3, 2)


@pytest.mark.parametrize("operand,matrices,trans", [("a", 4, False), ("a", 4, True),
                                                    ("b", 2, False), ("b", 2, True),
                                                    ("b", 4, True), ("a", 1, False)])
def test_ldmatrix_registers_hold_the_mma_fragment(operand, matrices, trans):
    """ldmatrix gives lane l, register j the row l / 4 (.trans: the column) of matrix j: for
    the matrices the model assigns, that is exactly the m16n8k16 fragment's elements 2j, 2j + 1
    (x4 B: two n8 tiles side by side)."""
    r = mma.compute(mma.MmaParams(feed=mma.MmaFeed(operand=operand, matrices=matrices,
                                                   trans=trans)))
    for lane in range(32):
        for j, half, row, col in r.feed.registers[lane]:
            i = 2 * (j % (4 if operand == "a" else 2)) + half
            want = isa_a("m16n8k16", lane, i) if operand == "a" else isa_b("m16n8k16", lane, i)
            if operand == "b" and j >= 2:
                want = (want[0], want[1] + 8)
            assert (row, col) == want
    rows = {row.lane: (row.row, row.col) for row in r.feed.rows}
    assert sorted(rows) == list(range(8 * matrices))


@pytest.mark.parametrize("layout,swizzle,wavefronts", [
    ("row-major", "128B", 32), ("padded", "128B", 4), ("swizzled", "128B", 4),
    ("swizzled", "64B", 8), ("swizzled", "32B", 16)])
def test_x4_load_of_a_from_128_byte_rows(layout, swizzle, wavefronts):
    """Each 8 × 8 matrix is one phase: rows 128 bytes apart share their four banks (8 rows,
    8 wavefronts); 16 bytes of padding or Swizzle<3,4,3> spread them (1 each); Swizzle<2,4,3>
    and <1,4,3> permute only 4 or 2 chunks (2 and 4 rows per bank group). As the H200 counts."""
    r = mma.compute(mma.MmaParams(feed=mma.MmaFeed(layout=layout, swizzle=swizzle)))
    assert r.ldmatrix_wavefronts == wavefronts
    assert r.feed.matrix_wavefronts == (wavefronts // 4,) * 4


def test_a_warpgroup_is_four_warps_from_a_multiple_of_four():
    def valid(first, block):
        return mma.compute(mma.MmaParams(warpgroup=mma.MmaWarpgroup(
            first_warp=first, block_warps=block))).warpgroup
    assert valid(0, 4).valid and valid(4, 8).valid
    g = valid(1, 8)
    assert not g.valid and g.warpgroups == (0, 0, 0, 1) and "multiple of 4" in g.reason
    assert not valid(4, 6).valid and not valid(2, 4).valid


def test_wgmma_accumulator_rows_by_warp():
    g = mma.compute(mma.MmaParams(warpgroup=mma.MmaWarpgroup(n=32))).warpgroup
    assert g.d_registers_per_thread == 16
    for w in range(4):
        for lane in range(32):
            for i in range(16):
                row = 16 * w + lane // 4 + 8 * ((i // 2) % 2)
                col = 8 * (i // 4) + 2 * (lane % 4) + i % 2
                assert tuple(g.d_owner[row, col]) == (w, lane, i)


def test_descriptor_bits_and_core_matrices():
    g = mma.compute(mma.MmaParams()).warpgroup  # 128B swizzle, start 0
    assert (g.leading_byte_offset, g.stride_byte_offset) == (16, 1024)
    assert g.descriptor == (1 << 62) | (64 << 32) | (1 << 16)
    first = next(c for c in g.b_core_matrices if (c.group, c.chunk) == (0, 0))
    # rows 128 bytes apart, chunk 0 of row r swizzled to chunk r: all eight bank groups
    assert first.row_addresses == tuple(128 * r + 16 * r for r in range(8))
    plain = mma.compute(mma.MmaParams(warpgroup=mma.MmaWarpgroup(swizzle="none",
                                                                 k_steps=1))).warpgroup
    assert (plain.leading_byte_offset, plain.stride_byte_offset) == (128, 256)
    cm = {(c.group, c.chunk): c.row_addresses for c in plain.b_core_matrices}
    assert cm[(0, 1)] == tuple(128 + 16 * r for r in range(8))  # LBO along K
    assert cm[(1, 0)] == tuple(256 + 16 * r for r in range(8))  # SBO along N


def test_reading_d_before_its_group_completes_is_a_hazard():
    steps = mma.compute(mma.MmaParams(warpgroup=mma.MmaWarpgroup(
        stages=2, wait_pending=1))).warpgroup.async_steps
    wait, read = steps[-2], steps[-1]
    assert wait.complete == (0,) and wait.pending == (1,) and wait.reusable_stages == (0,)
    assert not read.d_readable and "hazard" in read.note
    done = mma.compute(mma.MmaParams()).warpgroup.async_steps
    assert done[-1].d_readable and done[-2].complete == (0, 1)


def test_hierarchy_accumulators_bind_the_register_file():
    h = mma.compute(mma.MmaParams(arch="h100-sxm")).hierarchy  # 128 × 128 on 2 × 2 warps
    assert (h.warp_m, h.warp_n, h.mma_tiles, h.accumulator_registers) == (64, 64, 32, 128)
    assert h.registers_per_thread == 128 + 16 + 16 + 40
    # 200 registers × 128 threads = 25,600 per block: two blocks in 65,536
    assert (h.blocks_per_sm, h.limiter) == (2, "registers")


def test_problems_name_the_field():
    bad = mma.problems(mma.MmaParams(shape="m16n8k8", dtype="f16"))
    assert bad and bad[0][0] == "dtype"
    assert mma.problems(mma.MmaParams(feed=mma.MmaFeed(layout="padded", padding=3)))[0][0] \
        == "feed.padding"
    assert mma.problems(mma.MmaParams(warpgroup=mma.MmaWarpgroup(swizzle="32B", k_steps=2)))
