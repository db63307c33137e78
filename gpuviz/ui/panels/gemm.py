"""GEMM dock: the walkthrough's numbers in words under the controls.

The FLOPs-per-requested-byte plot is the figure's own ``intensity`` part, drawn once, in the
figure (where the view is too small for the whole figure the part switcher offers it); the
controls column states the current tile's value beside the naive FP32 level. Clicking an output
(``c:i,j``) makes it the walkthrough's focus and clicking a thread's outputs
(``thread:<strategy>,<t>``) shows that thread's loads; both are plain selections, kept by the dock.
"""

from __future__ import annotations

from typing import Any

from gpuviz.ui.panel_extras import PanelExtras


class GemmExtras(PanelExtras):
    def summary_text(self, result: Any) -> str:
        return (f"T = {result.tile}, K = {result.k_dim}: {result.tile_flops_per_byte:.3f} FLOPs "
                f"per requested byte (T/4 = {result.tile_flops_per_byte_limit:g} for large K); "
                f"naive FP32: {result.naive_flops_per_byte:.3f}.")
