"""The menu entries for building and learning: step authoring (Steps), the gallery (File) and
the panel help (Help). ``install(window)`` adds them to a main window's menus by id
(``ui/window_menus.py``), after the entries they follow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from gpuviz.ui.step_editor import StepAuthoring, StepListDialog
from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi


def _action(window: WindowApi, action_id: str, text: str, slot,
            shortcut: str | None = None) -> QAction:
    return window.menus.new(action_id, text, slot, shortcut)


def focused_panel(window: WindowApi) -> str | None:
    """The panel whose dock holds the keyboard focus, else the first visible one."""
    docks = window.docks
    widget = QApplication.focusWidget()
    while widget is not None:
        for pid, d in docks.items():
            if widget is d:
                return pid
        widget = widget.parentWidget()
    for pid, d in docks.items():
        if d.isVisible():
            return pid
    return None


def install(window: WindowApi) -> None:
    authoring = StepAuthoring(window.document, lambda: focused_panel(window), as_qt(window))
    window.step_authoring = authoring

    def step_list() -> None:
        dialog = window.step_list_dialog
        if dialog is None:
            dialog = window.step_list_dialog = StepListDialog(authoring, as_qt(window))
        dialog.refill()
        dialog.show()
        dialog.raise_()

    def delete_current() -> None:
        index = authoring.current_index()
        if index is not None:
            authoring._guard(as_qt(window), lambda: authoring.delete(index))

    def move_current(delta: int) -> None:
        index = authoring.current_index()
        if index is not None:
            authoring._guard(as_qt(window), lambda: authoring.move(index, index + delta))

    _action(window, "add-step", "&Add Step from Current State…",
            lambda: authoring.add_from_current(as_qt(window)), "Ctrl+Shift+A")
    _action(window, "edit-step", "&Edit Current Step…", lambda: authoring.edit_current(as_qt(window)))
    _action(window, "move-step-earlier", "Move Step &Earlier", lambda: move_current(-1),
            "Ctrl+Shift+Up")
    _action(window, "move-step-later", "Move Step &Later", lambda: move_current(1),
            "Ctrl+Shift+Down")
    _action(window, "delete-step", "&Delete Current Step", delete_current)
    _action(window, "step-list", "&Lecture Steps…", step_list)
    window.menus.add("steps", "-", "add-step", "edit-step", "move-step-earlier",
                     "move-step-later", "delete-step", "-", "step-list")
    _action(window, "gallery", "&Gallery…", lambda: show_gallery(window), "Ctrl+Shift+O")
    window.menus.add("file", "gallery", after="open")
    _action(window, "about-panel", "&About This Panel", lambda: show_about(window), "F1")
    window.menus.add("help", "about-panel")

def show_gallery(window: WindowApi) -> None:
    from gpuviz.ui.gallery import Gallery

    gallery = window.gallery
    if gallery is None:
        gallery = window.gallery = Gallery(as_qt(window))
        gallery.opened.connect(window.open_path)
    gallery.show()
    gallery.raise_()
    gallery.activateWindow()


def show_about(window: WindowApi, panel_id: str | None = None) -> None:
    from gpuviz.ui.about_panel import AboutPanelDialog

    dialog = window.about_dialog
    if dialog is None:
        dialog = window.about_dialog = AboutPanelDialog(as_qt(window))
    dialog.show_panel(panel_id or focused_panel(window) or "launch")
    dialog.show()
    dialog.raise_()
