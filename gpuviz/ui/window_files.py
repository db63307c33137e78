"""The main window's File menu: a new lecture, open, save, save as, export, recent files, and the
lecture's title and description."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuviz.scenario import ScenarioError, load_scenario
from gpuviz.scenario.problems import printable
from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi

MAX_RECENT = 8


def documents_dir() -> Path:
    """The user's documents folder (where Save As and Export start for a file that has no
    folder of the user's own yet)."""
    from PySide6.QtCore import QStandardPaths

    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(found) if found else Path.home()


def slug(title: str) -> str:
    """A file name from a title: "Bank conflicts, part 2" -> "bank-conflicts-part-2"."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]


def is_bundled(path: Path) -> bool:
    from gpuviz.scenario.bundled import scenario_dir

    try:
        return Path(path).resolve().parent == scenario_dir().resolve()
    except OSError:
        return False


def own_folder(path: Path | None) -> Path:
    """The folder a save or an export starts in: the file's, unless it is a bundled one."""
    return path.parent if path is not None and not is_bundled(path) else documents_dir()


class Files:
    def __init__(self, window: WindowApi):
        self.window = window

    @property
    def document(self):
        return self.window.document

    def new_lecture(self) -> bool:
        """A lecture from nothing: the scenario's panels kept, its sections at their defaults,
        no steps, an untitled title and no file yet."""
        from dataclasses import replace

        from gpuviz.scenario import Scenario

        if not self.maybe_save():
            return False
        current = self.document.scenario
        blank = Scenario(title="Untitled lecture", description="",
                         panels=current.panels or ("launch",))
        self.document.replace_scenario(replace(blank), None)
        return True

    def edit_title(self) -> bool:
        """Edit ▸ Lecture Title and Description… (undoable)."""
        from gpuviz.ui.title_dialog import TitleDialog

        doc = self.document
        dialog = TitleDialog(doc.scenario.title, doc.scenario.description, as_qt(self.window))
        if dialog.exec() != TitleDialog.DialogCode.Accepted:
            return False
        title, description = dialog.result_texts()
        doc.set_title(title, description)
        return True

    def show_error(self, title: str, err: ScenarioError) -> None:
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Warning, title, "\n".join(err.lines()[:8]),
                          QMessageBox.StandardButton.Ok, as_qt(self.window))
        box.setObjectName("scenario-error")
        if len(err.lines()) > 8:
            box.setDetailedText("\n".join(err.lines()))
        box.setInformativeText("The current scenario is unchanged.")
        box.exec()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current scenario (saved, discarded, or unchanged)."""
        if not self.document.is_modified():
            return True
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(
            as_qt(self.window), "Unsaved changes",
            f"“{self.document.scenario.title}” has changes that are not saved. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        start = str(own_folder(self.document.path))
        path, _ = QFileDialog.getOpenFileName(as_qt(self.window), "Open Scenario", start,
                                              "gpuviz scenarios (*.json);;All files (*)")
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Open a scenario file; a bad file is reported and the current scenario stays."""
        try:
            scenario = load_scenario(path)
        except ScenarioError as err:
            self.window.show_error(f"Cannot open {Path(path).name}", err)
            return False
        if not self.maybe_save():
            return False
        self.document.replace_scenario(scenario, Path(path))
        self.add_recent(Path(path))
        return True

    def save(self) -> bool:
        if self.document.path is None or is_bundled(self.document.path):
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as_start(self) -> Path:
        """Where Save As starts: the file itself when it is the user's, else a name of the
        user's own (from the title) in their documents folder, never the bundled folder."""
        path = self.document.path
        if path is not None and not is_bundled(path):
            return path
        stem = slug(self.document.scenario.title) or "lecture"
        if path is not None and stem == path.stem:
            stem += "-mine"
        return documents_dir() / f"{stem}.json"

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getSaveFileName(as_qt(self.window), "Save Scenario As",
                                              str(self.save_as_start()), "gpuviz scenarios (*.json)")
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except (OSError, ValueError) as e:  # ValueError: text that cannot be encoded
            why = getattr(e, "strerror", None) or str(e)
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(as_qt(self.window), "Cannot save", printable(f"{path}: {why}"))
            return False
        self.add_recent(path)
        self.window.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def export_dialog(self) -> None:
        from gpuviz.ui.export_dialog import ExportDialog, remembered_folder, run_export

        w = self.window
        visible = tuple(pid for pid, d in w.docks.items() if d.isVisible()) \
            or self.document.scenario.panels
        base = self.document.path
        folder = remembered_folder(w.settings) or own_folder(base)
        doc, k = self.document, self.document.step
        focus = doc.scenario.steps[k].focus if 0 <= k < len(doc.scenario.steps) else None
        first = focus if focus is not None and focus in visible else visible[0]
        dialog = ExportDialog(visible, first, w.theme.name, folder,
                              base.stem if base else "figure", w.settings, self.document, as_qt(w))
        accepted = dialog.exec() == ExportDialog.DialogCode.Accepted
        if accepted:
            choice = dialog.choices()
            dialog.remember()
        dialog.deleteLater()  # its preview and pending builds go with it
        if not accepted:
            return
        try:
            note = run_export(self.document, choice)
        except OSError as e:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(as_qt(w), "Cannot export", f"{choice.path}: {e.strerror or e}")
            return
        w.statusBar().showMessage(f"Exported {choice.path}{note}", 6000)

    def add_recent(self, path: Path) -> None:
        if is_bundled(path):
            return
        recent = [p for p in self.recent() if p != str(path)]
        recent.insert(0, str(path))
        self.window.settings.setValue("files/recent", recent[:MAX_RECENT])
        self.refresh_recent()

    def recent(self) -> list[str]:
        value: Any = self.window.settings.value("files/recent", [])  # a list, or one str
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value or []]

    def refresh_recent(self) -> None:
        w = self.window
        if not w.is_complete():
            return  # built with the menus
        w.recent_menu.clear()
        recent = self.recent()
        for p in recent:
            a = w.recent_menu.addAction(p)
            a.triggered.connect(lambda _=False, path=p: self.open_path(Path(path)))
        w.recent_menu.setEnabled(bool(recent))
