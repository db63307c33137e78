"""A dock's controls: unfolded, a scroll area as wide as its widest row; folded, a thin strip
beside its figure; and what a linked panel follows.

Collapsed, the strip shows its name and what the panel follows, written down the strip
("Controls · follows launch: block 2, warp 0"); a click unfolds the controls, and the arrow at the
top of the unfolded controls folds them again.
"""

from __future__ import annotations

import dataclasses
from typing import cast

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QLayoutItem, QScrollArea, QSizePolicy, QWidget

from gpuviz.registry import panel
from gpuviz.scenario.compute import effective_params
from gpuviz.scenario.document import Scenario

STRIP_PX = 22

# the linked values worth naming, by the field that carries them in a panel's parameters
_FOLLOWED = (("block_idx", "block"), ("warp", "warp"), ("swizzle", "swizzle"))


def follow_text(panel_id: str, scenario: Scenario) -> str:
    """What ``panel_id`` takes from the panels it depends on, in words ("follows launch: block
    2, warp 0"); "" when it follows nothing (no dependency, or its follow switch is off)."""
    deps = panel(panel_id).depends_on
    if not deps:
        return ""
    own = scenario.section(panel_id)
    switches = [f.name for f in dataclasses.fields(own) if f.name.startswith("follow_")]
    if switches and not any(getattr(own, s) for s in switches):
        return ""
    try:
        linked = effective_params(scenario, panel_id)
    except Exception:  # a broken upstream section is reported by its own dock
        return f"follows {', '.join(deps)}"
    shown = []
    for name, label in _FOLLOWED:
        if hasattr(linked, name):
            shown.append(f"{label} {_short(getattr(linked, name))}")
    return f"follows {', '.join(deps)}" + (": " + ", ".join(shown) if shown else "")


def _short(value: object) -> str:
    if isinstance(value, tuple):
        while len(value) > 1 and value[-1] == 0:
            value = value[:-1]  # block (2, 0, 0) of a 1-D grid is block 2
        return str(value[0]) if len(value) == 1 else "(" + ", ".join(str(v) for v in value) + ")"
    if dataclasses.is_dataclass(value):
        fields = [f.name for f in dataclasses.fields(value)]
        return " ".join(f"{n}={getattr(value, n)}" for n in fields if n in ("bits", "base", "shift"))
    return str(value)


class ControlsStrip(QWidget):
    """The folded controls: a thin clickable strip with its label written downwards."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("controls-strip")
        self._label = "Controls"
        self.setFixedWidth(STRIP_PX)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Show the controls (Ctrl+Shift+C: all panels)")

    def set_label(self, text: str) -> None:
        if text != self._label:
            self._label = text
            self.update()

    def label(self) -> str:
        return self._label

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        pal = self.palette()
        p.fillRect(self.rect(), pal.button())
        p.setPen(pal.mid().color())
        p.drawLine(self.width() - 1, 0, self.width() - 1, self.height())
        p.setPen(pal.buttonText().color())
        p.drawText(QRectF(0, 2, self.width(), 16), int(Qt.AlignmentFlag.AlignCenter), "▸")
        p.translate(self.width() / 2 + p.fontMetrics().ascent() / 2 - 1, 22)
        p.rotate(90)
        text = p.fontMetrics().elidedText(self._label, Qt.TextElideMode.ElideRight, self.height() - 30)
        p.drawText(QRectF(0, 0, self.height() - 30, self.width()), int(Qt.AlignmentFlag.AlignLeft), text)
        p.end()


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
        rows = (cast(QLayoutItem, layout.itemAt(i)) for i in range(layout.count()))
        widest = max((item.minimumSize().width() for item in rows
                      if not (isinstance(w := item.widget(), QLabel) and w.wordWrap())),
                     default=0)
        margins = layout.contentsMargins()
        return (widest + margins.left() + margins.right() + 2 * self.frameWidth()
                + self.verticalScrollBar().sizeHint().width())

    def _fit(self) -> None:
        self._fit_pending = False
        need = self.needed_width()
        if self.isVisible() and self.width() < need:
            self.widen.emit(need)
