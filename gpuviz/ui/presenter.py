"""The presenter's screen: while the room sees one figure full screen, the lecturer's second
screen shows where the lecture is, the current step's notes, the next step's title, the time
of day and the time since presenting began. Notes live only here: never in the room's view, never in an export."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpuviz.scenario.document import Scenario
from gpuviz.ui.step_bar import count_text


class PresenterView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("presenter-view")
        self.setWindowTitle("gpuviz — presenter")
        self.position = QLabel()
        self.position.setObjectName("presenter-position")
        self.title = QLabel()
        self.title.setObjectName("presenter-title")
        self.title.setWordWrap(True)
        self.notes = QLabel()
        self.notes.setObjectName("presenter-notes")
        self.notes.setWordWrap(True)
        self.notes.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.next_title = QLabel()
        self.next_title.setObjectName("presenter-next")
        self.next_title.setWordWrap(True)
        self.clock = QLabel()
        self.clock.setObjectName("presenter-clock")
        # read at arm's length on a laptop while the room looks at the other screen
        for label, px, bold in ((self.position, 22, False), (self.title, 40, True),
                                (self.notes, 32, False), (self.next_title, 28, False),
                                (self.clock, 22, False)):
            font = label.font()
            font.setPixelSize(px)
            font.setBold(bold)
            label.setFont(font)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(24, 24, 24, 24)
        lay.addWidget(self.position)
        lay.addWidget(self.title)
        lay.addWidget(self.notes, 1)
        lay.addWidget(self.next_title)
        lay.addWidget(self.clock)
        self._started = time.monotonic()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self._timer.start(1000)
        self._tick()

    def show_step(self, scenario: Scenario, k: int, veiled: bool = False) -> None:
        steps = scenario.steps
        if not steps:
            self.position.setText("no steps")
        elif k < 0:
            self.position.setText(f"overview · {count_text(len(steps), 'step')}")
        else:
            self.position.setText(f"step {k + 1} of {len(steps)}"
                                  + (" · the room is asked to predict" if veiled else ""))
        current = steps[k] if 0 <= k < len(steps) else None
        self.title.setText(current.title if current else scenario.title)
        notes = current.notes if current else ""
        self.notes.setText(notes or "(no notes for this step)")
        if k + 1 < len(steps):
            self.next_title.setText(f"Next: {steps[k + 1].title}")
        else:
            self.next_title.setText("Next: (end of the steps)")

    def _tick(self) -> None:
        s = int(time.monotonic() - self._started)
        now = time.strftime("%H:%M")
        self.clock.setText(f"{now} · presenting for {s // 60:d}:{s % 60:02d}")
