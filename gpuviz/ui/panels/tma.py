"""TMA dock: the result in words (the map accepted or refused with the rule, the bytes each
barrier expects, the swizzle's Swizzle⟨B,M,S⟩, the descriptor's base offset) and two links that
open the neighbours with the placement's equivalent: the swizzle panel in the map's mode, the
mma panel reading the box through the wgmma descriptor. Each link is one undoable edit that
sets the neighbour's section and adds it to the lecture's panels (``Document.open_panel``).

Ctrl+click (or a double click) on a chunk ``chunk:<row>,<col>`` of the placement makes the
swizzle panel, where the lecture shows it, read that logical chunk column in the map's mode.
The buttons carry no numbers: the summary, which does, is veiled with the other readouts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, QThreadPool
from PySide6.QtWidgets import QDockWidget, QMainWindow, QPushButton, QVBoxLayout, QWidget

from gpuviz import keys
from gpuviz.figures.numbers import counted
from gpuviz.models import tma_links
from gpuviz.models.tma import TmaResult
from gpuviz.registry import panel
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.ui.panel_extras import PanelExtras
from gpuviz.ui.section_control import SectionControl
from gpuviz.ui.worker_report import Job

PANEL_ID = "tma"
SWIZZLE, MMA = "swizzle", "mma"


def _short_title(panel_id: str) -> str:
    return panel(panel_id).title.split(":")[0]


def open_swizzle(document, r: TmaResult | None) -> bool:
    """The swizzle panel in the map's mode (one undoable edit); False when nothing links."""
    if r is None:
        return False
    params = tma_links.swizzle_params(r.swizzle_equivalent, document.shown.section(SWIZZLE))
    document.open_panel(SWIZZLE, params, text=f"Open in {_short_title(SWIZZLE)} panel "
                                              f"({r.swizzle_equivalent.mode})")
    return True


def open_mma(document, r: TmaResult | None) -> bool:
    """The mma panel reading the box through the descriptor (one undoable edit); False where the
    placement implies no descriptor (no swizzle, a refused map)."""
    if r is None or r.wgmma_descriptor is None:
        return False
    params = tma_links.mma_params(r.wgmma_descriptor, document.shown.section(MMA))
    document.open_panel(MMA, params, text=f"Open in {_short_title(MMA)} panel "
                                          "(wgmma descriptor)")
    return True


class ShownResult(QObject):
    """The tma result of what the document shows, for the links: the one the dock's figure
    shows where it is of these parameters, else computed on the thread pool as a slow dock's
    model is (``worker_report.Job``), never on the GUI thread. ``then(result)`` runs when it
    is known (None: a section the model cannot use), unless the section changed meanwhile."""

    def __init__(self, dock, parent: QObject | None = None):
        super().__init__(parent)
        self.dock = dock
        self.generation = 0
        self._then: dict[int, tuple[Any, Callable[[TmaResult | None], None]]] = {}
        self.computed = 0  # results computed on the thread pool for the links (for the tests)

    def ask(self, then: Callable[[TmaResult | None], None]) -> None:
        self.generation += 1
        try:
            params = effective_params(self.dock.document.shown, PANEL_ID)
        except Exception:  # a section with problems: they are shown instead, nothing to link
            then(None)
            return
        plan = getattr(self.dock, "plan", None)  # a dock made without one: the pool alone
        shown = getattr(plan, "shown", None)
        result = getattr(plan, "shown_result", None)
        if shown is not None and shown.params == params and isinstance(result, TmaResult):
            then(result)
            return
        self._then[self.generation] = (params, then)
        job = Job(lambda: compute_cached(PANEL_ID, params), self.generation)
        job.signals.done.connect(self._on_done)  # queued: this object lives on the GUI thread
        QThreadPool.globalInstance().start(job)

    def _on_done(self, generation: int, result: object, error: str) -> None:
        asked = self._then.pop(generation, None)
        if asked is None:
            return
        self.computed += 1
        params, then = asked
        try:
            now = effective_params(self.dock.document.shown, PANEL_ID)
        except Exception:
            now = None
        if now == params:  # else a newer request, for the section as it is now, follows
            then(result if not error and isinstance(result, TmaResult) else None)


class NeighbourLinks(SectionControl):
    panel_id = PANEL_ID

    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(dock, parent)
        self.setObjectName("tma-neighbour-links")
        self.swizzle_button = QPushButton(f"Open in {_short_title(SWIZZLE)} panel")
        self.swizzle_button.setObjectName("tma-open-swizzle")
        self.swizzle_button.setToolTip("Shows the swizzle panel in this tensor map's swizzle "
                                       "mode (Edit ▸ Undo takes it back)")
        self.mma_button = QPushButton("Open in tensor-core panel")
        self.mma_button.setObjectName("tma-open-mma")
        self.mma_button.setToolTip("Shows the tensor-core panel's wgmma descriptor reading this "
                                   "box where it lands (Edit ▸ Undo takes it back)")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addWidget(self.swizzle_button)
        lay.addWidget(self.mma_button)
        self.result = ShownResult(dock, self)
        self.swizzle_button.clicked.connect(lambda: self.result.ask(
            lambda r: self._raise(SWIZZLE) if open_swizzle(self.dock.document, r) else None))
        self.mma_button.clicked.connect(lambda: self.result.ask(
            lambda r: self._raise(MMA) if open_mma(self.dock.document, r) else None))
        self.start()

    def _raise(self, panel_id: str) -> None:
        """The neighbour's dock on top, also where the edit changed nothing (its section and
        panels as they were) and the dock was closed."""
        window = self.dock.parent()
        other = window.findChild(QDockWidget, f"dock-{panel_id}") \
            if isinstance(window, QMainWindow) else None
        if other is not None:
            other.show()
            other.raise_()

    def show_params(self, params: Any) -> None:
        self.result.ask(self._enable)

    def _enable(self, r: TmaResult | None) -> None:
        self.swizzle_button.setEnabled(r is not None)
        self.mma_button.setEnabled(r is not None and r.wgmma_descriptor is not None)


class TmaExtras(PanelExtras):
    def __init__(self, dock):
        super().__init__(dock)
        self.links = NeighbourLinks(dock)

    def widgets(self) -> list[QWidget]:
        return [self.links]

    def automatic(self, result: TmaResult) -> dict[str, Any]:
        """A cluster tile left empty is the bytes the box's copy writes (not the field's
        minimum)."""
        c = result.params.cluster
        return {f"cluster.{name}": result.transaction_bytes for name in ("a_bytes", "b_bytes")
                if getattr(c, name) is None}

    def summary_text(self, result: TmaResult) -> str:
        r = result
        if r.tensor_map_valid:
            lines = [f"Tensor map: accepted (cuTensorMapEncodeTiled), a {r.box_bytes:,}-byte box"
                     + (f", copied as {r.transaction_bytes:,} bytes of interleaved runs"
                        if r.transaction_bytes != r.box_bytes else "")]
        else:
            more = len(r.tensor_map_problems) - 1
            lines = [f"Tensor map: refused, {r.tensor_map_problems[0]}"
                     + (f" (and {more} more)" if more else "")]
        lines += [f"Copy: faults on Hopper, {m}" for m in r.copy_faults]
        c = r.params.cluster
        lines.append(f"Full barrier: expects {r.expected_tx_per_cta:,} bytes from "
                     f"{counted(r.copies_per_barrier, 'copy', 'copies')} (cluster "
                     + " × ".join(map(str, c.dims)) + ")")
        s = r.swizzle_equivalent
        if s.bits:
            lines.append(f"Swizzle: {s.mode} = Swizzle⟨{s.bits},{s.base},{s.shift}⟩, repeating "
                         f"every {s.repeat_bytes:,} bytes; the buffer starts on line {s.phase}")
        else:
            lines.append("Swizzle: none, Swizzle⟨0,4,3⟩ (the identity)")
        d = r.wgmma_descriptor
        if d is not None:
            where = ("the pattern starts on its boundary" if not d.start_address
                     % max(1, s.repeat_bytes) else "the TMA swizzles by the absolute address, "
                     "so none off the boundary either, as measured on an H100")
            lines.append(f"wgmma descriptor: layout type {d.layout_type}, base offset "
                         f"{d.base_offset} ({where}), {counted(d.k_steps, 'K step')}")
        elif r.tensor_map_valid:
            lines.append("wgmma descriptor: none, without a swizzle the box's rows are packed, "
                         "not 8 × 16-byte core matrices")
        return "\n\n".join(lines)

    def activate(self, key: str) -> None:
        """A placement chunk: the swizzle panel, where the lecture shows it, reads its logical
        column in the map's mode."""
        parsed = keys.parse(key)
        if parsed is None or parsed[0] != "chunk" or len(parsed[1]) != 2:
            return
        document = self.document
        if SWIZZLE not in document.scenario.panels:
            return
        col = parsed[1][1]
        self.links.result.ask(lambda r: self._read_column(r, col))

    def _read_column(self, r: TmaResult | None, col: int) -> None:
        document = self.document
        if r is None or SWIZZLE not in document.scenario.panels:
            return
        current = document.shown.section(SWIZZLE)
        params = tma_links.swizzle_params(r.swizzle_equivalent, current)
        if 0 <= col < 8:
            params = replace(params, column=col)
        document.edit_section(SWIZZLE, params, text=f"Swizzle readers read chunk column {col}")
