"""Occupancy dock: the per-resource block limits in words under the controls, with the limiter
first, so a student changing registers or shared memory reads which resource now binds; and the
preset's values in the override fields left automatic."""

from __future__ import annotations

from gpuviz.figures.occupancy import percent
from gpuviz.models.arch import preset_values
from gpuviz.models.occupancy import OVERRIDES, RESOURCES, OccupancyResult
from gpuviz.ui.panel_extras import PanelExtras

NAMES = {"warps": "warp slots", "registers": "registers", "shared_memory": "shared memory",
         "blocks": "block limit"}


class OccupancyExtras(PanelExtras):
    def summary_text(self, result: OccupancyResult) -> str:
        r = result
        warps = "warp" if r.warps_per_block == 1 else "warps"
        blocks = "block" if r.active_blocks_per_sm == 1 else "blocks"
        lines = [f"{r.active_blocks_per_sm} {blocks} × {r.warps_per_block} {warps} = "
                 f"{r.active_warps_per_sm} of {r.max_warps_per_sm} warps ({percent(r.occupancy)})",
                 f"Limiter: {', '.join(NAMES[k] for k in r.limiters)}"]
        for k in RESOURCES:
            value = r.limits[k]
            blocks = "block" if value == 1 else "blocks"
            lines.append(f"{NAMES[k]}: {'no limit' if value is None else f'{value} {blocks}'}")
        if r.shared_memory_carveout is not None:
            lines.append(f"Carveout {r.shared_memory_carveout} %: a preference, which the driver "
                         "may exceed (the API's answer above takes it as given)")
        return "\n".join(lines)

    def automatic(self, result: OccupancyResult) -> dict:
        """The override fields left empty take the architecture's values; with no carveout
        preference the SM takes its maximum, as 100 % does."""
        values = preset_values(result.arch)
        return {**{name: values[name] for name in OVERRIDES}, "shared_memory_carveout": 100}
