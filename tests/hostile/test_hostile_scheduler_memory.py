"""The scheduler's bandwidth ceiling holds bounded state (class 6 of the third hardening
round): any accepted file computes within a few MB, however long its loads queue (a wake-up
ring sized by the service time took 840 MB, or raised MemoryError, before)."""

from __future__ import annotations

import tracemalloc

import pytest

import gpuviz.api as gv


@pytest.mark.parametrize("bytes_per_load,loads,bandwidth", [(4096, 16, 0.01), (4096, 4, 0.1),
                                                            (1024, 16, 0.05), (128, 1, 64.0)])
def test_the_bandwidth_ceiling_is_bounded(bandwidth, bytes_per_load, loads):
    lecture = gv.scenario("scheduler", arch="h200", memory="custom", warps_per_sm=64,
                          bytes_per_load=bytes_per_load, bandwidth_per_sm=bandwidth,
                          loads_per_warp=loads, cycles=2000)
    # the modules a computation imports, imported untraced: tracing makes an import many
    # times slower, and what it holds is the module's, not the simulation's state
    gv.scenario("scheduler", arch="h200", memory="custom", cycles=16).compute("scheduler")
    tracemalloc.start()
    try:
        result = lecture.compute("scheduler")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 * 1024**2, f"{peak / 1024**2:.0f} MB"
    assert 0 <= result["issue_utilization"] <= 1
