"""File ▸ Gallery: time from asking for the gallery to its first paint (placeholders, titles),
then until every thumbnail has arrived, with an empty thumbnail cache (cold), with the cache
folder filled by an earlier session (disk) and within one session (memory). Median of 3 runs
each, in this process after importing the application. Prints figures."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

app = QApplication([])

from gpuviz.export.qt_painter import register_fonts  # noqa: E402
from gpuviz.ui import gallery as module  # noqa: E402

register_fonts()


def once(cache: Path, clear_memory: bool) -> tuple[float, float, int]:
    if clear_memory:
        module._MEMORY.clear()
    t0 = time.perf_counter()
    g = module.Gallery(cache_dir=cache)
    g.show()
    app.processEvents()
    shown = time.perf_counter() - t0
    pending = g.pending
    g.wait_for_thumbnails()
    done = time.perf_counter() - t0
    g.close()
    g.deleteLater()
    app.processEvents()
    return shown * 1000, done * 1000, pending


def main() -> None:
    rows = {"cold (empty cache)": [], "disk cache": [], "memory (same session)": []}
    for _ in range(3):
        cache = Path(tempfile.mkdtemp(prefix="gpuviz-thumbs-"))
        rows["cold (empty cache)"].append(once(cache, True))
        rows["disk cache"].append(once(cache, True))
        rows["memory (same session)"].append(once(cache, False))
    print(f"{'case':24} {'first paint ms':>15} {'all thumbnails ms':>18} {'to paint':>9}")
    for name, runs in rows.items():
        print(f"{name:24} {statistics.median(r[0] for r in runs):15.0f} "
              f"{statistics.median(r[1] for r in runs):18.0f} {runs[0][2]:9d}")


if __name__ == "__main__":
    main()
