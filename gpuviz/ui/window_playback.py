"""The main window's playback: one clock for the document (animated panels follow it through
the ``frame:<n>`` key of the selection), and its bar, made when a shown panel first animates."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from gpuviz.ui.playback import PlaybackClock, frame_count_for
from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.playback_bar import PlaybackBar
    from gpuviz.ui.window_api import WindowApi


class WindowPlayback:
    def __init__(self, window: WindowApi):
        self.window = window
        self.clock = PlaybackClock(as_qt(window))
        # its controls are made when a shown panel first animates (most lectures open still)
        self._bar: PlaybackBar | None = None
        self.toolbar = window.fixed_toolbar("Playback", "toolbar-playback", None,
                                             Qt.ToolBarArea.BottomToolBarArea)
        self.toolbar.hide()
        self._holding = 0
        self.clock.frameChanged.connect(self._on_frame)

    @property
    def bar(self) -> PlaybackBar:
        if self._bar is None:
            from gpuviz.ui.playback_bar import PlaybackBar

            self._bar = PlaybackBar(self.clock)
            self.toolbar.addWidget(self._bar)
        return self._bar

    def _on_frame(self, frame: int) -> None:
        self.window.document.set_frame(frame if self.clock.frame_count > 1 else None)

    def _visible(self) -> list[str]:
        return [pid for pid, d in self.window.docks.items() if not d.isHidden()]

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Docks hidden and shown in passing (entering or leaving F5) do not move the playback
        position: the frame count is taken once, afterwards."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
            if not self._holding:
                self.update_frames()

    def update_frames(self) -> None:
        visible = self._visible()
        if self._holding or not visible:
            return  # docks in passing (F5, a panel swapped for another): the clock stays
        count = frame_count_for(self.window.document.shown, visible)
        was_at_end = self.clock.frame >= self.clock.last_frame
        self.clock.set_frame_count(count)
        if count > 1 and was_at_end and not self.clock.playing:
            self.clock.last()  # a new picture opens on its final state; Play starts it over
        self.window.document.set_frame(self.clock.frame if count > 1 else None)

    def enter_step(self) -> None:
        """A step was entered: the clock stands at the frame the lecture model gives it (its
        ``frame:N``, else the last frame), whichever step the room came from."""
        self.update_frames()
        if self._holding or self.clock.frame_count <= 1:
            return
        from dataclasses import replace

        from gpuviz.lecture import show

        entered = replace(self.window.document.lecture, frame=None)  # the step's own frame
        frames = [p.frame for p in show(entered).panels if p.animated]
        frame = next((f for f in frames if f is not None), None)
        self.clock.pause()
        if frame is None:
            self.clock.last()
        else:
            self.clock.seek(frame)
        self.window.document.set_frame(self.clock.frame)

    def update_bar(self) -> None:
        """The playback bar shows when any step of the scenario animates a shown panel: it is
        there or not for the whole lecture, so stepping never moves the figures."""
        if self.window.presentation.active:
            return
        visible = self._visible()
        scenario = self.window.document.scenario
        animated = bool(visible) and any(
            frame_count_for(scenario.at_step(k), visible) > 1
            for k in range(-1, len(scenario.steps)))
        if animated:
            self.bar  # noqa: B018 (made on first need)
        self.toolbar.setVisible(animated)
