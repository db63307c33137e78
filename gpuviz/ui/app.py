"""Starting the application: `gpuviz [SCENARIO]`."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from gpuviz import __version__
from gpuviz.export.qt_painter import register_fonts
from gpuviz.scenario import ScenarioError, default_scenario_path, load_scenario
from gpuviz.ui.document import Document
from gpuviz.ui.main_window import MainWindow


def create_window(path: str | Path | None = None, *,
                  defer: bool = False) -> tuple[MainWindow, ScenarioError | None]:
    """The main window on ``path`` (or the default scenario when ``path`` is None or cannot be
    read; the error is returned so the caller can show it once the window is up). ``defer``:
    menus and hidden docks are built after the first figure is painted (the application)."""
    error = None
    scenario, opened = None, None
    if path is not None:
        try:
            scenario, opened = load_scenario(path), Path(path)
        except ScenarioError as err:
            error = err
    if scenario is None:
        opened = default_scenario_path()
        scenario = load_scenario(opened)
    return MainWindow(Document(scenario, opened), defer=defer), error


def start(path: str | None = None, *, show: bool = True) -> MainWindow:
    """Everything ``gpuviz [SCENARIO]`` does before the event loop: the application object,
    the bundled fonts, and the window on ``path``, shown (a file that cannot be opened is
    reported on standard error and in the window, over the default scenario)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("gpuviz")
    app.setApplicationName("gpuviz")
    app.setApplicationVersion(__version__)
    register_fonts()
    window, error = create_window(path, defer=True)
    # what start-up made (modules, Qt wrappers, caches) lives as long as the application: left
    # out of the cycle collector's sweeps, a full sweep no longer stalls a redraw by 20-40 ms.
    # The entry points turn the collector off before their first import (start-up makes ~30,000
    # long-lived objects and a few dozen cyclic garbage ones: sweeping as they are made was ~2 %
    # of the start); it is on again from here
    window.completed.connect(_collect_from_now)
    if show:
        window.show()
    if error is not None:
        for line in error.lines():
            print(line, file=sys.stderr)
        window.show_error(f"Cannot open {Path(error.source).name}", error)
    return window


def _collect_from_now() -> None:
    gc.freeze()
    gc.enable()


def run_app(path: str | None = None) -> int:
    start(path)
    return QApplication.exec()
