"""The menu entries for building and learning: step authoring (Steps), the gallery (File) and
the panel help (Help). ``install(window)`` adds them to a main window's menu bar, finding the
menus by name (or adding them), so the window's own menu construction stays in one place."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu

from gpuviz.ui.step_editor import StepAuthoring, StepListDialog


def _menu(window: QMainWindow, name: str) -> QMenu:
    """The menu bar's menu called ``name`` (ignoring the & of its shortcut), added if missing."""
    for action in window.menuBar().actions():
        menu = action.menu()
        if menu is not None and action.text().replace("&", "") == name:
            return menu
    return window.menuBar().addMenu(f"&{name}")


def _action(window: QMainWindow, text: str, slot, shortcut: str | None = None) -> QAction:
    a = QAction(text, window)
    if shortcut:
        a.setShortcut(QKeySequence(shortcut))
    a.triggered.connect(lambda _checked=False: slot())
    window.addAction(a)
    return a


def focused_panel(window: QMainWindow) -> str | None:
    """The panel whose dock holds the keyboard focus, else the first visible one."""
    docks = getattr(window, "docks", {})
    w = QApplication.focusWidget()
    while w is not None:
        for pid, d in docks.items():
            if w is d:
                return pid
        w = w.parentWidget()
    for pid, d in docks.items():
        if d.isVisible():
            return pid
    return None


def install(window: QMainWindow) -> None:
    authoring = StepAuthoring(window.document, lambda: focused_panel(window), window)
    window.step_authoring = authoring

    def step_list() -> None:
        dialog = getattr(window, "step_list_dialog", None)
        if dialog is None:
            dialog = window.step_list_dialog = StepListDialog(authoring, window)
        dialog.refill()
        dialog.show()
        dialog.raise_()

    def delete_current() -> None:
        index = authoring.current_index()
        if index is not None:
            authoring._guard(window, lambda: authoring.delete(index))

    def move_current(delta: int) -> None:
        index = authoring.current_index()
        if index is not None:
            authoring._guard(window, lambda: authoring.move(index, index + delta))

    steps = _menu(window, "Steps")
    steps.addSeparator()
    window.act_add_step = _action(window, "&Add Step from Current State…",
                                  lambda: authoring.add_from_current(window), "Ctrl+Shift+A")
    steps.addAction(window.act_add_step)
    steps.addAction(_action(window, "&Edit Current Step…", lambda: authoring.edit_current(window)))
    steps.addAction(_action(window, "Move Step &Earlier", lambda: move_current(-1), "Ctrl+Shift+Up"))
    steps.addAction(_action(window, "Move Step &Later", lambda: move_current(1), "Ctrl+Shift+Down"))
    steps.addAction(_action(window, "&Delete Current Step", delete_current))
    steps.addSeparator()
    steps.addAction(_action(window, "&Lecture Steps…", step_list))

    file = _menu(window, "File")
    window.act_gallery = _action(window, "&Gallery…", lambda: show_gallery(window), "Ctrl+Shift+O")
    actions = file.actions()
    file.insertAction(actions[1] if len(actions) > 1 else None, window.act_gallery)

    help_menu = _menu(window, "Help")
    window.act_about_panel = _action(window, "&About This Panel", lambda: show_about(window), "F1")
    help_menu.addAction(window.act_about_panel)


def show_gallery(window: QMainWindow) -> None:
    from gpuviz.ui.gallery import Gallery

    gallery = getattr(window, "gallery", None)
    if gallery is None:
        gallery = window.gallery = Gallery(window)
        gallery.opened.connect(window.open_path)
    gallery.show()
    gallery.raise_()
    gallery.activateWindow()


def show_about(window: QMainWindow, panel_id: str | None = None) -> None:
    from gpuviz.ui.about_panel import AboutPanelDialog

    dialog = getattr(window, "about_dialog", None)
    if dialog is None:
        dialog = window.about_dialog = AboutPanelDialog(window)
    dialog.show_panel(panel_id or focused_panel(window) or "launch")
    dialog.show()
    dialog.raise_()
