"""Traversal dock: the capacity sweep runs off the GUI thread, with progress and a Cancel button.

The sweep (misses against LRU capacity for every order) is the slow part of this panel on large
grids. A :class:`SweepRunner` starts it in Qt's global thread pool whenever the traversal section
shown changes, cancels a sweep still running for older parameters, reports progress after each
order, and plots the finished sweep with pyqtgraph beside the controls. The model function it
runs (:func:`gpuviz.models.traversal.sweep`) is pure; it only polls the cancel flag.

Clicking an output tile selects it (``tile:r,c``, done by the dock); the figure then outlines the
A and B tiles that tile needs.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gpuviz.figures.traversal import SWEEP_LABELS, log_axis, sweep_series
from gpuviz.models import traversal
from gpuviz.scenario.compute import effective_params
from gpuviz.ui.panel_extras import PanelExtras
from gpuviz.ui.panels.plot_style import draw_series
from gpuviz.ui.worker_report import report

PANEL_ID = "traversal"


class _SweepSignals(QObject):
    progress = Signal(int, int, int)  # job number, orders done, orders in all
    finished = Signal(int, object, float)  # job number, SweepResult or None, seconds


class _SweepJob(QRunnable):
    def __init__(self, number: int, params: traversal.TraversalParams, signals: _SweepSignals):
        super().__init__()
        self.number = number
        self.params = params
        self.signals = signals
        self.cancel_event = threading.Event()
        self.setAutoDelete(False)  # Python owns the job; the runner keeps it until it reports

    def run(self) -> None:
        start = time.perf_counter()
        result = traversal.sweep(
            self.params,
            progress=lambda done, total: self._report("progress", self.number, done, total),
            cancelled=self.cancel_event.is_set,
        )
        self._report("finished", self.number, result, time.perf_counter() - start)

    def _report(self, signal: str, *args: object) -> None:
        if not report(getattr(self.signals, signal), *args):  # the runner is gone: stop
            self.cancel_event.set()


class SweepRunner(QWidget):
    """Progress, Cancel and a pyqtgraph plot of the sweep for one traversal dock."""

    sweepFinished = Signal(object)  # SweepResult, or None when cancelled

    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(parent)
        self.dock = dock
        self.document = dock.document
        self.setObjectName("traversal-sweep")
        self._signals = _SweepSignals()
        self._signals.progress.connect(self._on_progress)
        self._signals.finished.connect(self._on_finished)
        self._jobs: dict[int, _SweepJob] = {}
        self._number = 0
        self._params: traversal.TraversalParams | None = None
        self.result: traversal.SweepResult | None = None
        self.seconds = 0.0

        self.title = QLabel(f"<b>{SWEEP_LABELS[0]}</b>, every order")
        self.title.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setTextVisible(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addWidget(self.title)
        lay.addLayout(row)
        lay.addWidget(self.status)
        self.plot: Any = None  # a pg.PlotWidget made on first use: pyqtgraph is imported only when needed
        self.series: list = []

        self.document.shown_changed.connect(self.restart)
        self.document.section_changed.connect(self._on_section_changed)
        dock.visibilityChanged.connect(lambda visible: self.restart() if visible else None)
        self.destroyed.connect(lambda *_: self._cancel_all())
        self.restart()

    # --- starting and stopping -----------------------------------------------------------------
    def _on_section_changed(self, panel_id: str) -> None:
        if panel_id == PANEL_ID:
            self.restart()

    def restart(self) -> None:
        """Start a sweep for the parameters shown, unless one for them is done or running."""
        if not self.dock.isVisible() and self.dock.parent() is not None:
            return
        try:
            params = effective_params(self.document.shown, PANEL_ID)
        except Exception:  # a scenario without a usable section: nothing to sweep
            return
        if params == self._params:
            return
        self._cancel_all()
        self._params = params
        self.result = None
        if traversal.problems(params):
            self.status.setText("The parameters have problems; no sweep.")
            return
        self._number += 1
        job = _SweepJob(self._number, params, self._signals)
        self._jobs[job.number] = job
        orders = len(traversal.sweep_orders(params))
        self.bar.setRange(0, orders)
        self.bar.setValue(0)
        self.bar.setFormat(f"%v of {orders} orders")
        self.cancel_button.setEnabled(True)
        self.status.setText("Sweeping…")
        QThreadPool.globalInstance().start(job)

    def cancel(self) -> None:
        """Stop the running sweep; a later parameter change starts a new one."""
        self._cancel_all()
        self.cancel_button.setEnabled(False)
        self.status.setText("Cancelled.")

    def _cancel_all(self) -> None:
        for job in self._jobs.values():
            job.cancel_event.set()

    def is_running(self) -> bool:
        return any(not job.cancel_event.is_set() for job in self._jobs.values())

    # --- reports from the worker ---------------------------------------------------------------
    def _on_progress(self, number: int, done: int, total: int) -> None:
        if number == self._number:
            self.bar.setValue(done)

    def _on_finished(self, number: int, result: traversal.SweepResult | None,
                     seconds: float) -> None:
        job = self._jobs.pop(number, None)
        if number != self._number or job is None:
            return
        self.cancel_button.setEnabled(False)
        if result is None:
            self._params = None  # cancelled: the same parameters may be swept again
            self.sweepFinished.emit(None)
            return
        self.result = result
        self.seconds = seconds
        self.status.setText(f"{len(result.capacities)} capacities × "
                            f"{len(result.misses_by_order)} orders in {seconds * 1000:.0f} ms.")
        self._draw(result)
        self.sweepFinished.emit(result)

    def _draw(self, result: traversal.SweepResult) -> None:
        """The figure's sweep plot (same series, colours, dashes and labels), interactive."""
        import pyqtgraph as pg  # type: ignore[import-untyped]  # no type information shipped

        if self.plot is None:
            self.plot = pg.PlotWidget()
            self.plot.setObjectName("traversal-sweep-plot")
            self.plot.setMinimumHeight(180)
            lay = self.layout()
            assert lay is not None  # set in __init__
            lay.addWidget(self.plot)
        params = self._params
        capacity = traversal.effective_capacity(params) if params is not None else None
        order = params.order if params is not None else ""
        self.series, marks = sweep_series(result.capacities, result.misses_by_order, capacity,
                                          order)
        _title, x_label, y_label = SWEEP_LABELS
        draw_series(self.plot, self.series, marks, self.dock.theme, x_label, y_label)
        self.plot.setLogMode(x=log_axis(result.capacities), y=False)

    def redraw(self) -> None:
        if self.result is not None:
            self._draw(self.result)


class TraversalExtras(PanelExtras):
    def __init__(self, dock):
        super().__init__(dock)
        self.sweep_runner = SweepRunner(dock)

    def widgets(self) -> list[QWidget]:
        return [self.sweep_runner]

    def theme_changed(self, theme) -> None:
        self.sweep_runner.redraw()
