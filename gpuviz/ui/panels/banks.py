"""Banks dock: a padding slider that turns any pattern into the column read of a padded array.

Padding is the source text's fix for the 32-way column conflict; dragging the slider from 0 to 1 shows
32 rounds collapse to 1. The drag is one undoable edit. A clicked lane, bank or word is a shared
selection, highlighted in every dock (``bank:<b>`` also in the swizzle panel's bank strips).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QSlider, QWidget

from gpuviz.ui.panel_extras import PanelExtras
from gpuviz.ui.section_control import SectionControl

PANEL_ID = "banks"


class PaddingControl(SectionControl):
    panel_id = PANEL_ID

    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(dock, parent)
        self.setObjectName("banks-padding-control")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 8)
        self.slider.setObjectName("banks-padding-slider")
        self.label = QLabel()
        lay = QFormLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addRow(QLabel("<b>Column read, drag the padding</b>"))
        lay.addRow(self.label, self.slider)
        self.slider.valueChanged.connect(self._moved)
        self.start()

    def show_params(self, p) -> None:
        self.slider.setValue(min(8, p.pattern.padding))
        self.label.setText(f"row {p.pattern.row_width} + {p.pattern.padding}")

    def _moved(self, value: int) -> None:
        p = self.params()
        column = min(p.pattern.column, p.pattern.row_width - 1)
        new = replace(p, pattern=replace(p.pattern, kind="column", padding=value, column=column))
        self.edit(new, f"Row padding {value}", "drag-padding")


class BanksExtras(PanelExtras):
    def __init__(self, dock):
        super().__init__(dock)
        self.padding_control = PaddingControl(dock)

    def widgets(self) -> list[QWidget]:
        return [self.padding_control]
