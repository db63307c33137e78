"""Launch dock: clicking a block selects it (and its warp 0); clicking a warp selects that warp.
The grid field, left automatic, shows the grid the launch is given.

The selection is a parameter of the launch section (``selected_block``, ``selected_warp``), so it
is undoable, saved with the scenario, and seen by linked panels (``sectors`` follows the warp).
"""

from __future__ import annotations

from dataclasses import replace

from gpuviz import keys
from gpuviz.models.launch import LaunchResult
from gpuviz.ui.panel_extras import PanelExtras


class LaunchExtras(PanelExtras):
    def activate(self, key: str) -> None:
        document = self.document
        parsed = keys.parse(key)
        if parsed is None:
            return
        kind, values = parsed
        params = document.shown.section("launch")
        if kind == "block" and len(values) == 1:
            new = replace(params, selected_block=values[0], selected_warp=0)
            document.edit_section("launch", new, text=f"Select block {values[0]}")
        elif kind == "warp" and len(values) == 2:
            block, warp = values
            new = replace(params, selected_block=block, selected_warp=warp)
            document.edit_section("launch", new, text=f"Select warp {warp} of block {block}")

    def automatic(self, result: LaunchResult) -> dict:
        return {"grid": list(result.grid)}
