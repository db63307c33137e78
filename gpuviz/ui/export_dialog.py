"""File ▸ Export Figure…: one panel's figure as SVG, PDF, PNG, GIF or APNG, in a theme and a size
preset; the current state, every step (one file each, or one animation), or every playback
frame; text as outlines for SVG. It offers what ``gpuviz export`` does, and remembers the last
choices (in the settings) for the next export."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QWidget,
)

from gpuviz.figures.theme import THEMES
from gpuviz.registry import panel

if TYPE_CHECKING:
    from gpuviz.ui.document import Document

SIZES = (("natural", "Natural size"), ("single", "Single column (85 mm)"),
         ("double", "Double column (178 mm)"), ("slide", "16:9 slide"))
FORMATS = ("svg", "pdf", "png", "gif", "apng")
ANIMATED = ("gif", "apng")
CHROME_LABELS = (("full", "Title, notes and legend"), ("legend", "Legend only"),
                 ("none", "Nothing: the drawing alone"))
WHAT = (("current", "What is shown now"), ("steps", "Every step (overview and steps)"),
        ("frames", "Every playback frame"))


@dataclass(frozen=True)
class ExportChoice:
    panel_id: str
    path: Path
    fmt: str
    theme_name: str
    size: str
    dpi: int
    what: str  # "current", "steps" or "frames"
    text_as_paths: bool = False
    parts: tuple[str, ...] | None = None  # None: the whole figure
    chrome: str = "full"  # what surrounds the parts: full, legend, none

    @property
    def frames(self) -> bool:
        return self.what == "frames"


class ExportDialog(QDialog):
    def __init__(self, panel_ids: tuple[str, ...], current: str, theme_name: str,
                 default_dir: Path, stem: str, settings: QSettings | None = None,
                 document: Document | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Export Figure")
        self.settings = settings
        remembered = _remembered(settings)
        self.panel_box = QComboBox()
        for pid in panel_ids:
            self.panel_box.addItem(panel(pid).title, pid)
        if current in panel_ids:
            self.panel_box.setCurrentIndex(panel_ids.index(current))
        self.format_box = QComboBox()
        self.format_box.addItems(list(FORMATS))
        self.format_box.setCurrentText(remembered.get("fmt", "svg"))
        self.theme_box = QComboBox()
        self.theme_box.addItems(list(THEMES))
        self.theme_box.setCurrentText(remembered.get("theme", theme_name))
        self.size_box = QComboBox()
        for key, label in SIZES:
            self.size_box.addItem(label, key)
        self.size_box.setCurrentIndex(max(0, [k for k, _ in SIZES].index(
            remembered.get("size", "natural")) if remembered.get("size") in dict(SIZES) else 0))
        self.dpi = QSpinBox()
        self.dpi.setRange(72, 1200)
        self.dpi.setValue(int(remembered.get("dpi", 200)))
        self.what_box = QComboBox()
        self.what_box.setObjectName("export-what")
        for key, label in WHAT:
            self.what_box.addItem(label, key)
        self.what_box.setCurrentIndex([k for k, _ in WHAT].index(remembered.get("what", "current"))
                                      if remembered.get("what") in dict(WHAT) else 0)
        # the figure's parts (all: the whole figure) and what surrounds them, as --part/--chrome
        self.parts_list = QListWidget()
        self.parts_list.setObjectName("export-parts")
        self.parts_list.setMaximumHeight(96)
        self.panel_box.currentIndexChanged.connect(self._fill_parts)
        self.chrome_box = QComboBox()
        self.chrome_box.setObjectName("export-chrome")
        for key, label in CHROME_LABELS:
            self.chrome_box.addItem(label, key)
        self.chrome_box.setCurrentIndex(max(0, self.chrome_box.findData(
            remembered.get("chrome", "full"))))
        self.text_paths = QCheckBox("text as outlines (SVG: no fonts needed to view it)")
        self.text_paths.setObjectName("export-text-as-paths")
        self.text_paths.setChecked(remembered.get("text_as_paths") == "true")
        # a question step is shown veiled in the hall; its export is the picture (the answer)
        self.veil_note = QLabel()
        self.veil_note.setWordWrap(True)
        veiled = document is not None and document.veiled
        self.veil_note.setText("This step is a question: the export shows its answer (the "
                               "revealed picture)." if veiled else "")
        self.veil_note.setVisible(veiled)
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
        form.addRow("Export", self.what_box)
        form.addRow("Parts", self.parts_list)
        form.addRow("Around the parts", self.chrome_box)
        form.addRow("Text", self.text_paths)
        form.addRow(self.veil_note)
        form.addRow("File", row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        for box in (self.panel_box, self.format_box, self.what_box):
            box.currentIndexChanged.connect(self._suggest)
        self.format_box.currentIndexChanged.connect(self._enable)
        self._fill_parts()
        self._suggest()
        self._enable()

    def _fill_parts(self) -> None:
        self.parts_list.clear()
        for name in panel(self.panel_id()).parts:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.parts_list.addItem(item)
        self.parts_list.setVisible(self.parts_list.count() > 0)

    def chosen_parts(self) -> tuple[str, ...] | None:
        """The parts checked, in the figure's order; None when all are (the whole figure)."""
        items = [self.parts_list.item(i) for i in range(self.parts_list.count())]
        checked = tuple(i.text() for i in items if i.checkState() == Qt.CheckState.Checked)
        return None if len(checked) == len(items) else checked

    def _enable(self) -> None:
        fmt = self.format_box.currentText()
        self.text_paths.setEnabled(fmt == "svg")
        self.dpi.setEnabled(fmt != "svg")

    def _suggest(self) -> None:
        fmt = self.format_box.currentText()
        typed = Path(self.path.text())
        if self.path.isModified() and self.path.text():  # the user's own name: only its format
            self.path.setText(str(typed.with_suffix(f".{fmt}")))
            self.path.setModified(True)
            return
        suffix = "-steps" if self.what_box.currentData() == "steps" else ""
        name = f"{self._stem}-{self.panel_id()}{suffix}.{fmt}"
        self.path.setText(str(self._dir / name))

    def _browse(self) -> None:
        fmt = self.format_box.currentText()
        path, _ = QFileDialog.getSaveFileName(self, "Export Figure", self.path.text(),
                                              f"{fmt.upper()} (*.{fmt})")
        if path:
            self.path.setText(path)
            self.path.setModified(True)

    def panel_id(self) -> str:
        return self.panel_box.currentData()

    def choices(self) -> ExportChoice:
        fmt = self.format_box.currentText()
        return ExportChoice(self.panel_id(), Path(self.path.text()), fmt,
                            self.theme_box.currentText(), self.size_box.currentData(),
                            self.dpi.value(), self.what_box.currentData(),
                            self.text_paths.isChecked() and fmt == "svg",
                            self.chosen_parts(), self.chrome_box.currentData())

    def remember(self) -> None:
        """Keep these choices for the next export (the folder too)."""
        if self.settings is None:
            return
        c = self.choices()
        for key, value in (("fmt", c.fmt), ("theme", c.theme_name), ("size", c.size),
                           ("dpi", c.dpi), ("what", c.what),
                           ("text_as_paths", "true" if c.text_as_paths else "false"),
                           ("chrome", c.chrome),
                           ("folder", str(c.path.parent))):
            self.settings.setValue(f"export/{key}", value)


def _remembered(settings: QSettings | None) -> dict[str, str]:
    if settings is None:
        return {}
    out = {}
    for key in ("fmt", "theme", "size", "dpi", "what", "text_as_paths", "chrome", "folder"):
        value = settings.value(f"export/{key}")
        if value is not None:
            out[key] = str(value)
    return out


def remembered_folder(settings: QSettings | None) -> Path | None:
    folder = _remembered(settings).get("folder")
    return Path(folder) if folder and Path(folder).is_dir() else None


def run_export(document: Document, c: ExportChoice) -> str:
    """Write what ``c`` asks for; returns a note for the status line."""
    from gpuviz.export.files import export_figure

    shown, selection = document.shown, document.selection
    scenario = document.scenario
    if c.fmt in ANIMATED:
        return _animate(document, c)
    if c.what == "frames":
        from gpuviz.export.sequence import export_sequence

        stem = c.path.stem.removesuffix(f"-{c.panel_id}")  # the names add it
        paths = export_sequence(shown, c.panel_id, c.path.parent, stem, fmt=c.fmt,
                                theme_name=c.theme_name, size=c.size, dpi=c.dpi,
                                selection=selection)
        return f" … {len(paths)} frames"
    kw = dict(fmt=c.fmt, theme_name=c.theme_name, size=c.size, dpi=c.dpi,
              text_as_paths=c.text_as_paths, parts=c.parts, chrome=c.chrome)
    if c.what == "steps":
        stem = c.path.stem.removesuffix("-steps")
        digits = max(2, len(str(len(scenario.steps))))
        for k in range(-1, len(scenario.steps)):
            suffix = f"-step{k + 1:0{digits}d}" if k >= 0 else "-overview"
            export_figure(scenario.at_step(k), c.panel_id,
                          c.path.parent / f"{stem}{suffix}.{c.fmt}",
                          selection=scenario.step_selection(k), **kw)  # type: ignore[arg-type]
        return f" … {len(scenario.steps) + 1} files"
    return export_figure(shown, c.panel_id, c.path, selection=selection, **kw)  # type: ignore[arg-type]


def _animate(document: Document, c: ExportChoice) -> str:
    from gpuviz.export.animate import MAX_FRAMES, FramePlan, write_animation
    from gpuviz.figures.scene import figure_for, frame_count
    from gpuviz.figures.targets import TARGETS
    from gpuviz.figures.theme import theme
    from gpuviz.keys import at_frame, without_frame

    th = theme(c.theme_name)
    target = TARGETS[c.size].showing(c.parts, c.chrome)  # type: ignore[arg-type]
    scenario, kept = document.scenario, without_frame(document.selection)
    if c.what == "steps":
        chosen = list(range(-1, len(scenario.steps)))[:MAX_FRAMES]

        def step_figure(i: int):
            k = chosen[i]
            return figure_for(scenario.at_step(k), c.panel_id, th, scenario.step_selection(k),
                              target)

        plan = FramePlan(len(chosen), step_figure, 0.5)
    else:
        shown = document.shown
        total = min(frame_count(shown, c.panel_id), MAX_FRAMES)

        def frame_figure(i: int):
            return figure_for(shown, c.panel_id, th, at_frame(kept, i), target)

        plan = FramePlan(total, frame_figure, 4.0)
    count = write_animation(plan, c.path, c.fmt, dpi=min(c.dpi, 110), background=th.background)
    return f" … {count} frames"
