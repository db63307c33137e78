"""File ▸ Export Lecture…: the lecture shown in the window as one web page, a printed handout
or a slide deck, written by the same functions as ``gpuviz export --format html|pdf|pptx``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi

# the file dialog's filters, each with the format it writes
FILTERS = (("Web page, one self-contained file (*.html)", "html"),
           ("Printed handout (*.pdf)", "pdf"),
           ("Slide deck (*.pptx)", "pptx"))


def install(window: WindowApi) -> None:
    window.menus.new("export-lecture", "Export &Lecture…", lambda: export_lecture_dialog(window))
    window.menus.add("file", "export-lecture", after="export")


def write_lecture(window: WindowApi, path: Path, fmt: str) -> Path:
    """Write the window's lecture (as it is now, edits included) to ``path`` as ``fmt``."""
    from gpuviz.atomic import write_atomic
    from gpuviz.export.lecture_file import lecture_bytes

    deck = "dark" if window.theme.name == "dark" else "screen"
    theme_name = {"pdf": "print", "pptx": deck}.get(fmt, "screen")
    data = lecture_bytes(window.document.scenario, fmt, theme_name=theme_name)
    path = path.with_suffix(f".{fmt}") if path.suffix.lower() != f".{fmt}" else path
    write_atomic(path, data)
    return path


def export_lecture_dialog(window: WindowApi) -> Path | None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

    from gpuviz.export.lecture import LectureTooLarge
    from gpuviz.ui.window_files import own_folder, slug

    doc = window.document
    start = own_folder(doc.path) / (slug(doc.scenario.title) or "lecture")
    name, chosen = QFileDialog.getSaveFileName(
        as_qt(window), "Export Lecture", str(start.with_suffix(".html")),
        ";;".join(f for f, _ in FILTERS))
    if not name:
        return None
    fmt = dict(FILTERS).get(chosen) or Path(name).suffix.lower().lstrip(".")
    if fmt not in ("html", "pdf", "pptx"):
        fmt = "html"
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        path = write_lecture(window, Path(name), fmt)
    except (LectureTooLarge, OSError) as e:
        QApplication.restoreOverrideCursor()
        why = getattr(e, "strerror", None) or str(e)
        QMessageBox.warning(as_qt(window), "Cannot export the lecture", f"{name}: {why}")
        return None
    QApplication.restoreOverrideCursor()
    window.statusBar().showMessage(f"Exported the lecture to {path}", 6000)
    return path
