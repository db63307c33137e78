"""The lecture's two fixed strips: the step bar above the figures (previous / next, "step k of n",
the step list to jump to) and the caption under them, like a subtitle.

Both have a fixed height, computed from their font alone, so that nothing under or beside them
moves when the lecture steps: a long caption is wrapped to at most ``lines`` lines, in smaller
type if that holds it, else shortened to its first sentences (the whole caption is the strip's
tooltip).
"""

from __future__ import annotations

import re
from collections.abc import Collection

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

MAX_STEP_BOX = 720  # px: the step list's box grows to its widest title up to this


class StepList(QComboBox):
    """The step list: its popup, made when it first opens (a list view and its item views'
    enums are 2-3 ms of start-up), opens wide enough for every title."""

    def showPopup(self) -> None:
        view = self.view()
        metrics = view.fontMetrics()
        texts = [self.itemText(i) for i in range(self.count())]
        view.setMinimumWidth(max((metrics.horizontalAdvance(t) for t in texts), default=0) + 48)
        super().showPopup()


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
        self.steps = StepList()
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
        self._neighbours = (-2, 0)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(6)
        lay.addWidget(self.prev_button)
        lay.addWidget(self.next_button)
        lay.addWidget(self.position)
        lay.addWidget(self.steps)
        lay.addWidget(self.message, 1)
        self.setFixedHeight(max(self.steps.sizeHint().height(), self.prev_button.sizeHint().height()) + 4)

    def set_steps(self, titles: list[str], current: int, edited_from: int | None = None,
                  veiled: Collection[int] = ()) -> None:
        """The step list (titles in order, as the lecture model lists them: a veiled step's
        kept back) and the current step (-1: the overview).
        ``edited_from``: the step whose state was edited by hand (the overview is shown, with
        that step's caption): the bar names that step, never "overview". ``veiled``: the
        steps whose questions the room has not seen answered (Next reveals them)."""
        items = ["Overview"] + [f"{i + 1} · {t}" for i, t in enumerate(titles)]
        edited_at = -1 if edited_from is None else edited_from  # -1: none
        edited = current < 0 and 0 <= edited_at < len(titles)
        if edited:
            items[edited_at + 1] += " (edited)"
        if [self.steps.itemText(i) for i in range(self.steps.count())] != items:
            self.steps.clear()
            self.steps.addItems(items)
            # the list opens wide enough for every title (StepList.showPopup), and the box is
            # as wide as the widest (up to MAX_STEP_BOX px): no title is cut, and stepping
            # never moves the bar
            box = self.steps.fontMetrics()
            self.steps.setMinimumWidth(min(MAX_STEP_BOX, max(box.horizontalAdvance(t)
                                                             for t in items) + 48))
        at = edited_at if edited else current
        # PageUp and PageDown go around the step shown; after a hand edit at step k, back to
        # step k and on to k + 1 (not to the first step, as from the overview)
        self._neighbours = (at if edited else at - 1, at + 1)
        self.prev_button.defaultAction().setEnabled(current >= 0 or edited)
        self.next_button.defaultAction().setEnabled(at < len(titles) - 1 or current in veiled)
        self.steps.setCurrentIndex(at + 1)
        self.steps.setEnabled(bool(titles))
        if not titles:
            self.position.setText("no steps")
        elif edited:
            self.position.setText(f"edited from step {edited_at + 1} of {len(titles)}")
        elif current < 0:
            self.position.setText(f"overview · {count_text(len(titles), 'step')}")
        else:
            self.position.setText(f"step {current + 1} of {len(titles)}")

    def neighbours(self) -> tuple[int, int]:
        """The steps PageUp and PageDown go to (-1: the overview)."""
        return self._neighbours

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


def count_text(n: int, noun: str) -> str:
    """"1 step", "4 steps"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


CAPTION_SHRINK = (1.0, 0.9, 0.82, 0.75)  # type sizes tried before a caption is shortened
# a sentence ends at . ! or ? before a capital, a digit or an opening bracket or quote, but not
# after an initial ("J. Černý") or an abbreviation ("e.g. Fig. 3")
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\b[A-Z]\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bFig\.)"
                           r"(?<!\bvs\.)\s+(?=[A-Z0-9(\"“‘À-Þ])")


def split_sentences(text: str) -> list[str]:
    """``text``'s sentences, each with its end mark, whitespace between them dropped."""
    return [part for part in _SENTENCE_END.split(text.strip()) if part]


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
    def fit(self, width: float) -> tuple[QFont, float, list[tuple[str, float]]]:
        """The font, the lead's width and the lines (text, indent) that show the caption in
        ``width`` px within the strip's fixed height: the strip's own type if the caption fits
        it, else type shrunk step by step to at most a quarter smaller (which fits more lines
        into the same height). A caption too long even then (a scenario's whole description,
        in presentation type) keeps the first sentences that fit, at the largest of those sizes
        that holds one, followed by "…"; only a first sentence too long for the smallest type
        is cut within itself."""
        text = self._text
        sentences = split_sentences(text)
        shortened = [" ".join(sentences[:n]) + " …" for n in range(len(sentences) - 1, 0, -1)]
        for candidates in ([text], shortened):
            for k, scale in enumerate(CAPTION_SHRINK):
                font, lead_w, count = self._sized(scale, k)
                for candidate in candidates:
                    lines, _last_start, rest = self._wrap(font, width, lead_w, count, candidate)
                    if not rest:
                        return font, lead_w, lines
        # not even the first sentence fits the smallest type: its last line elided
        lines, last_start, _rest = self._wrap(font, width, lead_w, count, text)
        indent = lines[-1][1]
        lines[-1] = (QFontMetricsF(font).elidedText(
            text[last_start:].replace("\n", " "), Qt.TextElideMode.ElideRight, width - indent),
            indent)
        return font, lead_w, lines

    def _sized(self, scale: float, k: int) -> tuple[QFont, float, int]:
        """The caption's font at ``scale`` of the strip's, the lead's width in it, and how many
        lines of it the strip's height holds (its own number of lines at its own size)."""
        base = self.font()
        font = QFont(base)
        if base.pixelSize() > 0:
            font.setPixelSize(max(8, round(base.pixelSize() * scale)))
        else:
            font.setPointSizeF(base.pointSizeF() * scale)
        room = self.height() - 10
        count = max(1, int((room + 0.5) // QFontMetricsF(font).lineSpacing())) if k else self._lines
        lead_w = 0.0
        if self._lead:
            bold = QFont(font)
            bold.setBold(True)
            lead_w = QFontMetricsF(bold).horizontalAdvance(self._lead + " ")
        return font, lead_w, count

    def _wrap(self, font: QFont, width: float, lead_w: float, count: int,
              text: str | None = None) -> tuple[list[tuple[str, float]], int, str]:
        """At most ``count`` word-wrapped lines of ``text`` (the caption's), where the last one
        starts, and what did not fit."""
        text = self._text if text is None else text
        layout = QTextLayout(text, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        spans: list[tuple[int, int, float]] = []
        while len(spans) < count:
            line = layout.createLine()
            if not line.isValid():
                break
            indent = lead_w if not spans else 0.0
            line.setLineWidth(width - indent)
            spans.append((line.textStart(), line.textLength(), indent))
        layout.endLayout()
        lines = [(text[a:a + n].rstrip("\n"), indent) for a, n, indent in spans]
        end = spans[-1][0] + spans[-1][1] if spans else 0
        return lines, spans[-1][0] if spans else 0, text[end:].strip()

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
        for is_marker, extra in ((False, self._corner), (True, self._marker)):
            if not extra:
                continue
            if is_marker:
                # a stale caption says so in one mark wherever it is shown (an edit at a step
                # or at the overview): a pill in the highlight colour, bold
                bold = QFont(small)
                bold.setBold(True)
                bfm = QFontMetricsF(bold)
                w = bfm.horizontalAdvance(extra) + 14
                pill = QRectF(self.width() - right - w, 4, w, bfm.lineSpacing() + 4)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(pal.highlight())
                p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
                p.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2)
                p.setFont(bold)
                p.setPen(pal.highlightedText().color())
                p.drawText(pill, int(Qt.AlignmentFlag.AlignCenter), extra)
                right += w + 6
            else:
                w = sfm.horizontalAdvance(extra) + 12
                p.setFont(small)
                p.setPen(pal.windowText().color())
                p.drawText(QRectF(self.width() - right - w, 5, w, sfm.lineSpacing()),
                           int(Qt.AlignmentFlag.AlignRight), extra)
                right += w
        p.setPen(pal.windowText().color())
        width = max(20.0, self.width() - 16 - right)
        font, _lead_w, lines = self.fit(width)
        fm = QFontMetricsF(font)
        x, y = 8.0, 5.0
        if self._lead:
            bold = QFont(font)
            bold.setBold(True)
            p.setFont(bold)
            p.drawText(int(x), int(y + fm.ascent()), self._lead)
        p.setFont(font)
        for i, (text, indent) in enumerate(lines):
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
