"""File ▸ Export Figure…: one panel's figure as SVG, PDF, PNG, GIF or APNG, in a theme and a size
preset; a chosen step (a question step veiled, as the room sees it before the reveal, or
revealed), every step (one file each, or one animation), or every playback frame; the figure's
parts and what surrounds them; SVG text as text, with its fonts embedded, or as outlines. It
offers what ``gpuviz export`` does, previews the very figure it will write
(``ui/export_preview.py``), and remembers the last choices (in the settings)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gpuviz.figures.theme import THEMES
from gpuviz.registry import panel
from gpuviz.ui.export_preview import ExportPreview

if TYPE_CHECKING:
    from gpuviz.export.lecture import Page
    from gpuviz.figures.display import Figure
    from gpuviz.scenario.document import Scenario
    from gpuviz.ui.document import Document

SIZES = (("natural", "Natural size"), ("single", "Single column (85 mm)"),
         ("double", "Double column (178 mm)"), ("slide", "16:9 slide"))
FORMATS = ("svg", "pdf", "png", "gif", "apng")
ANIMATED = ("gif", "apng")
CHROME_LABELS = (("full", "Title, notes and legend"), ("legend", "Legend only"),
                 ("none", "Nothing: the drawing alone"))
WHAT = (("current", "The step chosen above"), ("steps", "Every step (overview and steps)"),
        ("frames", "Every playback frame"))
TEXT = (("text", "As text"), ("embed", "As text, its fonts embedded (SVG)"),
        ("paths", "As outlines (SVG: no fonts needed to view it)"))
QUESTION = (("revealed", "Revealed: the picture with its answer"),
            ("veiled", "Veiled: as the room sees it before the reveal"))


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
    step: int | None = None  # the step exported (0-based, -1 the overview); None: as shown
    veiled: bool = False  # a question step as the room sees it before the reveal
    embed_fonts: bool = False
    fps: float | None = None  # an animation's frame rate (None: 4 for playback, 0.5 for steps)

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
        self.document = document
        remembered = _remembered(settings)
        self.panel_box = QComboBox()
        self.panel_box.setObjectName("export-panel")
        for pid in panel_ids:
            self.panel_box.addItem(panel(pid).title, pid)
        if current in panel_ids:
            self.panel_box.setCurrentIndex(panel_ids.index(current))
        self.step_box = QComboBox()
        self.step_box.setObjectName("export-step")
        self._fill_steps()
        self.question_box = _combo("export-question", QUESTION,
                                   "veiled" if document is not None and document.veiled
                                   else "revealed")
        self.format_box = QComboBox()
        self.format_box.addItems(list(FORMATS))
        self.format_box.setCurrentText(remembered.get("fmt", "svg"))
        self.theme_box = QComboBox()
        self.theme_box.addItems(list(THEMES))
        self.theme_box.setCurrentText(remembered.get("theme", theme_name))
        self.size_box = _combo("export-size", SIZES, remembered.get("size", "natural"))
        self.dpi = QSpinBox()
        self.dpi.setRange(72, 1200)
        self.dpi.setValue(int(remembered.get("dpi", 200)))
        self.fps = QDoubleSpinBox()
        self.fps.setObjectName("export-fps")
        self.fps.setRange(0.0, 50.0)  # 0: the default of what is animated
        self.fps.setDecimals(2)
        self.fps.setSpecialValueText("automatic (4 for playback, 0.5 for steps)")
        self.fps.setValue(float(remembered.get("fps", 0.0)))
        self.what_box = _combo("export-what", WHAT, remembered.get("what", "current"))
        # the figure's parts (all: the whole figure) and what surrounds them, as --part/--chrome
        self.parts_list = QListWidget()
        self.parts_list.setObjectName("export-parts")
        self.parts_list.setMaximumHeight(96)
        self.chrome_box = _combo("export-chrome", CHROME_LABELS, remembered.get("chrome", "full"))
        text = remembered.get("text") or ("paths" if remembered.get("text_as_paths") == "true"
                                          else "text")
        self.text_box = _combo("export-text", TEXT, text)
        self.path = QLineEdit()
        self._dir, self._stem = default_dir, stem
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.path, 1)
        lay.addWidget(browse)
        choices = QWidget()
        form = QFormLayout(choices)
        form.setContentsMargins(0, 0, 0, 0)
        # each label an Alt key to its control (Alt+S is the Save button's)
        form.addRow("&Panel", self.panel_box)
        form.addRow("S&tep", self.step_box)
        form.addRow("&Question", self.question_box)
        form.addRow("&Export", self.what_box)
        form.addRow("&Format", self.format_box)
        form.addRow("T&heme", self.theme_box)
        form.addRow("Si&ze", self.size_box)
        form.addRow("&Resolution (dpi)", self.dpi)
        form.addRow("Frames per secon&d", self.fps)
        form.addRow("P&arts", self.parts_list)
        form.addRow("Aro&und the parts", self.chrome_box)
        form.addRow("Te&xt", self.text_box)
        form.addRow("F&ile", row)
        file_label = form.labelForField(row)  # the QLabel addRow made of its text
        assert isinstance(file_label, QLabel)
        file_label.setBuddy(self.path)
        self._form = form
        self.preview = ExportPreview()
        self.written = QLabel()
        self.written.setObjectName("export-written")
        self.written.setWordWrap(True)
        self.written.setMaximumWidth(self.preview.width())
        side = QVBoxLayout()
        side.addWidget(self.preview)
        side.addWidget(self.written)
        side.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(choices, 1)
        top.addLayout(side)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        outer = QVBoxLayout(self)
        outer.addLayout(top)
        outer.addWidget(buttons)
        self.panel_box.currentIndexChanged.connect(self._fill_parts)
        self.step_box.currentIndexChanged.connect(self._fill_parts)
        for box in (self.panel_box, self.format_box, self.what_box, self.step_box,
                    self.question_box):
            box.currentIndexChanged.connect(self._suggest)
        for box in (self.panel_box, self.step_box, self.question_box, self.what_box,
                    self.format_box, self.theme_box, self.size_box, self.chrome_box,
                    self.text_box):
            box.currentIndexChanged.connect(self._changed)
        self.parts_list.itemChanged.connect(self._changed)
        self._fill_parts()
        self._suggest()
        self._changed()

    # --- the choices ---------------------------------------------------------------------------
    def _scenario(self) -> Scenario | None:
        return None if self.document is None else self.document.scenario

    def _fill_steps(self) -> None:
        doc = self.document
        if doc is None:
            self.step_box.addItem("What is shown now", None)
            return
        from gpuviz.lecture import listed_titles, show

        edited = doc.step < 0 and bool(show(doc.lecture).stale)  # the caption's marker
        self.step_box.addItem("Overview (as edited)" if edited else "Overview", -1)
        # a question not yet revealed in the hall keeps its title (often the answer) hidden
        for k, title in enumerate(listed_titles(doc.lecture)):
            self.step_box.addItem(f"{k + 1} · {title}", k)
        self.step_box.setCurrentIndex(doc.step + 1)

    def chosen_step(self) -> int | None:
        return self.step_box.currentData()

    def question(self) -> str:
        """The chosen step's question ("" for a step that asks none)."""
        from gpuviz.export.veiled import step_question

        scenario, k = self._scenario(), self.chosen_step()
        return "" if scenario is None or k is None else step_question(scenario, k)

    def _fill_parts(self) -> None:
        from gpuviz.lecture import shown_parts

        pid, k = self.panel_id(), self.chosen_step()
        # the parts the step's file shows, the lecture model's answer
        named = None if self.document is None or k is None \
            else shown_parts(self.document.lecture, k, pid, "export")
        kept = _remembered(self.settings).get(f"parts/{pid}")
        checked = set(named or (kept.split() if kept else panel(pid).parts))
        self.parts_list.blockSignals(True)
        self.parts_list.clear()
        for name in panel(pid).parts:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in checked or not checked
                               else Qt.CheckState.Unchecked)
            self.parts_list.addItem(item)
        self.parts_list.blockSignals(False)
        self.parts_list.setVisible(self.parts_list.count() > 0)

    def chosen_parts(self) -> tuple[str, ...] | None:
        """The parts checked, in the figure's order; None when all are (the whole figure),
        and for every step (each step's file shows the parts the step names)."""
        if self.what_box.currentData() == "steps":
            return None
        items = [self.parts_list.item(i) for i in range(self.parts_list.count())]
        checked = tuple(i.text() for i in items if i.checkState() == Qt.CheckState.Checked)
        return None if len(checked) == len(items) else checked

    def _asks(self) -> bool:
        """Whether what is exported holds a question step (the step chosen, or every step)."""
        what = self.what_box.currentData()
        return what != "frames" and (bool(self.question()) or (what == "steps"
                                                              and self._asks_any()))

    def _changed(self, *_args) -> None:
        fmt = self.format_box.currentText()
        asks = self._asks()
        self.question_box.setEnabled(asks)
        self._form.setRowVisible(self.question_box, asks)
        self.text_box.setEnabled(fmt == "svg")
        self.dpi.setEnabled(fmt != "svg")
        self.fps.setEnabled(fmt in ANIMATED)
        steps = self.what_box.currentData() == "steps"
        self.parts_list.setEnabled(not steps)
        self.parts_list.setToolTip("Each step's file shows the parts the step names" if steps
                                   else "")
        self.written.setText(self._written())
        self.preview.request(self._preview_maker())

    def _asks_any(self) -> bool:
        scenario = self._scenario()
        return scenario is not None and any(s.predict for s in scenario.steps)

    def veiled(self) -> bool:
        return self._asks() and self.question_box.currentData() == "veiled"

    def _preview_maker(self):
        """What the preview builds: the figure the export writes for the chosen step (the
        first of a sequence)."""
        from gpuviz.export.files import export_figure_of
        from gpuviz.export.lecture import step_heading

        c = self.choices()
        scenario, selection = shown_state(self.document, c)
        question = self.question() if c.veiled else ""
        # a step's file carries its heading and caption, as gpuviz export writes it
        heading = ("", "") if question or self.document is None else \
            step_heading(self.document.scenario, c.step, c.chrome)

        def make() -> tuple[Figure, str]:
            return export_figure_of(scenario, c.panel_id, theme_name=c.theme_name, size=c.size,
                                    selection=selection, parts=c.parts,
                                    chrome=c.chrome,  # type: ignore[arg-type]
                                    question=question, step=heading)
            # in the shipped faces: the room for a wider face is process-wide, the docks lay
            # out too

        return make

    def _written(self) -> str:
        """What Save writes, in words."""
        c = self.choices()
        scenario = self._scenario()
        n = len(scenario.steps) if scenario is not None else 0
        if c.fmt in ANIMATED:
            what = f"{n + 1} steps" if c.what == "steps" else "the playback"
            return f"Writes one animation of {what}."
        if c.what == "steps":
            extra = sum(1 for s in scenario.steps if s.predict) if c.veiled and scenario else 0
            return (f"Writes {n + 1 + extra} files: the overview and each step"
                    + (", each question also veiled" if extra else "") + ".")
        if c.what == "frames":
            return "Writes one numbered file per playback frame."
        return f"Writes {c.path.name}."

    def _suggest(self) -> None:
        fmt = self.format_box.currentText()
        typed = Path(self.path.text())
        if self.path.isModified() and self.path.text():  # the user's own name: only its format
            self.path.setText(str(typed.with_suffix(f".{fmt}")))
            self.path.setModified(True)
            return
        what, k = self.what_box.currentData(), self.chosen_step()
        if what == "steps":
            suffix = "-steps"
        elif what == "current" and k is not None and k >= 0:
            n = len(self.document.scenario.steps) if self.document is not None else 0
            suffix = f"-step{k + 1:0{max(2, len(str(n)))}d}" + ("-veiled" if self.veiled() else "")
        else:
            suffix = ""
        name = f"{self._stem}-{self.panel_id()}{suffix}.{fmt}"
        self.path.setText(str(self._dir / name))

    def _browse(self) -> None:
        fmt = self.format_box.currentText()
        path, _ = QFileDialog.getSaveFileName(self, "Export Figure", self.path.text(),
                                              f"{fmt.upper()} (*.{fmt})")
        if path:
            self.path.setText(path)
            self.path.setModified(True)
            self._changed()

    def panel_id(self) -> str:
        return self.panel_box.currentData()

    def choices(self) -> ExportChoice:
        fmt = self.format_box.currentText()
        text = self.text_box.currentData() if fmt == "svg" else "text"
        return ExportChoice(self.panel_id(), Path(self.path.text()), fmt,
                            self.theme_box.currentText(), self.size_box.currentData(),
                            self.dpi.value(), self.what_box.currentData(), text == "paths",
                            self.chosen_parts(), self.chrome_box.currentData(),
                            self.chosen_step(), self.veiled(), text == "embed",
                            self.fps.value() or None)

    def remember(self) -> None:
        """Keep these choices for the next export (the folder and each panel's parts too)."""
        if self.settings is None:
            return
        c = self.choices()
        for key, value in (("fmt", c.fmt), ("theme", c.theme_name), ("size", c.size),
                           ("dpi", c.dpi), ("what", c.what), ("text", self.text_box.currentData()),
                           ("chrome", c.chrome), ("fps", self.fps.value()),
                           (f"parts/{c.panel_id}", " ".join(c.parts or ())),
                           ("folder", str(c.path.parent))):
            self.settings.setValue(f"export/{key}", value)


def _combo(name: str, items: tuple[tuple[str, str], ...], current: str) -> QComboBox:
    box = QComboBox()
    box.setObjectName(name)
    for key, label in items:
        box.addItem(label, key)
    box.setCurrentIndex(max(0, box.findData(current)))
    return box


def shown_state(document: Document | None, c: ExportChoice) -> tuple[Scenario, frozenset[str]]:
    """The scenario and selection of the chosen step: what the window shows (its selection and
    playback frame included) for the step on screen, the step's own for another."""
    assert document is not None
    if c.step is None or c.step == document.step:
        return document.shown, document.selection
    from gpuviz.lecture import shown_selection

    return (document.scenario.at_step(c.step),
            shown_selection(document.lecture, c.step, c.panel_id, "export"))


def step_page(document: Document, k: int, panel_id: str) -> Page:
    """Step ``k`` (-1 the overview) of the panel as the lecture model shows it for an
    export: what its file is, wherever it is written from."""
    from gpuviz.export.lecture import lecture_page

    return lecture_page(document.scenario, k, (panel_id,))


def step_pages(document: Document, panel_id: str) -> tuple[Page, ...]:
    """The overview and every step of the panel, as ``gpuviz export --all-steps`` writes
    them."""
    from gpuviz.export.lecture import lecture_pages

    return lecture_pages(document.scenario, None, (panel_id,))


def _remembered(settings: QSettings | None) -> dict[str, str]:
    if settings is None:
        return {}
    out = {}
    settings.beginGroup("export")
    keys = settings.allKeys()
    settings.endGroup()
    for key in keys:
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

    scenario = document.scenario
    shown, selection = shown_state(document, c)
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
              text_as_paths=c.text_as_paths, parts=c.parts, chrome=c.chrome,
              embed_fonts=c.embed_fonts)
    if c.what == "steps":
        stem = c.path.stem.removesuffix("-steps")
        digits = max(2, len(str(len(scenario.steps))))
        written = 0
        for page in step_pages(document, c.panel_id):  # each step's page, its own parts
            k = page.step
            suffix = f"-step{k + 1:0{digits}d}" if k >= 0 else "-overview"
            question = page.question if c.veiled else ""
            kw["parts"] = c.parts or page.parts(c.panel_id)
            for veil in (question, "") if question else ("",):
                name = f"{stem}{suffix}{'-veiled' if veil else ''}.{c.fmt}"
                export_figure(page.state, c.panel_id, c.path.parent / name,
                              selection=page.selection_for(c.panel_id), question=veil,
                              step=("", "") if veil else page.heading(c.chrome),
                              **kw)  # type: ignore[arg-type]
                written += 1
        return f" … {written} files"
    one = None if c.step is None else step_page(document, c.step, c.panel_id)
    question = one.question if c.veiled and one is not None else ""
    heading = one.heading(c.chrome) if one is not None else ("", "")
    return export_figure(shown, c.panel_id, c.path, selection=selection, question=question,
                         step=("", "") if question else heading,
                         **kw)  # type: ignore[arg-type]


def _animate(document: Document, c: ExportChoice) -> str:
    from gpuviz.export.animate import MAX_FRAMES, FramePlan, write_animation
    from gpuviz.export.veiled import veiled_figure
    from gpuviz.figures.scene import figure_for, frame_count
    from gpuviz.figures.targets import TARGETS
    from gpuviz.figures.theme import theme
    from gpuviz.keys import at_frame, without_frame

    th = theme(c.theme_name)
    target = TARGETS[c.size].showing(c.parts, c.chrome)  # type: ignore[arg-type]
    if c.what == "steps":
        # each step a frame; veiled, a question's veiled frame before its answer
        chosen = [(page, veil) for page in step_pages(document, c.panel_id)
                  for veil in ((page.question, "") if c.veiled and page.question
                               else ("",))][:MAX_FRAMES]

        def step_figure(i: int):
            page, veil = chosen[i]  # each step as the lecture model shows it, its own parts
            figure = figure_for(page.state, c.panel_id, th, page.selection_for(c.panel_id),
                                target.showing(c.parts or page.parts(c.panel_id),
                                               c.chrome))  # type: ignore[arg-type]
            return veiled_figure(figure, veil, th, panel(c.panel_id).title,
                                 fill_page=target.paged) if veil else figure

        plan = FramePlan(len(chosen), step_figure, c.fps or 0.5)
    else:
        shown, selection = shown_state(document, c)
        kept = without_frame(selection)
        total = min(frame_count(shown, c.panel_id), MAX_FRAMES)

        def frame_figure(i: int):
            return figure_for(shown, c.panel_id, th, at_frame(kept, i), target)

        plan = FramePlan(total, frame_figure, c.fps or 4.0)
    count = write_animation(plan, c.path, c.fmt, dpi=min(c.dpi, 110), background=th.background)
    return f" … {count} frames"
