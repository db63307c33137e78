"""The app on a projector-sized and a desktop screen: how much of the screen the figures' pages
cover and how large their type comes out in screen pixels.

For each screen (1280×720 and 1920×1080, Qt's offscreen platform given that one screen) and each
scenario (one panel: ``launch-n130``; two panels: ``linked-launch-sectors``) the app is opened as
a user opens it (no remembered layout), then put into presentation mode (F5). Measured:

- pages: the area of the figures' pages (each page's painted rectangle, clipped to its view and
  to the screen) over the screen's area;
- type: the median size, in screen pixels, of the text items of the figures on screen (a text
  item's size in points × mm per point × the view's pixels per mm);
- views: the area of the figure views themselves over the screen's area: what a figure laid out
  for its view's shape (a panel whose ``build`` takes a target) covers; a panel that does not yet
  take a target is scaled to fit and covers only the part of its view its own shape allows.

Targets: pages ≥ 60 % (one panel) / 50 % (two), type ≥ 12 px (10 px for two panels); in F5
pages ≥ 75 % and type ≥ 18 px. Each is measured once every shown dock has its final layout.
Prints a table; each screen runs in a fresh interpreter.
"""

from __future__ import annotations

from offscreen_screen import run_on_screen

SCREENS = ((1280, 720), (1920, 1080))
SCENARIOS = (("one panel", "launch-n130.json"), ("two panels", "linked-launch-sectors.json"))
TARGETS = {"one panel": (0.60, 12.0), "two panels": (0.50, 10.0), "F5": (0.75, 18.0)}

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

out = {}
for label, name in json.loads(sys.argv[1]):
    path = scenario_dir() / name
    settings = QSettings(os.path.join(os.environ["GPUVIZ_BENCH_DIR"], label + ".ini"),
                         QSettings.Format.IniFormat)
    w = MainWindow(Document(load_scenario(path), path), settings=settings)
    w.show()
    laid_out(w)
    normal = measure(w)
    w.action("present").trigger()
    laid_out(w)
    f5 = measure(w)
    w.action("present").trigger()
    settle(0.2)
    w.document.undo_stack.setClean()
    w.close()
    w.deleteLater()
    settle(0.2)
    out[label] = {"normal": normal, "F5": f5}
print("RESULT " + json.dumps(out))
"""


def run_screen(width: int, height: int) -> dict:
    return run_on_screen(CHILD, SCENARIOS, width, height)


def verdict(value: float, target: float) -> str:
    return "ok" if value >= target else "below"


def main() -> None:
    print(f"{'screen':>10} {'scenario':>11} {'mode':>6} {'window':>10} {'views':>6} {'pages':>7} "
          f"{'(target)':>8} {'type px':>8} {'(target)':>8}")
    for width, height in SCREENS:
        result = run_screen(width, height)
        for label, _name in SCENARIOS:
            for mode in ("normal", "F5"):
                m = result[label][mode]
                pages_target, type_target = TARGETS["F5" if mode == "F5" else label]
                print(f"{width}×{height:<5} {label:>11} {mode:>6} "
                      f"{m['window'][0]:>5}×{m['window'][1]:<4} {m['views_share']:>6.1%} "
                      f"{m['pages']:>6.1%} "
                      f"{'≥' + format(pages_target, '.0%'):>8} {m['type']:>8.1f} "
                      f"{'≥' + format(type_target, '.0f'):>8}  "
                      f"{verdict(m['pages'], pages_target)}/{verdict(m['type'], type_target)}"
                      + (f"  laid out for a target: {', '.join(m['targets'])}" if m['targets'] else ""))
    print("views: the share of the screen the figure views cover (what a figure laid out for its "
          "view's shape fills); pages: what the figures' pages cover now.")


if __name__ == "__main__":
    main()
