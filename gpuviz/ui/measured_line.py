"""The line under a dock's controls that puts the model's number beside the H200's:
"Model: 4 32-byte sectors · H200 measured: 4 (agrees)", "… · not measured", or nothing for a
panel whose registry entry has no measured quantity looked up by section."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel

from gpuviz.registry import Panel
from gpuviz.scenario.compute import effective_params
from gpuviz.ui.document import Document


class MeasuredLine(QLabel):
    def __init__(self, panel: Panel, document: Document):
        super().__init__()
        self.panel, self.document = panel, document
        self.setObjectName(f"{panel.id}-measured")
        self.setWordWrap(True)
        self.hide()
        self._result: object = None
        # held while the window's first frame is being made (the measurement tables are not
        # needed for it); MainWindow.complete releases it
        self.held = False

    def show_for(self, result: object) -> None:
        """The figure now shows ``result``: the line follows on the next event-loop turn."""
        self._result = result
        if not self.held:
            QTimer.singleShot(0, self, self._update)

    def release(self) -> None:
        if self.held:
            self.held = False
            if self._result is not None:
                self._update()

    def _update(self) -> None:
        text = self.text_for(self._result)
        self.setText(text)
        self.setVisible(bool(text) and not self.document.hides("measured"))  # a question veils it

    def text_for(self, result: object) -> str:
        measured = self.panel.measured
        if result is None or measured is None or not measured.by_section:
            return ""
        from gpuviz.lecture.answer import measured_phrase
        from gpuviz.measurements import label

        try:
            params = effective_params(self.document.shown, self.panel.id)
            value = measured.of(result)
        except Exception:  # a result without the measured quantity (an error figure)
            return ""
        return (f"Model: {measured_phrase(self.panel.id, value)} · "
                f"{label(self.panel.id, params, value)}")
