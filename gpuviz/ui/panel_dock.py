"""One dock per registered panel: generated controls on the left, the figure on the right.

The dock never computes anything itself: it asks the scenario layer for the panel's result and
the figure module for its display list, and repaints only when what it shows has changed. A
burst of changes (a dragged control) is coalesced into one redraw on the next event-loop turn.
"""

from __future__ import annotations

import importlib
import time
from types import ModuleType

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

from gpuviz.figures.display import Canvas, Figure
from gpuviz.figures.theme import Theme
from gpuviz.registry import Panel
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.ui.document import Document
from gpuviz.ui.figure_view import FigureView
from gpuviz.ui.param_form import ParamForm

VEIL_TEXT = "Predict first.\n\nThe picture appears when you reveal it (Next step or PageDown)."
SLOW_COMPUTE_S = 0.012  # past this a panel's model runs off the GUI thread from then on


class _ComputeSignals(QObject):
    done = Signal(int, object, str)


class _ComputeJob(QRunnable):
    """One model computation on the thread pool; the result comes back by a queued signal."""

    def __init__(self, panel_id: str, params: object, generation: int):
        super().__init__()
        self.panel_id, self.params, self.generation = panel_id, params, generation
        self.signals = _ComputeSignals()

    def run(self) -> None:
        try:
            result = compute_cached(self.panel_id, self.params)
        except Exception as exc:  # reported in the dock, never raised on a worker
            self.signals.done.emit(self.generation, None, f"{type(exc).__name__}: {exc}")
        else:
            self.signals.done.emit(self.generation, result, "")


class PanelDock(QDockWidget):
    hovered = Signal(str)

    def __init__(self, panel: Panel, document: Document, theme: Theme, parent: QWidget | None = None):
        super().__init__(panel.title, parent)
        self.panel = panel
        self.document = document
        self.theme = theme
        self.setObjectName(f"dock-{panel.id}")
        self.extras: ModuleType | None = _panel_module(panel)
        self.form = ParamForm(panel.id, panel.params_type)
        self.form.edited.connect(self._on_edited)
        self.view = FigureView()
        self.view.setObjectName(f"figure-{panel.id}")
        self.view.keyClicked.connect(self._on_key_clicked)
        self.view.keyHovered.connect(self.hovered.emit)

        controls = QWidget()
        lay = QVBoxLayout(controls)
        lay.setContentsMargins(6, 6, 6, 6)
        summary = QLabel(panel.summary)
        summary.setWordWrap(True)
        lay.addWidget(summary)
        lay.addWidget(self.form)
        self.summary: QLabel | None = None
        if self.extras is not None and hasattr(self.extras, "summary_text"):
            # the panel's result in words, under the controls, refreshed with the figure
            self.summary = QLabel()
            self.summary.setObjectName(f"{panel.id}-summary")
            self.summary.setWordWrap(True)
            self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lay.addWidget(self.summary)
        if self.extras is not None and hasattr(self.extras, "extra_widgets"):
            for w in self.extras.extra_widgets(self):
                lay.addWidget(w)
        lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(220)
        self.controls = scroll
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(scroll)
        splitter.addWidget(self.view)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([280, 900])
        self.setWidget(splitter)

        self._shown_key: object = None
        self._computing_key: object = None
        self._generation = 0
        self._slow = bool(getattr(panel.model, "SLOW", False))
        self._pending = False
        self.last_redraw_ms = 0.0
        document.changed.connect(self._on_document_changed)
        self.visibilityChanged.connect(lambda visible: visible and self.schedule_refresh())
        self._sync_form()
        self._apply_veil()
        self.schedule_refresh()

    # --- document -> view ------------------------------------------------------------------
    def _on_document_changed(self, what: str) -> None:
        if what in ("step", "reveal", "scenario", "path"):
            self._apply_veil()
        if what in ("scenario", "step", "path") or what == f"section:{self.panel.id}":
            self._sync_form()
        if what in ("scenario", "step", "path", "selection", "frame") or what.startswith("section:"):
            self.schedule_refresh()

    def _apply_veil(self) -> None:
        """Predict, then reveal: the figure and the result in words wait for the reveal."""
        veiled = self.document.veiled
        self.view.set_veil(VEIL_TEXT if veiled else "")
        if self.summary is not None:
            self.summary.setVisible(not veiled)

    def _sync_form(self) -> None:
        self.form.set_params(self.document.shown.section(self.panel.id))

    def set_controls_visible(self, visible: bool) -> None:
        """Hide the controls to give the figure the whole dock (for a room, or a small screen)."""
        self.controls.setVisible(visible)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.schedule_refresh()

    def schedule_refresh(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self.refresh)

    def refresh(self) -> None:
        self._pending = False
        if not self.isVisible() and self.parent() is not None:
            return
        scenario = self.document.shown
        selection = self.document.selection
        try:
            params = effective_params(scenario, self.panel.id)
        except Exception as exc:  # a model bug must not take the window down
            self._show(_error_figure(self.theme, f"{type(exc).__name__}: {exc}"), None, time.perf_counter())
            return
        key = (params, selection, self.theme.name)
        if key == self._shown_key or key == self._computing_key:
            return
        start = time.perf_counter()
        if self._slow:
            # a model that took longer than a frame last time computes on a worker thread; the
            # previous figure stays up, and a newer edit makes this result stale (dropped)
            self._generation += 1
            self._computing_key = key
            job = _ComputeJob(self.panel.id, params, self._generation)
            job.signals.done.connect(self._on_computed)
            QThreadPool.globalInstance().start(job)
            self.view.setToolTip("computing…")
            return
        try:
            result = compute_cached(self.panel.id, params)
            if time.perf_counter() - start > SLOW_COMPUTE_S:
                self._slow = True
            figure = self.panel.figure.build(result, selection, self.theme)
        except Exception as exc:
            figure, key = _error_figure(self.theme, f"{type(exc).__name__}: {exc}"), None
            result = None
        self._show(figure, key, start, result)

    def _on_computed(self, generation: int, result: object, error: str) -> None:
        if generation != self._generation:
            return  # a newer change is already on its way
        key, self._computing_key = self._computing_key, None
        self.view.setToolTip("")
        start = time.perf_counter()
        if error:
            self._show(_error_figure(self.theme, error), None, start)
            return
        if key is None or key[1] != self.document.selection or key[2] != self.theme.name:
            self.schedule_refresh()
        try:
            figure = self.panel.figure.build(result, self.document.selection, self.theme)
        except Exception as exc:
            figure, key = _error_figure(self.theme, f"{type(exc).__name__}: {exc}"), None
        self._show(figure, key, start, result)

    def _show(self, figure: Figure, key: object, start: float, result: object = None) -> None:
        if self.summary is not None:
            self.summary.setText(self.extras.summary_text(result) if result is not None else "")
        self._shown_key = key
        self.view.set_figure(figure)
        self.view.repaint()
        self.last_redraw_ms = (time.perf_counter() - start) * 1000

    def current_figure(self) -> Figure | None:
        return self.view.figure()

    # --- view -> document ------------------------------------------------------------------
    def _on_edited(self, params: object, fields: str) -> None:
        self.document.edit_section(self.panel.id, params, merge_key=fields or None)

    def _on_key_clicked(self, key: str) -> None:
        if key and self.extras is not None and hasattr(self.extras, "activate"):
            self.extras.activate(self.document, key)
        self.document.select({key} if key else set())


def _panel_module(panel: Panel) -> ModuleType | None:
    try:
        return importlib.import_module(panel.dock_module)
    except ModuleNotFoundError as e:
        if e.name == panel.dock_module:
            return None
        raise


def _error_figure(theme: Theme, message: str) -> Figure:
    c = Canvas()
    c.text(5, 10, "This panel could not be drawn:", theme.text_pt, theme.color("warn"), bold=True)
    c.text(5, 16, message[:160], theme.small_pt, theme.foreground)
    return c.figure(160, 24, theme.background, title="error")
