"""GEMM dock: the requested-bytes plot of the figure, interactive (zoom, pan) beside the controls.

FLOPs per requested byte against the tile side T, for the K of the section, with the naive FP32
level and the current tile marked: the figure's own series (``figures.gemm.calculator_series``),
colours, dashes and labels, so the dock and the exported figure show one plot, not two versions.
Clicking an output (``c:i,j``) makes it the walkthrough's focus and clicking a thread's outputs
(``thread:<strategy>,<t>``) shows that thread's loads; both are plain selections, kept by the dock.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpuviz.figures.gemm import CALCULATOR_LABELS, calculator_series
from gpuviz.models import gemm
from gpuviz.scenario.compute import compute_all
from gpuviz.ui.panel_extras import PanelExtras
from gpuviz.ui.panels.plot_style import draw_series

PANEL_ID = "gemm"


class FlopsPerBytePlot(QWidget):
    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(parent)
        import pyqtgraph as pg

        self.dock = dock
        self.setObjectName("gemm-flops-per-byte")
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(180)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        title = QLabel(f"<b>{CALCULATOR_LABELS[0]}</b>")
        title.setWordWrap(True)  # the controls' width, not the title's, sets the dock's
        lay.addWidget(title)
        lay.addWidget(self.plot)
        lay.addWidget(self.label)
        dock.document.shown_changed.connect(self.update_plot)
        dock.document.section_changed.connect(self._on_section_changed)
        self.shown: gemm.GemmResult | None = None
        self.series: list = []
        self.update_plot()

    def _on_section_changed(self, panel_id: str) -> None:
        if panel_id == PANEL_ID:
            self.update_plot()

    def update_plot(self, force: bool = False) -> None:
        try:
            result = compute_all(self.dock.document.shown, (PANEL_ID,))[PANEL_ID]
        except Exception:  # a scenario the panel cannot compute: the dock shows the error
            return
        if not force and self.shown is not None and (self.shown.tile, self.shown.k_dim,
                                                     self.shown.tile_sizes) \
                == (result.tile, result.k_dim, result.tile_sizes):
            return
        self.shown = result
        self.series, marks = calculator_series(result)
        _title, x_label, y_label = CALCULATOR_LABELS
        draw_series(self.plot, self.series, marks, self.dock.theme, x_label, y_label)
        self.label.setText(
            f"T = {result.tile}, K = {result.k_dim}: {result.tile_flops_per_byte:.3f} FLOPs per "
            f"requested byte (T/4 = {result.tile_flops_per_byte_limit:g} for large K); naive "
            f"FP32: {result.naive_flops_per_byte:.3f}.")


class GemmExtras(PanelExtras):
    def __init__(self, dock):
        super().__init__(dock)
        self.flops_plot = FlopsPerBytePlot(dock)

    def widgets(self) -> list[QWidget]:
        return [self.flops_plot]

    def theme_changed(self, theme) -> None:
        self.flops_plot.update_plot(force=True)
