"""SPEC.md ✔ values of the occupancy panel, computed from the bundled scenarios that show them."""


from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def occupancy_of(name, step):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("occupancy",))["occupancy"]


def test_512_threads_at_64_registers_fit_two_blocks_32_warps():
    r = occupancy_of("occupancy-register-cliff.json", 0)
    assert r.threads_per_block == 512 and r.registers_per_thread == 64
    assert r.active_blocks_per_sm == 2
    assert r.active_warps_per_sm == 32
    assert r.limiter == "registers"


def test_65_registers_fit_one_block_16_warps():
    r = occupancy_of("occupancy-register-cliff.json", 1)
    assert r.registers_per_thread == 65
    assert r.active_blocks_per_sm == 1
    assert r.active_warps_per_sm == 16


def test_shared_memory_scenario_shows_the_reservation_cliff():
    assert occupancy_of("occupancy-shared-memory.json", 0).active_blocks_per_sm == 4
    assert occupancy_of("occupancy-shared-memory.json", 1).active_blocks_per_sm == 3
    assert occupancy_of("occupancy-shared-memory.json", 2).active_blocks_per_sm == 1


def test_block_size_scenario_shows_the_block_limit():
    first = occupancy_of("occupancy-block-size.json", 0)
    assert (first.limiter, first.active_warps_per_sm) == ("blocks", 32)
    assert occupancy_of("occupancy-block-size.json", 1).active_warps_per_sm == 64
    assert occupancy_of("occupancy-block-size.json", 2).active_warps_per_sm == 48
