"""Cold start to first painted window: gpuviz on its default scenario against a bare PySide6
QMainWindow program, each in a fresh interpreter, run in turn (bare, gpuviz, bare, …) RUNS times
(default 15; `bench_startup.py 31` for more). The clock runs from just before the process is
started to the end of the first paint of the window (for gpuviz: the first paint of the launch
figure); interpreter shutdown is not counted. Both programs run with compiled bytecode, as an
installed app does (a private cache folder, even when PYTHONDONTWRITEBYTECODE is set). Prints the
median and the minimum, and the median of the per-pair ratios."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

CONFIG_DIR = tempfile.mkdtemp(prefix="gpuviz-bench-")  # no remembered layout from a real session
PYCACHE_DIR = tempfile.mkdtemp(prefix="gpuviz-bench-pyc-")  # bytecode, written by the warm-up
FIRST_PAINT = """
import os, time
from PySide6.QtCore import QEvent, QObject, QTimer
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and getattr(obj, "painted_ready", lambda: True)():
            print(time.time() - float(os.environ["T0"]), flush=True)
            # the rest of the window (menus, hidden docks) is built on the next turns
            QTimer.singleShot(50, lambda: os._exit(0))
            obj.removeEventFilter(self)
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

GPUVIZ = """
import os, time
from gpuviz.ui.app import start  # as `gpuviz` does: the window, shown, before the event loop
w = start(None, show=False)
w.resize(1400, 900)
""" + FIRST_PAINT + """
view = w.docks["launch"].view
view.painted_ready = lambda: view.figure() is not None
watch = FirstPaint(); view.installEventFilter(watch)
w.completed.connect(lambda: print("complete", time.time() - float(os.environ["T0"])))
w.show()
from PySide6.QtWidgets import QApplication
QApplication.exec()
"""


def run(code: str) -> tuple[float, float | None]:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               XDG_CONFIG_HOME=CONFIG_DIR, PYTHONPYCACHEPREFIX=PYCACHE_DIR)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["T0"] = repr(time.time())
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True,
                         text=True).stdout.split()
    painted = float(out[0])
    complete = float(out[out.index("complete") + 1]) if "complete" in out else None
    return painted, complete


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    run(BARE), run(GPUVIZ)  # warm the file cache, write the bytecode
    bare, ours, whole = [], [], []
    for _ in range(runs):
        bare.append(run(BARE)[0])
        painted, complete = run(GPUVIZ)
        ours.append(painted)
        whole.append(complete if complete is not None else float("nan"))
    ratio = statistics.median(o / b for o, b in zip(ours, bare, strict=True))
    platform = os.environ.get("QT_QPA_PLATFORM", "offscreen")
    print(f"start-up to first painted window ({runs} runs each, {platform}):   median     min")
    print(f"  bare PySide6 QMainWindow               {statistics.median(bare) * 1000:7.0f} ms {min(bare) * 1000:7.0f} ms")
    print(f"  gpuviz default scenario                {statistics.median(ours) * 1000:7.0f} ms {min(ours) * 1000:7.0f} ms")
    print(f"    … window complete (menus, docks)     {statistics.median(whole) * 1000:7.0f} ms {min(whole) * 1000:7.0f} ms")
    print(f"  gpuviz / bare: median of pair ratios {ratio:.2f}×, of minima {min(ours) / min(bare):.2f}× (goal ≤ 1.5×)")


if __name__ == "__main__":
    main()
