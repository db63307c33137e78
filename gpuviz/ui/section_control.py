"""A panel's hand-made controls (sliders to drag live) bound to its scenario section.

Subclasses build their widgets, then call ``start()``; they show the section in ``show(params)``
and change it with ``edit(...)``. Showing never writes back, and a drag is one undo step."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget


class SectionControl(QWidget):
    panel_id = ""

    def __init__(self, dock, parent: QWidget | None = None):
        super().__init__(parent)
        self.dock = dock
        self._syncing = False

    def start(self) -> None:
        self.dock.document.shown_changed.connect(self.sync)
        self.dock.document.section_changed.connect(self._on_section_changed)
        self.sync()

    def params(self) -> Any:
        return self.dock.document.shown.section(self.panel_id)

    def _on_section_changed(self, panel_id: str) -> None:
        if panel_id == self.panel_id:
            self.sync()

    def sync(self) -> None:
        self._syncing = True
        try:
            self.show_params(self.params())
        finally:
            self._syncing = False

    def show_params(self, params: Any) -> None:
        raise NotImplementedError

    def edit(self, params: Any, text: str, merge_key: str) -> None:
        if not self._syncing:
            self.dock.document.edit_section(self.panel_id, params, text=text, merge_key=merge_key)
