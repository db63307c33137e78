"""Timings of the SIMT execution panels: the scheduler simulation at its largest and every
bundled scenario's figure build. Prints a table; never asserts on time.

Targets (issue text): 64 warps × 100,000 cycles under 0.5 s; every figure build under 16 ms.

    python benchmarks/bench_simt_panels.py
"""

from __future__ import annotations

import statistics
import time

from gpuviz.figures.theme import THEMES
from gpuviz.models.scheduler import SchedulerParams, compute
from gpuviz.registry import panel
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()
PANELS = ("occupancy", "scheduler", "divergence")


def median_seconds(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print("scheduler compute(), 64 warps × 100,000 cycles: the simulation, the warp-state "
          "matrix and the warp sweep (target < 0.5 s)")
    for policy in ("gto", "lrr"):
        for divergence in (False, True):
            p = SchedulerParams(warps=64, warp_slots=64, registers_per_thread=8, cycles=100_000,
                                policy=policy, divergence=divergence)
            seconds = median_seconds(lambda p=p: compute(p), repeat=3)
            r = compute(p)
            print(f"  {policy:3}  divergence={divergence!s:5}  {seconds:6.3f} s   "
                  f"resident {r.resident_warps}, issue {r.issue_utilization:.3f}")
    print()
    print("figure builds, median of 5, slowest theme (target < 16 ms)")
    for path in sorted(SCENARIOS.glob("*.json")):
        if not path.name.startswith(PANELS):
            continue
        scenario = load_scenario(path)
        pid = scenario.panels[0]
        for k in range(max(1, len(scenario.steps))):
            result = compute_all(scenario.at_step(k), (pid,))[pid]
            build = panel(pid).figure.build
            worst = max(median_seconds(lambda t=t, b=build, r=result: b(r, frozenset(), t))
                        for t in THEMES.values())
            print(f"  {path.name:44} step {k}  {worst * 1000:6.2f} ms")


if __name__ == "__main__":
    main()
