"""One dock per registered panel: generated controls on the left, the figure on the right.

The dock never computes anything itself: it asks the scenario layer for the panel's result and
the figure module for its display list, and repaints only when what it shows has changed. A
burst of changes (a dragged control) is coalesced into one redraw on the next event-loop turn.
"""

from __future__ import annotations

import time
from dataclasses import replace

from PySide6.QtCore import Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import Chrome
from gpuviz.figures.theme import Theme
from gpuviz.registry import Panel
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.scenario.decode import encode
from gpuviz.ui.companion_split import CompanionSplit
from gpuviz.ui.controls_strip import STRIP_PX, ControlsScroll, ControlsStrip, follow_text
from gpuviz.ui.dock_layout import DockLayouts, LectureLayout, built_figure
from gpuviz.ui.document import Document
from gpuviz.ui.figure_view import FigureView
from gpuviz.ui.measured_line import MeasuredLine
from gpuviz.ui.panel_extras import PanelExtras, extras_class
from gpuviz.ui.param_form import ParamForm
from gpuviz.ui.part_switcher import PartSwitcher
from gpuviz.ui.redraw_plan import DrawKey, Redraw, RedrawPlan
from gpuviz.ui.worker_report import Job

VEIL_TEXT = "Predict first.\n\nThe picture appears when you reveal it (Next step or PageDown)."
# the overview of a question about its picture: PageDown goes on to the question
AHEAD_VEIL_TEXT = "Predict first.\n\nThe picture appears once the next question is answered."
VEIL_PRESENT_PX = 32.0  # the question on a veiled figure, in presentation mode, read from the back
BODY_PX = 12.0  # the theme's body type on screen, in pixels (presentation mode asks for more)
MIN_TYPE_PX = 12.0  # the least median type a view must reach before it shows its parts a page
CONTROLS_PX = 280  # the unfolded controls' width (more where a row of them needs it)
FIGURE_MIN_PX = 400  # what widening the controls leaves the figure at least
RELAYOUT_MS = 150  # a resize settles this long before the figure is laid out again
SETTLE_MS = 250  # an edit's view layout is worked out once the edits pause this long


class PanelDock(LectureLayout, QDockWidget):
    hovered = Signal(str)
    closed = Signal(str)  # its title bar's X (not a hide from code): the panel's id

    def __init__(self, panel: Panel, document: Document, theme: Theme, parent: QWidget | None = None):
        super().__init__(panel.title, parent)
        self.panel = panel
        self.document = document
        self.theme = theme
        self.setObjectName(f"dock-{panel.id}")
        self.form = ParamForm(panel.id, panel.params_type)
        self.form.edited.connect(self._on_edited)
        self.view = FigureView()
        # Until a figure reaches the screen, the view's size is not final (a window settling
        # into its restored, then maximized size at start-up): the first figure is laid out
        # as the view's first paint begins, for the size it paints at, not for a size it had
        # on the way there (which would be painted scaled, then laid out again).
        self._on_screen = False
        self._painting = False
        self.view.before_paint = self._before_first_paint
        self.view.painted.connect(self._on_painted)
        self.view.setObjectName(f"figure-{panel.id}")
        self.view.keyClicked.connect(self._on_key_clicked)
        self.view.keyActivated.connect(self._on_key_activated)
        self.view.keyHovered.connect(self.hovered.emit)
        self.body_px = BODY_PX
        self.parts: tuple[str, ...] | None = None  # the parts drawn (None: the whole figure)
        self.chrome: Chrome = "full"  # what surrounds them
        self.extras: PanelExtras = extras_class(panel)(self)
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(RELAYOUT_MS)
        self._relayout.timeout.connect(self._on_view_resized)
        self.view.resized.connect(self._on_resized)

        controls = QWidget()
        lay = QVBoxLayout(controls)
        lay.setContentsMargins(6, 6, 6, 6)
        header = QHBoxLayout()
        self.follow_label = QLabel()
        self.follow_label.setObjectName(f"{panel.id}-follows")
        self.follow_label.setWordWrap(True)
        self.fold_button = QToolButton()
        self.fold_button.setObjectName(f"{panel.id}-fold-controls")
        self.fold_button.setArrowType(Qt.ArrowType.LeftArrow)
        self.fold_button.setAutoRaise(True)
        self.fold_button.setToolTip("Fold the controls to a strip (Ctrl+Shift+C: all panels)")
        self.fold_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.fold_button.clicked.connect(lambda: self.set_controls_expanded(False))
        header.addWidget(self.follow_label, 1)
        header.addWidget(self.fold_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(header)
        summary = QLabel(panel.summary)
        summary.setWordWrap(True)
        lay.addWidget(summary)
        lay.addWidget(self.form)
        # the panel's result in words, under the controls, refreshed with the figure
        self.summary = QLabel()
        self.summary.setObjectName(f"{panel.id}-summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.hide()
        lay.addWidget(self.summary)
        # the model's number beside the H200's, for panels with measured counterparts (filled in
        # after the figure is painted: the measurement tables are not needed for the first frame)
        self.measured = MeasuredLine(panel, document)
        self._automatic_for: object = None
        lay.addWidget(self.measured)
        for w in self.extras.widgets():
            lay.addWidget(w)
        lay.addStretch(1)
        scroll = ControlsScroll()
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.widen.connect(self._widen_controls)
        self.controls = scroll
        self.strip = ControlsStrip()
        self.strip.clicked.connect(lambda: self.set_controls_expanded(True))
        pane = QWidget()
        pane_lay = QHBoxLayout(pane)
        pane_lay.setContentsMargins(0, 0, 0, 0)
        pane_lay.setSpacing(0)
        pane_lay.addWidget(scroll)
        pane_lay.addWidget(self.strip)
        self.controls_pane = pane
        self.splitter = splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(pane)
        # a widget that goes with the controls though it sits under the figure, with its width
        # (the scheduler's zoomable timeline): hidden with the controls when presenting
        self.companion = self.extras.under_figure()
        # the part switcher above the figure: the pages of parts when the whole is too small
        self.switcher = PartSwitcher(panel.id)
        self.switcher.chosen.connect(self._on_page_chosen)
        self.switcher.setVisible(len(panel.parts) > 1)
        figure = QWidget()
        figure_lay = QVBoxLayout(figure)
        figure_lay.setContentsMargins(0, 0, 0, 0)
        figure_lay.setSpacing(0)
        figure_lay.addWidget(self.switcher)
        figure_lay.addWidget(self.view, 1)
        if self.companion is None:
            splitter.addWidget(figure)
        else:
            self.column = CompanionSplit(figure, self.companion,
                                         f"{panel.id}-figure-and-companion")
            splitter.addWidget(self.column)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self.setWidget(splitter)
        self._expanded = True
        self.set_controls_expanded(True)

        # what is shown, computed and searched, and whether the model is slow (Qt-free)
        self.plan = RedrawPlan(slow=panel.slow)
        # the view's layout for the whole lecture: its parts, design and scale (thread pool)
        self.layouts = DockLayouts(panel.id, self.plan, self.schedule_refresh, self)
        self.min_px = MIN_TYPE_PX  # the least median type in the view (the window sets it)
        self.chosen: str | None = None  # the first part of the page the user chose
        self.presenting = False
        self._lecture = 0  # counts the scenarios opened: an edit's draft is of its own lecture
        document.scenario_replaced.connect(self._on_scenario_replaced)
        self._pending = False
        self.last_redraw_ms = 0.0
        self._settle_timer = QTimer(self)  # an edit's layout is worked out once edits settle
        self._settle_timer.setSingleShot(True)
        self._settle_timer.setInterval(SETTLE_MS)
        self._settle_timer.timeout.connect(self._settle)
        document.shown_changed.connect(self._on_shown_changed)
        document.section_changed.connect(self._on_section_changed)
        document.revealed.connect(self._apply_veil)
        document.selection_changed.connect(self.schedule_refresh)
        document.frame_changed.connect(self.schedule_refresh)
        self.visibilityChanged.connect(
            lambda visible: self.schedule_refresh() if visible else None)
        self._sync_form()
        self._apply_veil()
        self._update_follow()
        self.schedule_refresh()

    # --- document -> view ------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        if event.isAccepted():
            self.closed.emit(self.panel.id)

    def _on_shown_changed(self) -> None:
        self._apply_veil()
        self._sync_form()
        self._update_follow()
        self.schedule_refresh()

    def _on_scenario_replaced(self) -> None:
        self._lecture += 1

    def _on_section_changed(self, panel_id: str) -> None:
        if panel_id == self.panel.id:
            self._sync_form()
        self._update_follow()  # a linked panel follows its upstream sections
        self.schedule_refresh()

    def _apply_veil(self) -> None:
        """Predict, then reveal: the figure and the result in words wait for the reveal."""
        from gpuviz.lecture import show

        shown = show(self.document.lecture)  # what the lecture model's veil hides
        veiled = shown.veiled
        self.view.set_veil("" if not veiled else VEIL_TEXT if shown.question
                           else AHEAD_VEIL_TEXT)
        self.summary.setVisible(not shown.hidden("readouts") and bool(self.summary.text()))
        # the answer is nowhere else either: the measured line, the values left automatic,
        # the strip under the figure (its place kept, so the figure does not move)
        self.measured.setVisible(bool(self.measured.text()) and not shown.hidden("measured"))
        self.form.veil_automatic(shown.hidden("readouts"))
        if self.companion is not None:
            for child in self.companion.findChildren(
                    QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
                policy = child.sizePolicy()
                policy.setRetainSizeWhenHidden(True)
                child.setSizePolicy(policy)
                child.setVisible(not shown.hidden("strips"))

    def _sync_form(self) -> None:
        self.form.set_params(self.document.shown.section(self.panel.id))

    def _update_follow(self) -> None:
        text = follow_text(self.panel.id, self.document.shown)
        self.follow_label.setText(text)
        self.follow_label.setVisible(bool(text))
        self.strip.set_label("Controls" + (f" · {text}" if text else ""))

    def follows(self) -> str:
        """What the panel follows, as its controls show it ("" when nothing)."""
        return self.follow_label.text()

    def controls_expanded(self) -> bool:
        return self._expanded

    def set_controls_expanded(self, expanded: bool) -> None:
        """Unfold the controls beside the figure, or fold them to a thin strip that gives the
        figure the dock's width."""
        self._expanded = expanded
        self.controls.setVisible(expanded)
        self.strip.setVisible(not expanded)
        if expanded:
            self.controls_pane.setMaximumWidth(16777215)
            total = max(self.splitter.width(), CONTROLS_PX + 400)
            self.splitter.setSizes([CONTROLS_PX, total - CONTROLS_PX])
        else:
            self.controls_pane.setMaximumWidth(STRIP_PX)
            total = max(self.splitter.width(), STRIP_PX + 400)
            self.splitter.setSizes([STRIP_PX, total - STRIP_PX])

    def _widen_controls(self, px: int) -> None:
        controls, figure = self.splitter.sizes()
        grow = min(px - controls, max(figure - FIGURE_MIN_PX, 0))
        if grow > 0:
            self.splitter.setSizes([controls + grow, figure - grow])

    def set_controls_shown(self, shown: bool) -> None:
        """Presentation mode: no controls at all, not even the strip, nor the widget that
        belongs with them under the figure (``companion``), nor the part switcher (the step
        chooses): the figure alone."""
        self.presenting = not shown
        self.view.veil_px = None if shown else VEIL_PRESENT_PX
        self.controls_pane.setVisible(shown)
        self.splitter.handle(1).setVisible(shown)
        if self.companion is not None:
            self.companion.setVisible(shown)
            self.column.give_figure_room()
        self._update_switcher()
        self.schedule_refresh()

    def set_body_px(self, px: float) -> None:
        """The theme's body type on screen in pixels: the scale the figure is laid out at."""
        if px != self.body_px:
            self.body_px = px
            self.schedule_refresh()

    def set_min_px(self, px: float) -> None:
        """The least median type the view must reach (12 px for one panel in the window, 10
        for several, 18 in presentation): below it the dock shows its parts a page at a time."""
        if px != self.min_px:
            self.min_px = px
            self.schedule_refresh()

    def px_per_mm(self) -> float:
        return self.body_px / (self.theme.text_pt * PT_TO_MM)

    def set_parts(self, parts: tuple[str, ...] | None, chrome: Chrome = "full") -> None:
        """Draw only these parts of the figure (None: what fits, a page at a time) inside
        ``chrome``: a step that names its parts shows them."""
        if (parts, chrome) != (self.parts, self.chrome):
            self.parts, self.chrome = parts, chrome
            self.schedule_refresh()

    def settled(self) -> bool:
        """The figure on screen is laid out for the view as it is now (its theme, its size,
        the lecture's layout), and nothing is on its way; a dock not yet painted lays out at
        its first paint."""
        if not self._on_screen:
            return True
        shown = self.plan.shown
        base = self._base_target()
        return (not self._pending and not self._relayout.isActive()
                and self.plan.computing is None and self.plan.searching is None
                and (base is None or (self.layouts.known(self._ask(base))[0]
                                      and not self.layouts.pending()))
                and shown is not None and (shown.theme, shown.target) == (self.theme.name,
                                                                          self.target()))

    def _on_view_resized(self) -> None:
        self.schedule_refresh()

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.layouts.forget()  # another theme's type sizes make other layouts
        self.schedule_refresh()
        self.extras.theme_changed(theme)

    def schedule_refresh(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self.refresh)  # dropped if the dock is gone

    def refresh(self) -> None:
        self._pending = False
        if not self.isVisible() and self.parent() is not None:
            return
        if not self._on_screen and not self._painting and self.view.isVisible():
            self.view.update()  # laid out as the first paint begins (_before_first_paint)
            return
        scenario = self.document.shown
        selection = self.document.selection
        if self.panel.id not in scenario.panels:
            # a panel opened from the View menu follows the scenario's architecture, which its
            # model may not accept (occupancy under an AMD preset): say why, as the loader would
            from gpuviz.scenario.io import panel_problems

            problems = panel_problems(scenario, self.panel.id)
            if problems:
                self._show(_error_figure(self.theme, problems[0].message), None,
                           time.perf_counter())
                return
        try:
            params = effective_params(scenario, self.panel.id)
        except Exception as exc:  # a model bug must not take the window down
            self._show(_error_figure(self.theme, f"{type(exc).__name__}: {exc}"), None, time.perf_counter())
            return
        base = self._base_target()
        if base is not None:
            self._ask_layout(base)
        self._update_switcher()
        shown = self.plan.shown
        if (base is not None and self._on_screen and shown is not None
                and shown.theme != self.theme.name and self.view.figure() is not None
                and (not self.layouts.known(self._ask(base))[0] or self.layouts.pending())):
            # another theme: the picture stays up until the view's layouts in it are known
            # (its steps' parts too: the lecture's one type), so its first frame is the final one (a figure searched alone was drawn first, in
            # another design and at smaller type: 7.4 px where the layout gives 11)
            return
        key = DrawKey(params, selection, self.theme.name, self.target())
        self.layouts.known_design(key.target, self.theme.name)  # one remembered counts
        start = time.perf_counter()
        action = self.plan.decide(key, self._on_screen)
        if action is Redraw.NOTHING:
            figure, design = self.view.figure(), self.plan.designs.get(key.target)
            result = self.plan.shown_result
            if key == self.plan.shown and figure is not None and design is not None \
                    and figure.design != design and result is not None:
                self._show(self._build(result, key), key, start, result)  # the view's layout
            else:
                self.fit_to_lecture()  # the lecture's scale may have arrived since
            return
        if action is Redraw.SEARCH_SHAPE and base is not None \
                and not self.layouts.known(self._ask(base))[0]:
            return  # the picture stays up, scaled, until the view's layout arrives
        if action is Redraw.COMPUTE_OFF:
            # the previous figure stays up, and a newer edit makes this result stale (dropped)
            pid = self.panel.id
            job = Job(lambda: compute_cached(pid, params), self.plan.generation)
            job.signals.done.connect(self._on_computed)
            QThreadPool.globalInstance().start(job)
            self.view.setToolTip("computing…")
            return
        shown = key  # DrawKey | None, as above: None for an error figure
        try:
            result = compute_cached(self.panel.id, params)
            self.plan.computed_in(time.perf_counter() - start)
            figure = self._build(result, key)
        except Exception as exc:
            figure, shown = _error_figure(self.theme, f"{type(exc).__name__}: {exc}"), None
            result = None
        self._show(figure, shown, start, result)

    def _build(self, result: object, key: DrawKey) -> Figure:
        """The figure for ``key``: with the design of the view's layout for the lecture (one
        build); before that is known, searched (a dozen builds) and the design kept."""
        target = key.target
        design = self.layouts.known_design(target, self.theme.name)
        if design is None:
            figure = build_figure(self.panel.id, result, key.selection, self.theme, target)
            if figure.design is not None:
                self.layouts.keep_design(target, self.theme.name, figure.design)
            return figure
        # remembered: a state shown before, or just built by the view's layout in its design
        return built_figure(self.panel.id, result, key.selection, self.theme,
                            replace(target, design=design))

    def _on_resized(self) -> None:
        if self._on_screen:
            self._relayout.start()  # a resize settles before the figure is laid out again

    def _before_first_paint(self) -> None:
        self._painting = True
        try:
            self.refresh()
        finally:
            self._painting = False

    def _on_painted(self) -> None:
        if not self._on_screen:
            self._on_screen = True
            self.view.before_paint = None
            self.view.painted.disconnect(self._on_painted)
            # the view's layout once what follows the first frame (the menus) is done
            QTimer.singleShot(0, self, lambda: QTimer.singleShot(0, self, self.schedule_refresh))

    def _on_computed(self, generation: int, result: object, error: str) -> None:
        latest, key = self.plan.take_computed(generation)
        if not latest:
            return  # a newer change is already on its way
        self.view.setToolTip("")
        start = time.perf_counter()
        if error or key is None:
            self._show(_error_figure(self.theme, error or "no result"), None, start)
            return
        selection, target = self.document.selection, self.target()
        if self.plan.stale_for(key, selection, self.theme.name, target):
            self.schedule_refresh()
        drawn = DrawKey(key.params, selection, self.theme.name, target)
        shown: DrawKey | None = drawn
        try:
            figure = self._build(result, drawn)
        except Exception as exc:
            figure, shown = _error_figure(self.theme, f"{type(exc).__name__}: {exc}"), None
        self._show(figure, shown, start, result)

    def _automatic(self, result: object) -> dict:
        """The values in use for optional fields left empty: what the scenario fills in (its
        architecture, a linked panel's lanes: ``effective_params``), and what the panel's
        module derives from the result (``automatic(result)``: a preset's limits, a grid)."""
        scenario = self.document.shown
        try:
            section = scenario.section(self.panel.id)
            effective = encode(effective_params(scenario, self.panel.id))
        except Exception:  # a section the models cannot use: its problems are shown instead
            return {}
        values = {name: effective[name] for name in self.form.field_names()
                  if getattr(section, name, None) is None and effective.get(name) is not None}
        values.update(self.extras.automatic(result))
        return values

    def release_measured(self) -> None:
        """The window's first frame is on screen: the measured line follows the figure."""
        self.measured.release()

    def _show(self, figure: Figure, key: DrawKey | None, start: float,
              result: object = None) -> None:
        if key is not None and self.view.figure() is None and self.paged_later(figure):
            self._on_painted()  # nothing until the lecture's layout: it shows a page instead
            return
        self.summary.setText(self.extras.summary_text(result) if result is not None else "")
        self.summary.setVisible(bool(self.summary.text()) and not self.document.hides("readouts"))
        if result is not None and result is not self._automatic_for:
            self._automatic_for = result
            self.form.show_automatic(self._automatic(result))
            self.measured.show_for(result)
        self.plan.shown_now(key, result)
        self.view.set_figure(figure)
        self.fit_to_lecture()
        if not self._painting:  # else the paint under way paints it
            self.view.repaint()
        self.last_redraw_ms = (time.perf_counter() - start) * 1000

    def current_figure(self) -> Figure | None:
        return self.view.figure()

    def shown_key(self) -> DrawKey | None:
        """What the figure on screen shows (None for an error figure or before the first)."""
        return self.plan.shown

    # --- view -> document ------------------------------------------------------------------
    def _on_edited(self, params: object, fields: str) -> None:
        self.document.edit_section(self.panel.id, params, merge_key=fields or None)

    def _on_key_clicked(self, key: str) -> None:
        self.document.select({key} if key else set())  # pointing selects, and only that

    def _on_key_activated(self, key: str) -> None:
        self.extras.activate(key)  # Ctrl+click, double click: applied
        self.document.select({key})


def _error_figure(theme: Theme, message: str) -> Figure:
    c = Canvas()
    c.text(5, 10, "This panel could not be drawn:", theme.text_pt, theme.color("warn"), bold=True)
    c.text(5, 16, message[:160], theme.small_pt, theme.foreground)
    return c.figure(160, 24, theme.background, title="error")
