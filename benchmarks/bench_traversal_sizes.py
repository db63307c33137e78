"""The traversal model at the GEMM sizes people run: time and peak memory per size and order.

N × N × N with 128 × 128 output tiles and K in tiles of 32 (``k_tiles = N / 32``: the real K
depth), 132 tiles in flight (one per SM of an H200), the LRU of one L2 partition of an H200 in
8 KiB tiles, and the whole capacity sweep (every order); N = 4096, 8192, 16384 (up to 16.8 M
tile requests per order) × four orders. Each case runs in a fresh subprocess: what the
validator says of the section, the CPU seconds of ``compute`` (the model with its sweep), of
the figure, and the subprocess's peak resident memory. The model is held to under 2 s and
1 GB per case on a 2-core machine; the validator's limits (``MAX_TILES`` and ``MAX_K_TILES`` in
gpuviz/models/traversal.py) come from this table and the traversal rows of bench_limits.py.
It never fails on time: run it, read it.

    .venv/bin/python benchmarks/bench_traversal_sizes.py [N ...] [--no-figure]

A case is stopped after ``TIMEOUT_S`` seconds or past ``MEMORY_LIMIT_MB`` of address space, so a
model that cannot do a size reports that instead of taking the machine.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time

SIZES = (4096, 8192, 16384)
ORDERS = ("row-major", "column-major", "grouped", "hilbert")
TIMEOUT_S = 120
MEMORY_LIMIT_MB = 6000
BUDGET_S, BUDGET_MB = 2.0, 1000.0


def section(n: int, order: str) -> dict:
    return {"rows": n // 128, "cols": n // 128, "k_tiles": n // 32, "order": order,
            "group_m": 8, "in_flight": 132, "cache": "l2-partition", "arch": "h200",
            "tile_bytes": 8192, "sweep": True}


def _child(n: int, order: str, figure: bool) -> dict:
    limit = MEMORY_LIMIT_MB << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from gpuviz.models import traversal
    from gpuviz.scenario.decode import decode_dataclass

    problems: list = []
    params = decode_dataclass(traversal.TraversalParams, section(n, order), "traversal", problems)
    if problems:  # refused by a field's bound: compute it anyway, to see what it would cost
        refused = "; ".join(p.message for p in problems)
        params = traversal.TraversalParams(**section(n, order))
    else:
        refused = "; ".join(m for _, m in traversal.problems(params))
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.process_time()
    result = traversal.compute(params)
    t1 = time.process_time()
    out = {"refused": refused, "compute": t1 - t0, "misses": result.misses,
           "requests": result.accesses, "capacities": len(result.capacities),
           "import_mb": base}
    if figure:
        from gpuviz.export.svg import figure_to_svg
        from gpuviz.figures.theme import PRINT
        from gpuviz.figures.traversal import build

        t2 = time.process_time()
        svg = figure_to_svg(build(result, frozenset({"frame:3"}), PRINT))
        out["figure"] = time.process_time() - t2
        out["svg_kb"] = len(svg) / 1e3
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _run(n: int, order: str, figure: bool) -> dict:
    args = [sys.executable, __file__, "--child", str(n), order, "1" if figure else "0"]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT_S,
                              env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    except subprocess.TimeoutExpired:
        return {"error": f"stopped after {TIMEOUT_S} s"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": last[:90], "wall": time.perf_counter() - t0}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    figure = "--no-figure" not in argv
    sizes = [int(a) for a in argv if a.isdigit()] or list(SIZES)
    print(f"traversal model, 128 × 128 tiles, k_tiles = N / 32, 132 in flight, one H200 L2 "
          f"partition in 8 KiB tiles, full sweep of every order. CPU seconds; peak resident "
          f"MB of the case's process. Budget {BUDGET_S:g} s and {BUDGET_MB:g} MB. Load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print(f"{'N':>6} {'order':<13} {'requests':>11} {'validator':<9} {'model s':>7} "
          f"{'figure s':>8} {'peak MB':>7} {'misses':>11}")
    for n in sizes:
        for order in ORDERS:
            r = _run(n, order, figure)
            if "error" in r:
                print(f"{n:>6} {order:<13} {2 * (n // 128) ** 2 * (n // 32):>11,} "
                      f"{'':<9} failed: {r['error']}")
                continue
            verdict = "refuses" if r["refused"] else "accepts"
            over = "  OVER" if r["compute"] > BUDGET_S or r["peak_mb"] > BUDGET_MB else ""
            fig = f"{r['figure']:>8.2f}" if "figure" in r else f"{'':>8}"
            print(f"{n:>6} {order:<13} {r['requests']:>11,} {verdict:<9} {r['compute']:>7.2f} "
                  f"{fig} {r['peak_mb']:>7.0f} {r['misses']:>11,}{over}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1")))
    else:
        main(sys.argv[1:])
