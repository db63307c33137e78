"""The dock's controls column: scrolled vertically only, widened to its widest row."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget


class ControlsScroll(QScrollArea):
    """The controls, scrolled vertically only: once their layout settles, a row wider than the
    scroll area widens it (``widen``), so no horizontal bar hides the last row and no row is cut
    off at the right; narrower again only by the user's hand."""

    MIN_PX = 220
    widen = Signal(int)  # the width the controls need, in pixels

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumWidth(self.MIN_PX)
        self._fit_pending = False

    def setWidget(self, widget: QWidget) -> None:
        super().setWidget(widget)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest and not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, self, self._fit)
        return super().eventFilter(watched, event)

    def needed_width(self) -> int:
        """The widest row's minimum, word-wrapped labels aside (they take any width; before
        their layout settles they ask for more than they will: 415 px where 246 will do)."""
        widget = self.widget()
        layout = widget.layout() if widget is not None else None
        if layout is None:
            return 0
        rows = (layout.itemAt(i) for i in range(layout.count()))
        widest = max((item.minimumSize().width() for item in rows
                      if not (isinstance(item.widget(), QLabel) and item.widget().wordWrap())),
                     default=0)
        margins = layout.contentsMargins()
        return (widest + margins.left() + margins.right() + 2 * self.frameWidth()
                + self.verticalScrollBar().sizeHint().width())

    def _fit(self) -> None:
        self._fit_pending = False
        need = self.needed_width()
        if self.isVisible() and self.width() < need:
            self.widen.emit(need)
