"""Cold start to first painted window: gpuviz on its default scenario against a bare PySide6
QMainWindow program, each in a fresh interpreter, median of 7 runs. The clock runs from just
before the process is started to the end of the first paint of the window (for gpuviz: the first
paint of the launch figure); interpreter shutdown is not counted. Prints figures."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

CONFIG_DIR = tempfile.mkdtemp(prefix="gpuviz-bench-")  # no remembered layout from a real session
FIRST_PAINT = """
import os, time
from PySide6.QtCore import QEvent, QObject, QTimer
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and getattr(obj, "painted_ready", lambda: True)():
            QTimer.singleShot(0, lambda: (print(time.time() - float(os.environ["T0"])), os._exit(0)))
        return False
"""

BARE = FIRST_PAINT + """
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
app = QApplication([])
w = QMainWindow(); label = QLabel("bare"); w.setCentralWidget(label); w.resize(1400, 900)
watch = FirstPaint(); label.installEventFilter(watch)
w.show()
app.exec()
"""

GPUVIZ = FIRST_PAINT + """
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpuviz.export.qt_painter import register_fonts
from gpuviz.ui.app import create_window
register_fonts()
w, _ = create_window(None); w.resize(1400, 900)
view = w.docks["launch"].view
view.painted_ready = lambda: view.figure() is not None
watch = FirstPaint(); view.installEventFilter(watch)
w.show()
app.exec()
"""


def run(code: str) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               XDG_CONFIG_HOME=CONFIG_DIR)
    env["T0"] = repr(time.time())
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True,
                         text=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    run(BARE), run(GPUVIZ)  # warm the file cache
    bare = statistics.median(run(BARE) for _ in range(7))
    ours = statistics.median(run(GPUVIZ) for _ in range(7))
    print(f"start-up to first painted window (median of 7, {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}):")
    print(f"  bare PySide6 QMainWindow   {bare * 1000:7.0f} ms")
    print(f"  gpuviz default scenario    {ours * 1000:7.0f} ms   ({ours / bare:.2f}× the bare program; target ≤ 2×)")


if __name__ == "__main__":
    main()
