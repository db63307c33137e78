"""Every bundled scenario on a 1280×720 projector, windowed and in presentation mode (F5): the
share of the screen the figures' pages get, their median type in screen pixels, and the largest
change of that type between consecutive steps (a lecture whose type jumps from step to step
makes the room re-read the picture).

For each scenario the app is opened as a user opens it (no remembered layout), on Qt's offscreen
platform given one 1280×720 screen. The overview and every step are shown in turn (windowed),
then the same in F5. Per state:

- pages: the area of the figures' pages (each clipped to its view and the screen) over the
  screen's area;
- type: the median size in screen pixels of the text items of the figures on screen (a text
  item's size in points × mm per point × the view's pixels per mm);
- jump: the largest |type(k+1) − type(k)| over consecutive states, in pixels;
- title: the same for the figures' title size (``screen_measure``), which moves only with the
  layout's scale.

Each state is measured once every shown dock has its final layout (``PanelDock.settled``, at
most 15 s). Columns give the median of pages and type over the states, the smallest type, and
the jump.
Targets (from the lecture-hall brief): type ≥ 12 px windowed with one panel, ≥ 10 px with two,
≥ 18 px in F5. Run: ``python benchmarks/bench_hall.py [NAME-SUBSTRING …]``.
"""

from __future__ import annotations

import itertools
import sys

from offscreen_screen import run_on_screen

WIDTH, HEIGHT = 1280, 720

CHILD = r"""
import json, os, sys
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpuviz.export.qt_painter import register_fonts
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.ui.document import Document
from gpuviz.ui.main_window import MainWindow
from screen_measure import laid_out, measure, settle
register_fonts()

def states(window):
    doc = window.document
    out = []
    for k in range(-1, len(doc.scenario.steps)):
        doc.go_to_step(k)
        if doc.veiled:
            window.next_step()  # the picture, not the veil
        laid_out(window, 0.3)
        m = measure(window)
        out.append((m["pages"], m["type"], m["title"]))
    return out

out = {}
for name in json.loads(sys.argv[1]):
    path = scenario_dir() / name
    settings = QSettings(os.path.join(os.environ["GPUVIZ_BENCH_DIR"], name + ".ini"),
                         QSettings.Format.IniFormat)
    w = MainWindow(Document(load_scenario(path), path), settings=settings)
    w.show()
    laid_out(w, 0.8)
    windowed = states(w)
    w.document.go_to_step(-1)
    w.action("present").trigger()
    laid_out(w, 0.8)
    presented = states(w)
    w.action("present").trigger()
    settle(0.2)
    w.document.undo_stack.setClean()
    w.close()
    w.deleteLater()
    settle(0.1)
    out[name] = {"panels": len(w.document.scenario.panels), "windowed": windowed, "F5": presented}
print("RESULT " + json.dumps(out))
"""


def run(names: list[str]) -> dict:
    return run_on_screen(CHILD, names, WIDTH, HEIGHT, name="hall", timeout=3000)


def summary(states: list[list[float]]) -> tuple[float, float, float, float, float]:
    pages = sorted(s[0] for s in states)
    types = [s[1] for s in states]
    titles = [s[2] for s in states]
    jump = max((abs(b - a) for a, b in itertools.pairwise(types)), default=0.0)
    scale = max((abs(b - a) for a, b in itertools.pairwise(titles)), default=0.0)
    return pages[len(pages) // 2], sorted(types)[len(types) // 2], min(types), jump, scale


def main() -> None:
    from gpuviz.scenario.bundled import bundled_scenarios

    wanted = sys.argv[1:]
    names = [p.name for p in bundled_scenarios() if not wanted or any(w in p.name for w in wanted)]
    result = run(names)
    print(f"{WIDTH}×{HEIGHT}; pages = share of the screen, type = median px (min), "
          "jump = largest change of type between consecutive steps, px; title = the same of "
          "the figures' title (the layout's scale: the median also moves with a state's mix "
          "of text sizes)")
    print(f"{'scenario':<34} {'panels':>6} | {'windowed pages':>14} {'type':>5} {'min':>5} "
          f"{'jump':>5} {'title':>5} | {'F5 pages':>8} {'type':>5} {'min':>5} {'jump':>5} "
          f"{'title':>5}")
    below = {"windowed": 0, "F5": 0}
    for name in names:
        r = result[name]
        wp, wt, wmin, wj, ws = summary(r["windowed"])
        fp, ft, fmin, fj, fs = summary(r["F5"])
        below["windowed"] += wmin < (12.0 if r["panels"] <= 1 else 10.0)
        below["F5"] += fmin < 18.0
        print(f"{name.removesuffix('.json'):<34} {r['panels']:>6} | {wp:>14.1%} {wt:>5.1f} "
              f"{wmin:>5.1f} {wj:>5.1f} {ws:>5.1f} | {fp:>8.1%} {ft:>5.1f} {fmin:>5.1f} "
              f"{fj:>5.1f} {fs:>5.1f}")
    print(f"below target (windowed ≥ 12 px one panel / ≥ 10 px two; F5 ≥ 18 px), smallest "
          f"state: windowed {below['windowed']} of {len(names)}, F5 {below['F5']} of {len(names)}")


if __name__ == "__main__":
    main()
