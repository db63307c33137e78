"""Sectors dock: sliders to drag the stride and the base offset, as a lecturer does live.

Dragging either slider is one undoable edit (the document merges the run). The stride slider
switches the pattern to ``stride``; the base-offset slider moves the base in whole elements, so
the load stays naturally aligned. Lanes follow the warp selected in ``launch`` when the section's
``follow_launch`` is set; a clicked lane or sector is a shared selection, highlighted in every dock.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QSlider, QWidget

from gpuviz.ui.panel_extras import PanelExtras
from gpuviz.ui.section_control import SectionControl

PANEL_ID = "sectors"


class DragControls(SectionControl):
    panel_id = PANEL_ID

    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(dock, parent)
        self.setObjectName("sectors-drag-controls")
        self.stride = QSlider(Qt.Orientation.Horizontal)
        self.stride.setRange(1, 32)
        self.stride.setObjectName("sectors-stride-slider")
        self.shift = QSlider(Qt.Orientation.Horizontal)
        self.shift.setRange(0, 32)
        self.shift.setObjectName("sectors-base-slider")
        self.stride_label = QLabel()
        self.shift_label = QLabel()
        lay = QFormLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addRow(QLabel("<b>Drag</b>"))
        lay.addRow(self.stride_label, self.stride)
        lay.addRow(self.shift_label, self.shift)
        self.stride.valueChanged.connect(self._stride_moved)
        self.shift.valueChanged.connect(self._shift_moved)
        self.start()

    def show_params(self, p) -> None:
        self.stride.setValue(max(1, min(32, p.pattern.stride)))
        self.shift.setValue(min(32, p.base_offset // p.element_bytes))
        self.stride_label.setText(f"stride: {p.pattern.stride}")
        self.shift_label.setText(f"base: {p.base_offset} B")

    def _stride_moved(self, value: int) -> None:
        p = self.params()
        new = replace(p, pattern=replace(p.pattern, kind="stride", stride=value))
        self.edit(new, f"Stride {value}", "drag-stride")

    def _shift_moved(self, value: int) -> None:
        p = self.params()
        new = replace(p, base_offset=value * p.element_bytes)
        self.edit(new, f"Base offset {new.base_offset} B", "drag-base")


class SectorsExtras(PanelExtras):
    def __init__(self, dock):
        super().__init__(dock)
        self.drag_controls = DragControls(dock)

    def widgets(self) -> list[QWidget]:
        return [self.drag_controls]
