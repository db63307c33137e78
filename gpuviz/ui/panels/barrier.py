"""Barrier dock: the verdict under the controls (safe, or each hazard and the contract), and a
click on an operation, hazard or slot selects it everywhere like any other key."""

from __future__ import annotations

from gpuviz.models.barrier import BarrierResult
from gpuviz.ui.panel_extras import PanelExtras


class BarrierExtras(PanelExtras):
    def summary_text(self, result: BarrierResult) -> str:
        if result.safe:
            return "Safe: no hazard in this interleaving."
        lines = []
        if result.contract_broken:
            lines.append(f"Contract broken: {result.contract_text}.")
        lines += [h.text for h in result.hazards]
        return "Unsafe.\n" + "\n".join(lines)
