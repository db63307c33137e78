"""Occupancy dock: the per-resource block limits in words under the controls, with the limiter
first, so a student changing registers or shared memory reads which resource now binds."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from gpuviz.figures.occupancy import percent
from gpuviz.models.occupancy import RESOURCES, OccupancyResult
from gpuviz.scenario.compute import compute_all

NAMES = {"warps": "warp slots", "registers": "registers", "shared_memory": "shared memory",
         "blocks": "block limit"}


def summary_text(result: OccupancyResult) -> str:
    r = result
    lines = [f"{r.active_blocks_per_sm} blocks × {r.warps_per_block} warps = "
             f"{r.active_warps_per_sm} of {r.max_warps_per_sm} warps ({percent(r.occupancy)})",
             f"Limiter: {', '.join(NAMES[k] for k in r.limiters)}"]
    for k in RESOURCES:
        value = r.limits[k]
        lines.append(f"{NAMES[k]}: {'no limit' if value is None else f'{value} blocks'}")
    return "\n".join(lines)


def extra_widgets(dock) -> list[QWidget]:
    label = QLabel()
    label.setObjectName("occupancy-summary")
    label.setWordWrap(True)

    def refresh(what: str = "scenario") -> None:
        if what in ("scenario", "step", "path", "section:occupancy"):
            try:
                result = compute_all(dock.document.shown, ("occupancy",))["occupancy"]
            except Exception as exc:  # invalid input is reported by the form
                label.setText(str(exc))
                return
            label.setText(summary_text(result))

    dock.document.changed.connect(refresh)
    refresh()
    return [label]
