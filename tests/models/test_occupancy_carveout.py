"""The shared-memory carveout preference, as the occupancy API on an H200 answers it."""

import pytest

from gpuviz.models.occupancy import OccupancyParams, compute


def occ(carveout, dyn, threads=256):
    return compute(OccupancyParams(arch="h200", threads_per_block=threads,
                                   registers_per_thread=32, dynamic_shared_memory=dyn,
                                   shared_memory_carveout=carveout))


def test_no_preference_is_the_maximum():
    r = occ(None, 32768)
    assert r.shared_memory_config == 233472
    assert r.active_blocks_per_sm == 233472 // (33 * 1024)


@pytest.mark.parametrize(("carveout", "config"), [(10, 32), (25, 64), (50, 132), (75, 196),
                                                  (100, 228)])
def test_preference_rounds_up_to_a_supported_size(carveout, config):
    # c % of 228 KiB, rounded up to 0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KiB
    assert occ(carveout, 8192).shared_memory_config == config * 1024


def test_a_block_always_fits_its_own_needs():
    # 0 % asks for no shared memory, but one block of 8 KiB + 1 KiB reserved still runs:
    # the SM takes the smallest size that holds it, 16 KiB, so exactly one block
    r = occ(0, 8192)
    assert (r.shared_memory_config, r.active_blocks_per_sm) == (16384, 1)
    assert r.limiter == "shared_memory"


def test_small_carveout_lowers_occupancy_against_the_default():
    assert occ(10, 8192).active_blocks_per_sm == 3  # 32 KiB / 9 KiB
    assert occ(None, 8192).active_blocks_per_sm == 8  # warps limit: 8 blocks of 8 warps


@pytest.mark.parametrize(("carveout", "dyn", "threads", "api", "driver_kib", "resident"), [
    (0, 0, 32, 8, 32, 32),  # no shared memory: the reservation for every block fits on top
    (0, 0, 128, 8, 16, 16),
    (0, 1024, 32, 4, 8, 4),  # 0 % holds no block's own data: one block, 8 KiB
    (10, 1024, 32, 16, 64, 32),  # 22.8 KiB of own data: 22 blocks + 22 KiB reserved → 64 KiB
    (10, 4096, 32, 6, 32, 6),  # 5 blocks of 4 KiB + 5 KiB reserved = 25 KiB → 32 KiB
    (25, 4096, 32, 12, 100, 20),  # 14 blocks × 5 KiB = 70 KiB → 100 KiB
    (50, 8192, 32, 14, 132, 14),  # 14 blocks × 9 KiB = 126 KiB → 132 KiB
])
def test_the_driver_adds_the_reservation_on_top_of_the_preference(
        carveout, dyn, threads, api, driver_kib, resident):
    # measured on an H200 and an H100 (resources/measurements/h200-occupancy-residency.json,
    # h100-carveout-choice.json): the API's number and the blocks the SM really keeps
    r = compute(OccupancyParams(arch="h200", threads_per_block=threads, registers_per_thread=16,
                                dynamic_shared_memory=dyn, shared_memory_carveout=carveout))
    assert r.active_blocks_per_sm == api
    assert r.driver_shared_memory_config == driver_kib * 1024
    assert r.resident_blocks_per_sm == resident


def test_without_a_preference_the_driver_and_the_api_agree():
    r = occ(None, 8192)
    assert r.driver_shared_memory_config == r.shared_memory_config == 233472
    assert r.resident_blocks_per_sm == r.active_blocks_per_sm
