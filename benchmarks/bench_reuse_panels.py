"""Speed of the reuse panels (gemm, traversal). Prints figures; never fails on time.

1. The traversal cache experiment on a 256 × 256 tile grid (65,536 output tiles), 132 tiles in
   flight, one capacity, for each order (budget 0.5 s).
2. The sweep of 32 capacities × 4 orders on a 64 × 64 grid (budget 2 s; the app runs it off the
   GUI thread).
3. Figure build after a parameter change, for every bundled gemm and traversal scenario and
   step (model result cached, as in the app; budget 16 ms), plus the Qt paint of that figure.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_reuse_panels.py
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace

REPEATS = 5


def best_of(fn, repeats: int = REPEATS) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def cache_experiment() -> None:
    from gpuviz.models.traversal import SWEEP_ORDERS, TraversalParams, compute

    print("traversal cache experiment, 256 × 256 tiles, 132 in flight, capacity 264 tiles "
          "(budget 500 ms)")
    for order in SWEEP_ORDERS:
        p = TraversalParams(rows=256, cols=256, in_flight=132, capacity=264, order=order,
                            sweep=False)
        seconds, r = best_of(lambda p=p: compute(p), 3)
        print(f"  {order:13s} {seconds * 1000:7.1f} ms   {r.accesses} requests, "
              f"{r.misses} loads, {r.steps} steps")


def sweep_64() -> None:
    from gpuviz.models.traversal import TraversalParams, sweep

    p = TraversalParams(rows=64, cols=64, capacity=None,
                        sweep_capacities=tuple(range(4, 129, 4)))
    seconds, result = best_of(lambda: sweep(p), 3)
    print(f"traversal sweep, 64 × 64 tiles, {len(result.capacities)} capacities × "
          f"{len(result.misses_by_order)} orders: {seconds * 1000:.1f} ms (budget 2000 ms)")


def figure_builds() -> None:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure
    from gpuviz.export.raster import ensure_gui_app
    from gpuviz.figures.theme import SCREEN
    from gpuviz.registry import panel
    from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario

    ensure_gui_app()
    image = QImage(1400, 800, QImage.Format.Format_ARGB32_Premultiplied)
    def paint(figure) -> None:
        painter = QPainter(image)
        paint_figure(painter, figure, QRectF(0, 0, 1400, 800))
        painter.end()

    print("figure build and Qt paint after a parameter change (budget 16 ms for the build)")
    for path in bundled_scenarios():
        if not path.name.startswith(("gemm-", "traversal-")):
            continue
        scenario = load_scenario(path)
        pid = scenario.panels[0]
        builds, paints = [], []
        for k in range(-1, len(scenario.steps)):
            shown = scenario.at_step(k)
            result = compute_all(shown, (pid,))[pid]
            selection = scenario.step_selection(k) if k >= 0 else frozenset()
            seconds, figure = best_of(
                lambda r=result, s=selection, p=pid: panel(p).figure.build(r, s, SCREEN))
            builds.append(seconds * 1000)
            paints.append(1000 * best_of(lambda f=figure: paint(f), 3)[0])
        print(f"  {path.name:28s} build median {statistics.median(builds):5.1f} ms, "
              f"worst {max(builds):5.1f} ms; paint median {statistics.median(paints):5.1f} ms, "
              f"worst {max(paints):5.1f} ms")
    # a large grid, drawn as an image past a readable density
    from gpuviz.models.traversal import TraversalParams, compute

    big = compute(TraversalParams(rows=256, cols=256, in_flight=132, sweep=False))
    seconds, _ = best_of(lambda: panel("traversal").figure.build(
        big, frozenset({"frame:100"}), SCREEN))
    print(f"  256 × 256 grid (image)       build {seconds * 1000:5.1f} ms")
    p64 = TraversalParams(rows=64, cols=64, compare_order="hilbert")
    r64 = compute(p64)
    seconds, _ = best_of(lambda: panel("traversal").figure.build(
        r64, frozenset({"frame:2000"}), SCREEN))
    print(f"  64 × 64 grid, two orders     build {seconds * 1000:5.1f} ms")
    r64b = compute(replace(p64, capacity=32))
    seconds, _ = best_of(lambda: panel("traversal").figure.build(r64b, frozenset(), SCREEN))
    print(f"  64 × 64 after a capacity edit build {seconds * 1000:5.1f} ms")


def main() -> int:
    cache_experiment()
    sweep_64()
    figure_builds()
    return 0


if __name__ == "__main__":
    sys.exit(main())
