"""Scheduler dock: Little's law beside the simulation under the controls, so a student who
changes the warps, the latency or the policy reads the prediction and the outcome together."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from gpuviz.models.scheduler import SchedulerResult
from gpuviz.scenario.compute import compute_all


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


def extra_widgets(dock) -> list[QWidget]:
    label = QLabel()
    label.setObjectName("scheduler-summary")
    label.setWordWrap(True)

    def refresh(what: str = "scenario") -> None:
        if what in ("scenario", "step", "path", "section:scheduler"):
            try:
                result = compute_all(dock.document.shown, ("scheduler",))["scheduler"]
            except Exception as exc:  # invalid input is reported by the form
                label.setText(str(exc))
                return
            label.setText(summary_text(result))

    dock.document.changed.connect(refresh)
    refresh()
    return [label]
