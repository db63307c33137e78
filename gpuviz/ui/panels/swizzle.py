"""Swizzle dock: clicking a chunk makes its logical column the one the readers read.

The column is a parameter of the swizzle section, so the click is undoable and saved with the
scenario; the clicked ``chunk:<row>,<col>`` also stays selected, outlined in both grids.
"""

from __future__ import annotations

from dataclasses import replace

from gpuviz import keys
from gpuviz.ui.panel_extras import PanelExtras

PANEL_ID = "swizzle"


class SwizzleExtras(PanelExtras):
    def activate(self, key: str) -> None:
        parsed = keys.parse(key)
        if parsed is None or parsed[0] != "chunk" or len(parsed[1]) != 2:
            return
        _row, col = parsed[1]
        params = self.document.shown.section(PANEL_ID)
        if params.column != col:
            self.document.edit_section(PANEL_ID, replace(params, column=col),
                                       text=f"Readers read chunk column {col}")
