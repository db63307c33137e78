"""File ▸ Export Figure…: one panel's figure as SVG, PDF or PNG, in a theme and a size preset."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from gpuviz.figures.theme import THEMES
from gpuviz.registry import panel

SIZES = (("natural", "Natural size"), ("single", "Single column (85 mm)"),
         ("double", "Double column (178 mm)"), ("slide", "16:9 slide"))


class ExportDialog(QDialog):
    def __init__(self, panel_ids: tuple[str, ...], current: str, theme_name: str,
                 default_dir: Path, stem: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Export Figure")
        self.panel_box = QComboBox()
        for pid in panel_ids:
            self.panel_box.addItem(panel(pid).title, pid)
        if current in panel_ids:
            self.panel_box.setCurrentIndex(panel_ids.index(current))
        self.format_box = QComboBox()
        self.format_box.addItems(["svg", "pdf", "png"])
        self.theme_box = QComboBox()
        self.theme_box.addItems(list(THEMES))
        self.theme_box.setCurrentText(theme_name)
        self.size_box = QComboBox()
        for key, label in SIZES:
            self.size_box.addItem(label, key)
        self.dpi = QSpinBox()
        self.dpi.setRange(72, 1200)
        self.dpi.setValue(200)
        self.frames = QCheckBox("every playback frame, as a numbered sequence")
        self.frames.setObjectName("export-frames")
        self.path = QLineEdit()
        self._dir, self._stem = default_dir, stem
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.path, 1)
        lay.addWidget(browse)
        form = QFormLayout(self)
        form.addRow("Panel", self.panel_box)
        form.addRow("Format", self.format_box)
        form.addRow("Theme", self.theme_box)
        form.addRow("Size", self.size_box)
        form.addRow("PNG resolution (dpi)", self.dpi)
        form.addRow("Frames", self.frames)
        form.addRow("File", row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        for box in (self.panel_box, self.format_box):
            box.currentIndexChanged.connect(self._suggest)
        self._suggest()

    def _suggest(self) -> None:
        name = f"{self._stem}-{self.panel_id()}.{self.format_box.currentText()}"
        self.path.setText(str(self._dir / name))

    def _browse(self) -> None:
        fmt = self.format_box.currentText()
        path, _ = QFileDialog.getSaveFileName(self, "Export Figure", self.path.text(),
                                              f"{fmt.upper()} (*.{fmt})")
        if path:
            self.path.setText(path)

    def panel_id(self) -> str:
        return self.panel_box.currentData()

    def choices(self) -> dict:
        return {"panel_id": self.panel_id(), "path": Path(self.path.text()),
                "fmt": self.format_box.currentText(), "theme_name": self.theme_box.currentText(),
                "size": self.size_box.currentData(), "dpi": self.dpi.value(),
                "frames": self.frames.isChecked()}
