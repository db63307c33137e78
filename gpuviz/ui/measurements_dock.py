"""The Measurements dock and File ▸ Export Kernel…: the models against the shipped H200 cases.

The dock's header says, for each panel of the shown scenario that has a measured counterpart,
the model's value and "H200 measured: …" (or "not measured"); its table lists every shipped
measurement, model against measured, with a filter for the disagreements
(:mod:`gpuviz.measurements`, docs/hardware-notes.md). :func:`install` adds the dock, its View
menu entry and File ▸ Export Kernel… to a main window.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuviz import measurements

COLUMNS = ("Panel", "Case", "Model", "Measured", "", "Source", "File")


def _fmt(v: float | None) -> str:
    return "—" if v is None else f"{v:.3g}" if abs(v - round(v)) > 1e-9 else f"{v:.0f}"


class MeasurementsDock(QDockWidget):
    def __init__(self, document, parent: QWidget | None = None):
        super().__init__("Measurements", parent)
        self.setObjectName("dock-measurements")
        self.document = document
        body = QWidget()
        lay = QVBoxLayout(body)
        self.current = QLabel()
        self.current.setWordWrap(True)
        self.current.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.only_disagreements = QCheckBox("Disagreements only")
        self.only_disagreements.toggled.connect(self._fill)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.summary = QLabel()
        lay.addWidget(self.current)
        lay.addWidget(self.only_disagreements)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.summary)
        self.setWidget(body)
        self._rows: list[dict] | None = None
        # loading the measurements takes seconds: only once the dock is first shown
        for changed in (document.shown_changed, document.section_changed, document.revealed):
            changed.connect(lambda *_: self.update_current() if self.isVisible() else None)
        self.visibilityChanged.connect(self._on_visible)

    def _on_visible(self, visible: bool) -> None:
        if not visible:
            return
        self.update_current()
        if self._rows is None:
            self._rows = measurements.all_cases()
            self._fill()

    def rows(self) -> list[dict]:
        if self._rows is None:
            self._rows = measurements.all_cases()
        return self._rows

    def _fill(self) -> None:
        rows = self.rows()
        shown = [r for r in rows if not r["agrees"]] if self.only_disagreements.isChecked() \
            else rows
        self.table.setRowCount(len(shown))
        for i, r in enumerate(shown):
            mark = "known" if r["known"] else ("=" if r["agrees"] else "differs")
            cells = (r["panel"], r["id"], _fmt(r["model"]), _fmt(r["measured"]), mark,
                     r["known"] or r["source"], r["file"])
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j == 5:
                    item.setToolTip(text)
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(5, min(self.table.columnWidth(5), 420))  # explanations: tooltip
        bad = sum(1 for r in rows if not r["agrees"])
        known = sum(1 for r in rows if not r["agrees"] and r["known"])
        self.summary.setText(f"{len(rows)} measured cases on an NVIDIA H200: {len(rows) - bad} "
                             f"agree with the model, {known} known disagreements (explained), "
                             f"{bad - known} unexplained.")

    def current_lines(self) -> list[str]:
        from gpuviz.registry import panel
        from gpuviz.scenario.compute import compute_cached, effective_params

        scenario = self.document.shown
        lines = []
        for pid in scenario.panels:
            measured = panel(pid).measured
            if pid not in measurements.PANELS or measured is None:
                continue
            params = effective_params(scenario, pid)
            value = measured.of(compute_cached(pid, params))
            lines.append(f"{pid}: model {value:g} {measured.unit} — "
                         f"{measurements.label(pid, params, value)}")
        return lines

    def update_current(self) -> None:
        from gpuviz.lecture import show

        if show(self.document.lecture).hidden("measured"):  # a question is open: no answer
            self.current.setText("The model's values show when the question is revealed.")
            return
        try:
            lines = self.current_lines()
        except Exception as exc:  # a section being edited may not compute; say so
            lines = [f"(cannot compare: {exc})"]
        self.current.setText("\n".join(lines) if lines else
                             "The shown scenario has no panel with a measured counterpart "
                             f"({', '.join(measurements.PANELS)}).")


def export_kernel_dialog(window) -> None:
    """File ▸ Export Kernel…: the shown scenario's first exportable panel, into a folder."""
    from gpuviz.kernels import export_kernel, exportable

    scenario = window.document.shown
    panels = exportable(scenario.panels)
    if not panels:
        QMessageBox.information(window, "Export Kernel",
                                "This scenario has no panel with a kernel export (sectors, "
                                "banks, occupancy, traversal).")
        return
    folder = QFileDialog.getExistingDirectory(window, "Export Kernel into folder")
    if not folder:
        return
    stem = window.document.path.stem if window.document.path else "scenario"
    try:
        files = export_kernel(scenario, panels[0], Path(folder), name=f"{stem}-{panels[0]}")
    except (ValueError, OSError) as exc:
        QMessageBox.warning(window, "Export Kernel", str(exc))
        return
    QMessageBox.information(window, "Export Kernel",
                            "Wrote " + ", ".join(f.name for f in files) + f" into {folder}.\n"
                            "Run run.sh on a machine with an NVIDIA GPU, nvcc and Nsight "
                            "Compute.")


def install(window) -> MeasurementsDock:
    """Add the dock (hidden until View ▸ Measurements) and File ▸ Export Kernel…."""
    dock = MeasurementsDock(window.document, window)
    # made after the window restored its remembered layout (start-up): take its place from it
    if not window.restoreDockWidget(dock):
        # below the figures, in their area: a dock area of its own took the height the
        # figures cannot take (two thirds of the window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock, Qt.Orientation.Vertical)
        dock.hide()
    # shown, it takes a quarter of the window's height, not the two thirds a dock area gives
    def fit() -> None:
        if dock.isVisible() and not dock.isFloating():
            window.resizeDocks([dock], [max(120, window.height() // 4)], Qt.Orientation.Vertical)

    dock.visibilityChanged.connect(lambda on: on and QTimer.singleShot(0, dock, fit))
    toggle = dock.toggleViewAction()
    toggle.setText("&Measurements")
    window.menus.register("measurements", toggle)
    window.menus.add("view", "measurements")
    window.menus.new("export-kernel", "Export &Kernel…", lambda: export_kernel_dialog(window))
    window.menus.add("file", "export-kernel", after="export")
    window.measurements_dock = dock
    return dock
