"""Help ▸ About This Panel: the panel's paragraph and its references (texts in gpuviz.help)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gpuviz.help import TOPICS, help_for
from gpuviz.registry import panel


def panel_help_html(panel_id: str) -> str:
    p, h = panel(panel_id), help_for(panel_id)
    refs = "".join(f"<li>{escape(r)}</li>" for r in h.references)
    return (f"<h2>{escape(p.title)}</h2><p><i>{escape(p.summary)}.</i></p>"
            f"<p>{escape(h.text)}</p><h3>Where the rules come from</h3><ul>{refs}</ul>")


class AboutPanelDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("about-panel")
        self.setWindowTitle("About This Panel")
        self.choice = QComboBox()
        for topic, ids in TOPICS:
            for pid in ids:
                self.choice.addItem(f"{topic} › {panel(pid).title}", pid)
        self.text = QTextBrowser()
        self.text.setObjectName("about-panel-text")
        self.text.setOpenExternalLinks(False)
        self.choice.currentIndexChanged.connect(
            lambda _i: self.text.setHtml(panel_help_html(self.choice.currentData())))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.choice)
        lay.addWidget(self.text, 1)
        lay.addWidget(buttons)
        self.resize(560, 480)
        self.show_panel("launch")

    def show_panel(self, panel_id: str) -> None:
        self.choice.setCurrentIndex(self.choice.findData(panel_id))
        self.text.setHtml(panel_help_html(panel_id))

    def panel_id(self) -> str:
        return self.choice.currentData()
