"""The main window as the modules it is made of see it: one Protocol, so that they name its type
without importing ``main_window`` (which imports them).

``MainWindow`` is the one class that has it. ``tests/test_layers.py`` checks both sides: every
member a window module uses is declared here, and ``MainWindow`` defines every member declared.
Members whose type is another window module's class (the menus, the files, the presentation,
the playback) are ``Any`` with that class named: typing them would import that module back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtCore import QByteArray, QSettings, QSize, Qt
    from PySide6.QtGui import QAction, QFont, QScreen
    from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QStatusBar, QToolBar, QWidget

    from gpuviz.figures.theme import Theme
    from gpuviz.scenario.problems import ScenarioError
    from gpuviz.ui.document import Document
    from gpuviz.ui.panel_dock import PanelDock


class WindowApi(Protocol):
    """What the window's modules (menus, files, help, keys, playback, presentation, the
    warning line, the lecture export) use of ``MainWindow``."""

    document: Document
    settings: QSettings
    theme: Theme
    docks: dict[str, PanelDock]
    measurements_dock: Any  # measurements_dock.MeasurementsDock, after the first paint
    gallery: Any  # gallery.Gallery, once shown
    about_dialog: Any  # about_panel.AboutPanelDialog, once shown
    step_list_dialog: Any  # step_list.StepListDialog, once shown
    panel_actions: dict[str, QAction]
    menus: Any  # window_menus.Menus
    files: Any  # window_files.Files
    presentation: Any  # presentation.Presentation
    playback: Any  # window_playback.WindowPlayback
    clock: Any  # playback.PlaybackClock
    lecture_keys: Any  # lecture_keys.LectureKeys
    help_page: Any  # window_help.HelpPage, kept while shown
    step_bar_widget: Any  # step_bar.StepBar
    step_bar: QToolBar
    playback_toolbar: QToolBar | None
    caption_label: QWidget
    caption_font: QFont
    recent_menu: QMenu
    bundled_menu: QMenu
    panels_menu: QMenu
    view_menu: QMenu
    theme_actions: dict[str, QAction]
    act_open: QAction
    act_save: QAction
    act_save_as: QAction
    act_export: QAction
    act_quit: QAction
    act_undo: QAction
    act_redo: QAction
    act_prev: QAction
    act_next: QAction
    act_overview: QAction
    act_play: QAction
    act_frame_prev: QAction
    act_frame_next: QAction
    act_next_panel: QAction
    act_present: QAction
    act_leave: QAction
    act_full: QAction
    act_reset: QAction
    act_controls: QAction

    # the window's own
    def complete(self) -> None: ...
    def is_complete(self) -> bool: ...
    def screen_now(self) -> QScreen: ...
    def fixed_toolbar(self, title: str, name: str, widget: QWidget | None,
                      area: Qt.ToolBarArea) -> QToolBar: ...
    def dock(self, panel_id: str) -> PanelDock: ...
    def show_panel(self, panel_id: str, on: bool = True) -> None: ...
    def sync_panel_action(self, panel_id: str) -> None: ...
    def reset_layout(self) -> None: ...
    def set_theme(self, name: str, remember: bool = True) -> None: ...
    def set_controls_visible(self, visible: bool) -> None: ...
    def presented_panels(self) -> list[str]: ...
    def toggle_full_screen(self) -> None: ...
    def update_step_bar(self) -> None: ...
    def next_step(self) -> None: ...
    def previous_step(self) -> None: ...
    def open_path(self, path: Path) -> bool: ...
    def show_error(self, title: str, err: ScenarioError) -> None: ...
    def relayout_on_resize(self, layout: QByteArray, ms: int = 1000) -> None: ...

    # QMainWindow's
    def addAction(self, action: QAction) -> None: ...
    def centralWidget(self) -> QWidget: ...
    def close(self) -> bool: ...
    def dockWidgetArea(self, dock: QDockWidget) -> Qt.DockWidgetArea: ...
    def isFullScreen(self) -> bool: ...
    def isMaximized(self) -> bool: ...
    def menuBar(self) -> QMenuBar: ...
    def resizeDocks(self, docks: list[QDockWidget], sizes: list[int],
                    orientation: Qt.Orientation) -> None: ...
    def restoreState(self, state: QByteArray, version: int = 0) -> bool: ...
    def saveState(self, version: int = 0) -> QByteArray: ...
    def screen(self) -> QScreen: ...
    def showFullScreen(self) -> None: ...
    def showMaximized(self) -> None: ...
    def showNormal(self) -> None: ...
    def size(self) -> QSize: ...
    def splitDockWidget(self, first: QDockWidget, second: QDockWidget,
                        orientation: Qt.Orientation) -> None: ...
    def statusBar(self) -> QStatusBar: ...
    def update(self) -> None: ...
    def width(self) -> int: ...


#: The members a window module may use, for the test that keeps this declaration whole.
MEMBERS: frozenset[str] = frozenset(
    name for name in {*WindowApi.__annotations__, *vars(WindowApi)} if not name.startswith("_"))
