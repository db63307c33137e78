"""Occupancy: the source text's register cliff, the real allocation rules, and the device's answers."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.occupancy import OccupancyParams, compute, problems

MEASURED = Path(__file__).resolve().parents[1] / "data" / "occupancy_measured.json"
NVIDIA = ("v100", "a100", "h100-sxm", "h200")


@pytest.mark.parametrize("arch", NVIDIA)
def test_64_registers_fit_two_512_thread_blocks(arch):
    r = compute(OccupancyParams(arch=arch, threads_per_block=512, registers_per_thread=64,
                                registers_per_sm=65536))
    assert r.active_blocks_per_sm == 2
    assert r.active_warps_per_sm == 32
    assert r.limiter == "registers"


@pytest.mark.parametrize("arch", NVIDIA)
def test_65_registers_fit_only_one_block(arch):
    r = compute(OccupancyParams(arch=arch, threads_per_block=512, registers_per_thread=65,
                                registers_per_sm=65536))
    assert r.active_blocks_per_sm == 1
    assert r.active_warps_per_sm == 16
    assert r.registers_per_warp_allocated == 2304  # 65 × 32 = 2080, rounded up to 256


def test_registers_are_split_over_the_four_scheduler_partitions():
    # 40 registers: 1,280 per warp; 16,384 / 1,280 = 12 warps per partition, 48 per SM, although
    # 65,536 / 1,280 would be 51. Three-warp blocks: 16 fit, not 17.
    r = compute(OccupancyParams(arch="h100-sxm", threads_per_block=96, registers_per_thread=40))
    assert r.limits["registers"] == 16


def test_per_block_register_check_rounds_warps_up_to_partitions():
    # 1,024 threads at 65 registers: 32 warps × 2,304 > 65,536, so the block cannot launch.
    r = compute(OccupancyParams(arch="h200", threads_per_block=1024, registers_per_thread=65))
    assert r.active_blocks_per_sm == 0
    assert r.occupancy == 0


def test_shared_memory_reservation_and_granule_on_h100():
    r = compute(OccupancyParams(arch="h100-sxm", threads_per_block=64, registers_per_thread=16,
                                dynamic_shared_memory=10000))
    # 10,000 + 1,024 reserved = 11,024, rounded to 128 → 11,136; 233,472 // 11,136 = 20
    assert r.shared_memory_per_block_allocated == 11136
    assert r.limits["shared_memory"] == 20
    assert r.limiter == "shared_memory"


def test_v100_has_no_reservation_and_a_256_byte_granule():
    r = compute(OccupancyParams(arch="v100", threads_per_block=64, registers_per_thread=16,
                                dynamic_shared_memory=1000))
    assert r.shared_memory_per_block_allocated == 1024
    assert r.limits["shared_memory"] == 96


def test_no_shared_memory_sets_no_limit_before_ampere():
    r = compute(OccupancyParams(arch="v100", threads_per_block=64, registers_per_thread=16))
    assert r.limits["shared_memory"] is None


def test_small_blocks_hit_the_block_limit():
    r = compute(OccupancyParams(arch="h100-sxm", threads_per_block=32, registers_per_thread=16))
    assert r.limiter == "blocks"
    assert r.active_warps_per_sm == 32
    assert r.occupancy == 0.5


def test_amd_preset_is_refused_with_a_reason():
    found = problems(OccupancyParams(arch="mi300x"))
    assert found and found[0][0] == "arch"
    assert problems(OccupancyParams(arch="h200")) == []


def test_model_equals_the_cuda_occupancy_api_on_an_h200():
    data = json.loads(MEASURED.read_text(encoding="utf-8"))
    assert data["device"]["compute_capability"] == "9.0"
    assert len(data["cases"]) > 3000
    mismatches = []
    for case in data["cases"]:
        assert case["status"] == "cudaSuccess"
        r = compute(OccupancyParams(
            arch="h200", threads_per_block=case["threads_per_block"],
            registers_per_thread=case["num_regs"], static_shared_memory=case["static_shared"],
            dynamic_shared_memory=case["dynamic_shared"]))
        if r.active_blocks_per_sm != case["active_blocks_per_sm"]:
            mismatches.append((case, r.active_blocks_per_sm))
    assert mismatches == []


def test_cliff_curves_contain_the_current_point():
    r = compute(OccupancyParams(arch="h100-sxm", threads_per_block=256, registers_per_thread=72,
                                dynamic_shared_memory=4096))
    i = list(r.registers_axis).index(72)
    assert r.warps_vs_registers[i] == r.active_warps_per_sm
    j = list(r.threads_axis).index(256)
    assert r.warps_vs_threads[j] == r.active_warps_per_sm
    k = list(r.shared_axis).index(4096)
    assert r.warps_vs_shared[k] == r.active_warps_per_sm


params_strategy = st.builds(
    OccupancyParams,
    arch=st.sampled_from(NVIDIA),
    threads_per_block=st.integers(1, 1024),
    registers_per_thread=st.integers(1, 255),
    static_shared_memory=st.integers(0, 48 * 1024),
    dynamic_shared_memory=st.integers(0, 100_000),
)


@settings(max_examples=150, deadline=None)
@given(params_strategy)
def test_resident_warps_never_exceed_the_slots(p):
    r = compute(p)
    assert 0 <= r.active_warps_per_sm <= r.max_warps_per_sm
    assert r.active_blocks_per_sm == min(v for v in r.limits.values() if v is not None)
    assert r.limiter in r.limiters


@settings(max_examples=100, deadline=None)
@given(params_strategy)
def test_more_registers_or_shared_memory_never_raise_occupancy(p):
    r = compute(p)
    assert (r.warps_vs_registers[:-1] >= r.warps_vs_registers[1:]).all()
    assert (r.warps_vs_shared[:-1] >= r.warps_vs_shared[1:]).all()
