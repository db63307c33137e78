"""Cold start to first painted window: gpuviz on its default scenario against a bare PySide6
QMainWindow program, both in fresh interpreters, median of 5 runs each. Prints figures."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

BARE = """
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
from PySide6.QtCore import QTimer
app = QApplication([])
w = QMainWindow(); w.setCentralWidget(QLabel("bare")); w.resize(1400, 900); w.show()
QTimer.singleShot(0, app.quit)
app.exec()
"""

GPUVIZ = """
from PySide6.QtWidgets import QApplication
from PySide6.QtCore import QTimer
app = QApplication([])
from gpuviz.export.qt_painter import register_fonts
from gpuviz.ui.app import create_window
register_fonts()
w, _ = create_window(None); w.resize(1400, 900); w.show()
dock = w.docks["launch"]
def check():
    if dock.current_figure() is None:
        QTimer.singleShot(0, check)
    else:
        dock.view.repaint()
        w.document.undo_stack.setClean()
        app.quit()
QTimer.singleShot(0, check)
app.exec()
"""


def run(code: str) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               XDG_CONFIG_HOME="/tmp/gpuviz-bench-config")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    run(BARE), run(GPUVIZ)  # warm the file cache
    bare = statistics.median(run(BARE) for _ in range(5))
    ours = statistics.median(run(GPUVIZ) for _ in range(5))
    print(f"start-up to first painted window (median of 5, {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}):")
    print(f"  bare PySide6 QMainWindow   {bare * 1000:7.0f} ms")
    print(f"  gpuviz default scenario    {ours * 1000:7.0f} ms   ({ours / bare:.2f}× the bare program; target ≤ 2×)")


if __name__ == "__main__":
    main()
