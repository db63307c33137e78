"""Cold start to first painted window: gpuviz on its default scenario against a bare PySide6
QMainWindow program, each in a fresh interpreter, run in turn (bare, floors, gpuviz, gpuviz, …)
RUNS times (default 15; `bench_startup.py 31` for more). The clock runs from just before the
process is started to the end of the paint pass that first paints the window (for gpuviz: the
one that paints the launch figure); interpreter shutdown is not counted. All programs run
with compiled bytecode, as an installed app does (a private cache folder, even when
PYTHONDONTWRITEBYTECODE is set).

gpuviz is started two ways:
- first start: with no settings at all (a fresh configuration folder every run);
- later start: with the settings an earlier session left (one session, started, shown until its
  window was complete and its layouts searched, then closed), as most starts are: the window's
  geometry and the view designs it remembers.

For scale, two floors: the bare window after the painter's imports (the figure's display list,
its metrics, Qt's namespace of enums) and the bundled fonts, which any figure needs before it is
built; and a bare window with one widget that builds and paints the launch figure and nothing
else (the floor under any window that shows it).

All windows fill a 1920×1080 screen (the offscreen platform's, unless QT_QPA_PLATFORM names
another): the bare one maximized, gpuviz sized from the screen as it is for a user. Prints the
medians and minima, and the median of the per-pair ratios; where matplotlib is installed, also
a window showing one matplotlib plot (the goal: gpuviz at most half of it), else says so."""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

KEPT_CONFIG = tempfile.mkdtemp(prefix="gpuviz-bench-")  # an earlier session's settings, not a real one's
PYCACHE_DIR = tempfile.mkdtemp(prefix="gpuviz-bench-pyc-")  # bytecode, written by the warm-up
FIRST_PAINT = """
import os, time
from PySide6.QtCore import QEvent, QObject, QTimer
class FirstPaint(QObject):
    \"\"\"The clock stops once the paint pass that first paints the watched widget is over (the
    next event-loop turn): the whole window is on screen, the figure included.\"\"\"
    def __init__(self, then=lambda: os._exit(0)):
        super().__init__()
        self.then = then
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            self.painted()
            obj.removeEventFilter(self)
        return False
    def painted(self):
        def over():
            print("painted", time.time() - float(os.environ["T0"]), flush=True)
            self.then()
        QTimer.singleShot(0, over)
"""

BARE = FIRST_PAINT + """
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
app = QApplication([])
w = QMainWindow(); label = QLabel("bare"); w.setCentralWidget(label)
watch = FirstPaint(); label.installEventFilter(watch)
w.showMaximized()  # as gpuviz sizes itself on a screen up to 1920×1200
app.exec()
"""

GPUVIZ = """
import gc, os, time
gc.disable()  # as `gpuviz` does: no cycle collection until the window is complete
from gpuviz.ui.app import start  # as `gpuviz` does: the window, shown, before the event loop
w = start(None, show=False)  # sized from the screen: all of a 1920×1080 one
# the window completes itself (menus, the measurements dock) on the event-loop turn after the
# paint pass that painted its first figure: the clock stops as that turn begins
complete = w.complete
def stop_then_complete():
    print("painted", time.time() - float(os.environ["T0"]), flush=True)
    complete()
w.complete = stop_then_complete
def completed():
    print("complete", time.time() - float(os.environ["T0"]), flush=True)
    os._exit(0)
w.completed.connect(completed)
w.show()
from PySide6.QtWidgets import QApplication
QApplication.exec()
"""

# the start of any figure: the bare window, once the painter is imported and the fonts registered
PAINTER_ONLY = FIRST_PAINT + """
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
from gpuviz.export.qt_painter import register_fonts
app = QApplication([])
register_fonts()
w = QMainWindow(); label = QLabel("bare"); w.setCentralWidget(label)
watch = FirstPaint(); label.installEventFilter(watch)
w.showMaximized()
app.exec()
"""

# the floor under any window that shows the figure: a bare window whose one widget imports the
# figure code, registers the fonts, computes the default scenario's figure, lays it out for its
# size and paints it; no docks, controls, step bar, caption or menus
FIGURE_ONLY = FIRST_PAINT + """
import gpuviz.figures.layout, gpuviz.figures.scene, gpuviz.scenario
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget
from gpuviz.export.qt_painter import paint_figure, register_fonts
from gpuviz.figures.display import PT_TO_MM
from gpuviz.figures.layout import view_target
from gpuviz.figures.scene import build_figure
from gpuviz.figures.theme import theme
from gpuviz.scenario import compute_all, default_scenario_path, load_scenario
app = QApplication([])
register_fonts()
class View(QWidget):
    figure = None
    def paintEvent(self, event):
        if self.figure is None:
            state = load_scenario(default_scenario_path())
            result = compute_all(state, ("launch",))["launch"]
            screen = theme("screen")
            px_per_mm = 12.0 / (screen.text_pt * PT_TO_MM)  # the app's body type on screen
            target = view_target(round(self.width() / px_per_mm),
                                 round(self.width() / self.height(), 2))
            self.figure = build_figure("launch", result, frozenset(), screen, target)
        p = QPainter(self)
        paint_figure(p, self.figure, QRectF(0, 0, self.width(), self.height()))
        p.end()
w = QMainWindow(); view = View(); w.setCentralWidget(view)
watch = FirstPaint(); view.installEventFilter(watch)
w.showMaximized()
app.exec()
"""

# for scale, as the goal states it (≤ 0.5×): a window showing one matplotlib plot through its
# Qt backend on PySide6, when matplotlib is installed (it is no dependency of gpuviz)
MATPLOTLIB = FIRST_PAINT + """
import os
os.environ["QT_API"] = "pyside6"
import matplotlib
matplotlib.use("QtAgg")
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
fig = Figure()
fig.add_subplot().plot([0, 1, 2, 3], [0, 1, 4, 9])
canvas = FigureCanvasQTAgg(fig)
w = QMainWindow(); w.setCentralWidget(canvas)
watch = FirstPaint(); canvas.installEventFilter(watch)
w.showMaximized()
app.exec()
"""
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None

EARLIER_SESSION = """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from gpuviz.ui.app import start
w = start(None, show=False)
w.completed.connect(lambda: QTimer.singleShot(1500, lambda: (w.close(), QApplication.quit())))
w.show()
QApplication.exec()
"""


SCREEN = os.path.join(KEPT_CONFIG, "screen.json")  # the offscreen platform's one screen
with open(SCREEN, "w", encoding="utf-8") as f:
    f.write('{"screens": [{"name": "bench", "x": 0, "y": 0, "width": 1920, "height": 1080, '
            '"logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}')
PLATFORM = os.environ.get("QT_QPA_PLATFORM", f"offscreen:configfile={SCREEN}")


def run(code: str, config: str | None = None) -> tuple[float, float | None]:
    fresh = config is None
    if fresh:
        config = tempfile.mkdtemp(prefix="gpuviz-bench-first-")
    env = dict(os.environ, QT_QPA_PLATFORM=PLATFORM, XDG_CONFIG_HOME=config,
               PYTHONPYCACHEPREFIX=PYCACHE_DIR)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["T0"] = repr(time.time())
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True,
                         text=True).stdout.split()
    if fresh:
        shutil.rmtree(config, ignore_errors=True)
    if not out:
        return float("nan"), None
    painted = float(out[out.index("painted") + 1])
    complete = float(out[out.index("complete") + 1]) if "complete" in out else None
    return painted, complete


def main() -> None:
    try:
        measure(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
    finally:
        shutil.rmtree(KEPT_CONFIG, ignore_errors=True)
        shutil.rmtree(PYCACHE_DIR, ignore_errors=True)


def measure(runs: int) -> None:
    run(BARE), run(GPUVIZ), run(PAINTER_ONLY), run(FIGURE_ONLY)  # warm the file cache, bytecode
    run(EARLIER_SESSION, KEPT_CONFIG)
    if HAS_MATPLOTLIB:
        run(MATPLOTLIB)
    plot: list[float] = []
    bare: list[float] = []
    painter: list[float] = []
    floor: list[float] = []
    first: list[float] = []
    later: list[float] = []
    whole: list[float] = []
    for _ in range(runs):
        bare.append(run(BARE)[0])
        painter.append(run(PAINTER_ONLY)[0])
        floor.append(run(FIGURE_ONLY)[0])
        first.append(run(GPUVIZ)[0])
        painted, complete = run(GPUVIZ, KEPT_CONFIG)
        later.append(painted)
        whole.append(complete if complete is not None else float("nan"))
        if HAS_MATPLOTLIB:
            plot.append(run(MATPLOTLIB)[0])
    platform = "offscreen, 1920×1080" if PLATFORM.startswith("offscreen:") else PLATFORM
    ms = 1000
    print(f"start-up to first painted window ({runs} runs each, {platform}):   median     min")
    print(f"  bare PySide6 QMainWindow               {statistics.median(bare) * ms:7.0f} ms {min(bare) * ms:7.0f} ms")
    for name, times in (("… with the painter imported, fonts", painter),
                        ("a window with the figure alone (floor)", floor),
                        ("gpuviz, first start (no settings)", first),
                        ("gpuviz, later start (settings kept)", later)):
        ratio = statistics.median(o / b for o, b in zip(times, bare, strict=True))
        print(f"  {name:38s} {statistics.median(times) * ms:7.0f} ms {min(times) * ms:7.0f} ms"
              f"   {ratio:.2f}× bare (median of pair ratios), {min(times) / min(bare):.2f}× of minima")
    print(f"    … later start, window complete       {statistics.median(whole) * ms:7.0f} ms {min(whole) * ms:7.0f} ms")
    if plot:
        ratio = statistics.median(g / m for g, m in zip(first, plot, strict=True))
        print(f"  a matplotlib window (one plot, QtAgg)  {statistics.median(plot) * ms:7.0f} ms "
              f"{min(plot) * ms:7.0f} ms   gpuviz first start: {ratio:.2f}× it (median of pair "
              "ratios)")
    else:
        print("  matplotlib is not installed (no dependency of gpuviz): its comparison skipped")
    print("  goal: ≤ 2.0× bare" + (", ≤ 0.5× matplotlib" if plot else ""))


if __name__ == "__main__":
    main()
