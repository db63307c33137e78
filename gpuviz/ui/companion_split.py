"""The figure above the widget a panel adds under it (its ``companion``: the scheduler's
zoomable timeline). Laid out by its size hints, the companion took half the dock's height and
left the figure's type under 12 px at 1280×720; here the companion gets a third of the column
(never less than it needs to be read), the figure the rest, until the user drags the handle."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget

COMPANION_SHARE = 1 / 3  # of the column's height, at least the companion's minimum


class CompanionSplit(QSplitter):
    def __init__(self, figure: QWidget, companion: QWidget, name: str):
        super().__init__(Qt.Orientation.Vertical)
        self.setObjectName(name)
        self.addWidget(figure)
        self.addWidget(companion)
        self.setChildrenCollapsible(False)
        self.dragged = False  # the user's split is kept from then on
        self.splitterMoved.connect(self._on_moved)

    def _on_moved(self, _pos: int, _index: int) -> None:
        self.dragged = True

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.give_figure_room()

    def give_figure_room(self) -> None:
        """The companion's share of the height, the figure the rest (unless dragged)."""
        companion = self.widget(1)
        assert companion is not None  # made with the figure and its companion
        if self.dragged or companion.isHidden():
            return
        total = sum(self.sizes())
        if total <= 0:
            return
        own = max(companion.minimumSizeHint().height(), round(total * COMPANION_SHARE))
        if self.sizes()[1] != own:
            self.setSizes([total - own, own])
