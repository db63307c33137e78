"""Divergence dock: the reconvergence points and the lane efficiency in words under the
controls; a predicate with a mistake shows the evaluator's message and its position instead."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from gpuviz.models.divergence import DivergenceResult
from gpuviz.scenario.compute import compute_all


def summary_text(result: DivergenceResult) -> str:
    r = result
    lines = [f"{r.issued} instructions issued, lane efficiency {r.lane_efficiency:.1%}"]
    lines += [f"{b} reconverges at {r.ipdom[b] or 'the exit'}" for b in r.branches]
    lines += [f"region {g.branch}: {g.lane_efficiency:.1%}" for g in r.regions]
    return "\n".join(lines)


def extra_widgets(dock) -> list[QWidget]:
    label = QLabel()
    label.setObjectName("divergence-summary")
    label.setWordWrap(True)

    def refresh(what: str = "scenario") -> None:
        if what in ("scenario", "step", "path", "section:divergence"):
            try:
                result = compute_all(dock.document.shown, ("divergence",))["divergence"]
            except Exception as exc:  # an unparsable predicate is reported by the form too
                label.setText(str(exc))
                return
            label.setText(summary_text(result))

    dock.document.changed.connect(refresh)
    refresh()
    return [label]
