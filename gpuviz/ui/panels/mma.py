"""MMA dock: the fragments' register counts and the feed, warpgroup and hierarchy in words under
the controls; a click on a fragment cell selects the lane that holds it (its other elements
light up in A, B and C)."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.numbers import counted
from gpuviz.models.mma import MmaResult
from gpuviz.ui.panel_extras import PanelExtras

PANEL_ID = "mma"


class MmaExtras(PanelExtras):
    def summary_text(self, result: MmaResult) -> str:
        r = result
        regs = r.registers_per_thread
        g, h = r.warpgroup, r.hierarchy
        return "\n".join([
            f"{r.shape} {r.dtype} → {r.accumulator}: A {regs['a']}, B {regs['b']}, C {regs['c']} "
            "registers per lane",
            f"{r.feed.op}.x{r.feed.matrices}: {r.feed.wavefronts} wavefronts "
            f"(at best {r.feed.ideal_wavefronts})",
            f"wgmma warps {g.warps[0]}–{g.warps[-1]}: "
            + ("a warpgroup" if g.valid else "not a warpgroup"),
            f"hierarchy: {h.accumulator_registers} accumulators, {h.registers_per_thread} "
            f"registers, {counted(h.blocks_per_sm, 'block')} per SM "
            f"({h.limiter.replace('_', ' ')})",
        ])


    def activate(self, key: str) -> None:
        """A fragment cell (``a:r,c``, ``b:k,n``, ``c:r,c``) selects the lane that holds it."""
        document = self.document
        kind, _, value = key.partition(":")
        if kind not in ("a", "b", "c"):
            return
        try:
            row, col = (int(v) for v in value.split(","))
        except ValueError:
            return
        params = document.shown.section(PANEL_ID)
        from gpuviz.models.mma_fragments import fragment

        dtype = params.dtype if kind != "c" else params.accumulator
        try:
            f = fragment(params.shape, kind, dtype)
            lane = f.lane_of(row, col)
        except (IndexError, KeyError):
            return
        if params.lane != lane:
            document.edit_section(PANEL_ID, replace(params, lane=lane), text=f"Select lane {lane}")
