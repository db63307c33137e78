"""Every text a main window shows now, outside its figures: each shown label, button, field,
list and combo box item, table cell, tab, group and dock title, the window title, the status
bar and the caption, the step bar, the text items of its plots (the scheduler's timeline), and
the items of each shown list of steps. ``texts(window)`` gives (where, text) for each."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QGraphicsTextItem,
    QGraphicsView,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)


def _shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def _own(widget: QWidget) -> list[tuple[str, str]]:
    name = widget.objectName() or type(widget).__name__
    found: list[tuple[str, str]] = []
    if isinstance(widget, QLabel | QAbstractButton):
        found.append((name, widget.text()))
    elif isinstance(widget, QLineEdit):
        found.append((name, widget.text() or widget.placeholderText()))
    elif isinstance(widget, QAbstractSpinBox):
        found.append((name, widget.text()))
    elif isinstance(widget, QComboBox):
        found += [(f"{name} item {i}", widget.itemText(i)) for i in range(widget.count())]
    elif isinstance(widget, QTextEdit | QPlainTextEdit):
        found.append((name, widget.toPlainText()))
    elif isinstance(widget, QGroupBox):
        found.append((name, widget.title()))
    elif isinstance(widget, QTabBar):
        found += [(f"{name} tab {i}", widget.tabText(i)) for i in range(widget.count())]
    elif isinstance(widget, QDockWidget):
        found.append((name, widget.windowTitle()))
    if isinstance(widget, QAbstractItemView) and widget.model() is not None:
        model = widget.model()
        for row in range(min(model.rowCount(), 400)):
            for col in range(min(model.columnCount(), 64)):
                value = model.data(model.index(row, col), Qt.ItemDataRole.DisplayRole)
                if value:
                    found.append((f"{name} item {row},{col}", str(value)))
    if isinstance(widget, QGraphicsView) and widget.scene() is not None:
        for item in widget.scene().items():
            if isinstance(item, QGraphicsTextItem) and item.isVisible():
                found.append((f"{name} plot text", item.toPlainText()))
    caption = getattr(widget, "text", None)
    if type(widget).__name__ == "CaptionStrip" and callable(caption):
        found.append((name, caption()))
    return found


def texts(window) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = [("window title", window.windowTitle())]
    for w in window.findChildren(QWidget):
        if not _shown(w):
            continue
        if w.isWindow():  # a dialog of the window's (the lecture's step list)
            found.append((f"window {w.objectName()}", w.windowTitle()))
        found += _own(w)
    found.append(("status bar", window.statusBar().currentMessage()))
    return [(where, text) for where, text in found if text]
