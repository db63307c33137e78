"""GEMM dock: the requested-bytes calculator as a live pyqtgraph plot beside the controls.

FLOPs per requested byte against the tile side T, for the K of the section, with the naive FP32
level and the current tile marked; it follows every edit of ``tile``, ``k_dim`` and ``max_tile``.
Clicking an output (``c:i,j``) makes it the walkthrough's focus and clicking a thread's outputs
(``thread:<strategy>,<t>``) shows that thread's loads; both are plain selections, kept by the dock.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpuviz.models import gemm
from gpuviz.scenario.compute import compute_all

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
        self.plot.setLabel("bottom", "tile side T")
        self.plot.setLabel("left", "FLOPs per requested byte")
        self.plot.addLegend(offset=(10, 10))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addWidget(QLabel("<b>Requested bytes</b>: FLOPs per byte as the tile grows"))
        lay.addWidget(self.plot)
        lay.addWidget(self.label)
        dock.document.shown_changed.connect(self.update_plot)
        dock.document.section_changed.connect(self._on_section_changed)
        self.shown: gemm.GemmResult | None = None
        self.update_plot()

    def _on_section_changed(self, panel_id: str) -> None:
        if panel_id == PANEL_ID:
            self.update_plot()

    def update_plot(self) -> None:
        import pyqtgraph as pg

        try:
            result = compute_all(self.dock.document.shown, (PANEL_ID,))[PANEL_ID]
        except Exception:  # a scenario the panel cannot compute: the dock shows the error
            return
        if self.shown is not None and (self.shown.tile, self.shown.k_dim, self.shown.tile_sizes) \
                == (result.tile, result.k_dim, result.tile_sizes):
            return
        self.shown = result
        theme = self.dock.theme
        self.plot.setBackground(theme.background)
        self.plot.clear()
        self.plot.plot(list(result.tile_sizes), list(result.flops_per_byte_by_tile),
                       pen=pg.mkPen(theme.category(0), width=2), symbol="o", symbolSize=5,
                       symbolBrush=theme.category(0), name=f"T × T tile, K = {result.k_dim}")
        self.plot.plot(list(result.tile_sizes),
                       [result.naive_flops_per_byte] * len(result.tile_sizes),
                       pen=pg.mkPen(theme.category(3), width=2, style=pg.QtCore.Qt.DashLine),
                       name="naive FP32")
        self.plot.plot([result.tile], [result.tile_flops_per_byte], pen=None, symbol="o",
                       symbolSize=10, symbolBrush=theme.accent)
        self.label.setText(
            f"T = {result.tile}, K = {result.k_dim}: {result.tile_flops_per_byte:.3f} FLOPs per "
            f"requested byte (T/4 = {result.tile_flops_per_byte_limit:g} for large K); naive "
            f"FP32: {result.naive_flops_per_byte:.3f}.")


def extra_widgets(dock) -> list[QWidget]:
    dock.flops_plot = FlopsPerBytePlot(dock)
    return [dock.flops_plot]
