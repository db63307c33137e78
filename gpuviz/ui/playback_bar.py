"""The playback bar: step back, play/pause, step forward, speed, loop, a scrubber and the frame
number, driving the document's one :class:`~gpuviz.ui.playback.PlaybackClock`. Made when a shown
panel first animates, so that a still lecture never builds it (start-up)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QToolButton,
    QWidget,
)

from gpuviz.ui.playback import MAX_SPEED, MIN_SPEED, PlaybackClock


class PlaybackBar(QWidget):
    """Step back, play/pause, step forward, speed, loop, a scrubber and the frame number."""

    def __init__(self, clock: PlaybackClock, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.clock = clock
        self.setObjectName("playback-bar")
        # Keys belong to the main window (Space, arrows); the bar's buttons must not take them.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        SP = QStyle.StandardPixmap
        self.back_button = _button("⏮", "Step back one frame (Left)", clock.step_back,
                                   SP.SP_MediaSeekBackward)
        self.play_button = _button("▶", "Play or pause (Space)", clock.toggle, SP.SP_MediaPlay)
        self.forward_button = _button("⏭", "Step forward one frame (Right)", clock.step_forward,
                                      SP.SP_MediaSeekForward)

        self.scrubber = QSlider(Qt.Orientation.Horizontal)
        self.scrubber.setObjectName("playback-scrubber")
        self.scrubber.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.scrubber.setMinimum(0)
        self.scrubber.setToolTip("Drag to any frame")
        self.scrubber.valueChanged.connect(clock.seek)

        self.speed_box = QDoubleSpinBox()
        self.speed_box.setObjectName("playback-speed")
        self.speed_box.setRange(MIN_SPEED, MAX_SPEED)
        self.speed_box.setDecimals(2)
        self.speed_box.setSingleStep(0.5)
        self.speed_box.setSuffix(" frames/s")
        self.speed_box.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # arrows step frames, not speed
        self.speed_box.setToolTip("Playback speed: frames of the picture per second, not GPU time")
        self.speed_box.valueChanged.connect(clock.set_speed)

        self.loop_check = QCheckBox("loop")
        self.loop_check.setObjectName("playback-loop")
        self.loop_check.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.loop_check.toggled.connect(clock.set_loop)

        self.frame_label = QLabel()
        self.frame_label.setObjectName("playback-frame")
        self.frame_label.setMinimumWidth(self.frame_label.fontMetrics().horizontalAdvance(
            "frame 9999 / 9999"))

        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        for w in (self.back_button, self.play_button, self.forward_button):
            lay.addWidget(w)
        lay.addWidget(self.scrubber, 1)
        lay.addWidget(self.frame_label)
        lay.addWidget(self.speed_box)
        lay.addWidget(self.loop_check)

        clock.frameChanged.connect(self._show_frame)
        clock.frameCountChanged.connect(self._show_count)
        clock.playingChanged.connect(self._show_playing)
        clock.speedChanged.connect(self._show_speed)
        clock.loopChanged.connect(self.loop_check.setChecked)
        self._show_count(clock.frame_count)
        self._show_speed(clock.speed)
        self.loop_check.setChecked(clock.loop)
        self._show_playing(clock.playing)

    def _show_frame(self, frame: int) -> None:
        if self.scrubber.value() != frame:
            self.scrubber.blockSignals(True)
            self.scrubber.setValue(frame)
            self.scrubber.blockSignals(False)
        # numbered as a step's "frame:N" and the figure's own "step N of M" number them: frame 0
        # is the state before the first step (traversal-grouped's step 1 is "frame:1", the
        # figure's "step 1 of 24", where this said "frame 2 / 25")
        self.frame_label.setText(f"frame {frame} / {max(0, self.clock.frame_count - 1)}")

    def _show_count(self, count: int) -> None:
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(max(0, count - 1))
        self.scrubber.blockSignals(False)
        animated = count > 1
        for w in (self.back_button, self.play_button, self.forward_button, self.scrubber):
            w.setEnabled(animated)
        self._show_frame(self.clock.frame)

    def _show_playing(self, playing: bool) -> None:
        self.play_button.setText("⏸" if playing else "▶")
        self.play_button.setIcon(self.play_button.style().standardIcon(
            QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay))
        self.play_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.play_button.setToolTip("Pause (Space)" if playing else "Play (Space)")

    def _show_speed(self, speed: float) -> None:
        if self.speed_box.value() != speed:
            self.speed_box.blockSignals(True)
            self.speed_box.setValue(speed)
            self.speed_box.blockSignals(False)


def _button(text: str, tip: str, slot, icon: QStyle.StandardPixmap | None = None) -> QToolButton:
    """A tool button showing the style's media icon (every platform has those; not every UI
    font has the media symbols); the symbol stays as its text for accessibility."""
    b = QToolButton()
    b.setText(text)
    if icon is not None:
        b.setIcon(b.style().standardIcon(icon))
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        b.setProperty("styleIcon", True)  # the style's dark icon: a light plate in dark themes
    b.setToolTip(tip)
    b.setAccessibleName(tip)
    b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    b.clicked.connect(slot)
    return b
