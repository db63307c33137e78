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
