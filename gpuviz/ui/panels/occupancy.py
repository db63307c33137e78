"""Occupancy dock: the per-resource block limits in words under the controls, with the limiter
first, so a student changing registers or shared memory reads which resource now binds."""

from __future__ import annotations

from gpuviz.figures.occupancy import percent
from gpuviz.models.occupancy import RESOURCES, OccupancyResult

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
