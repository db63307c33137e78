"""File ▸ Gallery: the bundled scenarios as thumbnails, grouped by topic (the panel groups of
the registry), with their titles and descriptions; double-click opens one.

Opening the gallery reads only the files' titles, descriptions and panels; the thumbnails are painted from the figures
by one worker on Qt's thread pool and arrive one by one. Each is kept in memory for the session
and as a PNG in the cache folder, keyed by the scenario file's bytes, the figure module and the
gpuviz version, so a second opening (or a second session) paints nothing.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import cast

from PySide6.QtCore import (
    QObject,
    QRectF,
    QRunnable,
    QSize,
    QStandardPaths,
    Qt,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

import gpuviz
from gpuviz.help import TOPICS, topic_of
from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario import Scenario, bundled_scenarios, loads_scenario
from gpuviz.ui.worker_report import report

THUMB = QSize(224, 150)
_MEMORY: dict[str, QImage] = {}  # cache key -> thumbnail, for this session


@dataclass(frozen=True)
class Entry:
    """What the gallery lists of a scenario file, read without decoding its sections."""

    path: Path
    title: str
    description: str
    panel_id: str
    data: bytes


def read_entry(path: Path) -> Entry | None:
    try:
        data = Path(path).read_bytes()
        raw = json.loads(data)
        panels = raw.get("panels") or [k for k in PANEL_IDS if k in raw] or ["launch"]
        pid = panels[0]
        panel(pid)
        return Entry(Path(path), str(raw.get("title", path.stem)), str(raw.get("description", "")),
                     pid, data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def thumbnail_key(entry: Entry) -> str:
    pid = entry.panel_id
    figure = cast(ModuleType, panel(pid).figure)  # a module loaded from its file
    module = Path(cast(str, figure.__file__))
    h = hashlib.sha1()
    h.update(entry.data)
    h.update(f"{gpuviz.__version__}|{pid}|{module.stat().st_mtime_ns}|{THUMB.width()}x"
             f"{THUMB.height()}".encode())
    return h.hexdigest()


def render_thumbnail(scenario: Scenario) -> QImage:
    """The scenario's first panel at its overview, screen theme, fitted into THUMB."""
    from gpuviz.export.qt_painter import paint_figure
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import theme

    figure = figure_for(scenario, scenario.panels[0], theme("screen"))
    img = QImage(THUMB, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor(figure.background))
    p = QPainter(img)
    paint_figure(p, figure, QRectF(2, 2, THUMB.width() - 4, THUMB.height() - 4))
    p.end()
    return img


def default_cache_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
    return Path(base or Path.home() / ".cache" / "gpuviz") / "thumbnails"


class _Signals(QObject):
    ready = Signal(str, QImage)  # cache key, thumbnail
    done = Signal()


class _ThumbnailJob(QRunnable):
    """Paints the missing thumbnails one after another (one core; the GUI keeps the other)."""

    def __init__(self, work: list[tuple[str, Entry]], cache_dir: Path, signals: _Signals):
        super().__init__()
        self.work, self.cache_dir, self.signals = work, cache_dir, signals
        self.cancel = threading.Event()
        self.setAutoDelete(False)

    def run(self) -> None:
        for key, entry in self.work:
            if self.cancel.is_set():
                break
            file = self.cache_dir / f"{key}.png"
            img = QImage(str(file)) if file.exists() else QImage()
            if img.isNull():
                try:
                    img = render_thumbnail(loads_scenario(entry.data, str(entry.path)))
                except Exception:  # a file or figure that cannot be drawn keeps its placeholder
                    continue
                try:
                    self.cache_dir.mkdir(parents=True, exist_ok=True)
                    img.save(str(file), "PNG")  # type: ignore[call-overload]  # PySide6 takes a str format
                except OSError:
                    pass
            if not report(self.signals.ready, key, img):  # the gallery is gone
                return
        report(self.signals.done)


class Gallery(QDialog):
    opened = Signal(Path)

    def __init__(self, parent: QWidget | None = None, cache_dir: Path | None = None,
                 paths: list[Path] | None = None):
        super().__init__(parent)
        self.setObjectName("gallery")
        self.setWindowTitle("Gallery")
        self.cache_dir = cache_dir or default_cache_dir()
        from gpuviz.export.qt_painter import register_fonts

        register_fonts()  # in the GUI thread, before the worker paints text
        self.items: dict[str, list[QListWidgetItem]] = {}
        self.lists: dict[str, QListWidget] = {}
        self.description = QLabel("Double-click a scenario to open it.")
        self.description.setObjectName("gallery-description")
        self.description.setWordWrap(True)
        self.description.setMinimumHeight(60)
        self.description.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        body = QWidget()
        lay = QVBoxLayout(body)
        groups: dict[str, list[Entry]] = {name: [] for name, _ids in TOPICS}
        for path in paths if paths is not None else bundled_scenarios():
            entry = read_entry(path)
            if entry is not None:
                groups[topic_of(entry.panel_id)].append(entry)
        placeholder = QPixmap(THUMB)
        placeholder.fill(QColor("#e8e8e8"))
        work: list[tuple[str, Entry]] = []
        for name, members in groups.items():
            if not members:
                continue
            heading = QLabel(f"<h3>{name}</h3>")
            lay.addWidget(heading)
            lst = QListWidget()
            lst.setObjectName(f"gallery-{name}")
            lst.setViewMode(QListView.ViewMode.IconMode)
            lst.setIconSize(THUMB)
            lst.setGridSize(QSize(THUMB.width() + 24, THUMB.height() + 56))
            lst.setWordWrap(True)
            lst.setMovement(QListView.Movement.Static)
            lst.setResizeMode(QListView.ResizeMode.Adjust)
            lst.setWrapping(True)
            lst.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lst.itemDoubleClicked.connect(self._open)
            lst.currentItemChanged.connect(self._describe)
            for entry in members:
                key = thumbnail_key(entry)
                item = QListWidgetItem(QIcon(placeholder), entry.title)
                item.setData(Qt.ItemDataRole.UserRole, str(entry.path))
                item.setData(Qt.ItemDataRole.UserRole + 1, entry.description)
                item.setToolTip(entry.description)
                lst.addItem(item)
                self.items.setdefault(key, []).append(item)
                if key in _MEMORY:
                    item.setIcon(QIcon(QPixmap.fromImage(_MEMORY[key])))
                elif all(k != key for k, _s in work):
                    work.append((key, entry))
            self.lists[name] = lst
            lay.addWidget(lst)
        lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        outer = QVBoxLayout(self)
        outer.addWidget(scroll, 1)
        outer.addWidget(self.description)
        self.pending = len(work)
        self._signals = _Signals()
        self._signals.ready.connect(self._on_ready)
        self._job: _ThumbnailJob | None = None
        if work:
            self._job = _ThumbnailJob(work, self.cache_dir, self._signals)
            QThreadPool.globalInstance().start(self._job)
        self.destroyed.connect(
            lambda *_: self._job.cancel.set() if self._job is not None else None)
        self.resize(1000, 700)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_lists()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_lists()

    def _fit_lists(self) -> None:
        """Each topic's list is as tall as its wrapped rows: one scroll bar for the gallery."""
        for lst in self.lists.values():
            per_row = max(1, lst.viewport().width() // lst.gridSize().width())
            rows = -(-lst.count() // per_row)
            lst.setFixedHeight(rows * lst.gridSize().height() + 2 * lst.frameWidth() + 4)

    def _on_ready(self, key: str, img: QImage) -> None:
        _MEMORY[key] = img
        self.pending -= 1
        for item in self.items.get(key, []):
            item.setIcon(QIcon(QPixmap.fromImage(img)))

    def _describe(self, item: QListWidgetItem | None, _previous=None) -> None:
        if item is not None:
            self.description.setText(f"<b>{item.text()}</b><br>"
                                     f"{item.data(Qt.ItemDataRole.UserRole + 1) or ''}")

    def _open(self, item: QListWidgetItem) -> None:
        self.opened.emit(Path(item.data(Qt.ItemDataRole.UserRole)))
        self.hide()

    def wait_for_thumbnails(self, timeout_ms: int = 60000) -> bool:
        """For tests and benchmarks: process events until every thumbnail has arrived."""
        from PySide6.QtCore import QDeadlineTimer
        from PySide6.QtWidgets import QApplication

        deadline = QDeadlineTimer(timeout_ms)
        while self.pending > 0 and not deadline.hasExpired():
            QApplication.processEvents()
            QThreadPool.globalInstance().waitForDone(20)
        return self.pending == 0
