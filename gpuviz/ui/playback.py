"""The document's one playback clock and the bar that drives it.

Animated figures (``pipeline``, ``barrier``, ``reduction``, the ``traversal`` path) read the
playback position from the selection key ``frame:<n>``; the clock only counts frames. The main
window connects ``frameChanged`` to ``Document.set_frame`` and sets ``frame_count`` from the
focused panels (``frame_count_for``), and maps keys to ``toggle``, ``step_forward`` and
``step_back``. Playback speed is frames per second of the picture, not GPU time.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
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

from gpuviz.figures.scene import frame_count
from gpuviz.scenario.document import Scenario

MIN_SPEED = 0.25
MAX_SPEED = 60.0


def frame_count_for(scenario: Scenario, panel_ids: Iterable[str]) -> int:
    """Frames of the longest animation among the panels (1 when none is animated)."""
    return max((frame_count(scenario, pid) for pid in panel_ids), default=1)


class PlaybackClock(QObject):
    """Frame position, play/pause, speed and loop for one document."""

    frameChanged = Signal(int)
    frameCountChanged = Signal(int)
    playingChanged = Signal(bool)
    speedChanged = Signal(float)
    loopChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, frame_count: int = 1,
                 speed: float = 2.0, loop: bool = False) -> None:
        super().__init__(parent)
        self._frame = 0
        self._count = max(1, int(frame_count))
        self._speed = _clamp_speed(speed)
        self._loop = bool(loop)
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._apply_interval()

    # --- state --------------------------------------------------------------------------
    @property
    def frame(self) -> int:
        return self._frame

    @property
    def frame_count(self) -> int:
        return self._count

    @property
    def last_frame(self) -> int:
        return self._count - 1

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    @property
    def speed(self) -> float:
        """Frames per second."""
        return self._speed

    @property
    def loop(self) -> bool:
        return self._loop

    @property
    def interval_ms(self) -> int:
        return self._timer.interval()

    # --- control ------------------------------------------------------------------------
    def set_frame_count(self, count: int) -> None:
        count = max(1, int(count))
        if count == self._count:
            return
        self._count = count
        self.frameCountChanged.emit(count)
        if self._frame > self.last_frame:
            self.seek(self.last_frame)

    def seek(self, frame: int) -> None:
        frame = max(0, min(int(frame), self.last_frame))
        if frame != self._frame:
            self._frame = frame
            self.frameChanged.emit(frame)

    def step_forward(self) -> None:
        """One frame on; from the last frame, wrap to the first when looping."""
        if self._frame < self.last_frame:
            self.seek(self._frame + 1)
        elif self._loop:
            self.seek(0)

    def step_back(self) -> None:
        if self._frame > 0:
            self.seek(self._frame - 1)
        elif self._loop:
            self.seek(self.last_frame)

    def first(self) -> None:
        self.seek(0)

    def last(self) -> None:
        self.seek(self.last_frame)

    def play(self) -> None:
        if self.playing or self._count <= 1:
            return
        if self._frame >= self.last_frame and not self._loop:
            self.seek(0)  # play again from the start
        self._timer.start()
        self.playingChanged.emit(True)

    def pause(self) -> None:
        if self.playing:
            self._timer.stop()
            self.playingChanged.emit(False)

    def toggle(self) -> None:
        """Play or pause: what Space does."""
        if self.playing:
            self.pause()
        else:
            self.play()

    def set_speed(self, frames_per_second: float) -> None:
        speed = _clamp_speed(frames_per_second)
        if speed != self._speed:
            self._speed = speed
            self._apply_interval()
            self.speedChanged.emit(speed)

    def set_loop(self, loop: bool) -> None:
        loop = bool(loop)
        if loop != self._loop:
            self._loop = loop
            self.loopChanged.emit(loop)

    # --- internals ----------------------------------------------------------------------
    def _apply_interval(self) -> None:
        self._timer.setInterval(max(1, round(1000.0 / self._speed)))

    def _tick(self) -> None:
        if self._frame < self.last_frame:
            self.seek(self._frame + 1)
        elif self._loop:
            self.seek(0)
        else:
            self.pause()


def _clamp_speed(value: float) -> float:
    return float(min(MAX_SPEED, max(MIN_SPEED, value)))


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
        self.frame_label.setText(f"frame {frame + 1} / {self.clock.frame_count}")

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
    b.setToolTip(tip)
    b.setAccessibleName(tip)
    b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    b.clicked.connect(slot)
    return b
