"""The main window's menus and actions, each named by an id.

The menu bar's titles come first (the first frame needs their height); the menus' items and the
shortcuts follow once the first figure is painted. Any module that adds an entry names the menu
(``"file"``) and the action it follows (``after="export"``), never a position."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from gpuviz.ui.window_api import as_qt

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
        a = QAction(as_qt(self.window))  # QAction(text, parent) would make QIcon's enums: an overload
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


# a key: a key sequence's text ("Ctrl+E"), a Qt key, or a function giving the sequences
# (a standard key's platform bindings); a tuple of those in order
Keys = Any


@dataclass(frozen=True)
class ActionSpec:
    """One window action, declared once: its id (``action-<id>`` as object name), title, keys
    (``Keys``), the menu it sits in (None: none, or placed by another module), a separator
    before it, and the callback on the window (``slot(window)`` gives the callable; ``make``
    instead builds the action itself, as the undo stack does; ``submenu``: a submenu, filled
    by ``build_menus``). ``first``: made with the first frame's widgets (the step bar's
    buttons, the controls' fold), its keys bound with the rest."""

    id: str
    title: str
    slot: Callable[[WindowApi], Callable[..., object]] | None = None
    keys: Keys = None
    menu: str | None = None
    separated: bool = False
    checkable: bool = False
    checked: bool = False
    with_checked: bool = False
    enabled: bool = True
    first: bool = False
    make: Callable[[WindowApi], QAction] | None = None
    submenu: bool = False


def _redo_keys() -> list:
    from PySide6.QtGui import QKeySequence

    redo = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    return redo if QKeySequence("Ctrl+Shift+Z") in redo else [*redo, QKeySequence("Ctrl+Shift+Z")]


def _full_screen_keys() -> list:
    # the platform's full-screen key has none on X11 without a desktop environment: F11, as
    # the README says, is bound everywhere
    from PySide6.QtGui import QKeySequence

    full = QKeySequence.keyBindings(QKeySequence.StandardKey.FullScreen)
    return [QKeySequence("F11"), *(k for k in full if k != QKeySequence("F11"))]


def key_sequences(keys: Keys) -> list:
    """The key sequences ``keys`` (an ``ActionSpec.keys``) names, in order."""
    from PySide6.QtGui import QKeySequence

    if keys is None:
        return []
    if isinstance(keys, tuple):
        return [k for part in keys for k in key_sequences(part)]
    if callable(keys) and not isinstance(keys, Qt.Key):
        return list(keys())
    return [QKeySequence(keys)]


def _std(name: str, every: bool = False) -> Callable[[], list]:
    """A standard key's sequence on this platform (``every``: all its bindings), looked up
    when the keys are bound."""
    def keys() -> list:
        from PySide6.QtGui import QKeySequence

        key = getattr(QKeySequence.StandardKey, name)
        return list(QKeySequence.keyBindings(key)) if every else [QKeySequence(key)]

    return keys


# The window's actions, in their menus' order (a submenu: filled by ``build_menus``). Other
# modules add theirs by id (``Menus.new``, ``Menus.add(..., after=)``): the lecture's
# authoring, the help pages, the measurements dock, the lecture export.
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("new-lecture", "&New Lecture", lambda w: w.files.new_lecture, _std("New"),
               "file"),
    ActionSpec("open", "&Open…", lambda w: w.files.open_dialog, _std("Open"), "file"),
    ActionSpec("recent", "Open &Recent", menu="file", submenu=True),
    ActionSpec("bundled", "Open &Bundled Scenario", menu="file", submenu=True),
    ActionSpec("save", "&Save", lambda w: w.files.save, _std("Save"), "file", separated=True),
    ActionSpec("save-as", "Save &As…", lambda w: w.files.save_as, _std("SaveAs"), "file"),
    ActionSpec("export", "&Export Figure…", lambda w: w.files.export_dialog, "Ctrl+E", "file"),
    ActionSpec("quit", "&Quit", lambda w: w.close, _std("Quit"), "file", separated=True),
    ActionSpec("undo", "&Undo", keys=_std("Undo", every=True), menu="edit",
               make=lambda w: w.document.undo_stack.createUndoAction(as_qt(w), "&Undo")),
    ActionSpec("redo", "&Redo", keys=_redo_keys, menu="edit",
               make=lambda w: w.document.undo_stack.createRedoAction(as_qt(w), "&Redo")),
    ActionSpec("edit-title", "Lecture &Title and Description…", lambda w: w.files.edit_title,
               menu="edit", separated=True),
    ActionSpec("panels", "&Panels", menu="view", submenu=True),
    ActionSpec("theme", "&Theme", menu="view", submenu=True),
    ActionSpec("controls", "Show &Controls", lambda w: w.set_controls_visible, "Ctrl+Shift+C",
               "view", separated=True, checkable=True, checked=True, with_checked=True,
               first=True),
    ActionSpec("full-screen", "&Full Screen", lambda w: w.toggle_full_screen,
               _full_screen_keys, "view", checkable=True),
    ActionSpec("present", "&Presentation Mode", lambda w: w.presentation.toggle, "F5", "view",
               checkable=True),
    ActionSpec("next-panel", "Next &Panel", lambda w: w.presentation.next_panel, "Ctrl+Tab",
               "view"),
    ActionSpec("reset-layout", "&Reset Layout", lambda w: w.reset_layout, menu="view"),
    ActionSpec("leave-presentation", "Leave Presentation", lambda w: w.presentation.leave,
               Qt.Key.Key_Escape, enabled=False),
    ActionSpec("previous-step", "&Previous Step", lambda w: w.previous_step,
               (Qt.Key.Key_PageUp, "Ctrl+Left"), "steps", first=True),
    ActionSpec("next-step", "&Next Step", lambda w: w.next_step,
               (Qt.Key.Key_PageDown, "Ctrl+Right"), "steps", first=True),
    ActionSpec("overview", "&Overview (before the steps)",
               lambda w: lambda: w.document.go_to_step(-1), "Ctrl+Home", "steps"),
    ActionSpec("reset-rehearsal", "&Reset Rehearsal (veil every question again)",
               lambda w: w.document.reset_rehearsal, menu="steps", separated=True),
    ActionSpec("play", "&Play / Pause", lambda w: lambda: w.clock.toggle(), Qt.Key.Key_Space,
               "playback"),
    ActionSpec("frame-back", "Step &Back", lambda w: lambda: w.clock.step_back(),
               Qt.Key.Key_Left, "playback"),
    ActionSpec("frame-next", "Step &Forward", lambda w: lambda: w.clock.step_forward(),
               Qt.Key.Key_Right, "playback"),
)


def spec(action_id: str) -> ActionSpec:
    return next(a for a in ACTIONS if a.id == action_id)


def _make(w: WindowApi, a: ActionSpec) -> QAction:
    if a.make is not None:
        action = w.menus.register(a.id, a.make(w))
        w.addAction(action)
    else:
        assert a.slot is not None
        action = w.menus.new(a.id, a.title, a.slot(w), None, a.checkable, a.with_checked)
    if a.checked:
        action.setChecked(True)
    if not a.enabled:  # the undo stack's actions keep their own state
        action.setEnabled(False)
    return action


def build_first_actions(w: WindowApi) -> None:
    """The actions the first frame's widgets hold: the step bar's buttons, the controls' fold
    (their keys are bound with the rest, ``build_actions``)."""
    for a in ACTIONS:
        if a.first and not a.submenu:
            _make(w, a)


def build_actions(w: WindowApi) -> None:
    """Every other action of the table, and every action's keys."""
    for a in ACTIONS:
        if a.submenu:
            continue
        action = w.menus.action(a.id) if a.first else _make(w, a)
        keys = key_sequences(a.keys)
        if keys:
            action.setShortcuts(keys)
    from gpuviz.ui import window_help

    window_help.build_actions(w)


def build_menus(w: WindowApi) -> None:
    from PySide6.QtGui import QActionGroup

    from gpuviz.registry import PANELS
    from gpuviz.scenario import bundled_scenarios

    m = w.menus
    for spec in ACTIONS:  # the table's order is the menus'
        if spec.menu is None:
            continue
        if spec.separated:
            m.add(spec.menu, "-")
        if spec.submenu:
            m.submenu(spec.menu, spec.id, spec.title)
        else:
            m.add(spec.menu, spec.id)
    w.recent_menu, w.bundled_menu = m.menu("recent"), m.menu("bundled")
    for path in bundled_scenarios():
        a = w.bundled_menu.addAction(path.stem)
        a.triggered.connect(lambda _=False, p=path: w.open_path(p))
    w.files.refresh_recent()
    w.view_menu = m.menu("view")
    w.panels_menu = m.menu("panels")
    for p in PANELS:
        a = QAction(p.title, as_qt(w))
        a.setCheckable(True)
        a.toggled.connect(lambda on, pid=p.id: w.choose_panel(pid, on))
        w.panels_menu.addAction(a)
        w.panel_actions[p.id] = a
        w.sync_panel_action(p.id)
    theme_menu = m.menu("theme")
    group = QActionGroup(as_qt(w))
    from gpuviz.figures.theme import THEMES

    for name in THEMES:
        a = QAction(name.capitalize(), as_qt(w), checkable=True)
        a.setChecked(name == w.theme.name)
        a.triggered.connect(lambda _=False, n=name: w.set_theme(n))
        group.addAction(a)
        theme_menu.addAction(a)
    w.theme_actions = {a.text().lower(): a for a in group.actions()}
    from gpuviz.ui import window_help
    from gpuviz.ui.lecture_menus import install as install_lecture_menus

    install_lecture_menus(w)
    window_help.build_menu(w)
