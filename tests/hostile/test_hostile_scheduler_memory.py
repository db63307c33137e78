"""The scheduler's bandwidth ceiling holds bounded state (class 6 of the third hardening
round): any accepted file computes within a few MB, however long its loads queue (a wake-up
ring sized by the service time took 840 MB, or raised MemoryError, before).

The cases run in one fresh interpreter, which reads its own peak resident memory before and
after each computation: tracing every allocation in this process (tracemalloc) made the
simulation's dictionary work 30 times slower, and this process's own peak hides a few MB."""

from __future__ import annotations

import json
import subprocess
import sys

CASES = [(4096, 16, 0.01), (4096, 4, 0.1), (1024, 16, 0.05), (128, 1, 64.0)]

_CHILD = r"""
import json, resource, sys
import gpuviz.api as gv

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux

# what a computation imports, imported first: its modules are not the simulation's state
gv.scenario("scheduler", arch="h200", memory="custom", cycles=16).compute("scheduler")
out = []
for bytes_per_load, loads, bandwidth in json.loads(sys.argv[1]):
    lecture = gv.scenario("scheduler", arch="h200", memory="custom", warps_per_sm=64,
                          bytes_per_load=bytes_per_load, bandwidth_per_sm=bandwidth,
                          loads_per_warp=loads, cycles=2000)
    before = peak()
    result = lecture.compute("scheduler")
    out.append([peak() - before, result["issue_utilization"]])
print(json.dumps(out))
"""


def test_the_bandwidth_ceiling_is_bounded():
    proc = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(CASES)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for case, (grown, utilization) in zip(CASES, json.loads(proc.stdout), strict=True):
        assert grown < 32 * 1024**2, (case, f"{grown / 1024**2:.0f} MB more at the peak")
        assert 0 <= utilization <= 1, case
