"""The Export dialog's preview: a thumbnail of the very figure the export will write (built by
``export.files.export_figure_of`` from the dialog's choices), laid out and painted on the thread
pool, so a change of choice never stalls the dialog. A burst of changes becomes one build; a
build overtaken by a newer choice is dropped. A choice the export would refuse (parts over their
budget, a part this scenario does not draw) shows the refusal in the preview's place."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QCoreApplication, QRectF, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from gpuviz.figures.display import Figure
from gpuviz.ui.worker_report import Job

PREVIEW = QSize(400, 300)  # px, the largest thumbnail; the figure is fitted inside, centred
SETTLE_MS = 60  # a burst of changes (a row of checkboxes ticked) builds once

FigureMaker = Callable[[], tuple[Figure, str]]  # the figure and the export's note


def render_preview(make: FigureMaker, size: QSize = PREVIEW) -> tuple[Figure, QImage]:
    """Build the figure and paint it fitted into ``size`` (off the GUI thread)."""
    from gpuviz.export.qt_painter import paint_figure

    figure, _note = make()
    scale = min(size.width() / figure.width, size.height() / figure.height)
    w = max(1, round(figure.width * scale))
    h = max(1, round(figure.height * scale))
    img = QImage(QSize(w, h), QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor(figure.background))
    p = QPainter(img)
    paint_figure(p, figure, QRectF(0, 0, w, h))
    p.end()
    return figure, img


def _pool() -> QThreadPool:
    """The preview's own thread: a preview never waits behind the docks' layout searches on
    the global pool (just after start-up those held the first preview back by seconds)."""
    global _POOL
    if _POOL is None:
        _POOL = QThreadPool(QCoreApplication.instance())
        _POOL.setMaxThreadCount(1)
    return _POOL


_POOL: QThreadPool | None = None


class ExportPreview(QLabel):
    """The thumbnail; ``ready`` once the latest request is shown (a figure or a refusal)."""

    ready = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("export-preview")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFixedSize(PREVIEW.width() + 8, PREVIEW.height() + 8)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setWordWrap(True)
        self.setFrameShape(QLabel.Shape.StyledPanel)
        self._make: FigureMaker | None = None
        self._generation = 0
        self._shown_generation = 0
        self.figure: Figure | None = None  # the figure shown (None: a refusal or nothing yet)
        self.image: QImage | None = None
        self.problem = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self._start)

    def request(self, make: FigureMaker) -> None:
        """Show what ``make`` builds, once the choices settle."""
        self._make = make
        self._generation += 1
        self._timer.start()

    def is_current(self) -> bool:
        """Whether the thumbnail shows the latest request."""
        return self._shown_generation == self._generation and not self._timer.isActive()

    def _start(self) -> None:
        make, generation = self._make, self._generation
        if make is None:
            return
        job = Job(lambda: render_preview(make), generation)
        job.signals.done.connect(self._done)
        _pool().start(job)

    def _done(self, generation: int, result: object, error: str) -> None:
        if generation != self._generation:
            return  # overtaken by a newer choice
        self._shown_generation = generation
        if error:
            self.figure, self.image = None, None
            # the export's own sentence, its command-line hint put in the dialog's words
            self.problem = error.split(": ", 1)[-1].replace("(--part NAME)",
                                                            "(tick them under Parts)")
            self.setPixmap(QPixmap())
            self.setText(f"Cannot export with these choices:\n{self.problem}")
        else:
            figure, image = cast(tuple[Figure, QImage], result)  # render_preview's
            self.figure, self.image, self.problem = figure, image, ""
            self.setPixmap(QPixmap.fromImage(image))
        self.ready.emit()
