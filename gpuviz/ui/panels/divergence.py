"""Divergence dock: the reconvergence points and the lane efficiency in words under the
controls; a predicate with a mistake shows the evaluator's message and its position instead."""

from __future__ import annotations

from gpuviz.models.divergence import DivergenceResult
from gpuviz.ui.panel_extras import PanelExtras


class DivergenceExtras(PanelExtras):
    def summary_text(self, result: DivergenceResult) -> str:
        r = result
        lines = [f"{r.issued} instructions issued, lane efficiency {r.lane_efficiency:.1%}"]
        lines += [f"{b} reconverges at {r.ipdom[b] or 'the exit'}" for b in r.branches]
        lines += [f"region {g.branch}: {g.lane_efficiency:.1%}" for g in r.regions]
        return "\n".join(lines)
