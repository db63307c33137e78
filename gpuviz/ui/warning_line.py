"""The warnings of the state on screen (``gpuviz.scenario.warnings``: a grid that leaves
elements unprocessed, a load no lane takes part in) in the window's message line, the step
bar's right end, as ``gpuviz validate`` prints them: never a dialog, and gone once the state
shown no longer warns. The message's tooltip lists them all."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from gpuviz.scenario.problems import MAX_REPORTED, printable
from gpuviz.scenario.warnings import state_warnings
from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi


def warning_text(found) -> str:
    """"Warning: the grid covers 32 of the 100,000 elements": the first warning's first clause
    (the line is short, and shows its end when clipped; the tooltip gives every warning with
    its path) and how many more there are."""
    if not found:
        return ""
    first = found[0]
    clause = re.split(r" \(|; |: ", first.message, maxsplit=1)[0]
    more = f" (and {len(found) - 1:,} more)" if len(found) > 1 else ""
    return printable(f"Warning: {clause}{more}")


class WarningLine(QObject):
    def __init__(self, window: WindowApi):
        super().__init__(as_qt(window))
        self.window = window
        self.shown = ""
        window.document.shown_changed.connect(self.update)
        # a passing message ("Saved …") gives the line back to the warning when it times out
        window.statusBar().messageChanged.connect(self._on_message)
        self.update()

    def update(self) -> None:
        found = state_warnings(self.window.document.shown)
        text, before = warning_text(found), self.shown
        self.shown = text
        bar = self.window.statusBar()
        self.window.step_bar_widget.message.setToolTip(
            "\n".join(printable(f"{p.path}: {p.message}") for p in found[:MAX_REPORTED]))
        if text:
            bar.showMessage(text)
        elif before and bar.currentMessage() == before:
            bar.clearMessage()

    def _on_message(self, text: str) -> None:
        if not text and self.shown:
            self.window.statusBar().showMessage(self.shown)


def install(window: WindowApi) -> WarningLine:
    return WarningLine(window)
