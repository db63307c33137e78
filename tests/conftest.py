"""Shared fixtures: headless Qt, isolated settings, and a main window whose teardown is owned
here (closed, deleted, and no top-level widget left behind)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from gpuviz.scenario.bundled import scenario_dir

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Tests never fail on time (a loaded 2-core machine is slow); CI runs the same examples each time.
hypothesis_settings.register_profile("gpuviz", deadline=None, derandomize=bool(os.environ.get("CI")),
                                     print_blob=True)
hypothesis_settings.load_profile("gpuviz")

def pytest_collection_modifyitems(items):
    """The slow tests (a bundle, a wheel, CUDA kernels: a minute each) start first, so that
    while one runs the other workers take the rest and none is left running alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = scenario_dir()


@pytest.fixture
def scenario_path():
    """The path of a bundled scenario by file name."""

    def find(name: str) -> Path:
        path = SCENARIOS / name
        assert path.exists(), f"bundled scenario {name} is missing"
        return path

    return find


@pytest.fixture
def settings(tmp_path):
    from PySide6.QtCore import QSettings

    s = QSettings(str(tmp_path / "gpuviz-test.ini"), QSettings.Format.IniFormat)
    yield s
    s.sync()


@pytest.fixture
def make_main_window(qtbot, settings):
    """Build main windows on scenarios; every window is closed and deleted after the test, and
    the test fails if any other top-level widget leaked."""
    from PySide6.QtWidgets import QApplication

    from gpuviz.export.qt_painter import register_fonts
    from gpuviz.scenario import default_scenario_path, load_scenario
    from gpuviz.ui.document import Document
    from gpuviz.ui.main_window import MainWindow

    register_fonts()
    before = set(QApplication.topLevelWidgets())
    windows = []

    def make(path: Path | None = None, show: bool = True) -> MainWindow:
        path = Path(path) if path else default_scenario_path()
        w = MainWindow(Document(load_scenario(path), path), settings=settings)
        w.resize(1300, 850)
        windows.append(w)
        if show:
            w.show()
            qtbot.waitExposed(w)
            w.windowHandle().requestActivate()
            qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=2000)
        return w

    yield make
    for w in windows:
        w.document.undo_stack.setClean()
        w.close()
        w.deleteLater()
    QApplication.processEvents()
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    leaked = [w for w in QApplication.topLevelWidgets()
              if w not in before and w.isVisible() and not w.isHidden()]
    for w in leaked:
        w.close()
        w.deleteLater()
    assert not leaked, f"top-level widgets leaked: {[type(w).__name__ for w in leaked]}"
