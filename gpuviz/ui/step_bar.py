"""The lecture's two fixed strips: the step bar above the figures (previous / next, "step k of n",
the step list to jump to) and the caption under them, like a subtitle.

Both have a fixed height, computed from their font alone, so that nothing under or beside them
moves when the lecture steps: a long caption is wrapped to at most ``lines`` lines and the last
one elided (the whole caption is the strip's tooltip).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPaintEvent, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QWidget,
)


class StepBar(QWidget):
    """Previous and next as buttons, the position, the step list, and a message area at the
    right (hover keys, "Saved …")."""

    stepChosen = Signal(int)  # -1: the overview

    def __init__(self, act_prev, act_next, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("step-bar")
        self.prev_button = _action_button(act_prev, Qt.ArrowType.LeftArrow, "step-prev")
        self.next_button = _action_button(act_next, Qt.ArrowType.RightArrow, "step-next")
        self.position = QLabel()
        self.position.setObjectName("step-position")
        self.position.setMinimumWidth(self.position.fontMetrics().horizontalAdvance("overview · 99 steps") + 8)
        self.steps = QComboBox()
        self.steps.setObjectName("step-list")
        self.steps.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # PageDown and arrows stay with the figure
        self.steps.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.steps.setMinimumContentsLength(34)
        self.steps.setToolTip("Jump to a step")
        self.steps.activated.connect(lambda i: self.stepChosen.emit(i - 1))
        self.message = QLabel()
        self.message.setObjectName("step-bar-message")
        self.message.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._hover = ""
        self._message_timer = QTimer(self)
        self._message_timer.setSingleShot(True)
        self._message_timer.timeout.connect(lambda: self.show_message(""))
        self._message = ""
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(6)
        lay.addWidget(self.prev_button)
        lay.addWidget(self.next_button)
        lay.addWidget(self.position)
        lay.addWidget(self.steps)
        lay.addWidget(self.message, 1)
        self.setFixedHeight(max(self.steps.sizeHint().height(), self.prev_button.sizeHint().height()) + 4)

    def set_steps(self, titles: list[str], current: int) -> None:
        """The step list (titles in order) and the current step (-1: the overview)."""
        items = ["Overview"] + [f"{i + 1} · {t}" for i, t in enumerate(titles)]
        if [self.steps.itemText(i) for i in range(self.steps.count())] != items:
            self.steps.clear()
            self.steps.addItems(items)
        self.steps.setCurrentIndex(current + 1)
        self.steps.setEnabled(bool(titles))
        if not titles:
            self.position.setText("no steps")
        elif current < 0:
            self.position.setText(f"overview · {len(titles)} steps")
        else:
            self.position.setText(f"step {current + 1} of {len(titles)}")

    def text(self) -> str:
        return f"{self.position.text()} {self.steps.currentText()}"

    def set_hover(self, key: str) -> None:
        self._hover = key
        self._show()

    def show_message(self, text: str, ms: int = 0) -> None:
        self._message = text
        if text and ms > 0:
            self._message_timer.start(ms)
        self._show()

    def _show(self) -> None:
        self.message.setText(self._message or self._hover)


class CaptionStrip(QWidget):
    """The caption under the figures: a fixed number of lines, wrapped, the last one elided; a
    marker at the right (e.g. "edited since step 2") and, in presentation mode, the position."""

    def __init__(self, lines: int = 2, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("step-caption")
        self._lines = lines
        self._text = ""
        self._lead = ""  # bold words before the text ("Predict:")
        self._marker = ""
        self._corner = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._fit_height()

    # --- content ----------------------------------------------------------------------------
    def set_caption(self, text: str, lead: str = "") -> None:
        if (text, lead) != (self._text, self._lead):
            self._text, self._lead = text, lead
            self.setToolTip(self.text())
            self.update()

    def text(self) -> str:
        return f"{self._lead} {self._text}".strip()

    def set_marker(self, text: str) -> None:
        if text != self._marker:
            self._marker = text
            self.update()

    def marker(self) -> str:
        return self._marker

    def set_corner(self, text: str) -> None:
        if text != self._corner:
            self._corner = text
            self.update()

    def set_lines(self, lines: int) -> None:
        self._lines = lines
        self._fit_height()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_height()

    def _fit_height(self) -> None:
        fm = QFontMetricsF(self.font())
        self.setFixedHeight(round(fm.lineSpacing() * self._lines + 10))

    # --- painting ---------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        pal = self.palette()
        p.fillRect(self.rect(), pal.window())
        p.setPen(pal.windowText().color())
        font = self.font()
        fm = QFontMetricsF(font)
        right = 8.0
        small = QFont(font)
        if font.pixelSize() > 0:
            small.setPixelSize(max(8, round(font.pixelSize() * 0.8)))
        else:
            small.setPointSizeF(font.pointSizeF() * 0.8)
        sfm = QFontMetricsF(small)
        for extra in (self._corner, self._marker):
            if extra:
                w = sfm.horizontalAdvance(extra) + 12
                p.setFont(small)
                color = pal.placeholderText().color() if extra is self._marker else pal.windowText().color()
                p.setPen(color)
                p.drawText(QRectF(self.width() - right - w, 5, w, sfm.lineSpacing()),
                           int(Qt.AlignmentFlag.AlignRight), extra)
                right += w
        p.setPen(pal.windowText().color())
        width = max(20.0, self.width() - 16 - right)
        x, y = 8.0, 5.0
        lead_w = 0.0
        if self._lead:
            bold = QFont(font)
            bold.setBold(True)
            p.setFont(bold)
            p.drawText(int(x), int(y + fm.ascent()), self._lead)
            lead_w = QFontMetricsF(bold).horizontalAdvance(self._lead + " ")
        p.setFont(font)
        layout = QTextLayout(self._text, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        lines = []
        while len(lines) < self._lines:
            line = layout.createLine()
            if not line.isValid():
                break
            first = not lines
            line.setLineWidth(width - (lead_w if first else 0))
            lines.append((line, lead_w if first else 0.0))
        layout.endLayout()
        for i, (line, indent) in enumerate(lines):
            start, length = line.textStart(), line.textLength()
            text = self._text[start:start + length].rstrip("\n")
            last = i == len(lines) - 1
            if last and start + length < len(self._text):
                text = fm.elidedText(self._text[start:].replace("\n", " "),
                                     Qt.TextElideMode.ElideRight, width - indent)
            p.drawText(int(x + indent), int(y + i * fm.lineSpacing() + fm.ascent()), text)
        p.end()


def _action_button(action, arrow: Qt.ArrowType, name: str) -> QToolButton:
    b = QToolButton()
    b.setObjectName(name)
    b.setDefaultAction(action)
    b.setArrowType(arrow)
    b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    b.setAutoRaise(True)
    return b
