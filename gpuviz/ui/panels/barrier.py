"""Barrier dock: the verdict under the controls (safe, or each hazard and the contract), and a
click on an operation, hazard or slot selects it everywhere like any other key."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from gpuviz.models.barrier import BarrierResult
from gpuviz.scenario.compute import compute_all


def summary_text(result: BarrierResult) -> str:
    if result.safe:
        return "Safe: no hazard in this interleaving."
    lines = []
    if result.contract_broken:
        lines.append(f"Contract broken: {result.contract_text}.")
    lines += [h.text for h in result.hazards]
    return "Unsafe.\n" + "\n".join(lines)


def extra_widgets(dock) -> list[QWidget]:
    label = QLabel()
    label.setObjectName("barrier-summary")
    label.setWordWrap(True)

    def refresh(what: str = "scenario") -> None:
        if what in ("scenario", "step", "path", "section:barrier"):
            result = compute_all(dock.document.shown, ("barrier",))["barrier"]
            label.setText(summary_text(result))

    dock.document.changed.connect(refresh)
    refresh()
    return [label]
