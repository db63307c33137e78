"""The part switcher above a dock's figure: when the whole figure would not be legible in the
view, the dock draws the parts that fit (a page) and offers the others here, one tab a page.

Its row is there in the window for every panel of several parts (one tab, "whole figure", when
the whole is legible), so the figure never moves as pages come and go; never in presentation
mode, where the step chooses. The choice is the dock's, remembered for the panel in the
settings."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTabBar, QWidget

SWITCHER_PX = 26  # its height: the view is laid out for what is left


def page_title(parts: tuple[str, ...]) -> str:
    return " · ".join(parts)


class PartSwitcher(QWidget):
    chosen = Signal(str)  # the first part of the page chosen

    def __init__(self, panel_id: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(f"{panel_id}-parts")
        self.setFixedHeight(SWITCHER_PX)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 0, 6, 0)
        lay.setSpacing(6)
        label = QLabel("Parts:")
        label.setToolTip("The whole figure would be too small to read here: it is shown a few "
                         "parts at a time")
        self.tabs = QTabBar()
        self.tabs.setObjectName(f"{panel_id}-part-tabs")
        self.tabs.setDrawBase(False)
        self.tabs.setExpanding(False)
        self.tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tabs.currentChanged.connect(self._on_current)
        lay.addWidget(label)
        lay.addWidget(self.tabs, 1)
        self._pages: tuple[tuple[str, ...], ...] = ()
        self._whole = False
        self.hide()

    def pages(self) -> tuple[tuple[str, ...], ...]:
        return self._pages

    def set_pages(self, pages: tuple[tuple[str, ...], ...],
                  current: tuple[str, ...] | None, whole: bool = False) -> None:
        """Offer ``pages`` with ``current`` chosen; ``whole``: the one page is the whole
        figure."""
        self.tabs.blockSignals(True)
        if (pages, whole) != (self._pages, self._whole):
            while self.tabs.count():
                self.tabs.removeTab(0)
            for page in pages:
                self.tabs.addTab("whole figure" if whole else page_title(page))
            self._pages, self._whole = pages, whole
        if current in pages:
            self.tabs.setCurrentIndex(pages.index(current))
        self.tabs.blockSignals(False)

    def choose(self, index: int) -> None:
        self.tabs.setCurrentIndex(index)

    def _on_current(self, index: int) -> None:
        if 0 <= index < len(self._pages):
            self.chosen.emit(self._pages[index][0])
