"""Edit ▸ Lecture Title and Description…: the scenario's title (the window's title, the
overview's heading in F5) and its description (the overview's caption)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)


class TitleDialog(QDialog):
    def __init__(self, title: str, description: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Lecture Title and Description")
        self.setObjectName("title-dialog")
        self.title = QLineEdit(title)
        self.title.setObjectName("lecture-title")
        self.title.setMinimumWidth(420)
        self.description = QPlainTextEdit(description)
        self.description.setObjectName("lecture-description")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.title.textChanged.connect(self._validate)
        form = QFormLayout(self)
        form.addRow("Title", self.title)
        form.addRow("Description (the overview's caption)", self.description)
        form.addRow(self.buttons)
        self._validate()

    def _validate(self) -> None:
        ok = bool(self.title.text().strip())
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        button.setEnabled(ok)
        button.setToolTip("" if ok else "A lecture needs a title")

    def result_texts(self) -> tuple[str, str]:
        return self.title.text().strip(), self.description.toPlainText().strip()
