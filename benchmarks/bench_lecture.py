"""Cost of a whole lecture in one file: the web page, the handout and the deck of bundled
lectures and of the costliest accepted ones (250 steps over a large divergence graph or the
largest explicit traversal), in a fresh subprocess each: wall time, peak resident memory, the
file's size, and the exit status (2: refused by the figure or work budget of
``gpuviz/export/lecture.py``, with nothing written). It never fails on time: run it, read it.

    .venv/bin/python benchmarks/bench_lecture.py
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "hostile"))

BUNDLED = ("occupancy-register-cliff", "gemm-walkthrough", "banks-swizzled-columns",
           "traversal-h200-real-sizes", "mma-fragments")
FORMATS = (("html", []), ("pdf", ["--all-steps", "--theme", "print"]), ("pptx", []))


def run(path: Path, fmt: str, extra: list[str]) -> tuple[float, float, int, int]:
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "gpuviz", "export", str(path), "--format",
                               fmt, *extra, "--out", out], capture_output=True, text=True)
        wall = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        size = sum(p.stat().st_size for p in Path(out).iterdir())
    return wall, max(peak, before) / 1024, size, proc.returncode


def main() -> None:
    import hostile_corpus

    with tempfile.TemporaryDirectory() as tmp:
        cases = [(name, ROOT / "scenarios" / f"{name}.json") for name in BUNDLED]
        for case in hostile_corpus.steps()[:2]:
            path = Path(tmp) / f"{case.name}.json"
            path.write_bytes(case.content or b"")
            cases.append((case.name, path))
        print(f"{'lecture':48} {'format':6} {'wall s':>7} {'peak MB':>8} {'file KB':>8}  exit")
        for name, path in cases:
            for fmt, extra in FORMATS:
                wall, mb, size, rc = run(path, fmt, extra)
                print(f"{name:48} {fmt:6} {wall:7.1f} {mb:8.0f} {size / 1024:8.0f}  {rc}")


if __name__ == "__main__":
    main()
