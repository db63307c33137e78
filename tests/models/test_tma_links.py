"""The tma panel's links to its neighbours: the swizzle panel's Swizzle⟨B,M,S⟩ of the map's mode
and the wgmma descriptor reading the box, each checked against the neighbour's own model."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gpuviz.models import mma, swizzle, tma
from gpuviz.models import mma_warpgroup as wg
from gpuviz.models.tma import TmaParams
from gpuviz.models.tma_links import formula_base_offset, mma_params, swizzle_params

SPAN = {"32B": 32, "64B": 64, "128B": 128}


def box(mode: str, offset: int, eb: int = 2) -> TmaParams:
    return TmaParams(element_bytes=eb, box_dims=(SPAN[mode] // eb, 8), swizzle=mode,
                     smem_offset=offset)


@pytest.mark.parametrize(("mode", "bms"), [("32B", (1, 4, 3)), ("64B", (2, 4, 3)),
                                           ("128B", (3, 4, 3)), ("none", (0, 4, 3))])
def test_each_mode_is_the_swizzle_panels_member_of_the_same_name(mode, bms):
    link = tma.compute(replace(TmaParams(), swizzle=mode, box_dims=(16, 8))).swizzle_equivalent
    assert (link.bits, link.base, link.shift) == bms
    # the swizzle panel, given the linked section, computes the same Swizzle⟨B,M,S⟩
    s = swizzle.compute(swizzle_params(link, swizzle.SwizzleParams()))
    assert (s.bits, s.base, s.shift) == bms


@pytest.mark.parametrize("mode", ["32B", "64B", "128B"])
@pytest.mark.parametrize("lines", range(8))
def test_the_swizzle_panels_mapping_places_every_byte_where_the_tma_does(mode, lines):
    """The swizzle panel's mapping of the 1024-byte region, applied to the box's absolute
    addresses, is the TMA placement, at every 128-byte offset."""
    p = box(mode, 128 * lines)
    r = tma.compute(p)
    spec = swizzle_params(r.swizzle_equivalent, swizzle.SwizzleParams()).swizzle
    logical = p.smem_offset + np.arange(8 * SPAN[mode]).reshape(8, -1)[:, ::2]
    placed = swizzle.apply_swizzle(logical, spec) - p.smem_offset
    assert placed.tolist() == [list(row) for row in r.placement]
    repeat = 8 * SPAN[mode]
    assert r.swizzle_equivalent.repeat_bytes == repeat
    assert r.swizzle_equivalent.phase == (p.smem_offset % repeat) // 128


@pytest.mark.parametrize(("mode", "offset", "expected"), [
    ("128B", 0, 0), ("128B", 384, 3), ("128B", 1024 + 896, 7), ("128B", 2048, 0),
    ("64B", 384, 3), ("64B", 512, 0), ("64B", 1024 + 128, 1),
    ("32B", 128, 1), ("32B", 256, 0), ("32B", 640, 5)])
def test_base_offset_is_zero_at_any_start_where_the_isa_formula_gives_bits_7_to_9(
        mode, offset, expected):
    assert formula_base_offset(mode, offset) == expected
    d = tma.compute(box(mode, offset)).wgmma_descriptor
    assert d is not None and d.base_offset == 0
    expected = 0
    code = int(d.descriptor_hex, 16)
    assert (code >> 49) & 7 == expected
    # PTX ISA, matrix descriptor: bits 62–63 are 1 for 128B, 2 for 64B, 3 for 32B
    assert code >> 62 == d.layout_type == {"128B": 1, "64B": 2, "32B": 3}[mode]
    assert code & 0x3FFF == offset >> 4  # the start address, in 16-byte units


def test_no_swizzle_or_a_refused_map_gives_no_descriptor():
    assert tma.compute(TmaParams(swizzle="none")).wgmma_descriptor is None
    refused = tma.compute(TmaParams(box_dims=(128, 8)))  # 256 inner bytes over the 128B span
    assert not refused.tensor_map_valid and refused.wgmma_descriptor is None


@pytest.mark.parametrize("mode", ["32B", "64B", "128B"])
@pytest.mark.parametrize("offset", [0, 384, 1024 + 640])
def test_wgmma_through_the_linked_descriptor_reads_the_bytes_the_tma_placed(mode, offset):
    """The mma panel's wgmma model, given the linked section, reads row n's K bytes where the
    TMA put them: K step s, byte b of row n is element (32 s + b) / 2 of box row n."""
    p = box(mode, offset)
    r = tma.compute(p)
    section = mma_params(r.wgmma_descriptor, mma.MmaParams())
    assert not mma.problems(section) and section.show[0] == "descriptor"
    assert set(section.show) == {"descriptor", *mma.MmaParams().show}  # the others kept
    g = mma.compute(section).warpgroup
    # the mma panel encodes the same descriptor, its base offset kept 0
    assert int(g.descriptor_hex, 16) == int(r.wgmma_descriptor.descriptor_hex, 16) & ~(7 << 49)
    for s in range(r.wgmma_descriptor.k_steps):
        for n in range(8):
            for b in range(0, 32, 2):
                got = wg.element_offset(n, b, s, offset, g.leading_byte_offset,
                                        g.stride_byte_offset, mode) - offset
                assert got == r.placement[n][(32 * s + b) // 2]


def test_the_base_offset_is_the_one_the_h100_read_right():
    # wgmma reading B placed by the absolute-address 128B swizzle (as a TMA load places it)
    import json
    from importlib import resources

    path = resources.files("gpuviz.resources") / "measurements" / "tma" / "h100-wgmma-base-offset.json"
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    assert {c["start_address"] for c in cases} == {0, 128, 384}
    for c in cases:
        d = tma.compute(box("128B", c["start_address"])).wgmma_descriptor
        assert d is not None
        assert c["agrees"] == (c["elements_differ"] == 0)
        assert c["agrees"] == (c["base_offset"] == d.base_offset), c
    assert any(not c["agrees"] for c in cases), "the formula's offset was tried and failed"
