"""Pipeline dock: a live receipt of the schedule under the controls (total time, busy shares,
waits by name), so a student changing one duration sees the consequence in words as well."""

from __future__ import annotations

from collections import Counter

from gpuviz.figures.plot import format_tick
from gpuviz.models.pipeline import WAIT_KINDS, PipelineResult
from gpuviz.ui.panel_extras import PanelExtras

WAIT_NAMES = {
    "compute_waits_for_data": "compute waits for data",
    "tile_waits_for_compute": "loaded tile waits",
    "load_waits_for_slot": "load waits for a slot",
    "load_waits_for_prefetch": "load waits: prefetch limit",
}


class PipelineExtras(PanelExtras):
    def summary_text(self, result: PipelineResult) -> str:
        counts = Counter(w.kind for w in result.waits)
        lines = [f"Total time {format_tick(result.total_time)} "
                 f"(lower bound {format_tick(result.lower_bound_time)})",
                 f"Load busy {result.load_utilization:.0%}, compute busy "
                 f"{result.compute_utilization:.0%}"]
        lines += [f"{WAIT_NAMES[k]}: {counts[k]}" for k in WAIT_KINDS if counts[k]]
        return "\n".join(lines)
