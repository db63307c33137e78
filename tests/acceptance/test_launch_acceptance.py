"""SPEC.md ✔ values of the launch panel, computed from the bundled scenarios that show them."""

from __future__ import annotations

from gpuviz.scenario import compute_all, load_scenario


def launch(path, step=None):
    s = load_scenario(path)
    if step is not None:
        s = s.at_step(step)
    return compute_all(s, ("launch",))["launch"]


def test_n130_64_threads_three_blocks_192_threads_indices_0_to_129(scenario_path):
    r = launch(scenario_path("launch-n130.json"))
    assert (r.blocks, r.threads_launched, r.valid_threads) == (3, 192, 130)
    owned = sorted(i for b in range(3) for w in range(2)
                   for i in _indices(scenario_path("launch-n130.json"), b, w))
    assert owned == list(range(130))


def _indices(path, block, warp):
    from dataclasses import replace

    from gpuviz.models.launch import compute

    s = load_scenario(path)
    p = replace(s.section("launch"), selected_block=block, selected_warp=warp)
    return [ln.global_index for ln in compute(p).lanes if ln.valid]


def test_block2_warp0_has_lanes_0_and_1_valid_and_30_masked(scenario_path):
    r = launch(scenario_path("launch-n130.json"), step=2)
    assert (r.selected_block, r.selected_warp) == (2, 0)
    assert r.active_lanes == (0, 1)
    assert len(r.masked_lanes) == 30
    assert [ln.global_index for ln in r.lanes if ln.valid] == [128, 129]


def test_block2_warp1_exists_with_all_32_lanes_masked(scenario_path):
    r = launch(scenario_path("launch-n130.json"), step=3)
    assert (r.selected_block, r.selected_warp) == (2, 1)
    assert r.warps_per_block == 2
    assert r.active_lanes == ()
    assert len(r.masked_lanes) == 32
    assert all(ln.exists for ln in r.lanes)


def test_33x33_output_with_32x32_tiles_is_4_tiles_4096_slots_1089_valid(scenario_path):
    r = launch(scenario_path("launch-tile-quantization.json"))
    assert (r.tiles, r.tile_slots, r.tile_valid) == (4, 4096, 1089)


def test_wave_quantization_steps_show_two_full_waves_then_a_third(scenario_path):
    two = launch(scenario_path("launch-tile-quantization.json"), step=2)
    assert (two.tiles, two.wave_count, two.last_wave_fill) == (264, 2, 1.0)
    three = launch(scenario_path("launch-tile-quantization.json"), step=3)
    assert (three.tiles, three.wave_count) == (286, 3)
    assert three.last_wave_fill == 22 / 132


def test_two_dimensional_block_warps_are_consecutive_linear_ids_x_fastest(scenario_path):
    r = launch(scenario_path("launch-2d-block.json"))
    assert [ln.tid for ln in r.lanes] == list(range(32))
    assert [ln.thread[:2] for ln in r.lanes] == [(x, y) for y in (0, 1) for x in range(16)]
    r3 = launch(scenario_path("launch-2d-block.json"), step=1)
    assert {ln.thread[1] for ln in r3.lanes} == {6, 7}
