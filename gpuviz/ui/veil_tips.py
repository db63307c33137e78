"""Tooltips, status tips and "What's This?" text through the lecture's veil.

One filter on the application sees every such event a window's widgets (its docks, dialogs
and menus) receive before Qt shows the text. While the lecture model veils the step
(``show(...).hidden("tooltips")``) it keeps back any text that states the answer as the model
gives it (``lecture.answer.veiled_answer``), and every tooltip of an item view or a graphics
scene (a list's, a table's, a plot's items: data, not help). A hover tip a widget shows
itself goes through ``show_tip``, which asks the same. No widget decides this for itself."""

from __future__ import annotations

from weakref import WeakSet

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtGui import QStatusTipEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QToolTip, QWidget

_FILTERS: WeakSet[VeilTips] = WeakSet()
_TIPS = (QEvent.Type.ToolTip, QEvent.Type.WhatsThis, QEvent.Type.StatusTip)


class VeilTips(QObject):
    """The veil's filter for ``window`` (a main window with a ``document``)."""

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.window = window
        self.kept_back = 0  # texts kept from the room (for the tests)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)
        _FILTERS.add(self)

    def remove(self) -> None:
        """Stop filtering (the window's tooltips then go to Qt as they are)."""
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        _FILTERS.discard(self)

    # --- the rule ------------------------------------------------------------------------------
    def answer(self) -> tuple[str, ...]:
        """What states the answer now (empty unless the step is veiled)."""
        from gpuviz.lecture import show

        lecture = self.window.document.lecture  # type: ignore[attr-defined]
        if not show(lecture).hidden("tooltips"):
            return ()
        from gpuviz.lecture.answer import veiled_answer

        return veiled_answer(lecture) or ("",)  # veiled with nothing to match: data still hidden

    def keeps_back(self, widget: QWidget, text: str, data: bool = False) -> bool:
        """Whether ``text`` shown on ``widget`` would give the room the answer; ``data``: the
        text belongs to the items a view shows, not to the widget (kept back while veiled)."""
        if not self.owns(widget):
            return False
        answer = self.answer()
        if not answer:
            return False
        from gpuviz.lecture.answer import carries_answer

        return data or bool(carries_answer(text, tuple(a for a in answer if a)))

    def owns(self, widget: QWidget) -> bool:
        w: QObject | None = widget
        while w is not None:
            if w is self.window:
                return True
            w = w.parent()
        return False

    # --- the filter ----------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in _TIPS or not isinstance(watched, QWidget):
            return False
        if isinstance(event, QStatusTipEvent):
            text, data = event.tip(), False
        else:
            text, data = (watched.whatsThis() if event.type() == QEvent.Type.WhatsThis
                          else watched.toolTip()), _is_data_view(watched)
        if not (text or data) or not self.keeps_back(watched, text, data):
            return False
        self.kept_back += 1
        if event.type() == QEvent.Type.ToolTip:
            QToolTip.hideText()
        event.accept()  # eaten: neither this widget nor its parents show it
        return True


def _is_data_view(widget: QWidget) -> bool:
    """The viewport of an item view or a graphics view: its tooltips are its items'."""
    # named here, not at import: the first frame names no item view (test_startup_imports)
    from PySide6.QtWidgets import QAbstractItemView, QGraphicsView

    parent = widget.parent()
    return isinstance(parent, (QAbstractItemView, QGraphicsView)) and \
        parent.viewport() is widget


def show_tip(widget: QWidget, pos: QPoint, text: str) -> bool:
    """``QToolTip.showText`` through the veil: a hover tip a widget shows itself (a figure's
    key under the pointer). False where the veil keeps it back."""
    if any(f.keeps_back(widget, text, data=True) for f in list(_FILTERS)):
        QToolTip.hideText()
        return False
    QToolTip.showText(pos, text, widget)
    return True

