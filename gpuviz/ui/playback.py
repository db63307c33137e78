"""The document's one playback clock and the bar that drives it
(``playback_bar``, made when a shown panel first animates).

Animated figures (``pipeline``, ``barrier``, ``reduction``, the ``traversal`` path) read the
playback position from the selection key ``frame:<n>``; the clock only counts frames. The main
window connects ``frameChanged`` to ``Document.set_frame`` and sets ``frame_count`` from the
focused panels (``frame_count_for``), and maps keys to ``toggle``, ``step_forward`` and
``step_back``. Playback speed is frames per second of the picture, not GPU time.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, Qt, QTimer, Signal

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
