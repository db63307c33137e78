"""The lecture's keys belong to the lecture, whatever control has the keyboard focus.

A presenter remote sends PageDown and PageUp; with the focus left in a spin box, Qt gives those
keys to the spin box (ten steps at a time), and past the ends of the step list, where the step
actions are disabled, too: one press edited the lecture under the presenter's hands. Ctrl+Z in
a control undid the control's own typing, not the lecture's last edit. Here the step keys
(PageDown, PageUp, Ctrl+→, Ctrl+←) and undo / redo (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y) are taken
before any control in the window sees them. A control keeps them only while the user is typing
in it: from a key that types (a character, Backspace, Delete) until Return, Esc or the focus
leaves, Ctrl+← moves by words and Ctrl+Z undoes the typing, as in any text field."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi

_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier
_KEYPAD = Qt.KeyboardModifier.KeypadModifier
_ENDS_TYPING = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab,
                Qt.Key.Key_Backtab)


def lecture_command(key: int, modifiers: Qt.KeyboardModifier) -> str | None:
    """The lecture's command for a key press: "next", "previous", "undo", "redo" or None."""
    mods = modifiers & ~_KEYPAD
    if mods == Qt.KeyboardModifier.NoModifier:
        return {Qt.Key.Key_PageDown: "next", Qt.Key.Key_PageUp: "previous"}.get(Qt.Key(key))
    if mods == _CTRL:
        return {Qt.Key.Key_Right: "next", Qt.Key.Key_Left: "previous", Qt.Key.Key_Z: "undo",
                Qt.Key.Key_Y: "redo"}.get(Qt.Key(key))
    if mods == _CTRL | _SHIFT and key == Qt.Key.Key_Z:
        return "redo"
    return None


class LectureKeys(QObject):
    def __init__(self, window: WindowApi):
        super().__init__(as_qt(window))
        self.window = window
        self._typing_in: QWidget | None = None
        self._types = (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)
        app.focusChanged.connect(self._on_focus_changed)  # type: ignore[attr-defined]

    def typing_in(self) -> QWidget | None:
        return self._typing_in

    def _on_focus_changed(self, _old: QWidget | None, _new: QWidget | None) -> None:
        self._typing_in = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in self._types or not isinstance(watched, QWidget) \
                or watched.window() is not self.window or not isinstance(event, QKeyEvent):
            return False
        command = lecture_command(event.key(), event.modifiers())
        if command is None:
            if kind == QEvent.Type.KeyPress:
                self._note_typing(watched, event)
            return False
        if self._typing_in is not None and self._typing_in is QApplication.focusWidget():
            return False  # the control keeps the key while the user types in it
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # no control and no shortcut takes it: the key press comes here
            return True
        self.run(command)
        return True

    def _note_typing(self, watched: QWidget, event: QKeyEvent) -> None:
        if event.key() in _ENDS_TYPING:
            self._typing_in = None
        elif (event.text() and event.text().isprintable()
              and not event.modifiers() & (_CTRL | Qt.KeyboardModifier.AltModifier)) \
                or event.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
            self._typing_in = QApplication.focusWidget()

    def run(self, command: str) -> None:
        w = self.window
        if command == "next":
            w.next_step()
        elif command == "previous":
            w.previous_step()
        elif command == "undo":
            w.document.undo_stack.undo()
        elif command == "redo":
            w.document.undo_stack.redo()


def install(window: WindowApi) -> LectureKeys:
    window.lecture_keys = LectureKeys(window)
    return window.lecture_keys



