"""Memory access panels (sectors, banks, swizzle): redraw after a parameter change — compute,
build and paint at dock size — including dragging the stride and the base offset through
1…32 as a lecturer drags the slider. Prints figures; asserts nothing about time."""

from __future__ import annotations

import gc
import os
import statistics
import time
from dataclasses import replace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF
from PySide6.QtGui import QGuiApplication, QImage, QPainter

from gpuviz.export.qt_painter import paint_figure, register_fonts
from gpuviz.figures import banks as banks_figure
from gpuviz.figures import sectors as sectors_figure
from gpuviz.figures import swizzle as swizzle_figure
from gpuviz.figures.theme import theme
from gpuviz.models import banks, sectors, swizzle
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()
FRAME_MS = 16.0


def redraw_ms(model, figure, params_list, image: QImage, selection=frozenset()):
    """Median and worst (compute, build, paint) in ms over a sequence of parameter changes."""
    t = theme("screen")
    rows = []
    for p in params_list:
        a = time.perf_counter()
        r = model.compute(p)
        b = time.perf_counter()
        fig = figure.build(r, selection, t)
        c = time.perf_counter()
        painter = QPainter(image)
        paint_figure(painter, fig, QRectF(0, 0, image.width(), image.height()))
        painter.end()
        d = time.perf_counter()
        rows.append(((b - a) * 1e3, (c - b) * 1e3, (d - c) * 1e3))
    med = tuple(statistics.median(x[i] for x in rows) for i in range(3))
    worst = max(sum(x) for x in rows)
    return med, worst


def report(label: str, med, worst) -> None:
    c, b, p = med
    print(f"{label}\n  compute {c:6.2f} ms   build {b:6.2f} ms   paint {p:6.2f} ms   "
          f"total {c + b + p:6.2f} ms   worst {worst:6.2f} ms (frame: {FRAME_MS:.0f} ms)")


def section(name: str, panel: str):
    return load_scenario(SCENARIOS / name).section(panel)


def main() -> None:
    app = QGuiApplication.instance() or QGuiApplication([])
    register_fonts()
    image = QImage(1100, 800, QImage.Format.Format_RGB32)

    base = section("sectors-aligned.json", "sectors")
    redraw_ms(sectors, sectors_figure, [base], image)  # warm fonts, pens and caches
    gc.freeze()  # as the app does once its window is complete (ui.app.start)
    drag = [replace(base, pattern=replace(base.pattern, stride=s)) for s in range(1, 33)]
    report("sectors: dragging the stride 1 → 32 (32 changes)",
           *redraw_ms(sectors, sectors_figure, drag, image, frozenset({"lane:3"})))
    drag = [replace(base, base_offset=4 * k) for k in range(33)]
    report("sectors: dragging the base offset 0 → 128 B (33 changes)",
           *redraw_ms(sectors, sectors_figure, drag, image))
    wide = [replace(base, element_bytes=1, pattern=replace(base.pattern, stride=s))
            for s in range(1, 33)]
    report("sectors: 1-byte elements, stride 1 → 32 (32 cells per sector)",
           *redraw_ms(sectors, sectors_figure, wide, image))

    col = section("banks-column32.json", "banks")
    redraw_ms(banks, banks_figure, [col], image)
    pads = [replace(col, pattern=replace(col.pattern, padding=k % 9)) for k in range(27)]
    report("banks: dragging the row padding 0 → 8, three times (27 changes)",
           *redraw_ms(banks, banks_figure, pads, image, frozenset({"bank:0"})))
    strides = [replace(col, access_bytes=w, pattern=replace(col.pattern, kind="stride", stride=s))
               for w in (4, 8, 16) for s in range(1, 11)]
    report("banks: stride 1 → 10 at 4, 8 and 16 bytes (30 changes)",
           *redraw_ms(banks, banks_figure, strides, image))

    sw = section("swizzle-column3.json", "swizzle")
    redraw_ms(swizzle, swizzle_figure, [sw], image)
    modes = [replace(sw, column=k % 8, swizzle=replace(sw.swizzle, mode=m))
             for k, m in enumerate(["128B", "64B", "32B", "none"] * 6)]
    report("swizzle: changing column and mode (24 changes)",
           *redraw_ms(swizzle, swizzle_figure, modes, image, frozenset({"chunk:5,3"})))
    del app


if __name__ == "__main__":
    main()
