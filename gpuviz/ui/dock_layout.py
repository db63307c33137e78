"""A dock's view layouts: which parts it draws, with which design, at which scale, for the
whole lecture (``ui/view_layout.py``), worked out on the thread pool and kept per view.

A view's layout is asked for by a :class:`LayoutAsk`: the view's target and pixel size, its
theme, the least type it must reach, the parts the state asks for, the page the user chose, and
the lecture's states (the panel's parameters at the overview, at every step, and as shown now).
While the layout for an ask is being worked out the picture on screen stays up; once it is
known every state of the lecture is drawn with its one design and scale. An edit that leaves
the lecture's states asks again once the edits settle. The designs are also remembered across
sessions (``ui/design_memory.py``): a later session draws its first frame with them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import QObject, QThreadPool

from gpuviz import keys
from gpuviz.figures.display import Figure
from gpuviz.figures.metrics import leaves_room, on_typeface_change
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import NATURAL, Design, Target, view_target
from gpuviz.figures.theme import Theme
from gpuviz.lecture import Lecture, shown_parts, shown_selection
from gpuviz.registry import panel
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.ui.part_switcher import SWITCHER_PX
from gpuviz.ui.view_layout import (
    ViewLayout,
    lay_out_view,
    layout_scale,
    measured_states,
    type_px,
)
from gpuviz.ui.worker_report import Job

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer

    from gpuviz.figures.targets import Chrome
    from gpuviz.registry import Panel
    from gpuviz.scenario.document import Scenario
    from gpuviz.ui.design_memory import DesignMemory
    from gpuviz.ui.document import Document
    from gpuviz.ui.figure_view import FigureView
    from gpuviz.ui.part_switcher import PartSwitcher
    from gpuviz.ui.redraw_plan import RedrawPlan

KEPT_LAYOUTS = 16  # view layouts kept per dock (view shapes × themes × parts asked)


class LayoutAsk(NamedTuple):
    """What a view layout is worked out for (compared by value)."""

    target: Target  # the view's target, drawing every part
    view_px: tuple[int, int]
    theme: str
    min_px: float
    parts: tuple[str, ...] | None  # what the state asks for (a step's parts)
    chosen: str | None  # the first part of the page the user chose
    lecture: int  # which lecture (a count of the scenarios the document was given)
    states: tuple[Any, ...]  # (the panel's parameters, the step's selection) of every state


def lecture_states(scenario: Scenario, shown: Scenario, panel_id: str,
                   steps: tuple[int, ...] | None = None, now: int = -1) -> tuple[Any, ...]:
    """The panel's effective parameters at the overview, at every step and as shown now, each
    with the selection its step makes (a selected warp's receipt can take room), each pair
    once, in that order (a state the models cannot use is left out). ``steps``: only those
    states (-1: the overview), and what is shown now where the step shown (``now``) is one:
    the states presentation mode shows one view of the panel in."""
    out: list[Any] = []
    ks = range(-1, len(scenario.steps)) if steps is None else steps
    lecture = Lecture(scenario)
    k_states: list[tuple[Scenario, frozenset[str] | None]] = [
        (scenario.at_step(k), shown_selection(lecture, k, panel_id)) for k in ks]
    if steps is None or now in steps:
        k_states.append((shown, None))
    for s, selection in k_states:
        try:
            params = effective_params(s, panel_id)
        except Exception:
            continue
        if selection is None:  # as shown now: new only where an edit made new parameters
            if all(p != params for p, _ in out):
                out.append((params, frozenset()))
        elif (params, selection) not in out:
            out.append((params, selection))
    return tuple(out)


# figures built, by (panel, result, theme, selection, target, fallback room): the layouts of
# one view for another page, for the steps' parts and for a new window build many of the same
# figures, and a dock's redraw of a state it showed before (a step gone back to, a playback
# loop's frame, the state a layout just built in its design) is then a paint alone. Each entry
# holds its result and theme, so their ids name them while it lives; new parameters are a new
# result (compute_cached), so a changed state is built anew.
_BUILT: OrderedDict[tuple[Any, ...], tuple[Any, Theme, Figure]] = OrderedDict()
_BUILT_LOCK = threading.Lock()
BUILT_KEPT = 256  # figures kept across the layouts of a session (another page, a new window;
# 64 thrashed once a view's pages are grouped by every state's type: twice the builds, about
# 20 MB less at the peak of tests/ui/test_dock_layouts.py's child)


def built_figure(panel_id: str, result: Any, selection: frozenset[str], theme: Theme,
                 target: Target) -> Figure:
    """``build_figure(panel_id, result, selection, theme, target)``, remembered (the last
    ``BUILT_KEPT``): the same figure object for the same arguments; a change of typeface
    forgets them all (``metrics.on_typeface_change``)."""
    key = (panel_id, id(result), id(theme), selection, target, leaves_room())
    with _BUILT_LOCK:
        hit = _BUILT.get(key)
        if hit is not None and hit[0] is result and hit[1] is theme:
            _BUILT.move_to_end(key)
            return hit[2]
    figure = build_figure(panel_id, result, selection, theme, target)
    with _BUILT_LOCK:
        _BUILT[key] = (result, theme, figure)
        while len(_BUILT) > BUILT_KEPT:
            _BUILT.popitem(last=False)
    return figure


def _forget_built() -> None:
    with _BUILT_LOCK:
        _BUILT.clear()


on_typeface_change(_forget_built)


def _built(panel_id: str, state: tuple[Any, frozenset[str]], theme: Theme,
           target: Target) -> Figure:
    """The figure of a (result, a step's selection) state for a layout: at playback's first
    frame where the panel animates (:func:`_playing`)."""
    result, selection = state
    return built_figure(panel_id, result, selection | _playing(panel_id, result), theme, target)


def _playing(panel_id: str, result: Any) -> frozenset[str]:
    """An animated figure is shown at a playback frame (the window's selection carries it),
    and one at a frame can be laid out smaller than the still figure (its frame's marks): the
    layout is worked out at the first frame, where playback starts."""
    p = panel(panel_id)
    return frozenset({keys.key(keys.FRAME, 0)}) if p.animated and p.frame_count(result) > 1 \
        else frozenset()


def lay_out_ask(panel_id: str, ask: LayoutAsk, theme: Theme,
                build: Callable[[Any, Target], Figure] | None = None,
                memo: dict | None = None) -> ViewLayout:
    """The view's layout for ``ask``, as a dock works it out on the thread pool (``build``:
    the panel's figure of a (result, selection) state for a target, remembered by default)."""
    if build is None:
        def build(state: Any, target: Target) -> Figure:
            return _built(panel_id, state, theme, target)
    core: list[Any] = []  # each parameter state once: its design compared
    extra: list[Any] = []  # a step's selection of a state: drawn in that design
    params_seen: list[Any] = []
    for p, selection in ask.states:
        (extra if p in params_seen else core).append((p, selection))
        params_seen.append(p)
    # a long lecture measured on a dozen of its states (view_layout.measured_states)
    core = [(compute_cached(panel_id, core[i][0]), core[i][1])
            for i in measured_states(len(core))]
    extra = [(compute_cached(panel_id, extra[i][0]), extra[i][1])
             for i in measured_states(len(extra))]
    return lay_out_view(build, core, ask.target, ask.view_px, ask.min_px, theme.title_pt,
                        ask.parts, ask.chosen, panel(panel_id).parts, extra,
                        {} if memo is None else memo)


class Stale(Exception):
    """A layout no longer wanted, stopped between two builds."""


class _Wanted:
    generation = 0


class DockLayouts(QObject):
    """One dock's view layouts and the designs its redraw plan keeps."""

    def __init__(self, panel_id: str, plan: RedrawPlan, on_known: Callable[[], None],
                 parent: QObject | None = None):
        super().__init__(parent)
        self.panel_id = panel_id
        self.plan = plan
        self.memory: DesignMemory | None = None
        self._on_known = on_known
        self._known: list[tuple[LayoutAsk, ViewLayout | None]] = []
        self._asked: LayoutAsk | None = None
        self._generation = 0
        self._states_for: tuple[object, object] | None = None
        self._states: dict[tuple[tuple[int, ...] | None, bool], tuple[Any, ...]] = {}
        self._queue: list[LayoutAsk] = []
        self._room: list[LayoutAsk] = []  # asked for presentation mode's other views
        self._room_asks: set[LayoutAsk] = set()
        self._theme: Theme | None = None
        self._wanted = _Wanted()  # read by the worker: a stale layout stops building
        # what the layouts measured, per view and lecture: the layouts of one view for its
        # pages and the steps' parts measure the same groupings of parts
        self._memos: dict[tuple, dict] = {}
        wanted = self._wanted
        self.destroyed.connect(lambda *_: setattr(wanted, "generation", -1))

    def states(self, scenario: Scenario, shown: Scenario, steps: tuple[int, ...] | None = None,
               now: int = -1) -> tuple[Any, ...]:
        """The lecture's states of the panel (``lecture_states``), remembered for these
        scenarios: all of them, or those of ``steps``."""
        if self._states_for is None or self._states_for[0] is not scenario \
                or self._states_for[1] is not shown:
            self._states_for = (scenario, shown)
            self._states = {}
        key = (steps, steps is None or now in steps)
        if key not in self._states:
            self._states[key] = lecture_states(scenario, shown, self.panel_id, steps, now)
        return self._states[key]

    def known(self, ask: LayoutAsk) -> tuple[bool, ViewLayout | None]:
        """(whether the layout for ``ask`` was worked out, the layout: None where it failed)."""
        for a, layout in self._known:
            if a == ask:
                return True, layout
        return False, None

    def lecture_type(self, asks: Sequence[LayoutAsk]) -> float | None:
        """The one type of this view over the lecture: the least of the layouts worked out
        for ``asks``, its steps' parts and what fits (each page is painted at it)."""
        types = [layout.type_px for a, layout in self._known
                 if layout is not None and a in asks]
        return min(types) if types else None

    def draft(self, ask: LayoutAsk) -> ViewLayout | None:
        """A layout worked out for this view and lecture before an edit: drawn with until
        the edits settle."""
        view = ask[:-1]
        return next((layout for a, layout in self._known if a[:-1] == view), None)

    def pending(self) -> bool:
        return self._asked is not None or bool(self._queue) or bool(self._room)

    def also(self, asks: list[LayoutAsk], theme: Theme) -> None:
        """Work out ``asks`` too, after whatever the view asks (the views presentation mode
        will show this panel in, for the one type of the room)."""
        self._room = [a for a in asks if not self.known(a)[0]]
        self._room_asks = set(asks)
        self._theme = theme  # the room's: the window's theme was forgotten on entering F5
        if self._asked is None:
            self._next()

    def ask(self, ask: LayoutAsk, theme: Theme, later: tuple[LayoutAsk, ...] = ()) -> None:
        """Work the layout for ``ask`` out on the thread pool (once; a newer ask wins), then
        those of ``later`` (the other parts the lecture's steps ask for, in this view)."""
        self._queue = [a for a in later if a != ask and not self.known(a)[0]]
        self._theme = theme
        if ask == self._asked or self.known(ask)[0]:
            if self._asked is None:
                self._next()
            return
        self._start(ask)

    def _next(self) -> None:
        while self._queue or self._room:
            ask = (self._queue or self._room).pop(0)
            if not self.known(ask)[0]:
                self._start(ask)
                return

    def _start(self, ask: LayoutAsk) -> None:
        theme = self._theme
        assert theme is not None
        stopped = self._asked
        if stopped is not None and stopped != ask and stopped in self._room_asks:
            self._room.insert(0, stopped)  # still wanted: worked out after this one
        self._asked = ask
        self._generation += 1
        self._wanted.generation = generation = self._generation
        pid, wanted, memos = self.panel_id, self._wanted, self._memos
        while len(memos) > KEPT_LAYOUTS:  # the oldest views' measures go first
            memos.pop(next(iter(memos)))

        def build(state: Any, target: Target) -> Figure:
            if wanted.generation != generation:  # asked again since, or the dock is gone
                raise Stale
            return _built(pid, state, theme, target)

        def work() -> ViewLayout:
            memo = memos.setdefault((ask.view_px, ask.theme, ask.lecture, ask.states), {})
            return lay_out_ask(pid, ask, theme, build, memo)

        job = Job(work, self._generation)
        job.signals.done.connect(self._on_done)
        QThreadPool.globalInstance().start(job)

    def _on_done(self, generation: int, layout: object, error: str) -> None:
        if generation != self._generation or self._asked is None:
            return  # asked again since
        ask, self._asked = self._asked, None
        found = layout if isinstance(layout, ViewLayout) and not error else None
        self._known = [(ask, found), *[k for k in self._known if k[0] != ask]][:KEPT_LAYOUTS]
        if found is not None and found.design is not None:
            shown = ask.target if found.parts is None else ask.target.showing(found.parts,
                                                                               ask.target.chrome)
            self.keep_design(shown, ask.theme, found.design)
        self._next()
        self._on_known()

    def forget(self) -> None:
        """Another theme: its type sizes make other layouts."""
        self._known.clear()
        self._memos.clear()
        self._asked = None
        self._queue = []
        self._room = []
        self._room_asks = set()
        self.plan.designs.clear()

    # --- designs of the redraw plan, remembered across sessions ------------------------------
    def known_design(self, target: Target, theme: str) -> Design | None:
        """The design this view's shape was last laid out with: worked out in this session, or
        remembered from the last one."""
        if not target.paged:
            return None
        design = self.plan.designs.get(target)
        if design is None and self.memory is not None and target.whole:
            design = self.memory.recall(self.panel_id, theme, target)
            if design is not None:
                self.plan.designs[target] = design
        return design

    def keep_design(self, target: Target, theme: str, design: Design) -> None:
        self.plan.designs[target] = design
        if self.memory is not None and target.whole:
            self.memory.keep(self.panel_id, theme, target, design)


class LectureLayout:
    """What a :class:`~gpuviz.ui.panel_dock.PanelDock`'s view is laid out for, as a part of
    the dock: the view's target and pixels, its layout for the lecture (asked of
    :class:`DockLayouts`), the page drawn and the part switcher, and the share of its fitted
    size each state is painted at."""

    if TYPE_CHECKING:  # what the dock this is a part of gives it (``ui/panel_dock.py``)
        panel: Panel
        document: Document
        theme: Theme
        view: FigureView
        switcher: PartSwitcher
        plan: RedrawPlan
        layouts: DockLayouts
        parts: tuple[str, ...] | None
        chrome: Chrome
        chosen: str | None
        min_px: float
        presenting: bool
        _lecture: int
        _on_screen: bool
        _settle_timer: QTimer

        def px_per_mm(self) -> float: ...

        def schedule_refresh(self) -> None: ...

    # --- what the view is laid out for -----------------------------------------------------
    def view_px(self) -> tuple[int, int]:
        """The pixels the figure is laid out for: the view's, less the switcher's row where
        it is on its way (a panel of several parts, in the window)."""
        h = self.view.height() + (0 if self.switcher.isHidden() else SWITCHER_PX)
        if not self.presenting and len(self.panel.parts) > 1:
            h -= SWITCHER_PX
        return self.view.width(), max(h, 1)

    def paged_later(self, figure: Figure) -> bool:
        """Whether the view's layout will draw a page of parts instead of ``figure``, the whole
        figure laid out for the view before that layout is known: its type misses the view's
        least (the lecture's whole figure, one design for every state, reaches at most this
        state's type). The first frame then waits for the layout (the view painted blank)
        rather than show a figure it replaces."""
        return (self.parts is None and len(self.panel.parts) > 1 and figure.design is not None
                and bool(figure.parts) and self.view_layout() is None
                and type_px(figure, self.view_px()) < self.min_px)

    # the views presentation mode shows this panel in over the lecture, each with the parts it
    # shows there, and the one type of every figure the room sees (``ui/presentation.py``)
    # (the view's pixels, the parts shown, the states the room sees it in: -1 the overview)
    room_shows: tuple[tuple[tuple[int, int], tuple[str, ...] | None, tuple[int, ...]], ...] = ()
    room_type: float | None = None
    room_waiting = False  # entering F5: no layout asked until the room's views are planned

    def _base_target(self, view_px: tuple[int, int] | None = None) -> Target | None:
        w, h = view_px or self.view_px()
        if w < 50 or h < 50:
            return None
        # whole millimetres and a coarse aspect: a resize by a pixel does not lay out again
        return view_target(round(w / self.px_per_mm()), round(w / h, 2))

    def _ask(self, base: Target, parts: tuple[str, ...] | None = None,
             own: bool = True, view_px: tuple[int, int] | None = None,
             steps: tuple[int, ...] | None = None) -> LayoutAsk:
        """What this view (``own``), or another the room sees (``parts``, ``view_px``, the
        ``steps`` it is seen at), is laid out for: in the window every state of the lecture,
        in the room the states it sees that view in."""
        doc = self.document
        if own and self.presenting:
            steps = self._room_steps()
        elif not self.presenting:  # in the window, a page over the states that show it
            steps = self._steps_showing(self.parts if own else parts)
        states = self.layouts.states(doc.scenario, doc.shown, steps, doc.step)
        return LayoutAsk(base, view_px or self.view_px(), self.theme.name, self.min_px,
                         self.parts if own else parts, self.chosen, self._lecture, states)

    def _steps_showing(self, parts: tuple[str, ...] | None) -> tuple[int, ...]:
        """The states (-1: the overview) at which the window shows these parts of the panel
        (None: the whole, or the parts that fit): a step's parts are laid out for the steps
        that name them, not for a 32-round state another step shows whole."""
        lecture = self.document.lecture
        return tuple(k for k in range(-1, lecture.steps)
                     if shown_parts(lecture, k, self.panel.id) == parts)

    def _room_steps(self) -> tuple[int, ...] | None:
        """The states the room sees this panel in the view it is in now (None: a view the
        room's plan does not hold, laid out over every state)."""
        step, px = self.document.step, self.view_px()
        here = [(view_px, ks) for view_px, parts, ks in self.room_shows
                if step in ks and parts == self.parts]
        return next((ks for view_px, ks in here if view_px == px),
                    here[0][1] if len(here) == 1 else None)

    def view_layout(self) -> ViewLayout | None:
        """The view's layout for the lecture (or, after an edit, the one before it until the
        edits settle); None before it is known, or for a panel not laid out for a view."""
        base = self._base_target()
        if base is None:
            return None
        ask = self._ask(base)
        known, layout = self.layouts.known(ask)
        return layout if known else self.layouts.draft(ask)

    def target(self) -> Target:
        """What the figure is laid out for: the view's width at the scale that shows the body
        type at ``body_px``, and the view's shape, drawing the parts of the view's layout (the
        step's, or the page chosen); the natural size for panels that are not laid out for a
        target, or before the view has a size."""
        base = self._base_target()
        if base is None:
            return NATURAL
        layout = self.view_layout()
        parts = layout.parts if layout is not None else self.parts
        if parts is None and self.chrome == "full":
            return base
        return base.showing(parts, self.chrome)

    def _ask_layout(self, base: Target) -> None:
        if self.presenting and self.room_waiting:
            return  # asked with the room's views (``Presentation._plan_room``)
        ask = self._ask(base)
        if self.layouts.known(ask)[0] or not self._on_screen:
            return  # the first frame first: asked once it is painted (``_on_painted``)
        if self.layouts.draft(ask) is not None:
            self._settle_timer.start()  # an edit: drawn as before until the edits settle
            return
        self.layouts.ask(ask, self.theme, self._later_asks(base))

    def _later_asks(self, base: Target) -> tuple[LayoutAsk, ...]:
        """The layouts of the parts the other steps ask for, worked out after this one, so a
        step is drawn in its final layout the moment it is shown (in the room: the room's
        views, asked by presentation mode)."""
        if self.presenting:
            return ()
        return tuple(self._ask(base, p, own=False) for p in self._lecture_parts()
                     if p != self.parts)

    def _lecture_parts(self) -> list[tuple[str, ...] | None]:
        lecture = self.document.lecture
        wanted = {shown_parts(lecture, k, self.panel.id) for k in range(lecture.steps)}
        return [None, *sorted((p for p in wanted if p is not None), key=str)]

    def room_asks(self) -> list[LayoutAsk]:
        """The layouts of every view the room sees this panel in, for the lecture's parts."""
        asks = []
        for px, parts, steps in self.room_shows:
            base = self._base_target(px)
            if base is not None:
                asks.append(self._ask(base, parts, own=False, view_px=px, steps=steps))
        return asks

    def room_types(self) -> list[float] | None:
        """The type of each view the room sees this panel in (None until all are known; a
        view that could not be laid out has none)."""
        types = []
        for ask in self.room_asks():
            known, layout = self.layouts.known(ask)
            if not known:
                return None
            if layout is not None and layout.type_px > 0:
                types.append(layout.type_px)
        return types

    def _settle(self) -> None:
        base = self._base_target()
        if base is not None:
            self.layouts.ask(self._ask(base), self.theme)

    def _on_page_chosen(self, part: str) -> None:
        self.chosen = part
        if self.memory is not None:
            self.memory.settings.setValue(f"parts/{self.panel.id}", part)
        self.schedule_refresh()

    @property
    def memory(self) -> DesignMemory | None:
        """The designs (and the page chosen) remembered across sessions."""
        return self.layouts.memory

    @memory.setter
    def memory(self, memory: DesignMemory | None) -> None:
        self.layouts.memory = memory
        chosen = memory.settings.value(f"parts/{self.panel.id}") if memory is not None else None
        if isinstance(chosen, str) and chosen in self.panel.parts:
            self.chosen = chosen

    def _update_switcher(self) -> None:
        """The switcher's row is there in the window for a panel of several parts whatever
        the pages (the figure never moves when they change); it offers a page a tab."""
        layout = self.view_layout()
        if layout is not None:
            self.switcher.set_pages(layout.pages, layout.parts or layout.pages[0],
                                    whole=layout.parts is None)
        self.switcher.setVisible(not self.presenting and len(self.panel.parts) > 1)

    def fit_to_lecture(self) -> None:
        """Paint the figure on screen at the lecture's one scale: a state with less to show is
        not blown up, so type and arrangement stay put from step to step."""
        self.view.set_fit(self._lecture_zoom())

    def _lecture_zoom(self) -> float:
        """The share of its fitted size the figure is painted at: the lecture's one scale for
        its design, and the one type of every page of the view over the lecture."""
        key, figure, layout = self.plan.shown, self.view.figure(), self.view_layout()
        base = self._base_target()
        if key is None or figure is None or layout is None or layout.design is None \
                or figure.design != layout.design or base is None:
            return 1.0
        ask = self._ask(base)
        # the figure's own layout scale, not its state's in the layout: a selection or the
        # playback frame can lay a state out at another scale than the layout measured
        zoom = layout.zoom(layout_scale(figure, self.theme.title_pt))
        lecture = self.layouts.lecture_type(
            (ask, *(self._ask(base, p, own=False) for p in self._lecture_parts())))
        shown = layout.type_px if lecture is None else min(layout.type_px, lecture)
        if self.presenting and self.room_type:  # one type in the room, whichever panel shows
            shown = min(shown, self.room_type)
        return zoom * shown / layout.type_px if layout.type_px > 0 else zoom
