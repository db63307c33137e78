"""The main window: docks for the panels, menus, steps, files, layout memory."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSizePolicy,
    QToolBar,
    QWidget,
)

from gpuviz.figures.theme import THEMES, theme
from gpuviz.registry import PANELS, panel
from gpuviz.scenario import ScenarioError, bundled_scenarios, load_scenario
from gpuviz.scenario.problems import printable
from gpuviz.ui.document import Document
from gpuviz.ui.panel_dock import PanelDock
from gpuviz.ui.playback import PlaybackBar, PlaybackClock, frame_count_for

MAX_RECENT = 8


class MainWindow(QMainWindow):
    def __init__(self, document: Document, settings: QSettings | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.settings = settings if settings is not None else QSettings()
        self.theme = theme(str(self.settings.value("view/theme", "screen")))
        self.docks: dict[str, PanelDock] = {}
        self.setObjectName("gpuviz-main")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        central = QWidget()
        central.setMaximumSize(0, 0)
        self.setCentralWidget(central)
        self._build_actions()
        self._build_menus()
        self._build_step_bar()
        self._build_playback()
        self.hover_label = QLabel()
        self.statusBar().addPermanentWidget(self.hover_label)
        document.changed.connect(self._on_document_changed)
        self._lay_out_panels()
        self._default_state = self.saveState()
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        else:
            self.resize(1400, 900)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
            self._show_scenario_panels()
        self._update_title()
        self._update_step_bar()
        self._update_frames()

    # --- construction ----------------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, checkable: bool = False) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcuts(shortcut if isinstance(shortcut, list) else [QKeySequence(shortcut)])
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.act_open = self._action("&Open…", self.open_dialog, S.Open)
        self.act_save = self._action("&Save", self.save, S.Save)
        self.act_save_as = self._action("Save &As…", self.save_as, S.SaveAs)
        self.act_export = self._action("&Export Figure…", self.export_dialog, "Ctrl+E")
        self.act_quit = self._action("&Quit", self.close, S.Quit)
        self.act_undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts(QKeySequence.keyBindings(S.Undo))
        self.act_redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts(QKeySequence.keyBindings(S.Redo))
        self.addAction(self.act_undo)
        self.addAction(self.act_redo)
        self.act_next = self._action("&Next Step", self.next_step,
                                     [QKeySequence(Qt.Key.Key_PageDown), QKeySequence("Ctrl+Right")])
        self.act_prev = self._action("&Previous Step", self.previous_step,
                                     [QKeySequence(Qt.Key.Key_PageUp), QKeySequence("Ctrl+Left")])
        self.act_overview = self._action("&Overview (before the steps)",
                                         lambda: self.document.go_to_step(-1), "Ctrl+Home")
        self.act_play = self._action("&Play / Pause", lambda: self.clock.toggle(),
                                     QKeySequence(Qt.Key.Key_Space))
        self.act_frame_next = self._action("Step &Forward", lambda: self.clock.step_forward(),
                                           QKeySequence(Qt.Key.Key_Right))
        self.act_frame_prev = self._action("Step &Back", lambda: self.clock.step_back(),
                                           QKeySequence(Qt.Key.Key_Left))
        self.act_full = self._action("&Full Screen", self.toggle_full_screen, S.FullScreen, True)
        self.act_reset = self._action("&Reset Layout", self.reset_layout)
        self.act_present = self._action("&Presentation Mode", self.toggle_presentation, "F5", True)
        self._before_presenting: tuple[str, bool, bool] | None = None
        self.act_controls = self._action("Show &Controls", self.set_controls_visible, "Ctrl+Shift+C", True)
        self.act_controls.setChecked(str(self.settings.value("view/controls", "true")) == "true")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        file.addAction(self.act_open)
        self.recent_menu = file.addMenu("Open &Recent")
        self.bundled_menu = file.addMenu("Open &Bundled Scenario")
        for path in bundled_scenarios():
            a = self.bundled_menu.addAction(path.stem)
            a.triggered.connect(lambda _=False, p=path: self.open_path(p))
        file.addSeparator()
        file.addAction(self.act_save)
        file.addAction(self.act_save_as)
        file.addAction(self.act_export)
        file.addSeparator()
        file.addAction(self.act_quit)
        self._refresh_recent()
        edit = bar.addMenu("&Edit")
        edit.addAction(self.act_undo)
        edit.addAction(self.act_redo)
        self.view_menu = bar.addMenu("&View")
        self.panels_menu = self.view_menu.addMenu("&Panels")
        self.panel_actions: dict[str, QAction] = {}
        for p in PANELS:
            a = QAction(p.title, self)
            a.setCheckable(True)
            a.toggled.connect(lambda on, pid=p.id: self.show_panel(pid, on))
            self.panels_menu.addAction(a)
            self.panel_actions[p.id] = a
        theme_menu = self.view_menu.addMenu("&Theme")
        group = QActionGroup(self)
        for name in THEMES:
            a = QAction(name.capitalize(), self, checkable=True)
            a.setChecked(name == self.theme.name)
            a.triggered.connect(lambda _=False, n=name: self.set_theme(n))
            group.addAction(a)
            theme_menu.addAction(a)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.act_controls)
        self.view_menu.addAction(self.act_full)
        self.view_menu.addAction(self.act_present)
        self.view_menu.addAction(self.act_reset)
        steps = bar.addMenu("&Steps")
        steps.addAction(self.act_prev)
        steps.addAction(self.act_next)
        steps.addAction(self.act_overview)
        playback = bar.addMenu("&Playback")
        playback.addAction(self.act_play)
        playback.addAction(self.act_frame_prev)
        playback.addAction(self.act_frame_next)

    def _build_step_bar(self) -> None:
        bar = QToolBar("Steps")
        bar.setObjectName("toolbar-steps")
        bar.setMovable(False)
        bar.addAction(self.act_prev)
        bar.addAction(self.act_next)
        self.step_label = QLabel()
        self.step_label.setObjectName("step-label")
        self.step_label.setMinimumWidth(90)
        self.caption_label = QLabel()
        self.caption_label.setObjectName("step-caption")
        self.caption_label.setWordWrap(True)
        self.caption_label.setTextFormat(Qt.TextFormat.RichText)
        self.caption_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        font = self.caption_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.caption_label.setFont(font)
        bar.addWidget(self.step_label)
        bar.addWidget(self.caption_label)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.step_bar = bar

    def _build_playback(self) -> None:
        """One clock for the document: animated panels follow it through the ``frame:<n>``
        key of the selection."""
        self.clock = PlaybackClock(self)
        self.playback_bar = PlaybackBar(self.clock)
        bar = QToolBar("Playback")
        bar.setObjectName("toolbar-playback")
        bar.addWidget(self.playback_bar)
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, bar)
        self.playback_toolbar = bar
        self.clock.frameChanged.connect(self._on_frame)

    def _on_frame(self, frame: int) -> None:
        self.document.set_frame(frame if self.clock.frame_count > 1 else None)

    def _update_frames(self) -> None:
        visible = [pid for pid, d in self.docks.items() if not d.isHidden()]
        count = frame_count_for(self.document.shown, visible) if visible else 1
        was_at_end = self.clock.frame >= self.clock.last_frame
        self.clock.set_frame_count(count)
        if count > 1 and was_at_end and not self.clock.playing:
            self.clock.last()  # a new picture opens on its final state; Play starts it over
        self.document.set_frame(self.clock.frame if count > 1 else None)
        self.playback_toolbar.setVisible(count > 1)

    # --- panels and layout -------------------------------------------------------------------
    def dock(self, panel_id: str) -> PanelDock:
        if panel_id not in self.docks:
            d = PanelDock(panel(panel_id), self.document, self.theme, self)
            d.hovered.connect(self._on_hover)
            d.set_controls_visible(self.act_controls.isChecked())
            d.visibilityChanged.connect(lambda _v, pid=panel_id: self._sync_panel_action(pid))
            d.visibilityChanged.connect(lambda _v: self._update_frames())
            self.docks[panel_id] = d
            if not self.restoreDockWidget(d):
                self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
        return self.docks[panel_id]

    def _lay_out_panels(self) -> None:
        shown = self.document.scenario.panels
        previous: PanelDock | None = None
        for i, pid in enumerate(shown):
            d = self.dock(pid)
            d.show()
            if previous is not None:
                # two panels side by side, a third below the second, the rest as tabs
                if i == 1:
                    self.splitDockWidget(previous, d, Qt.Orientation.Horizontal)
                elif i == 2:
                    self.splitDockWidget(previous, d, Qt.Orientation.Vertical)
                else:
                    self.tabifyDockWidget(previous, d)
            previous = d
        for pid, d in self.docks.items():
            if pid not in shown:
                d.hide()
        if shown:
            self.docks[shown[0]].raise_()
            # keys (Space, arrows, PageDown) start at the figure, not in a control
            self.docks[shown[0]].view.setFocus()

    def _show_scenario_panels(self) -> None:
        for pid in self.document.scenario.panels:
            self.dock(pid).show()

    def show_panel(self, panel_id: str, on: bool = True) -> None:
        if on:
            d = self.dock(panel_id)
            d.show()
            d.raise_()
        elif panel_id in self.docks:
            self.docks[panel_id].hide()

    def _sync_panel_action(self, panel_id: str) -> None:
        a = self.panel_actions[panel_id]
        a.blockSignals(True)
        a.setChecked(self.docks[panel_id].isVisible() if panel_id in self.docks else False)
        a.blockSignals(False)

    def reset_layout(self) -> None:
        self.restoreState(self._default_state)
        for pid, d in self.docks.items():
            d.setFloating(False)
            d.setVisible(pid in self.document.scenario.panels)

    def set_theme(self, name: str) -> None:
        self.theme = theme(name)
        self.settings.setValue("view/theme", name)
        for d in self.docks.values():
            d.set_theme(self.theme)

    def set_controls_visible(self, visible: bool) -> None:
        self.act_controls.setChecked(visible)
        self.settings.setValue("view/controls", "true" if visible else "false")
        for d in self.docks.values():
            d.set_controls_visible(visible)

    def toggle_presentation(self) -> None:
        """For a room: full screen, large high-contrast type, controls hidden, bigger captions.
        Leaving restores what was there before."""
        if self._before_presenting is None:
            self._before_presenting = (self.theme.name, self.act_controls.isChecked(),
                                       self.isFullScreen())
            self.set_theme("presentation")
            self.set_controls_visible(False)
            self.showFullScreen()
            self._caption_scale(1.6)
        else:
            theme_name, controls, full = self._before_presenting
            self._before_presenting = None
            self.set_theme(theme_name)
            self.set_controls_visible(controls)
            if not full:
                self.showNormal()
            self._caption_scale(1 / 1.6)
        self.act_present.setChecked(self._before_presenting is not None)
        self.act_full.setChecked(self.isFullScreen())

    def _caption_scale(self, factor: float) -> None:
        for label in (self.caption_label, self.step_label):
            font = label.font()
            font.setPointSizeF(font.pointSizeF() * factor)
            label.setFont(font)

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.act_full.setChecked(self.isFullScreen())

    # --- document ----------------------------------------------------------------------------
    def _on_document_changed(self, what: str) -> None:
        if what in ("clean", "path", "scenario"):
            self._update_title()
        if what in ("step", "scenario", "path", "reveal"):
            self._update_step_bar()
        if what in ("step", "scenario", "path") or what.startswith("section:"):
            self._update_frames()
        if what == "path":
            self._lay_out_panels()

    def _update_title(self) -> None:
        doc = self.document
        name = doc.path.name if doc.path else "unsaved"
        self.setWindowTitle(f"{doc.scenario.title} — {name}[*] — gpuviz")
        self.setWindowModified(doc.is_modified())

    def _update_step_bar(self) -> None:
        steps = self.document.scenario.steps
        k = self.document.step
        self.act_prev.setEnabled(k >= 0)
        self.act_next.setEnabled(k < len(steps) - 1 or self.document.veiled)
        if not steps:
            self.step_label.setText("no steps")
            self.caption_label.setText(escape(self.document.scenario.description))
        elif k < 0:
            self.step_label.setText(f"overview · {len(steps)} steps")
            self.caption_label.setText(escape(self.document.scenario.description))
        else:
            s = steps[k]
            self.step_label.setText(f"step {k + 1} of {len(steps)}")
            if self.document.veiled:
                # the title often gives the answer away: only the question until the reveal
                self.caption_label.setText(f"<b>Predict:</b> {escape(s.predict)} "
                                           "<i>(Next reveals)</i>")
            elif s.caption:
                self.caption_label.setText(f"<b>{escape(s.title)}</b> — {escape(s.caption)}")
            else:
                self.caption_label.setText(f"<b>{escape(s.title)}</b>")
            if s.focus:
                self.show_panel(s.focus)

    def next_step(self) -> None:
        """Reveal the current step's picture if it asks for a prediction, else go on."""
        if self.document.veiled:
            self.document.reveal()
        else:
            self.document.go_to_step(self.document.step + 1)

    def previous_step(self) -> None:
        self.document.go_to_step(self.document.step - 1)

    def _on_hover(self, key: str) -> None:
        self.hover_label.setText(key)

    # --- files -------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current scenario (saved, discarded, or unchanged)."""
        if not self.document.is_modified():
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes",
            f"“{self.document.scenario.title}” has changes that are not saved. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def open_dialog(self) -> None:
        start = str(self.document.path.parent) if self.document.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open Scenario", start,
                                              "gpuviz scenarios (*.json);;All files (*)")
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Open a scenario file; a bad file is reported and the current scenario stays."""
        try:
            scenario = load_scenario(path)
        except ScenarioError as err:
            self.show_error(f"Cannot open {Path(path).name}", err)
            return False
        if not self.maybe_save():
            return False
        self.document.replace_scenario(scenario, Path(path))
        self._add_recent(Path(path))
        return True

    def show_error(self, title: str, err: ScenarioError) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, title, "\n".join(err.lines()[:8]),
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("scenario-error")
        if len(err.lines()) > 8:
            box.setDetailedText("\n".join(err.lines()))
        box.setInformativeText("The current scenario is unchanged.")
        box.exec()

    def save(self) -> bool:
        if self.document.path is None or _is_bundled(self.document.path):
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = str(self.document.path) if self.document.path else "scenario.json"
        path, _ = QFileDialog.getSaveFileName(self, "Save Scenario As", start,
                                              "gpuviz scenarios (*.json)")
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except (OSError, ValueError) as e:  # ValueError: text that cannot be encoded
            why = getattr(e, "strerror", None) or str(e)
            QMessageBox.warning(self, "Cannot save", printable(f"{path}: {why}"))
            return False
        self._add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def export_dialog(self) -> None:
        from gpuviz.export.files import export_figure
        from gpuviz.ui.export_dialog import ExportDialog

        visible = tuple(pid for pid, d in self.docks.items() if d.isVisible()) or self.document.scenario.panels
        current = visible[0]
        base = self.document.path
        default_dir = base.parent if base and not _is_bundled(base) else Path.home()
        dialog = ExportDialog(visible, current, self.theme.name, default_dir,
                              base.stem if base else "figure", self)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        choice = dialog.choices()
        try:
            if choice["frames"]:
                from gpuviz.export.sequence import export_sequence

                target = choice["path"]
                stem = target.stem.removesuffix(f"-{choice['panel_id']}")  # the names add it
                paths = export_sequence(self.document.shown, choice["panel_id"], target.parent,
                                        stem, fmt=choice["fmt"],
                                        theme_name=choice["theme_name"], size=choice["size"],
                                        dpi=choice["dpi"], selection=self.document.selection)
                note = f" … {len(paths)} frames"
            else:
                note = export_figure(self.document.shown, choice["panel_id"], choice["path"],
                                     fmt=choice["fmt"], theme_name=choice["theme_name"],
                                     size=choice["size"], dpi=choice["dpi"],
                                     selection=self.document.selection)
        except OSError as e:
            QMessageBox.warning(self, "Cannot export", f"{choice['path']}: {e.strerror or e}")
            return
        self.statusBar().showMessage(f"Exported {choice['path']}{note}", 6000)

    def _add_recent(self, path: Path) -> None:
        if _is_bundled(path):
            return
        recent = [p for p in self._recent() if p != str(path)]
        recent.insert(0, str(path))
        self.settings.setValue("files/recent", recent[:MAX_RECENT])
        self._refresh_recent()

    def _recent(self) -> list[str]:
        value = self.settings.value("files/recent", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value or []]

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = self._recent()
        for p in recent:
            a = self.recent_menu.addAction(p)
            a.triggered.connect(lambda _=False, path=p: self.open_path(Path(path)))
        self.recent_menu.setEnabled(bool(recent))

    # --- window events -----------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and urls[0].toLocalFile().endswith(".json"):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.open_path(Path(urls[0].toLocalFile()))

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        event.accept()


def _is_bundled(path: Path) -> bool:
    from gpuviz.scenario.bundled import scenario_dir

    try:
        return Path(path).resolve().parent == scenario_dir().resolve()
    except OSError:
        return False
