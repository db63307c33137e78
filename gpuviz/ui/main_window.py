"""The main window: docks for the panels, menus, steps, files, layout memory.

Above the figures a step bar of fixed height (previous / next, the position, the step list);
under them the caption, like a subtitle, also of fixed height, so that nothing moves when the
lecture steps. F5 presents: full screen, no menu bar, one panel at a time, large type, the
caption as a subtitle, and with a second screen the presenter's notes there; Esc leaves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCursor, QGuiApplication
from PySide6.QtWidgets import QApplication, QMainWindow, QToolBar, QWidget

from gpuviz.figures.theme import THEMES, theme
from gpuviz.registry import PANELS, panel
from gpuviz.scenario import ScenarioError, bundled_scenarios, load_scenario
from gpuviz.scenario.fields import format_fields
from gpuviz.scenario.problems import printable
from gpuviz.ui.design_memory import DesignMemory
from gpuviz.ui.document import Document
from gpuviz.ui.palette import apply_palette
from gpuviz.ui.panel_dock import BODY_PX, PanelDock
from gpuviz.ui.playback import PlaybackClock, frame_count_for
from gpuviz.ui.step_bar import CaptionStrip, StepBar

# classes the first frame does not use are imported where they are used: PySide makes a
# class's Python enums when it is first named (QKeySequence's 71 standard keys, QMessageBox's
# buttons), and at start-up that is time before the first figure
if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent

    from gpuviz.ui.figure_view import FigureView
    from gpuviz.ui.playback_bar import PlaybackBar
    from gpuviz.ui.presenter import PresenterView

MAX_RECENT = 8
PRESENT_BODY_PX = 17.0  # the figures' body type in presentation mode, in screen pixels
CAPTION_LINES = 2
FIRST_PAINT_WAIT_MS = 1500  # a deferred window completes by then even if nothing was painted


class MainWindow(QMainWindow):
    """``defer=True`` (the application's start) builds what the first frame shows (docks, step
    bar, caption, the menu bar's titles) and the rest (menu items, the measurements dock) on the
    next event-loop turn, after the first figure is painted; ``completed`` is emitted then."""

    completed = Signal()

    def __init__(self, document: Document, settings: QSettings | None = None,
                 parent: QWidget | None = None, *, defer: bool = False):
        super().__init__(parent)
        self.document = document
        self.settings = settings if settings is not None else QSettings()
        self.theme = theme(str(self.settings.value("view/theme", "screen")))
        self.design_memory = DesignMemory(self.settings)
        self.docks: dict[str, PanelDock] = {}
        self.setObjectName("gpuviz-main")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        central = QWidget()
        central.setMaximumSize(0, 0)
        self.setCentralWidget(central)
        self._complete = False
        self._awaited_view: FigureView | None = None
        self.panel_actions: dict[str, QAction] = {}
        self._build_first_actions()
        self._build_menu_titles()
        self._build_step_bar()
        self._build_playback()
        self._build_caption()
        # messages ("Saved …") and the key under the pointer show in the step bar's right end;
        # the status bar itself stays hidden, its height is the figures'
        self.statusBar().messageChanged.connect(self.step_bar_widget.show_message)
        self.statusBar().hide()
        self._presenting: dict | None = None
        self.presenter: PresenterView | None = None
        self._edited_from: int | None = None  # the step whose state was then edited by hand
        self._last_step = -1
        apply_palette(self.theme)
        document.section_changed.connect(self._on_section_changed)
        document.scenario_changed.connect(self._on_scenario_changed)
        document.scenario_replaced.connect(self._on_scenario_replaced)
        document.step_changed.connect(self._on_step_changed)
        document.revealed.connect(self._update_step_bar)
        document.path_changed.connect(self._on_path_changed)
        document.clean_changed.connect(lambda _clean: self._update_title())
        self._lay_out_panels()
        self._default_state = self.saveState()
        geometry = self.settings.value("window/geometry")
        if not (isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)
                and self._fits_screen()):
            self.fit_to_screen()
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
            self._show_scenario_panels()
        self._update_title()
        self._update_step_bar()
        self._update_frames()
        self._update_playback_bar()
        if not defer:
            self.complete()
            return
        # the rest once the first figure is on screen (or straight away when none is shown)
        first = next((d for d in self.docks.values() if not d.isHidden()), None)
        if first is None:
            QTimer.singleShot(0, self, self.complete)
            return
        self._awaited_view = first.view
        first.view.painted.connect(self._after_first_paint)
        QTimer.singleShot(FIRST_PAINT_WAIT_MS, self, self.complete)  # a window never exposed

    def _after_first_paint(self) -> None:
        if not self._complete:
            QTimer.singleShot(0, self, self.complete)

    def complete(self) -> None:
        """Build what the first frame does not show: the menus' items and the measurements
        dock (hidden until View ▸ Measurements, unless the remembered layout shows it)."""
        if self._complete:
            return
        self._complete = True
        if self._awaited_view is not None:
            self._awaited_view.painted.disconnect(self._after_first_paint)
            self._awaited_view = None
        from gpuviz.ui import measurements_dock

        self._build_actions()
        self._build_menus()
        measurements_dock.install(self)
        for d in self.docks.values():
            d.release_measured()
        self.completed.emit()

    def is_complete(self) -> bool:
        return self._complete

    # --- size from the screen ------------------------------------------------------------------
    def _screen(self):
        return (QGuiApplication.screenAt(QCursor.pos()) or self.screen()
                or QGuiApplication.primaryScreen())

    def _fits_screen(self) -> bool:
        return any(s.availableGeometry().contains(self.geometry())
                   for s in QGuiApplication.screens())

    def fit_to_screen(self) -> None:
        """A size taken from the screen the window opens on: all of a projector's or a laptop's
        screen (up to 1920×1200), most of a larger one, centred."""
        avail = self._screen().availableGeometry()
        if avail.width() <= 1920 or avail.height() <= 1200:
            self.setGeometry(avail)
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
            return
        w, h = round(avail.width() * 0.85), round(avail.height() * 0.85)
        self.setGeometry(avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2, w, h)

    # --- construction ----------------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, checkable: bool = False) -> QAction:
        a = QAction(self)  # QAction(text, self) would make QIcon's enums: an overload takes one
        a.setText(text)
        if shortcut is not None:
            from PySide6.QtGui import QKeySequence

            a.setShortcuts(shortcut if isinstance(shortcut, list) else [QKeySequence(shortcut)])
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        from PySide6.QtGui import QKeySequence

        self.act_next.setShortcuts([QKeySequence(Qt.Key.Key_PageDown), QKeySequence("Ctrl+Right")])
        self.act_prev.setShortcuts([QKeySequence(Qt.Key.Key_PageUp), QKeySequence("Ctrl+Left")])
        self.act_controls.setShortcut(QKeySequence("Ctrl+Shift+C"))
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
        self.act_leave = self._action("Leave Presentation", self.leave_presentation,
                                      QKeySequence(Qt.Key.Key_Escape))
        self.act_leave.setEnabled(False)
        self.act_next_panel = self._action("Next &Panel", self.next_panel, "Ctrl+Tab")

    def _build_first_actions(self) -> None:
        """The actions the first frame's widgets hold: the step bar's buttons, the controls'
        fold (the rest, and all shortcuts, come with the menus)."""
        self.act_next = self._action("&Next Step", self.next_step)
        self.act_prev = self._action("&Previous Step", self.previous_step)
        self.act_controls = self._action("Show &Controls", self.set_controls_visible, None, True)
        self.act_controls.setChecked(True)

    def _build_menu_titles(self) -> None:
        """The menu bar with its titles, so that it has its height from the first frame."""
        bar = self.menuBar()
        self._menus = {name: bar.addMenu(name) for name in
                       ("&File", "&Edit", "&View", "&Steps", "&Playback", "&Help")}

    def _build_menus(self) -> None:
        file = self._menus["&File"]
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
        edit = self._menus["&Edit"]
        edit.addAction(self.act_undo)
        edit.addAction(self.act_redo)
        self.view_menu = self._menus["&View"]
        self.panels_menu = self.view_menu.addMenu("&Panels")
        for p in PANELS:
            a = QAction(p.title, self)
            a.setCheckable(True)
            a.toggled.connect(lambda on, pid=p.id: self.show_panel(pid, on))
            self.panels_menu.addAction(a)
            self.panel_actions[p.id] = a
            self._sync_panel_action(p.id)
        from PySide6.QtGui import QActionGroup

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
        self.view_menu.addAction(self.act_next_panel)
        self.view_menu.addAction(self.act_reset)
        steps = self._menus["&Steps"]
        steps.addAction(self.act_prev)
        steps.addAction(self.act_next)
        steps.addAction(self.act_overview)
        playback = self._menus["&Playback"]
        playback.addAction(self.act_play)
        playback.addAction(self.act_frame_prev)
        playback.addAction(self.act_frame_next)
        from gpuviz.ui.lecture_menus import install as install_lecture_menus
        install_lecture_menus(self)

    def _build_step_bar(self) -> None:
        self.step_bar_widget = StepBar(self.act_prev, self.act_next)
        self.step_bar_widget.stepChosen.connect(self.document.go_to_step)
        self.step_label = self.step_bar_widget.position  # "step k of n"
        self.step_bar = self._fixed_toolbar("Steps", "toolbar-steps", self.step_bar_widget,
                                            Qt.ToolBarArea.TopToolBarArea)

    def _build_caption(self) -> None:
        """The caption under the figures, like a subtitle: a fixed number of lines."""
        self.caption_label = CaptionStrip(CAPTION_LINES)
        font = self.caption_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.caption_label.setFont(font)
        self._caption_font = font
        # the bottom area stacks outwards: the caption's line sits right under the figures
        self.addToolBarBreak(Qt.ToolBarArea.BottomToolBarArea)
        self.caption_bar = self._fixed_toolbar("Caption", "toolbar-caption", self.caption_label,
                                               Qt.ToolBarArea.BottomToolBarArea)

    def _fixed_toolbar(self, title: str, name: str, widget: QWidget | None,
                       area: Qt.ToolBarArea) -> QToolBar:
        bar = QToolBar(title)
        bar.setObjectName(name)
        bar.setMovable(False)
        bar.setFloatable(False)
        bar.toggleViewAction().setEnabled(False)  # not one to close by accident
        bar.setContentsMargins(0, 0, 0, 0)
        bar.layout().setContentsMargins(0, 0, 0, 0)
        if widget is not None:
            bar.addWidget(widget)
        self.addToolBar(area, bar)
        return bar

    def _build_playback(self) -> None:
        """One clock for the document: animated panels follow it through the ``frame:<n>``
        key of the selection."""
        self.clock = PlaybackClock(self)
        # its controls are made when a shown panel first animates (most lectures open still)
        self._playback_bar: PlaybackBar | None = None
        self.playback_toolbar = self._fixed_toolbar("Playback", "toolbar-playback", None,
                                                    Qt.ToolBarArea.BottomToolBarArea)
        self.playback_toolbar.hide()
        self.clock.frameChanged.connect(self._on_frame)

    @property
    def playback_bar(self) -> PlaybackBar:
        if self._playback_bar is None:
            from gpuviz.ui.playback_bar import PlaybackBar

            self._playback_bar = PlaybackBar(self.clock)
            self.playback_toolbar.addWidget(self._playback_bar)
        return self._playback_bar

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

    def _update_playback_bar(self) -> None:
        """The playback bar shows when any step of the scenario animates a shown panel: it is
        there or not for the whole lecture, so stepping never moves the figures."""
        if self._presenting is not None:
            return
        visible = [pid for pid, d in self.docks.items() if not d.isHidden()]
        scenario = self.document.scenario
        animated = bool(visible) and any(
            frame_count_for(scenario.at_step(k), visible) > 1
            for k in range(-1, len(scenario.steps)))
        if animated:
            self.playback_bar  # noqa: B018 (made on first need)
        self.playback_toolbar.setVisible(animated)

    # --- panels and layout -------------------------------------------------------------------
    def dock(self, panel_id: str) -> PanelDock:
        if panel_id not in self.docks:
            d = PanelDock(panel(panel_id), self.document, self.theme, self)
            d.memory = self.design_memory
            d.measured_held = not self._complete
            d.hovered.connect(self._on_hover)
            d.set_controls_expanded(self.act_controls.isChecked())
            if self._presenting is not None:
                self._present_dock(d, True)
            d.visibilityChanged.connect(lambda _v, pid=panel_id: self._sync_panel_action(pid))
            d.visibilityChanged.connect(lambda _v: self._update_frames())
            d.visibilityChanged.connect(lambda _v: self._update_playback_bar())
            self.docks[panel_id] = d
            if not self.restoreDockWidget(d):
                self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
        return self.docks[panel_id]

    def _lay_out_panels(self) -> None:
        shown = self.document.scenario.panels
        # one panel keeps its controls beside it; more fold them to strips (the figures first)
        self.act_controls.setChecked(len(shown) <= 1)
        for d in self.docks.values():
            d.set_controls_expanded(len(shown) <= 1)
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
        a = self.panel_actions.get(panel_id)  # none before the menus are built (start-up)
        if a is None:
            return
        a.blockSignals(True)
        a.setChecked(self.docks[panel_id].isVisible() if panel_id in self.docks else False)
        a.blockSignals(False)

    def reset_layout(self) -> None:
        self.restoreState(self._default_state)
        for pid, d in self.docks.items():
            d.setFloating(False)
            d.setVisible(pid in self.document.scenario.panels)

    def set_theme(self, name: str, remember: bool = True) -> None:
        """The figures' theme, and the window's palette with it (a dark theme darkens menus,
        controls, the step bar and the caption too)."""
        self.theme = theme(name)
        if remember:
            self.settings.setValue("view/theme", name)
        apply_palette(self.theme)
        for d in self.docks.values():
            d.set_theme(self.theme)

    def set_controls_visible(self, visible: bool) -> None:
        """Unfold (True) or fold to strips (False) every panel's controls."""
        self.act_controls.setChecked(visible)
        for d in self.docks.values():
            d.set_controls_expanded(visible)

    # --- presenting ----------------------------------------------------------------------------
    @property
    def presenting(self) -> bool:
        return self._presenting is not None

    def toggle_presentation(self) -> None:
        if self._presenting is None:
            self.enter_presentation()
        else:
            self.leave_presentation()

    def enter_presentation(self) -> None:
        """For a room: full screen, no menu bar, one panel at a time (the step's focus, or the
        focused one), large type, the caption as a subtitle. Esc or F5 leaves."""
        if self._presenting is not None:
            return
        self.complete()  # its actions (Esc, F5) and the window state they remember
        self._presenting = {"theme": self.theme.name, "full": self.isFullScreen(),
                            "maximized": self.isMaximized(), "state": self.saveState()}
        shown = self._presentation_panel()
        self.set_theme("presentation", remember=False)
        self.menuBar().hide()
        self.step_bar.hide()
        self.playback_toolbar.hide()
        for d in self.docks.values():
            self._present_dock(d, True)
        self._show_only(shown)
        screen_h = self._screen().geometry().height()
        font = self.caption_label.font()
        font.setPixelSize(max(20, round(screen_h / 32)))
        self.caption_label.setFont(font)
        self.showFullScreen()
        self.act_present.setChecked(True)
        self.act_leave.setEnabled(True)
        self.act_full.setChecked(True)
        if len(QGuiApplication.screens()) > 1:
            self._open_presenter()
        self._update_step_bar()

    def leave_presentation(self) -> None:
        if self._presenting is None:
            return
        before, self._presenting = self._presenting, None
        if self.presenter is not None:
            self.presenter.close()
            self.presenter.deleteLater()
            self.presenter = None
        self.set_theme(before["theme"], remember=False)
        for d in self.docks.values():
            self._present_dock(d, False)
        self.menuBar().show()
        self.step_bar.show()
        self.caption_label.setFont(self._caption_font)
        if not before["full"]:
            self.showMaximized() if before["maximized"] else self.showNormal()
        self.restoreState(before["state"])
        self._update_playback_bar()
        self.act_present.setChecked(False)
        self.act_leave.setEnabled(False)
        self.act_full.setChecked(self.isFullScreen())
        self._update_step_bar()

    def _present_dock(self, d: PanelDock, presenting: bool) -> None:
        d.set_controls_shown(not presenting)
        d.set_body_px(PRESENT_BODY_PX if presenting else BODY_PX)
        d.setTitleBarWidget(QWidget() if presenting else None)  # no title bar: the figure only

    def _presentation_panel(self) -> str:
        """The panel to present: the step's focus, else the dock that has the keyboard focus,
        else the first visible one."""
        steps, k = self.document.scenario.steps, self.document.step
        if 0 <= k < len(steps) and steps[k].focus:
            return steps[k].focus
        focus = QApplication.focusWidget()
        for pid, d in self.docks.items():
            if focus is not None and d.isAncestorOf(focus) and d.isVisible():
                return pid
        visible = [pid for pid, d in self.docks.items() if d.isVisible()]
        return (visible or list(self.document.scenario.panels))[0]

    def _show_only(self, panel_id: str) -> None:
        self.dock(panel_id)
        for pid, d in self.docks.items():
            if pid == panel_id:
                d.setFloating(False)
                d.show()
                d.raise_()
                d.view.setFocus()
            else:
                d.hide()

    def next_panel(self) -> None:
        """The scenario's next panel: presented in its place (F5), or raised and focused."""
        panels = list(self.document.scenario.panels)
        current = [pid for pid in self.presented_panels() if pid in panels]
        focus = QApplication.focusWidget()
        now = next((pid for pid in current if focus is not None
                    and self.docks[pid].isAncestorOf(focus)), current[0] if current else None)
        following = panels[(panels.index(now) + 1) % len(panels)] if now in panels else panels[0]
        if self._presenting is not None:
            self._show_only(following)
        else:
            self.show_panel(following)
            self.docks[following].view.setFocus()

    def presented_panels(self) -> list[str]:
        return [pid for pid, d in self.docks.items() if d.isVisible()]

    def _open_presenter(self) -> None:
        mine = self.screen()
        other = next((s for s in QGuiApplication.screens() if s is not mine), None)
        if other is None:
            return
        from gpuviz.ui.presenter import PresenterView

        self.presenter = PresenterView()
        self.presenter.setGeometry(other.availableGeometry())
        self.presenter.show()

    def toggle_full_screen(self) -> None:
        self.complete()
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.act_full.setChecked(self.isFullScreen())

    # --- document ----------------------------------------------------------------------------
    def _on_section_changed(self, _panel_id: str) -> None:
        self._update_step_bar()
        self._update_frames()

    def _on_step_changed(self) -> None:
        self._edited_from = None
        self._last_step = self.document.step
        self._update_step_bar()
        self._update_frames()

    def _on_scenario_changed(self) -> None:
        # an edit while a step is shown leaves the steps; its caption stays, marked
        if self.document.step >= 0:
            self._edited_from = None
        elif self._last_step >= 0:
            self._edited_from = self._last_step
        self._last_step = self.document.step
        self._update_title()
        self._update_step_bar()
        self._update_frames()
        self._update_playback_bar()

    def _on_scenario_replaced(self) -> None:
        self._edited_from = None
        self._last_step = self.document.step
        self._update_title()
        self._lay_out_panels()
        self._update_step_bar()
        self._update_frames()
        self._update_playback_bar()

    def _on_path_changed(self) -> None:
        self._edited_from = None
        self._last_step = self.document.step
        self._update_title()
        self._update_step_bar()

    def _update_title(self) -> None:
        doc = self.document
        name = doc.path.name if doc.path else "unsaved"
        self.setWindowTitle(f"{doc.scenario.title} — {name}[*] — gpuviz")
        self.setWindowModified(doc.is_modified())

    def _update_step_bar(self) -> None:
        doc = self.document
        steps = doc.scenario.steps
        k = doc.step
        shown = doc.shown
        self.act_prev.setEnabled(k >= 0)
        self.act_next.setEnabled(k < len(steps) - 1 or doc.veiled)
        # the title often gives the answer away: only the question until the reveal
        self.step_bar_widget.set_steps([s.title for s in steps], k)
        if doc.veiled:
            self.step_bar_widget.steps.setItemText(k + 1, f"{k + 1} · (predict first)")
        presenting = self._presenting is not None
        marker = ""
        if k < 0 and self._edited_from is not None and self._edited_from < len(steps):
            s = steps[self._edited_from]
            marker = f"edited since step {self._edited_from + 1}"
            self.caption_label.set_caption(format_fields(s.caption, shown),
                                           s.title if presenting or not s.caption else "")
        elif k < 0:
            self.caption_label.set_caption(doc.scenario.description,
                                           doc.scenario.title if presenting else "")
        else:
            s = steps[k]
            if doc.veiled:
                self.caption_label.set_caption(format_fields(s.predict, shown) + "  (Next reveals)",
                                               "Predict:")
            else:
                self.caption_label.set_caption(format_fields(s.caption, shown),
                                               s.title if presenting or not s.caption else "")
            if s.focus:
                if presenting:
                    self._show_only(s.focus)
                else:
                    self.show_panel(s.focus)
        self.caption_label.set_marker(marker)
        self.caption_label.set_corner(f"{k + 1} / {len(steps)}" if presenting and steps and k >= 0
                                      else "")
        if self.presenter is not None:
            self.presenter.show_step(doc.scenario, k, doc.veiled)

    def next_step(self) -> None:
        """Reveal the current step's picture if it asks for a prediction, else go on."""
        if self.document.veiled:
            self.document.reveal()
        else:
            self.document.go_to_step(self.document.step + 1)

    def previous_step(self) -> None:
        self.document.go_to_step(self.document.step - 1)

    def _on_hover(self, key: str) -> None:
        self.step_bar_widget.set_hover(key)

    # --- files -------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current scenario (saved, discarded, or unchanged)."""
        if not self.document.is_modified():
            return True
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(
            self, "Unsaved changes",
            f"“{self.document.scenario.title}” has changes that are not saved. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

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
        from PySide6.QtWidgets import QMessageBox

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
        from PySide6.QtWidgets import QFileDialog

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
            from PySide6.QtWidgets import QMessageBox

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
            from PySide6.QtWidgets import QMessageBox

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
        if not self._complete:
            return  # built with the menus
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
        self.leave_presentation()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        event.accept()


def _is_bundled(path: Path) -> bool:
    from gpuviz.scenario.bundled import scenario_dir

    try:
        return Path(path).resolve().parent == scenario_dir().resolve()
    except OSError:
        return False
