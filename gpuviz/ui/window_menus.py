"""The main window's menus and actions, each named by an id.

The menu bar's titles come first (the first frame needs their height); the menus' items and the
shortcuts follow once the first figure is painted. Any module that adds an entry names the menu
(``"file"``) and the action it follows (``after="export"``), never a position."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi

MENU_TITLES = {"file": "&File", "edit": "&Edit", "view": "&View", "steps": "&Steps",
               "playback": "&Playback", "help": "&Help"}


class Menus:
    """The menu bar's menus by id and every window action by id."""

    def __init__(self, window: WindowApi):
        self.window = window
        bar = window.menuBar()
        self.menus: dict[str, QMenu] = {mid: bar.addMenu(title) for mid, title in MENU_TITLES.items()}
        self.actions: dict[str, QAction] = {}

    def menu(self, menu_id: str) -> QMenu:
        return self.menus[menu_id]

    def action(self, action_id: str) -> QAction:
        return self.actions[action_id]

    def new(self, action_id: str, text: str, slot: Callable[..., object], shortcut=None,
            checkable: bool = False, with_checked: bool = False) -> QAction:
        """A window action (its shortcut works wherever the window has the focus);
        ``with_checked``: the slot is given the action's checked state."""
        a = QAction(self.window)  # QAction(text, parent) would make QIcon's enums: an overload
        a.setText(text)
        a.setObjectName(f"action-{action_id}")
        if shortcut is not None:
            from PySide6.QtGui import QKeySequence

            a.setShortcuts(shortcut if isinstance(shortcut, list) else [QKeySequence(shortcut)])
        a.setCheckable(checkable)
        a.triggered.connect(lambda checked=False: slot(checked) if with_checked else slot())
        self.window.addAction(a)
        return self.register(action_id, a)

    def register(self, action_id: str, action: QAction) -> QAction:
        if action_id in self.actions:
            raise ValueError(f"action id {action_id!r} is taken")
        self.actions[action_id] = action
        return action

    def add(self, menu_id: str, *action_ids: str, after: str | None = None) -> None:
        """Add actions (by id; ``"-"`` a separator) to a menu, at its end or after ``after``."""
        menu = self.menus[menu_id]
        before = None
        if after is not None:
            items = menu.actions()
            i = items.index(self.actions[after])
            before = items[i + 1] if i + 1 < len(items) else None
        for aid in action_ids:
            if aid == "-":
                sep = QAction(menu)
                sep.setSeparator(True)
                menu.insertAction(before, sep)  # type: ignore[arg-type]
            else:
                menu.insertAction(before, self.actions[aid])  # type: ignore[arg-type]

    def submenu(self, menu_id: str, sub_id: str, title: str) -> QMenu:
        sub = self.menus[menu_id].addMenu(title)
        self.menus[sub_id] = sub
        return sub


def build_first_actions(w: WindowApi) -> None:
    """The actions the first frame's widgets hold: the step bar's buttons, the controls' fold."""
    m = w.menus
    w.act_next = m.new("next-step", "&Next Step", w.next_step)
    w.act_prev = m.new("previous-step", "&Previous Step", w.previous_step)
    w.act_controls = m.new("controls", "Show &Controls", w.set_controls_visible, None, True,
                           with_checked=True)
    w.act_controls.setChecked(True)


def build_actions(w: WindowApi) -> None:
    from PySide6.QtGui import QKeySequence

    m = w.menus
    w.act_next.setShortcuts([QKeySequence(Qt.Key.Key_PageDown), QKeySequence("Ctrl+Right")])
    w.act_prev.setShortcuts([QKeySequence(Qt.Key.Key_PageUp), QKeySequence("Ctrl+Left")])
    w.act_controls.setShortcut(QKeySequence("Ctrl+Shift+C"))
    S = QKeySequence.StandardKey
    files = w.files
    m.new("new-lecture", "&New Lecture", files.new_lecture, S.New)
    w.act_open = m.new("open", "&Open…", files.open_dialog, S.Open)
    w.act_save = m.new("save", "&Save", files.save, S.Save)
    w.act_save_as = m.new("save-as", "Save &As…", files.save_as, S.SaveAs)
    w.act_export = m.new("export", "&Export Figure…", files.export_dialog, "Ctrl+E")
    w.act_quit = m.new("quit", "&Quit", w.close, S.Quit)
    w.act_undo = m.register("undo", w.document.undo_stack.createUndoAction(w, "&Undo"))
    w.act_undo.setShortcuts(QKeySequence.keyBindings(S.Undo))
    w.act_redo = m.register("redo", w.document.undo_stack.createRedoAction(w, "&Redo"))
    redo = QKeySequence.keyBindings(S.Redo)
    w.act_redo.setShortcuts(redo if QKeySequence("Ctrl+Shift+Z") in redo
                            else [*redo, QKeySequence("Ctrl+Shift+Z")])
    w.addAction(w.act_undo)
    w.addAction(w.act_redo)
    m.new("edit-title", "Lecture &Title and Description…", files.edit_title)
    w.act_overview = m.new("overview", "&Overview (before the steps)",
                           lambda: w.document.go_to_step(-1), "Ctrl+Home")
    m.new("reset-rehearsal", "&Reset Rehearsal (veil every question again)",
          w.document.reset_rehearsal)
    w.act_play = m.new("play", "&Play / Pause", lambda: w.clock.toggle(),
                       QKeySequence(Qt.Key.Key_Space))
    w.act_frame_next = m.new("frame-next", "Step &Forward", lambda: w.clock.step_forward(),
                             QKeySequence(Qt.Key.Key_Right))
    w.act_frame_prev = m.new("frame-back", "Step &Back", lambda: w.clock.step_back(),
                             QKeySequence(Qt.Key.Key_Left))
    # the platform's full-screen key has none on X11 without a desktop environment: F11, as
    # the README says, is bound everywhere
    full = [k for k in QKeySequence.keyBindings(S.FullScreen) if k != QKeySequence("F11")]
    w.act_full = m.new("full-screen", "&Full Screen", w.toggle_full_screen,
                       [QKeySequence("F11"), *full], True)
    w.act_reset = m.new("reset-layout", "&Reset Layout", w.reset_layout)
    p = w.presentation
    w.act_present = m.new("present", "&Presentation Mode", p.toggle, "F5", True)
    w.act_leave = m.new("leave-presentation", "Leave Presentation", p.leave,
                        QKeySequence(Qt.Key.Key_Escape))
    w.act_leave.setEnabled(False)
    w.act_next_panel = m.new("next-panel", "Next &Panel", p.next_panel, "Ctrl+Tab")
    from gpuviz.ui import window_help

    window_help.build_actions(w)


def build_menus(w: WindowApi) -> None:
    from PySide6.QtGui import QActionGroup

    from gpuviz.registry import PANELS
    from gpuviz.scenario import bundled_scenarios

    m = w.menus
    m.add("file", "new-lecture", "open")
    w.recent_menu = m.submenu("file", "recent", "Open &Recent")
    w.bundled_menu = m.submenu("file", "bundled", "Open &Bundled Scenario")
    for path in bundled_scenarios():
        a = w.bundled_menu.addAction(path.stem)
        a.triggered.connect(lambda _=False, p=path: w.open_path(p))
    m.add("file", "-", "save", "save-as", "export", "-", "quit")
    w.files.refresh_recent()
    m.add("edit", "undo", "redo", "-", "edit-title")
    w.view_menu = m.menu("view")
    w.panels_menu = m.submenu("view", "panels", "&Panels")
    for p in PANELS:
        a = QAction(p.title, w)
        a.setCheckable(True)
        a.toggled.connect(lambda on, pid=p.id: w.choose_panel(pid, on))
        w.panels_menu.addAction(a)
        w.panel_actions[p.id] = a
        w.sync_panel_action(p.id)
    theme_menu = m.submenu("view", "theme", "&Theme")
    group = QActionGroup(w)
    from gpuviz.figures.theme import THEMES

    for name in THEMES:
        a = QAction(name.capitalize(), w, checkable=True)
        a.setChecked(name == w.theme.name)
        a.triggered.connect(lambda _=False, n=name: w.set_theme(n))
        group.addAction(a)
        theme_menu.addAction(a)
    w.theme_actions = {a.text().lower(): a for a in group.actions()}
    m.add("view", "-", "controls", "full-screen", "present", "next-panel", "reset-layout")
    m.add("steps", "previous-step", "next-step", "overview", "-", "reset-rehearsal")
    m.add("playback", "play", "frame-back", "frame-next")
    from gpuviz.ui import window_help
    from gpuviz.ui.lecture_menus import install as install_lecture_menus

    install_lecture_menus(w)
    window_help.build_menu(w)
