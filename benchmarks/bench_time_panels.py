"""Playback redraw cost of the time and synchronization panels, per frame.

For every bundled pipeline, barrier and reduction scenario (each step as well), and every
playback frame, this measures the figure build (model result cached, as in the app) and the
Qt paint of that figure onto a screen-sized image, the two costs of one redraw. It prints the
median and worst frame against the 16 ms budget of a smooth 60 Hz playback. It never fails on
time: run it, read it.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_time_panels.py
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from pathlib import Path

PANELS = ("pipeline", "barrier", "reduction")
BUDGET_MS = 16.0
SCREEN_PX = (1400, 700)


def main() -> int:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure
    from gpuviz.export.raster import ensure_gui_app
    from gpuviz.figures.theme import SCREEN
    from gpuviz.registry import panel
    from gpuviz.scenario import compute_all, load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    ensure_gui_app()
    gc.freeze()  # as the app does once its window is complete (ui.app.start)
    image = QImage(*SCREEN_PX, QImage.Format.Format_RGB32)
    paths = sorted(p for p in Path(scenario_dir()).glob("*.json")
                   if p.name.split("-")[0] in PANELS)
    print(f"{'scenario':<34} {'step':>4} {'frames':>6}  {'build ms':>17}  {'paint ms':>17}  "
          f"{'redraw ms':>9}")
    print(f"{'':<34} {'':>4} {'':>6}  {'median':>8} {'worst':>8}  {'median':>8} {'worst':>8}  "
          f"{'worst':>9}")
    worst_overall = 0.0
    for path in paths:
        scenario = load_scenario(path)
        for step in range(-1, len(scenario.steps)):
            shown = scenario.at_step(step)
            for pid in shown.panels:
                if pid not in PANELS:
                    continue
                module = panel(pid).figure
                result = compute_all(shown, (pid,))[pid]
                frames = module.frame_count(result)
                builds, paints, redraws = [], [], []
                for n in range(frames):
                    t0 = time.perf_counter()
                    figure = module.build(result, frozenset({f"frame:{n}"}), SCREEN)
                    t1 = time.perf_counter()
                    image.fill(0xFFFFFFFF)
                    painter = QPainter(image)
                    paint_figure(painter, figure, QRectF(0, 0, *SCREEN_PX))
                    painter.end()
                    t2 = time.perf_counter()
                    builds.append((t1 - t0) * 1000)
                    paints.append((t2 - t1) * 1000)
                    redraws.append((t2 - t0) * 1000)
                worst_overall = max(worst_overall, max(redraws))
                label = "base" if step < 0 else str(step)
                print(f"{path.stem:<34} {label:>4} {frames:>6}  "
                      f"{statistics.median(builds):>8.2f} {max(builds):>8.2f}  "
                      f"{statistics.median(paints):>8.2f} {max(paints):>8.2f}  "
                      f"{max(redraws):>9.2f}")
    verdict = "within" if worst_overall < BUDGET_MS else "OVER"
    print(f"\nworst redraw {worst_overall:.2f} ms: {verdict} the {BUDGET_MS:.0f} ms frame budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
