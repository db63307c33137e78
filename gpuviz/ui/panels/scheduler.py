"""Scheduler dock: Little's law beside the simulation under the controls, so a student who
changes the warps, the latency or the policy reads the prediction and the outcome together."""

from __future__ import annotations

from gpuviz.models.scheduler import SchedulerResult


def summary_text(result: SchedulerResult) -> str:
    r = result
    return "\n".join([
        f"P = {r.P} cycles, I = {r.I} instructions per loop",
        f"Warps needed ⌈P/I⌉ = {r.warps_needed}; resident {r.resident_warps} "
        f"(register cap {r.register_cap})",
        f"Little's law U = min(1, N·I/P) = {r.predicted_utilization:.1%}",
        f"Simulated: issue slots {r.issue_utilization:.1%}, useful lanes "
        f"{r.lane_utilization:.1%}",
    ])
