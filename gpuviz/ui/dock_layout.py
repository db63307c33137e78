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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import QObject, QThreadPool

from gpuviz.figures.layout import Design, Target
from gpuviz.figures.scene import build_figure
from gpuviz.figures.theme import Theme
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.ui.view_layout import ViewLayout, lay_out_view
from gpuviz.ui.worker_report import Job

if TYPE_CHECKING:
    from gpuviz.scenario.document import Scenario
    from gpuviz.ui.design_memory import DesignMemory
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
    states: tuple[Any, ...]  # the panel's parameters in every state of the lecture


def lecture_states(scenario: Scenario, shown: Scenario, panel_id: str) -> tuple[Any, ...]:
    """The panel's effective parameters at the overview, at every step and as shown now, each
    once, in that order (a state the models cannot use is left out)."""
    out: list[Any] = []
    for s in [*(scenario.at_step(k) for k in range(-1, len(scenario.steps))), shown]:
        try:
            params = effective_params(s, panel_id)
        except Exception:  # noqa: BLE001 - that state's dock shows its problem instead
            continue
        if params not in out:
            out.append(params)
    return tuple(out)


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
        self._states: tuple[Any, ...] = ()
        self._queue: list[LayoutAsk] = []
        self._theme: Theme | None = None

    def states(self, scenario: Scenario, shown: Scenario) -> tuple[Any, ...]:
        if self._states_for is None or self._states_for[0] is not scenario \
                or self._states_for[1] is not shown:
            self._states_for = (scenario, shown)
            self._states = lecture_states(scenario, shown, self.panel_id)
        return self._states

    def known(self, ask: LayoutAsk) -> tuple[bool, ViewLayout | None]:
        """(whether the layout for ``ask`` was worked out, the layout: None where it failed)."""
        for a, layout in self._known:
            if a == ask:
                return True, layout
        return False, None

    def draft(self, ask: LayoutAsk) -> ViewLayout | None:
        """A layout worked out for this view and lecture before an edit: drawn with until
        the edits settle."""
        view = ask[:-1]
        return next((layout for a, layout in self._known if a[:-1] == view), None)

    def pending(self) -> bool:
        return self._asked is not None or bool(self._queue)

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
        while self._queue:
            ask = self._queue.pop(0)
            if not self.known(ask)[0]:
                self._start(ask)
                return

    def _start(self, ask: LayoutAsk) -> None:
        theme = self._theme
        assert theme is not None
        self._asked = ask
        self._generation += 1
        pid = self.panel_id

        def work() -> ViewLayout:
            results = [compute_cached(pid, p) for p in ask.states]
            return lay_out_view(lambda r, t: build_figure(pid, r, frozenset(), theme, t),
                                results, ask.target, ask.view_px, ask.min_px,
                                theme.title_pt, ask.parts, ask.chosen)

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
        self._asked = None
        self._queue = []
        self.plan.designs.clear()

    # --- designs of the redraw plan, remembered across sessions ------------------------------
    def known_design(self, target: Target, theme: str) -> Design | None:
        """The design this view's shape was last laid out with: worked out in this session, or
        remembered from the last one."""
        if target.aspect is None:
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
