"""A widget that shows one Figure, fitted to its size, with zoom, pan, hover and click by key.

A panel laid out for a target is built for this view's width and shape (the dock asks
:meth:`PanelDock.target` after ``resized``), so fitting it to the view paints it at the scale it
was laid out for; a panel not yet laid out for a target is scaled to fit."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from gpuviz.export.qt_painter import paint_figure
from gpuviz.figures.display import Figure, key_at


class FigureView(QWidget):
    """A click points: it selects the key under the pointer (``keyClicked``), never more.
    Applying what is pointed at to the lecture's parameters is an explicit act: Ctrl+click or
    a double click on a key (``keyActivated``); a double click elsewhere resets zoom and pan."""

    keyClicked = Signal(str)  # "" when nothing is under the pointer
    keyActivated = Signal(str)
    keyHovered = Signal(str)  # "" when nothing is under the pointer
    resized = Signal()
    painted = Signal()  # a figure was painted

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._figure: Figure | None = None
        self._zoom = 1.0
        self._pan = QPointF(0, 0)
        self._drag: QPointF | None = None
        self._hover = ""
        self._scale = 1.0
        self._origin = QPointF(0, 0)
        self._veil = ""
        self.veil_px: float | None = None  # the veil's type in pixels (None: the window's, larger)
        self._fit = 1.0  # the share of its fitted size the figure is painted at
        # called as a paint begins, before the figure is painted: the dock lays the first
        # figure out there, for the size the view has when it first reaches the screen
        self.before_paint: Callable[[], None] | None = None
        self.setMouseTracking(True)
        self.setMinimumSize(240, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    def figure(self) -> Figure | None:
        return self._figure

    def set_figure(self, figure: Figure) -> None:
        self._figure = figure
        self.update()

    def set_veil(self, text: str) -> None:
        """Cover the figure with ``text`` (predict, then reveal); "" shows the figure."""
        if text != self._veil:
            self._veil = text
            self.update()

    def veil(self) -> str:
        return self._veil

    def scale(self) -> float:
        """Pixels per millimetre of the figure as last painted."""
        return self._scale

    def page_rect(self) -> QRectF:
        """The figure's page as last painted, in this widget's coordinates."""
        if self._figure is None:
            return QRectF()
        return QRectF(self._origin.x(), self._origin.y(), self._figure.width * self._scale,
                      self._figure.height * self._scale)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resized.emit()

    def set_fit(self, fit: float) -> None:
        """Paint the figure at ``fit`` (at most 1) of the size that fits the view, centred:
        a lecture's states that have less to show keep the type of the largest."""
        fit = max(0.05, min(1.0, fit))
        if abs(fit - self._fit) > 1e-9:
            self._fit = fit
            self.update()

    def fit(self) -> float:
        return self._fit

    def reset_view(self) -> None:
        self._zoom, self._pan = 1.0, QPointF(0, 0)
        self.update()

    def _target(self) -> QRectF:
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        w, h = r.width() * self._zoom * self._fit, r.height() * self._zoom * self._fit
        return QRectF(r.x() + (r.width() - w) / 2 + self._pan.x(),
                      r.y() + (r.height() - h) / 2 + self._pan.y(), w, h)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.before_paint is not None:
            self.before_paint()
        p = QPainter(self)
        if self._figure is None:
            p.fillRect(self.rect(), self.palette().window())
            p.end()
            return
        p.fillRect(self.rect(), QColor(self._figure.background))
        target = self._target()
        self._scale = paint_figure(p, self._figure, target)
        fw, fh = self._figure.width * self._scale, self._figure.height * self._scale
        self._origin = QPointF(target.x() + (target.width() - fw) / 2,
                               target.y() + (target.height() - fh) / 2)
        if self._veil:
            veil = QColor(self._figure.background)
            p.fillRect(self.rect(), veil)
            font = p.font()
            if self.veil_px:
                font.setPixelSize(round(self.veil_px))
            else:
                font.setPointSizeF(max(font.pointSizeF() * 1.6, 14))
            p.setFont(font)
            ink = QColor(self.palette().windowText().color())
            if veil.lightnessF() < 0.5:
                ink = QColor("#E8ECF1")
            p.setPen(ink)
            p.drawText(self.rect().adjusted(40, 40, -40, -40),
                       int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), self._veil)
        p.end()
        self.painted.emit()

    def mm_at(self, pos: QPointF) -> tuple[float, float]:
        return ((pos.x() - self._origin.x()) / self._scale, (pos.y() - self._origin.y()) / self._scale)

    def key_at(self, pos: QPointF) -> str:
        if self._figure is None or self._scale <= 0 or self._veil:
            return ""
        x, y = self.mm_at(pos)
        return key_at(self._figure, x, y) or ""

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None:
            self._pan += event.position() - self._drag
            self._drag = event.position()
            self.update()
            return
        key = self.key_at(event.position())
        if key != self._hover:
            self._hover = key
            self.keyHovered.emit(key)
            self.setCursor(Qt.CursorShape.PointingHandCursor if key else Qt.CursorShape.ArrowCursor)
            if key:  # through the lecture's veil, as every tip is
                from gpuviz.ui.veil_tips import show_tip

                show_tip(self, event.globalPosition().toPoint(), key)
            else:
                QToolTip.hideText()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton
            and event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self._drag = event.position()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            key = self.key_at(event.position())
            self.keyClicked.emit(key)
            if key and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self.keyActivated.emit(key)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag = None

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        key = self.key_at(event.position()) if event.button() == Qt.MouseButton.LeftButton else ""
        if key:
            self.keyActivated.emit(key)
        else:
            self.reset_view()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            event.ignore()
            return
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self._zoom = max(0.5, min(8.0, self._zoom * factor))
        self.update()
