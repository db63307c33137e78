"""Launch panel: redraw after a parameter change (compute + build + paint at dock size), and
`gpuviz export` of one SVG. Prints figures; asserts nothing about time."""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF
from PySide6.QtGui import QGuiApplication, QImage, QPainter

from gpuviz.export.qt_painter import paint_figure, register_fonts
from gpuviz.figures import launch as figure
from gpuviz.figures.theme import theme
from gpuviz.models.launch import LaunchParams, compute
from gpuviz.scenario import default_scenario_path

ROOT = Path(__file__).resolve().parents[1]


def redraw_ms(params_list: list[LaunchParams], image: QImage) -> tuple[float, float, float]:
    """Median compute, build and paint times in ms over a sequence of parameter changes."""
    t = theme("screen")
    times = []
    for p in params_list:
        a = time.perf_counter()
        r = compute(p)
        b = time.perf_counter()
        fig = figure.build(r, frozenset(), t)
        c = time.perf_counter()
        painter = QPainter(image)
        paint_figure(painter, fig, QRectF(0, 0, image.width(), image.height()))
        painter.end()
        d = time.perf_counter()
        times.append(((b - a) * 1e3, (c - b) * 1e3, (d - c) * 1e3))
    return tuple(statistics.median(x[i] for x in times) for i in range(3))  # type: ignore[return-value]


def main() -> None:
    app = QGuiApplication.instance() or QGuiApplication([])
    register_fonts()
    gc.freeze()  # as the app does once its window is complete (ui.app.start)
    image = QImage(1100, 800, QImage.Format.Format_RGB32)
    small = LaunchParams(n=130, block=(64,))
    redraw_ms([small], image)  # warm caches (fonts, pens)
    changes = [replace(small, selected_block=b % 3, selected_warp=b % 2, sm_count=1 + b % 4)
               for b in range(40)]
    c, b, p = redraw_ms(changes, image)
    print(f"launch redraw after a parameter change, N=130 (median of {len(changes)}):")
    print(f"  compute {c:6.2f} ms   build {b:6.2f} ms   paint {p:6.2f} ms   total {c + b + p:6.2f} ms (frame: 16 ms)")
    big = LaunchParams(n=65536 * 256, block=(256,))
    changes = [replace(big, selected_block=k * 997, selected_warp=k % 8) for k in range(15)]
    c, b, p = redraw_ms(changes, image)
    print("launch redraw, 65,536 blocks of 256 threads (median of 15):")
    print(f"  compute {c:6.2f} ms   build {b:6.2f} ms   paint {p:6.2f} ms   total {c + b + p:6.2f} ms (target: 50 ms)")
    del app

    with tempfile.TemporaryDirectory() as out:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gpuviz", "export", str(default_scenario_path()),
                            "--out", out], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
            runs.append(time.perf_counter() - start)
        svg = next(Path(out).glob("*.svg"))
        print(f"`gpuviz export` of one SVG (whole process, median of 5): {statistics.median(runs) * 1000:.0f} ms, "
              f"{svg.stat().st_size / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
