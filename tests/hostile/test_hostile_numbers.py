"""Numbers that were silently wrong (class 5 of the third hardening round): what cannot run is
refused with its JSON path, never drawn with a capped or borrowed number."""

from __future__ import annotations

import pytest

import gpuviz.api as gv


def _refused(call, path: str, says: str) -> None:
    with pytest.raises(gv.ScenarioError) as raised:
        call()
    assert path in str(raised.value) and says in str(raised.value), str(raised.value)


@pytest.mark.parametrize("block,warps", [((512, 512), (1, 1)), ((256, 256), (1, 1)),
                                         ((256, 128), (1, 2))])
def test_a_warp_tile_past_255_registers_is_refused(block, warps):
    hierarchy = {"block_m": block[0], "block_n": block[1], "warps_m": warps[0],
                 "warps_n": warps[1]}
    _refused(lambda: gv.scenario("mma", arch="h200", hierarchy=hierarchy), "mma.hierarchy",
             "registers per thread; a thread has at most 255")


def test_a_warp_tile_within_255_registers_counts_them_all():
    h = gv.scenario("mma", arch="h200", hierarchy={"block_m": 128, "block_n": 128, "warps_m": 2,
                                                   "warps_n": 2}).compute("mma")["hierarchy"]
    # a 64 × 64 warp tile: 4 × 8 m16n8 tiles of 4 f32 registers, A 4 × 4 and B 8 × 2
    assert h["accumulator_registers"] == 4 * 4 * 8 and h["fragment_registers"] == 4 * 4 + 2 * 8
    assert h["registers_per_thread"] == 128 + 32 + h["other_registers"] <= 255


@pytest.mark.parametrize("arch,show,says", [
    ("mi300x", ["fragment-a"], "AMD GPU"), ("v100", ["fragment-a"], "sm_80"),
    ("v100", ["feed"], "sm_80"), ("a100", ["warpgroup"], "wgmma"),
    ("a100", ["descriptor"], "wgmma")])
def test_mma_on_a_chip_without_the_instruction_is_refused(arch, show, says):
    _refused(lambda: gv.scenario("mma", arch=arch, show=show), "arch", says)


def test_mma_on_a_chip_with_the_instruction_computes():
    assert gv.scenario("mma", arch="a100", show=["fragment-a"]).compute("mma")
    assert gv.scenario("mma", arch="h200", show=["warpgroup"]).compute("mma")


@pytest.mark.parametrize("warps", [65, 128, 256])
def test_more_warps_per_sm_than_its_slots_is_refused(warps):
    _refused(lambda: gv.scenario("scheduler", warps_per_sm=warps), "scheduler.warps_per_sm",
             "warp slots")


@pytest.mark.parametrize("warpgroup", [
    {"start_address": 1 << 17, "stride_byte_offset": 16000, "n": 256},
    {"start_address": 1 << 17, "a_source": "shared", "stride_byte_offset": 4096, "n": 256},
    {"leading_byte_offset": 65536, "stride_byte_offset": 65536, "n": 256}])
def test_wgmma_tiles_past_the_block_shared_memory_are_refused(warpgroup):
    _refused(lambda: gv.scenario("mma", arch="h200", show=["warpgroup"], warpgroup=warpgroup),
             "mma.warpgroup", "a block holds at most 232,448 bytes")



def _warp_limits() -> list[tuple[str, int]]:
    from gpuviz.models.arch import preset_names, preset_value

    return [(a, preset_value(a, "max_warps_per_sm")) for a in preset_names()]


@pytest.mark.parametrize("arch,limit", _warp_limits())
def test_warps_per_sm_are_bounded_by_the_presets_resident_warps(arch, limit):
    """The scheduler's warps per SM are bounded by the architecture's own resident-warp limit
    (32 wavefronts on MI300X, 64 warps on NVIDIA's), not by NVIDIA's 64 alone: with slots
    enough, the limit computes and one past it is refused naming the preset and its limit,
    whether the section follows the scenario's architecture or names its own."""
    import json

    from gpuviz.scenario import ScenarioError, loads_scenario

    slots = -(-(limit + 1) // 4)  # the slots hold one past the limit: only the preset refuses
    assert gv.scenario("scheduler", arch=arch, warps_per_sm=limit,
                       warp_slots=slots).compute("scheduler")
    _refused(lambda: gv.scenario("scheduler", arch=arch, warps_per_sm=limit + 1,
                                 warp_slots=slots), "arch", f"at most {limit} resident")
    own = {"version": 1, "panels": ["scheduler"],
           "scheduler": {"arch": arch, "warps_per_sm": limit + 1,
                         "warp_slots": slots}}
    with pytest.raises(ScenarioError) as raised:
        loads_scenario(json.dumps(own))
    assert "scheduler.warps_per_sm" in str(raised.value), str(raised.value)
    assert f"at most {limit} resident" in str(raised.value), str(raised.value)
