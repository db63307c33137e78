"""The main window: docks for the panels, menus, steps, files, layout memory.

Above the figures a step bar of fixed height (previous / next, the position, the step list);
under them the caption, like a subtitle, also of fixed height, so that nothing moves when the
lecture steps. F5 presents: full screen, no menu bar, one panel at a time, large type, the
caption as a subtitle, and with a second screen the presenter's notes there; Esc leaves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCursor, QGuiApplication
from PySide6.QtWidgets import QMainWindow, QToolBar, QWidget

from gpuviz.figures.theme import theme
from gpuviz.registry import panel
from gpuviz.scenario import ScenarioError
from gpuviz.ui.design_memory import DesignMemory, first_designs
from gpuviz.ui.document import Document
from gpuviz.ui.palette import apply_palette
from gpuviz.ui.panel_dock import PanelDock
from gpuviz.ui.presentation import Presentation
from gpuviz.ui.step_bar import CaptionStrip, StepBar
from gpuviz.ui.window_files import Files
from gpuviz.ui.window_menus import Menus, build_actions, build_first_actions, build_menus
from gpuviz.ui.window_playback import WindowPlayback

# classes the first frame does not use are imported where they are used: PySide makes a
# class's Python enums when it is first named (QKeySequence's 71 standard keys, QMessageBox's
# buttons), and at start-up that is time before the first figure
if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QResizeEvent, QScreen
    from PySide6.QtWidgets import QMenu

    from gpuviz.lecture import StepShow
    from gpuviz.ui.figure_view import FigureView
    from gpuviz.ui.lecture_keys import LectureKeys
    from gpuviz.ui.playback_bar import PlaybackBar
    from gpuviz.ui.presenter import PresenterView
    from gpuviz.ui.step_editor import StepAuthoring
    from gpuviz.ui.window_help import HelpPage

CAPTION_LINES = 2
FIRST_PAINT_WAIT_MS = 1500  # a deferred window completes by then even if nothing was painted


class MainWindow(QMainWindow):
    """``defer=True`` (the application's start) builds what the first frame shows (docks, step
    bar, caption, the menu bar's titles) and the rest (menu items, the measurements dock) on the
    next event-loop turn, after the first figure is painted; ``completed`` is emitted then."""

    completed = Signal()
    # set by the window's modules (``window_api.WindowApi`` declares them for those modules)
    lecture_keys: LectureKeys  # lecture_keys.install
    step_authoring: StepAuthoring  # lecture_menus.install
    help_page: HelpPage  # window_help.show_page, kept while shown
    recent_menu: QMenu  # window_menus.build_menus, as the next three
    bundled_menu: QMenu
    view_menu: QMenu
    panels_menu: QMenu
    theme_actions: dict[str, QAction]

    def __init__(self, document: Document, settings: QSettings | None = None,
                 parent: QWidget | None = None, *, defer: bool = False):
        super().__init__(parent)
        self.document = document
        self.settings = settings if settings is not None else QSettings()
        self.theme = theme(str(self.settings.value("view/theme", "screen")))
        self.design_memory = DesignMemory(self.settings, first_designs(document.path))
        self.docks: dict[str, PanelDock] = {}
        self.measurements_dock: Any = None  # made after the first paint (measurements_dock)
        self.gallery = self.about_dialog = self.step_list_dialog = None  # made when first shown
        self.setObjectName("gpuviz-main")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        central = QWidget()
        central.setMaximumSize(0, 0)
        self.setCentralWidget(central)
        self._complete = False
        self._awaited_view: FigureView | None = None
        self.panel_actions: dict[str, QAction] = {}
        self.menus = Menus(self)  # the menu bar's titles: its height from the first frame
        self.files = Files(self)
        self.presentation = Presentation(self)
        self._layout_on_resize: QByteArray | None = None
        self._maximized_before_full = False
        build_first_actions(self)
        self._build_step_bar()
        self.playback = WindowPlayback(self)  # one clock; the bar made when first needed
        self.clock = self.playback.clock
        self.playback_toolbar = self.playback.toolbar
        self._build_caption()
        # messages ("Saved …") and the key under the pointer show in the step bar's right end;
        # the status bar itself stays hidden, its height is the figures'
        self.statusBar().messageChanged.connect(self.step_bar_widget.show_message)
        self.statusBar().hide()
        self._panels = document.scenario.panels  # the lecture's panels the docks show
        apply_palette(self.theme)
        document.section_changed.connect(self._on_section_changed)
        document.scenario_changed.connect(self._on_scenario_changed)
        document.scenario_replaced.connect(self._on_scenario_replaced)
        document.step_changed.connect(self._on_step_changed)
        document.revealed.connect(self.update_step_bar)
        document.path_changed.connect(self._on_path_changed)
        document.clean_changed.connect(lambda _clean: self._update_title())
        self._lay_out_panels()
        # the docks' layout before the window's size and state: restored into a hidden
        # maximized or full-screen window, Qt keeps a copy of the layout's items to apply again
        # as the window grows, and a dock removed meanwhile (View ▸ Reset Layout) leaves that
        # copy pointing at a deleted item, which crashes the next resize
        # a layout belongs to its lecture's panels: another lecture's stacked two panels at
        # about 7 px
        state = self.settings.value("window/state")
        mine = self.settings.value("window/state-panels") == ",".join(document.scenario.panels)
        if isinstance(state, QByteArray) and mine:
            self.restoreState(state)
            self._show_scenario_panels()
        geometry = self.settings.value("window/geometry")
        if not (isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)
                and self._fits_screen()):
            self.fit_to_screen()
        self._update_title()
        self.update_step_bar()
        self.playback.update_frames()
        self.playback.update_bar()
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
        from gpuviz.ui import lecture_export, measurements_dock, warning_line
        from gpuviz.ui.lecture_keys import install as install_lecture_keys
        from gpuviz.ui.veil_tips import VeilTips

        # every tip and hover asks the lecture's veil first; installed here, not for the first
        # frame: an application-wide filter has PySide wrap every child Qt makes (a combo box's
        # list view among them), which names classes the first frame does not need
        self.veil_tips = VeilTips(self)
        build_actions(self)
        build_menus(self)
        install_lecture_keys(self)
        measurements_dock.install(self)
        lecture_export.install(self)
        warning_line.install(self)
        for d in self.docks.values():
            d.release_measured()
        self.completed.emit()

    def is_complete(self) -> bool:
        return self._complete

    # --- size from the screen ------------------------------------------------------------------
    def screen_now(self) -> QScreen:
        return (QGuiApplication.screenAt(QCursor.pos()) or self.screen()
                or QGuiApplication.primaryScreen())

    def _fits_screen(self) -> bool:
        return any(s.availableGeometry().contains(self.geometry())
                   for s in QGuiApplication.screens())

    def fit_to_screen(self) -> None:
        """A size taken from the screen the window opens on: all of a projector's or a laptop's
        screen (up to 1920×1200), most of a larger one, centred."""
        avail = self.screen_now().availableGeometry()
        if avail.width() <= 1920 or avail.height() <= 1200:
            self.setGeometry(avail)
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
            return
        w, h = round(avail.width() * 0.85), round(avail.height() * 0.85)
        self.setGeometry(avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2, w, h)

    # --- construction ----------------------------------------------------------------------
    def _build_step_bar(self) -> None:
        self.step_bar_widget = StepBar(self.action("previous-step"), self.action("next-step"))
        self.step_bar_widget.stepChosen.connect(self.document.go_to_step)
        self.step_label = self.step_bar_widget.position  # "step k of n"
        self.step_bar = self.fixed_toolbar("Steps", "toolbar-steps", self.step_bar_widget,
                                            Qt.ToolBarArea.TopToolBarArea)

    def _build_caption(self) -> None:
        """The caption under the figures, like a subtitle: a fixed number of lines."""
        self.caption_label = CaptionStrip(CAPTION_LINES)
        font = self.caption_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.caption_label.setFont(font)
        self.caption_font = font
        # the bottom area stacks outwards: the caption's line sits right under the figures
        self.addToolBarBreak(Qt.ToolBarArea.BottomToolBarArea)
        self.caption_bar = self.fixed_toolbar("Caption", "toolbar-caption", self.caption_label,
                                               Qt.ToolBarArea.BottomToolBarArea)

    def fixed_toolbar(self, title: str, name: str, widget: QWidget | None,
                       area: Qt.ToolBarArea) -> QToolBar:
        bar = QToolBar(title)
        bar.setObjectName(name)
        bar.setMovable(False)
        bar.setFloatable(False)
        bar.toggleViewAction().setEnabled(False)  # not one to close by accident
        bar.setContentsMargins(0, 0, 0, 0)
        layout = bar.layout()  # a tool bar's own QToolBarLayout, made with it
        assert layout is not None
        layout.setContentsMargins(0, 0, 0, 0)
        if widget is not None:
            bar.addWidget(widget)
        self.addToolBar(area, bar)
        return bar

    @property
    def playback_bar(self) -> PlaybackBar:
        return self.playback.bar

    # --- panels and layout -------------------------------------------------------------------
    def dock(self, panel_id: str) -> PanelDock:
        if panel_id not in self.docks:
            d = PanelDock(panel(panel_id), self.document, self.theme, self)
            d.memory = self.design_memory
            d.measured.held = not self._complete
            d.hovered.connect(self._on_hover)
            d.set_controls_expanded(self.action("controls").isChecked())
            if self.presentation.active:
                self.presentation.present_dock(d, True)
            d.visibilityChanged.connect(lambda _v, pid=panel_id: self.sync_panel_action(pid))
            # its X while authoring takes the panel out of the lecture, as View ▸ Panels does
            d.closed.connect(lambda pid: self.choose_panel(pid, False))
            d.visibilityChanged.connect(lambda _v: self.playback.update_frames())
            d.visibilityChanged.connect(lambda _v: self.playback.update_bar())
            d.visibilityChanged.connect(lambda _v: self.presentation.update_min_type())
            self.docks[panel_id] = d
            if not self.restoreDockWidget(d):
                self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
        return self.docks[panel_id]

    def _lay_out_panels(self) -> None:
        shown = self.document.scenario.panels
        # one panel keeps its controls beside it; more fold them to strips (the figures first)
        self.action("controls").setChecked(len(shown) <= 1)
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

    def choose_panel(self, panel_id: str, on: bool) -> None:
        """View ▸ Panels: showing or closing a panel changes the lecture's panels (undoable),
        so saving, reopening and Reset Layout keep it; in F5 it only shows or hides it."""
        panels = self.document.scenario.panels
        after = (*panels, panel_id) if on and panel_id not in panels else \
            tuple(p for p in panels if p != panel_id or on)
        if self.presentation.active or not after or after == panels:
            self.show_panel(panel_id, on)
            self.sync_panel_action(panel_id)
            return
        self.document.set_panels(after)

    def _show_lecture_panels(self, before: tuple[str, ...]) -> None:
        """The lecture's panels changed (chosen, or that choice undone or redone): the docks
        added are shown, those taken out hidden."""
        after = self.document.scenario.panels
        for pid in after:
            if pid not in before:
                self.show_panel(pid)
        for pid in before:
            if pid not in after:
                self.show_panel(pid, False)

    def sync_panel_action(self, panel_id: str) -> None:
        a = self.panel_actions.get(panel_id)  # none before the menus are built (start-up)
        if a is None:
            return
        a.blockSignals(True)
        a.setChecked(self.docks[panel_id].isVisible() if panel_id in self.docks else False)
        a.blockSignals(False)

    def reset_layout(self) -> None:
        """The layout of a freshly opened scenario: its panels side by side (the layout the
        window first had may belong to another scenario: two panels came back stacked, one
        figure at 5-px type), the measurements dock hidden at the bottom."""
        extra = self.measurements_dock
        for d in [*self.docks.values(), *([extra] if extra is not None else [])]:
            d.setFloating(False)
            self.removeDockWidget(d)
        for d in self.docks.values():
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
            d.hide()
        if extra is not None:
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, extra, Qt.Orientation.Vertical)
            extra.hide()
        self._lay_out_panels()

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
        self.action("controls").setChecked(visible)
        for d in self.docks.values():
            d.set_controls_expanded(visible)

    # --- presenting (ui/presentation.py) -------------------------------------------------------
    @property
    def presenting(self) -> bool:
        return self.presentation.active

    @property
    def presenter(self) -> PresenterView | None:
        return self.presentation.presenter

    def toggle_presentation(self) -> None:
        self.presentation.toggle()

    def enter_presentation(self) -> None:
        self.presentation.enter()

    def leave_presentation(self) -> None:
        self.presentation.leave()

    def next_panel(self) -> None:
        self.presentation.next_panel()

    def action(self, action_id: str) -> QAction:
        """The window's action ``action_id`` (``window_menus.ACTIONS`` and the entries other
        modules add by id)."""
        return self.menus.action(action_id)

    def presented_panels(self) -> list[str]:
        return [pid for pid, d in self.docks.items() if d.isVisible()]

    def toggle_full_screen(self) -> None:
        self.complete()
        if self.isFullScreen():
            # back to what it was: a window manager keeps the full-screen size after showNormal
            self.showMaximized() if self._maximized_before_full else self.showNormal()
        else:
            self._maximized_before_full = self.isMaximized()
            self.showFullScreen()
        self.action("full-screen").setChecked(self.isFullScreen())

    # --- document ----------------------------------------------------------------------------
    def _on_section_changed(self, _panel_id: str) -> None:
        self.update_step_bar()
        self.playback.update_frames()

    def _on_step_changed(self) -> None:
        self.presentation.show_step_panels()
        self.update_step_bar()
        self.playback.enter_step()

    def _on_scenario_changed(self) -> None:
        if self.document.scenario.panels != self._panels:
            self._show_lecture_panels(self._panels)
        self._panels = self.document.scenario.panels
        self._update_title()
        self.update_step_bar()
        self.playback.update_frames()
        self.playback.update_bar()

    def _on_scenario_replaced(self) -> None:
        self._panels = self.document.scenario.panels
        self.step_bar_widget.set_hover("")  # the last scenario's key names nothing here
        self._update_title()
        self._lay_out_panels()
        self.update_step_bar()
        self.playback.update_frames()
        self.playback.update_bar()

    def _on_path_changed(self) -> None:
        self._update_title()
        self.update_step_bar()

    def _update_title(self) -> None:
        doc = self.document
        name = doc.path.name if doc.path else "unsaved"
        self.setWindowTitle(f"{doc.scenario.title} — {name}[*] — gpuviz")
        self.setWindowModified(doc.is_modified())

    def step_show(self) -> StepShow:
        """What the shown step shows here, from the lecture model (``gpuviz.lecture``)."""
        from dataclasses import replace

        from gpuviz.lecture import show

        presenting = self.presentation.active
        lecture = replace(self.document.lecture, presenting=presenting)
        return show(lecture, None, "present" if presenting else "window")

    def update_step_bar(self) -> None:
        from gpuviz.lecture import listed_titles

        doc = self.document
        steps = doc.scenario.steps
        k = doc.step
        # the title often gives the answer away: only the question until the reveal
        self.step_bar_widget.set_steps(listed_titles(doc.lecture), k, doc.edited_from,
                                       doc.veiled_steps())
        presenting = self.presentation.active
        shown = self.step_show()  # the caption, its title and its marker: the lecture model's
        marker = shown.stale
        if shown.veiled and shown.question:
            self.caption_label.set_caption(shown.question + "  (Next reveals)", "Predict:")
        elif shown.veiled:  # the overview of a question about its picture: the question first
            first = shown.asked_ahead[0] + 1
            self.caption_label.set_caption(f"Step {first} asks about this picture: predict "
                                           f"first (Next goes to it).",
                                           shown.title if presenting else "")
        elif k < 0 and shown.edited_from is None:  # the overview: its title when presenting
            self.caption_label.set_caption(shown.caption, shown.title if presenting else "")
        else:
            self.caption_label.set_caption(shown.caption, shown.title if presenting
                                           or not shown.caption else "")
        self.caption_label.set_marker(marker)
        self.caption_label.set_corner(f"{k + 1} / {len(steps)}" if presenting and steps and k >= 0
                                      else "")
        self.presentation.show_step_parts()
        if self.presenter is not None:
            self.presenter.show_step(doc.scenario, k, doc.veiled)

    def next_step(self) -> None:
        """Reveal the current step's picture if it asks for a prediction, else go on."""
        if self.document.veiled:
            self.document.reveal()
        else:
            self.document.go_to_step(self.step_bar_widget.neighbours()[1])

    def previous_step(self) -> None:
        self.document.go_to_step(self.step_bar_widget.neighbours()[0])

    def _on_hover(self, key: str) -> None:
        self.step_bar_widget.set_hover(key)

    # --- files (ui/window_files.py) ---------------------------------------------------------
    def open_path(self, path: Path) -> bool:
        return self.files.open_path(path)

    def save(self) -> bool:
        return self.files.save()

    def save_as(self) -> bool:
        return self.files.save_as()

    def export_dialog(self) -> None:
        self.files.export_dialog()

    def maybe_save(self) -> bool:
        return self.files.maybe_save()

    def show_error(self, title: str, err: ScenarioError) -> None:
        self.files.show_error(title, err)

    def relayout_on_resize(self, layout: QByteArray, ms: int = 1000) -> None:
        """Give the docks ``layout`` again at each resize in the next ``ms``: a window that
        leaves full screen reaches its size in steps, and a layout restored at an
        intermediate size is split differently at the final one."""
        self._layout_on_resize = layout
        QTimer.singleShot(ms, self, self._end_relayout)

    def _end_relayout(self) -> None:
        self._layout_on_resize = None

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._layout_on_resize is not None and not self.presentation.active:
            self.restoreState(self._layout_on_resize)

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
        self.settings.setValue("window/state-panels", ",".join(self.document.scenario.panels))
        event.accept()

