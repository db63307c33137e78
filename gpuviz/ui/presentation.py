"""Presentation mode (F5): full screen, no menu bar, one panel at a time, large type, the caption as a subtitle, and with a second screen the
presenter's notes there; Esc or F5 leaves.

Entering and leaving keep what the lecturer had: the playback position, a dark theme (the room
sees the dark figures, in presentation type), and the docks' layout."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPaintEvent
from PySide6.QtWidgets import QApplication, QWidget

from gpuviz.ui.panel_dock import BODY_PX, PanelDock
from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.scenario.document import Scenario
    from gpuviz.ui.presenter import PresenterView
    from gpuviz.ui.window_api import WindowApi

PRESENT_BODY_PX = 18.0  # the figures' body type in presentation mode, in screen pixels
PRESENT_MIN_PX = 18.0  # the least median type of a presented figure (else it shows a page)
ONE_PANEL_PX, PANELS_PX = 12.0, 10.0  # the least median type in the window, one panel / more
SETTLE_POLL_MS = 20
SETTLE_WAIT_MS = 4000  # the longest the room waits for the final layout, in wall time (polls
# of a busy window's thread come late: counted as 20 ms each, a loaded machine waited 15 s)
ROOM_POLL_MS = 100  # after that, how often the room's one type is looked for


def now() -> float:
    """The clock the room's wait is measured on (seconds)."""
    return time.monotonic()


@dataclass(frozen=True)
class PresentationState:
    """What entering presentation mode found, given back on leaving."""

    theme: str
    full_screen: bool
    maximized: bool
    layout: QByteArray
    frame: int
    playing: bool


def named_panels(scenario: Scenario, k: int) -> tuple[str, ...]:
    """The panels step ``k`` names (the lecture model's: its focus, or the panels whose parts
    it names); none for the overview or a step naming neither."""
    from gpuviz.lecture import names_panels, step_panels

    return step_panels(scenario, k) if names_panels(scenario, k) else ()


# how the room sees a panel: (how many panels share the screen with it, the parts it shows,
# the states it is seen in so: -1 the overview, else the steps)
Show = tuple[int, tuple[str, ...] | None, tuple[int, ...]]
Shows = tuple[Show, ...]


def room_plan(scenario: Scenario, overview: tuple[str, ...]) -> dict[str, Shows]:
    """For each panel the room sees over the lecture, the views it is shown in: (how many
    panels share the screen with it, the parts it shows, the states it is seen in so) at the
    overview (``overview``) and every step (a step that names no panel keeps those before
    it). A view is laid out for its own states only: a rack beside another panel at the
    steps that show 4 rounds is not drawn at the scale of a 32-round state shown alone. A
    state that names no panel (the overview) keeps whatever view the room came from, so it
    is one of the views of the panel that show its parts, in each shape the panel is seen in
    (a view of its own where every step names parts of the panel and it shows none), so it
    too is painted at the room's one type."""
    from gpuviz.lecture import Lecture, shown_parts

    lecture = Lecture(scenario)  # each step as the room sees it (the lecture model's parts)
    plan: dict[str, dict[tuple[int, tuple[str, ...] | None], list[int]]] = {}
    shown = overview
    unnamed = []
    for k in range(-1, len(scenario.steps)):
        named = named_panels(scenario, k)
        if not named:
            unnamed.append(k)
        shown = named or shown
        for pid in shown:
            view = (len(shown), shown_parts(lecture, k, pid, "present"))
            plan.setdefault(pid, {}).setdefault(view, []).append(k)
    for k in unnamed:
        for pid, views in plan.items():
            own = shown_parts(lecture, k, pid, "present")
            # the room may come to it from a view of any shape the panel is seen in: it is
            # laid out in each (every step may name parts of the panel, this state none)
            for n in sorted({n for n, _ in views}):
                ks = views.setdefault((n, own), [])
                if k not in ks:
                    ks.append(k)
    return {pid: tuple((n, parts, tuple(sorted(ks))) for (n, parts), ks in views.items())
            for pid, views in plan.items()}


def presentation_theme(theme_name: str) -> str:
    """The figures' theme in the room: the lecturer's dark theme stays dark, any other becomes
    the high-contrast presentation theme."""
    return "dark" if theme_name == "dark" else "presentation"


class Curtain(QWidget):
    """The whole window in one colour (the room's theme background) while presentation mode
    lays its figures out underneath: the room's first sight of a figure is its final layout,
    never the windowed picture stretched to the screen nor a layout replaced half a second
    later. Opaque and on top of every other child, so that nothing under it is painted."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # it fills every pixel
        self._color = QColor("#ffffff")
        self.hide()
        parent.installEventFilter(self)

    def cover(self, color: str) -> None:
        self._color = QColor(color)
        parent = self.parentWidget()
        assert parent is not None
        self.setGeometry(parent.rect())
        self.raise_()
        self.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        parent = self.parentWidget()
        if watched is parent and event.type() == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(parent.rect())
            self.raise_()
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), self._color)
        p.end()


class Presentation:
    def __init__(self, window: WindowApi):
        self.window = window
        self.state: PresentationState | None = None
        self.presenter: PresenterView | None = None
        self._since = 0.0  # when presentation mode was entered (monotonic seconds)
        self._room: dict[str, Shows] | None = None  # how the room sees each panel
        self._curtain: Curtain | None = None  # made on first use

    @property
    def active(self) -> bool:
        return self.state is not None

    @property
    def waiting(self) -> bool:
        """Whether the room still sees the curtain: F5 was pressed and the figures are not
        yet laid out for the full screen (at most ``SETTLE_WAIT_MS``)."""
        return self._curtain is not None and self._curtain.isVisible()

    def _cover(self) -> None:
        """The curtain up, and the figures under it not painted (each would be painted in a
        layout the room never sees, on the window's thread, while the layouts are worked out)."""
        w = self.window
        if self._curtain is None:
            self._curtain = Curtain(w)  # type: ignore[arg-type]
        self._curtain.cover(w.theme.background)
        for d in w.docks.values():
            d.view.setUpdatesEnabled(False)
        # the room's figures reach the screen's edge: the window's empty central widget (no
        # size) keeps a dock separator, a 6-px strip of the window's colour down the left edge
        central = w.centralWidget()
        assert central is not None  # the window makes its own, of no size
        central.hide()

    def _lift_curtain(self) -> None:
        if self._curtain is not None:
            self._curtain.hide()
        for d in self.window.docks.values():
            d.view.setUpdatesEnabled(True)

    def toggle(self, _checked: bool = False) -> None:
        if self.state is None:
            self.enter()
        else:
            self.leave()

    def enter(self) -> None:
        """For a room: full screen, no menu bar, one panel at a time (the step's focus, or the
        focused one), large type, the caption as a subtitle."""
        w = self.window
        if self.state is not None:
            return
        w.complete()  # its actions (Esc, F5) and the window state they remember
        # the room sees the final layout first: a curtain in the room's background covers
        # the window until it has its full-screen size and every figure is laid out for it
        # (with updates off instead, the X server went on showing the windowed picture,
        # stretched, for up to the whole wait; before that, a window manager's answer in
        # steps showed the windowed layout scaled, then the final one)
        self._since = now()
        self._room = None
        clock = w.clock
        self.state = PresentationState(w.theme.name, w.isFullScreen(), w.isMaximized(),
                                       w.saveState(), clock.frame, clock.playing)
        shown = self.panels_to_show()
        with w.playback.holding():
            w.set_theme(presentation_theme(w.theme.name), remember=False)
            self._cover()
            w.menuBar().hide()
            w.step_bar.hide()
            w.playback_toolbar.hide()
            for d in w.docks.values():
                self.present_dock(d, True)
            self.show_only(*shown)
            screen_h = w.screen_now().geometry().height()
            font = w.caption_label.font()
            font.setPixelSize(max(20, round(screen_h / 32)))
            w.caption_label.setFont(font)
            w.showFullScreen()
        self._restore_clock()
        QTimer.singleShot(SETTLE_POLL_MS, as_qt(w), self._show_when_settled)
        w.action("present").setChecked(True)
        w.action("leave-presentation").setEnabled(True)
        w.action("full-screen").setChecked(True)
        if len(QGuiApplication.screens()) > 1:
            self._open_presenter()
        w.update_step_bar()

    def leave(self) -> None:
        w = self.window
        if self.state is None:
            return
        before = self.state
        self._lift_curtain()
        central = w.centralWidget()
        assert central is not None
        central.show()
        # the frame the room saw last, carried back
        self.state = PresentationState(before.theme, before.full_screen, before.maximized,
                                       before.layout, w.clock.frame, w.clock.playing)
        if self.presenter is not None:
            self.presenter.close()
            self.presenter.deleteLater()
            self.presenter = None
        with w.playback.holding():
            w.set_theme(before.theme, remember=False)
            for d in w.docks.values():
                self.present_dock(d, False)
                d.room_shows, d.room_type, d.room_waiting = (), None, False
            w.menuBar().show()
            w.step_bar.show()
            w.caption_label.setFont(w.caption_font)
            if not before.full_screen:
                w.showMaximized() if before.maximized else w.showNormal()
            w.restoreState(before.layout)
        self._restore_clock()
        self.state = None
        self.update_min_type()  # the window's least type again
        # the window reaches its size on later turns of the event loop (a window manager
        # answers asynchronously): the layout is given back again at each resize until then
        w.relayout_on_resize(before.layout)
        w.playback.update_bar()
        w.action("present").setChecked(False)
        w.action("leave-presentation").setEnabled(False)
        w.action("full-screen").setChecked(w.isFullScreen())
        w.update_step_bar()

    def _show_when_settled(self) -> None:
        w = self.window
        if not self.waiting:
            return
        waited = (now() - self._since) * 1000.0
        screen = w.screen_now().geometry().size()
        full = w.isFullScreen() and w.size() == screen
        if self.state is not None and self._room is None and (full or
                                                              waited >= SETTLE_WAIT_MS):
            self._plan_room()
        ready = (self.state is None or (full and all(d.settled() for d in w.docks.values()
                                                     if d.isVisible())))
        if ready and self.state is not None:
            ready = self._room_ready()
        if ready or waited >= SETTLE_WAIT_MS:
            self._lift_curtain()
            w.update()
            for d in w.docks.values():  # painted now, with what each has laid out (an
                if d.isVisible():       # update() after the window changed size while
                    d.view.repaint()    # updates were off is not always painted)
            if not ready and self.state is not None:
                QTimer.singleShot(ROOM_POLL_MS, as_qt(w), self._room_later)
        else:
            QTimer.singleShot(SETTLE_POLL_MS, as_qt(w), self._show_when_settled)

    def _room_later(self) -> None:
        """The room's one type, where it was not known when the room was shown (a loaded
        machine): applied once known, so the steps from then on keep it."""
        w = self.window
        if self.state is None:
            return
        if w.isFullScreen() and self._room_ready():
            for d in w.docks.values():
                if d.isVisible():
                    d.view.repaint()
        else:
            QTimer.singleShot(ROOM_POLL_MS, as_qt(w), self._room_later)

    def _plan_room(self) -> None:
        """The views the room will see each panel in, once the window has its full-screen
        size: each laid out for the states it shows (``room_plan``). Until then no dock asks
        for a layout (one for the window's size, or over every state, would be thrown away)."""
        w = self.window
        self._room = room_plan(w.document.scenario, self.panels_to_show())
        shown = [d for d in w.docks.values() if d.isVisible()]
        for d in w.docks.values():
            d.room_waiting = False
        if not shown:
            return
        now_w, now_h = shown[0].view.width(), shown[0].view.height()
        inset = round(now_w - (w.width() / len(shown)))
        for pid, shows in self._room.items():
            d = w.dock(pid)
            d.room_shows = tuple(((round(w.width() / n) + inset, now_h), parts, ks)
                                 for n, parts, ks in shows)
            d.layouts.also(d.room_asks(), d.theme)
        for d in shown:
            d.schedule_refresh()  # its own view's layout: one of the room's

    def _room_ready(self) -> bool:
        """Whether every figure the room will see over the lecture is laid out at one type:
        the views each panel is presented in (alone, or beside the others a step names) are
        laid out once the window has its full-screen size, and every presented figure is
        painted at the least of their types, so neither a step that shows two panels side by
        side nor one that shows another panel changes the type. A view that falls under
        ``PRESENT_MIN_PX`` (a whole figure beside another panel, at an overview the room
        reaches only from two panels) keeps its own type and leaves the others theirs; a view
        never changes type within itself."""
        w = self.window
        if self._room is None:
            return False
        types = [w.docks[pid].room_types() for pid in self._room]
        if any(t is None for t in types):
            return False
        # one type for the views the back row reads (at least PRESENT_MIN_PX): a view that
        # falls under it (a whole figure beside another panel) keeps its own, and does not
        # shrink the rest of the room to it
        room = min((t for ts in types for t in ts or () if t >= PRESENT_MIN_PX), default=None)
        for d in w.docks.values():
            d.room_type = room
            if d.isVisible():
                d.fit_to_lecture()
        return True

    def _restore_clock(self) -> None:
        assert self.state is not None
        clock = self.window.clock
        clock.seek(min(self.state.frame, clock.last_frame))
        if self.state.playing and not clock.playing:
            clock.toggle()

    def show_step_parts(self) -> None:
        """A step that names parts of a figure shows those parts, in the room large, in the
        window at the window's type; elsewhere each dock shows what fits (the lecture
        model's answer: after an edit, the parts of the step edited)."""
        shown = self.window.step_show()
        for pid, d in self.window.docks.items():
            d.set_parts(shown.parts(pid) if pid in shown.panel_ids else None)

    def show_step_panels(self) -> None:
        """The panels the lecture model gives the step, wherever it was reached from:
        presented alone (side by side), or shown in the window, the others hidden."""
        if self.state is not None:
            self.show_only(*self.panels_to_show())
            return
        named = self.window.step_show().panel_ids
        w = self.window
        for pid in named:
            w.dock(pid).show()
        for pid, d in w.docks.items():
            if pid not in named:
                d.hide()
        w.docks[named[0]].raise_()

    def update_min_type(self) -> None:
        """The least type of the window's figures: 12 px with one panel shown, 10 with more
        (in the room: ``PRESENT_MIN_PX``)."""
        if self.state is None:
            docks = self.window.docks.values()
            shown = sum(1 for d in docks if not d.isHidden() and not d.isFloating())
            for d in docks:
                d.set_min_px(ONE_PANEL_PX if shown <= 1 else PANELS_PX)

    def present_dock(self, d: PanelDock, presenting: bool) -> None:
        d.set_controls_shown(not presenting)
        d.room_waiting = presenting  # no layout asked until the room's views are planned
        d.set_body_px(PRESENT_BODY_PX if presenting else BODY_PX)
        if presenting:
            d.set_min_px(PRESENT_MIN_PX)
        else:
            self.update_min_type()
        # no title bar: the figure only; None gives the dock its own back (Qt takes nullptr,
        # PySide6's stub does not say so)
        d.setTitleBarWidget(QWidget() if presenting else None)  # type: ignore[arg-type]

    def panels_to_show(self) -> tuple[str, ...]:
        """The step's panels as the lecture model gives them, where the step names them;
        else the dock that has the keyboard focus, else the first visible one."""
        w = self.window
        from gpuviz.lecture import names_panels

        if names_panels(w.document.scenario, w.document.step):
            return w.step_show().panel_ids
        focus = QApplication.focusWidget()
        for pid, d in w.docks.items():
            if focus is not None and d.isAncestorOf(focus) and d.isVisible():
                return (pid,)
        visible = [pid for pid, d in w.docks.items() if d.isVisible()]
        return ((visible or list(w.document.scenario.panels))[0],)

    def show_only(self, *panel_ids: str) -> None:
        """Present these panels, side by side, and hide the others."""
        w = self.window
        for pid in panel_ids:
            w.dock(pid)
        for pid, d in w.docks.items():
            if pid in panel_ids:
                d.setFloating(False)
                d.show()
                d.raise_()
            else:
                d.hide()
        shown = [w.docks[pid] for pid in panel_ids]
        for left, right in itertools.pairwise(shown):
            if left.geometry().top() != right.geometry().top() or \
                    w.dockWidgetArea(left) != w.dockWidgetArea(right):
                w.splitDockWidget(left, right, Qt.Orientation.Horizontal)
        if len(shown) > 1:
            w.resizeDocks(shown, [w.width() // len(shown)] * len(shown), Qt.Orientation.Horizontal)
        shown[0].view.setFocus()

    def next_panel(self) -> None:
        """The scenario's next panel: presented in its place (F5), or raised and focused."""
        w = self.window
        panels = list(w.document.scenario.panels)
        current = [pid for pid in w.presented_panels() if pid in panels]
        focus = QApplication.focusWidget()
        now = next((pid for pid in current if focus is not None
                    and w.docks[pid].isAncestorOf(focus)), current[0] if current else None)
        following = panels[(panels.index(now) + 1) % len(panels)] if now in panels else panels[0]
        if self.state is not None:
            self.show_only(following)
        else:
            w.show_panel(following)
            w.docks[following].view.setFocus()

    def _open_presenter(self) -> None:
        w = self.window
        mine = w.screen()
        other = next((s for s in QGuiApplication.screens() if s is not mine), None)
        if other is None:
            return
        from gpuviz.ui.presenter import PresenterView

        self.presenter = PresenterView()
        self.presenter.setGeometry(other.availableGeometry())
        self.presenter.show()

