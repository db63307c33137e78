"""Scheduler dock: Little's law beside the simulation under the controls, so a student who
changes the warps, the latency or the policy reads the prediction and the outcome together; and
the whole run's cycle timeline, to zoom into cycles and pan (pyqtgraph).

The timeline is the figure's own raster (``figures.scheduler.timeline_rgb``): the same states
and theme colours, one pixel column per cycle, the issue-slot strip on top. The figure shows a fixed first window;
"Export Visible Window…" writes the figure of the cycles now in view, passing them to the figure
as the selection key ``cycles:<a>-<b>`` (``gpuviz.keys``: a … b inclusive). A step that selects
such a key shows its range here too.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from gpuviz import keys
from gpuviz.figures.scheduler import steady_words, timeline_rgb, visible_cycles, window_cycles
from gpuviz.models.scheduler import SchedulerResult
from gpuviz.scenario.compute import compute_all
from gpuviz.ui.panel_extras import PanelExtras
from gpuviz.ui.panels.plot_style import style_plot

PANEL_ID = "scheduler"


def summary_text(result: SchedulerResult) -> str:
    r = result
    return "\n".join([
        f"P = {r.P} cycles, I = {r.I} instructions per loop",
        f"Warps needed ⌈P/I⌉ = {r.warps_needed}; resident {r.resident_warps} "
        f"(register cap {r.register_cap})",
        f"Little's law U = min(1, N·I/P) = {r.predicted_utilization:.1%}",
        f"Simulated: issue slots {r.issue_utilization:.1%}, useful lanes "
        f"{r.lane_utilization:.1%}",
        f"Limit at N = {r.resident_warps}: {r.limit}",
        *([f"SM ({r.warps_per_sm} warps, four schedulers): {r.sm_issue_utilization:.1%} "
           f"{steady_words(r)}"] if r.warps_per_sm is not None else []),
    ])


def automatic(result: SchedulerResult) -> dict:
    """An empty bandwidth shows the memory level's measured one (none for custom loads); with
    warps per SM given, the warps field shows the ⌈W/4⌉ the scheduler drawn holds."""
    values: dict = ({"bandwidth_per_sm": result.bandwidth_per_sm}
                    if result.bandwidth_per_sm is not None else {})
    if result.warps_per_sm is not None:
        values["warps"] = -(-result.warps_per_sm // 4)
    return values


class CycleTimeline(QWidget):
    """The run's issue timeline: the wheel zooms into cycles, dragging pans."""

    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(parent)
        import pyqtgraph as pg  # type: ignore[import-untyped]  # no type information shipped

        self.dock = dock
        self.document = dock.document
        self.setObjectName("scheduler-timeline")
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(96)  # the figure above keeps the height; the labels thin out
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=True, y=False)
        self.plot.hideButtons()
        # the top row's label ("issue slot") is centred on a row that a short plot makes
        # thinner than a line of text: half a line above the plot keeps it whole (it was cut)
        layout = self.plot.getPlotItem().layout
        left, top, right, bottom = layout.getContentsMargins()
        layout.setContentsMargins(left, max(top, math.ceil(self.fontMetrics().height() / 2)),
                                  right, bottom)
        self.plot.getAxis("left").setStyle(hideOverlappingLabels=False)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.range_label = QLabel("")
        self.range_label.setObjectName("scheduler-visible-cycles")
        self.export_button = QPushButton("Export Visible Window…")
        self.export_button.clicked.connect(self.export_dialog)
        reset = QPushButton("Whole Run")
        reset.clicked.connect(self.show_whole_run)
        row = QHBoxLayout()
        row.addWidget(self.range_label, 1)
        row.addWidget(reset)
        row.addWidget(self.export_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addWidget(QLabel("<b>Issue timeline, whole run</b> (wheel: zoom cycles; drag: pan)"))
        lay.addWidget(self.plot)
        lay.addLayout(row)
        self.result: SchedulerResult | None = None
        self._labels: list[tuple[float, str]] = []
        self._range_key: tuple[int, int] | None = None
        self.plot.getViewBox().sigResized.connect(lambda *_: self._update_row_labels())
        self.plot.getViewBox().sigXRangeChanged.connect(lambda *_: self._update_label())
        self.document.shown_changed.connect(self._redraw_soon)
        self.document.path_changed.connect(self._redraw_soon)
        self.document.section_changed.connect(
            lambda panel_id: self._redraw_soon() if panel_id == PANEL_ID else None)
        self.document.selection_changed.connect(self._follow_selection)
        self.document.step_changed.connect(self._follow_selection)
        self._pending = False
        self.update_timeline()

    def _redraw_soon(self) -> None:
        if not self._pending:  # a dragged control: one redraw for the burst
            self._pending = True
            QTimer.singleShot(0, self, self.update_timeline)

    def update_timeline(self, force: bool = False) -> None:
        self._pending = False
        try:
            result = compute_all(self.document.shown, (PANEL_ID,))[PANEL_ID]
        except Exception:  # the dock shows the error
            return
        if result is self.result and not force:
            return
        theme = self.dock.theme
        self.result = result
        self.image.setImage(timeline_rgb(result, theme), autoLevels=False, levels=(0, 255))
        rows = result.resident_warps + 1
        style_plot(self.plot, theme, "cycle", "")
        self.plot.showGrid(x=False, y=False)
        self._update_row_labels()
        box = self.plot.getViewBox()
        box.setLimits(xMin=0, xMax=result.cycles, minXRange=min(16, result.cycles),
                      yMin=0, yMax=rows)
        box.setYRange(0, rows, padding=0)
        self._range_key = None
        self._follow_selection(default=True)

    def row_labels(self) -> list[tuple[float, str]]:
        """The left axis' labels for the plot's height now: "issue slot", then every k-th warp,
        k such that neighbouring labels are at least a line of text apart (a short plot, a
        dragged splitter, many warps), so no label lies over another."""
        if self.result is None:
            return []
        rows = self.result.resident_warps + 1
        height = max(1.0, self.plot.getViewBox().height())
        line = self.fontMetrics().height()  # the axis labels' font is the widget's
        every = max(1, math.ceil(line * 1.1 / (height / rows)))
        labels = [(0.5, "issue slot")]
        # warp i's row is i + 1 rows below the issue slot's: the first warp named is the first
        # at least `every` rows from it
        labels += [(i + 1.5, f"warp {i}") for i in range(every - 1, rows - 1, every)]
        return labels

    def _update_row_labels(self) -> None:
        labels = self.row_labels()
        if labels and labels != self._labels:
            self._labels = labels
            self.plot.getAxis("left").setTicks([labels, []])

    def _follow_selection(self, default: bool = False) -> None:
        if self.result is None:
            return
        window = keys.cycle_window(self.document.selection)
        if window == self._range_key and not default:
            return
        self._range_key = window
        if window is None:
            self.set_cycles(0, window_cycles(self.result))
        else:
            self.set_cycles(*visible_cycles(self.result, frozenset({keys.cycles(*window)})))

    def set_cycles(self, a: int, b: int) -> None:
        self.plot.getViewBox().setXRange(a, b, padding=0)
        self._update_label()

    def show_whole_run(self) -> None:
        if self.result is not None:
            self.set_cycles(0, self.result.cycles)

    def visible(self) -> tuple[int, int]:
        """The cycles [a, b) in view, clamped to the run."""
        (x0, x1), _ = self.plot.getViewBox().viewRange()
        total = self.result.cycles if self.result is not None else 1
        a = max(0, min(round(x0), total - 1))
        return a, max(a + 1, min(round(x1), total))

    def selection_key(self) -> str:
        a, b = self.visible()
        return keys.cycles(a, b - 1)

    def _update_label(self) -> None:
        if self.result is not None:
            a, b = self.visible()
            self.range_label.setText(f"cycles {a:,}–{b - 1:,} of {self.result.cycles:,}")

    def export_visible(self, path: Path, fmt: str | None = None, size: str = "natural",
                       dpi: int = 200) -> str:
        """Write the figure with its timeline showing the visible cycles."""
        from gpuviz.export.files import export_figure

        path = Path(path)
        selection = keys.without_cycles(self.document.selection)
        return export_figure(self.document.shown, PANEL_ID, path,
                             fmt=fmt or path.suffix.lstrip(".").lower() or "svg",
                             theme_name=self.dock.theme.name, size=size, dpi=dpi,
                             selection=selection | {self.selection_key()})

    def export_dialog(self) -> None:
        a, b = self.visible()
        start = str(Path.home() / f"scheduler-cycles-{a}-{b}.svg")
        path, _ = QFileDialog.getSaveFileName(self, "Export Visible Window", start,
                                              "SVG (*.svg);;PDF (*.pdf);;PNG (*.png)")
        if not path:
            return
        if Path(path).suffix.lower() not in (".svg", ".pdf", ".png"):
            path += ".svg"
        try:
            self.export_visible(Path(path))
        except OSError as e:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, "Cannot export", f"{path}: {e.strerror or e}")


class SchedulerExtras(PanelExtras):
    def __init__(self, dock):
        super().__init__(dock)
        self.timeline = CycleTimeline(dock)

    def summary_text(self, result: SchedulerResult) -> str:
        return summary_text(result)

    def automatic(self, result: SchedulerResult) -> dict:
        return automatic(result)

    def under_figure(self) -> QWidget:
        # presenting shows the figure alone, at full height (its own timeline is in it): the
        # interactive one would take half the screen and leave the figure's type unreadable
        return self.timeline

    def theme_changed(self, theme) -> None:
        self.timeline.update_timeline(force=True)
