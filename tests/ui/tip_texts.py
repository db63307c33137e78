"""Every tooltip, status tip and hover text a main window can show now, asked for as Qt asks:
a tooltip request (the pointer at rest) on each shown widget that has one, on each item of a
shown list or table and each item of a plot's scene; the pointer moved over each figure; each
action's status tip sent to the window; and what the status bar and the step bar's message
say then. ``texts(window)`` gives (where, text) for each that Qt shows."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QHelpEvent, QMouseEvent, QStatusTipEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QGraphicsView,
    QToolTip,
    QWidget,
)

SENTINEL = "\u2063tip-probe\u2063"
HOVER_GRID = (16, 10)  # points the pointer rests at over each figure


def _hide_tips() -> None:
    QToolTip.hideText()
    for w in QApplication.topLevelWidgets():
        if type(w).__name__ == "QTipLabel" or w.metaObject().className() == "QTipLabel":
            w.hide()


def _asked(widget: QWidget, local: QPoint) -> str:
    """What Qt's tooltip shows after a tooltip request at ``local`` of ``widget`` ("" none)."""
    _hide_tips()
    QToolTip.showText(QPoint(0, 0), SENTINEL)
    QApplication.sendEvent(widget, QHelpEvent(QEvent.Type.ToolTip, local,
                                              widget.mapToGlobal(local)))
    text = QToolTip.text() if QToolTip.isVisible() else ""
    _hide_tips()
    return "" if text == SENTINEL else text


def _owned(window: QWidget) -> list[QWidget]:
    return [w for w in window.findChildren(QWidget) if w.isVisible()]


def texts(window) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    widgets = _owned(window)
    for w in widgets:
        if w.toolTip():
            text = _asked(w, w.rect().center())
            if text:
                found.append((w.objectName() or type(w).__name__, text))
        if w.whatsThis():
            found.append((f"what's this: {w.objectName()}", w.whatsThis()))
    for view in (w for w in widgets if isinstance(w, QAbstractItemView)):
        model = view.model()
        if model is None:
            continue
        for row in range(400):
            for col in range(64):
                index = model.index(row, col)
                if not index.isValid():
                    break
                if not model.data(index, Qt.ItemDataRole.ToolTipRole):
                    continue
                rect = view.visualRect(index)
                if rect.isValid() and view.viewport().rect().contains(rect.center()):
                    text = _asked(view.viewport(), rect.center())
                    if text:
                        found.append((f"{view.objectName()} item {row},{col}", text))
    for view in (w for w in widgets if isinstance(w, QGraphicsView)):
        scene = view.scene()
        for item in scene.items() if scene is not None else ():
            if item.toolTip() and item.isVisible():
                at = view.mapFromScene(item.sceneBoundingRect().center())
                text = _asked(view.viewport(), at)
                if text:
                    found.append((f"{view.objectName()} plot item", text))
    found += _hovered(window, widgets)
    bar = window.statusBar()
    for action in window.findChildren(QAction):
        if action.statusTip():
            bar.clearMessage()
            QApplication.sendEvent(window, QStatusTipEvent(action.statusTip()))
            if bar.currentMessage():
                found.append((f"status tip {action.objectName()}", bar.currentMessage()))
    bar.clearMessage()
    QApplication.processEvents()  # the warning line puts its message back
    found += [("status bar", bar.currentMessage()),
              ("step bar message", window.step_bar_widget.message.text())]
    return [(where, text) for where, text in found if text]


def _hovered(window, widgets: list[QWidget]) -> list[tuple[str, str]]:
    from gpuviz.ui.figure_view import FigureView

    found = []
    for view in (w for w in widgets if isinstance(w, FigureView)):
        nx, ny = HOVER_GRID
        for i in range(nx):
            for j in range(ny):
                at = QPointF((i + 0.5) * view.width() / nx, (j + 0.5) * view.height() / ny)
                _hide_tips()
                QToolTip.showText(QPoint(0, 0), SENTINEL)
                QApplication.sendEvent(view, QMouseEvent(
                    QEvent.Type.MouseMove, at, view.mapToGlobal(at), Qt.MouseButton.NoButton,
                    Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))
                tip = QToolTip.text() if QToolTip.isVisible() else ""
                if tip and tip != SENTINEL:
                    found.append((f"hover {view.objectName()}", tip))
                found.append(("hover message", window.step_bar_widget.message.text()))
        _hide_tips()
    return found
