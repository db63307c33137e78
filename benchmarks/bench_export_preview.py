"""The Export dialog's preview as a user meets it: for every bundled scenario, the dialog over
its document, and a change of theme, of size and of the question (veiled) made one after
another ("–": a scenario without a question). Prints, per scenario, the GUI thread's time to
take each change (what the dialog costs a frame: the preview is built and painted on its own
thread) and the time from the change to the new thumbnail on screen (including the dialog's
60 ms settle, which makes a burst of changes one build). Asserts nothing about time.

    python benchmarks/bench_export_preview.py [SCENARIO-NAME …]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

FRAME_MS = 16.0


def main(names: list[str]) -> int:
    app = QApplication.instance() or QApplication([])
    from gpuviz.export.qt_painter import register_fonts
    from gpuviz.scenario.bundled import scenario_dir

    register_fonts()
    paths = sorted(scenario_dir().glob("*.json"))
    if names:
        paths = [p for p in paths if p.stem in names or p.name in names]
    gui_ms: list[float] = []
    shown_ms: list[float] = []
    print(f"{'scenario':34} {'GUI thread, worst ms':>20} {'change to thumbnail, ms':>26}")
    for path in paths:
        gui, after = one_dialog(app, path)
        gui_ms += gui
        shown_ms += after
        cells = [f"{t:6.0f}" for t in after] + ["     –"] * (3 - len(after))
        print(f"{path.stem:34} {max(gui):20.1f} {' '.join(cells):>26}")
    if gui_ms:
        print(f"\nGUI thread per change: median {statistics.median(gui_ms):.1f} ms, worst "
              f"{max(gui_ms):.1f} ms (a frame: {FRAME_MS:.0f} ms); change to thumbnail: median "
              f"{statistics.median(shown_ms):.0f} ms, worst {max(shown_ms):.0f} ms")
    return 0


def one_dialog(app, path: Path) -> tuple[list[float], list[float]]:
    """(GUI-thread ms, change-to-thumbnail ms) of each change in the dialog over ``path``."""
    from gpuviz.scenario import load_scenario
    from gpuviz.ui.document import Document
    from gpuviz.ui.export_dialog import ExportDialog

    doc = Document(load_scenario(path), path)
    asking = [k for k, s in enumerate(doc.scenario.steps) if s.predict]
    if asking:
        doc.go_to_step(asking[0])
    settings = QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat)
    dialog = ExportDialog(doc.scenario.panels, doc.scenario.panels[0], "screen",
                          Path(tempfile.gettempdir()), path.stem, settings, doc)
    dialog.show()

    def shown() -> float:
        start = time.perf_counter()
        while not dialog.preview.is_current():
            app.processEvents()
            time.sleep(0.001)
        return (time.perf_counter() - start) * 1000

    shown()
    changes = [lambda: dialog.theme_box.setCurrentText("dark"),
               lambda: dialog.size_box.setCurrentIndex(dialog.size_box.findData("double"))]
    if asking:  # veiled while the hall has it veiled: revealed
        changes.append(lambda: dialog.question_box.setCurrentIndex(
            dialog.question_box.findData("revealed")))
    gui, after = [], []
    for change in changes:
        start = time.perf_counter()
        change()
        gui.append((time.perf_counter() - start) * 1000)
        after.append(shown() + gui[-1])
    dialog.close()
    dialog.deleteLater()
    app.processEvents()
    return gui, after


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
