"""A lecture as its reader steps through it: the overview, then one page per step.

The one description of "what a step shows" that the web page, the handout and the slide deck
share: the step's title, its caption with live ``{panel.field}`` values filled in, its question
(predict, then reveal), the panels it shows and what it selects. Presenter notes travel only
where the medium has a place that the room does not see (a deck's speaker notes). Qt-free.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from gpuviz.figures.scene import built_items
from gpuviz.figures.targets import TARGETS, Target
from gpuviz.lecture import Lecture, StepShow, Surface, show
from gpuviz.scenario.document import Scenario


@dataclass(frozen=True)
class Page:
    """One page of a lecture. ``number`` 0 is the overview; step k (0-based in the file) is
    page k + 1, the number every surface shows ("step 3 of 7"). Built from the lecture
    model's answer (``shown``, ``gpuviz.lecture.show``), never worked out here."""

    number: int
    title: str
    caption: str
    question: str
    notes: str
    panels: tuple[str, ...]
    selection: frozenset[str]
    state: Scenario
    source: Scenario
    shown: StepShow

    @property
    def label(self) -> str:
        return self.shown.label

    @property
    def step(self) -> int:
        """The step, 0-based as the model counts (-1 the overview)."""
        return self.shown.step

    def parts(self, panel_id: str) -> tuple[str, ...] | None:
        """The parts this step names for the panel (None: the whole figure, also for a panel
        shown only because it was asked for)."""
        return self.shown.parts(panel_id) if panel_id in self.shown.panel_ids else None

    def target(self, panel_id: str, size: str) -> Target:
        """The size preset's target, drawing only the parts this step names for the panel."""
        return TARGETS[size].showing(self.parts(panel_id))

    def heading(self, chrome: str = "full") -> tuple[str, str]:
        """The heading ("Step 2 · …") and caption the step's own figure file carries with
        full chrome (``Target.titled``); none for other chrome or the overview."""
        return heading(self.shown, chrome)

    def selection_for(self, panel_id: str) -> frozenset[str]:
        """The selection the panel's figure is built with (the step's, at its frame)."""
        if panel_id in self.shown.panel_ids:
            return self.shown.selection_for(panel_id)
        return self.selection


def lecture_pages(scenario: Scenario, steps: Sequence[int] | None = None,
                  panels: Sequence[str] | None = None,
                  surface: Surface = "export", overview: bool = True) -> tuple[Page, ...]:
    """The overview and the steps (all of them, or the 0-based ``steps``), in order, as the
    lecture model shows them on ``surface`` (of ``panels`` only, if given: a step whose
    panels are all left out shows those). ``overview`` False: the steps' pages alone, for a
    writer that writes no overview (its caption's live values are not worked out)."""
    lecture = Lecture(scenario)
    wanted = range(len(scenario.steps)) if steps is None else steps
    first = (-1,) if overview else ()
    return tuple(_page(show(lecture, k, surface), scenario, panels) for k in (*first, *wanted))


def lecture_page(scenario: Scenario, k: int, panels: Sequence[str] | None = None,
                 surface: Surface = "export") -> Page:
    """Page ``k`` alone (0-based, -1 the overview): a single step's file needs no other
    page."""
    return _page(show(Lecture(scenario), k, surface), scenario, panels)


def _page(shown: StepShow, scenario: Scenario, panels: Sequence[str] | None) -> Page:
    ids = shown.panel_ids
    if panels:
        ids = tuple(p for p in ids if p in panels) or tuple(panels)
    return Page(shown.number, shown.title, shown.caption, shown.question, shown.notes, ids,
                shown.selection, shown.state, scenario, shown)


def step_heading(scenario: Scenario, k: int | None, chrome: str = "full") -> tuple[str, str]:
    """The heading ("Step 2 · …") and caption a step's own figure file carries with full
    chrome (``Target.titled``), as the lecture model gives them for an export; none for
    other chrome, the overview or no step."""
    if k is None or k < 0:
        return "", ""
    return heading(show(Lecture(scenario), k, "export"), chrome)


def heading(shown: StepShow, chrome: str = "full") -> tuple[str, str]:
    """``step_heading`` of a step the model has shown."""
    if shown.step < 0 or chrome != "full":
        return "", ""
    return (f"{shown.label} · {shown.title}" if shown.title else shown.label), shown.caption


# Figures one lecture export may build (pages × panels × layouts): a web page builds four layouts
# of each (wide and narrow, light and dark), a handout and a deck one. At about 0.1 s a figure
# (the heaviest bundled panels) the largest accepted lecture takes under a minute and stays
# within the memory budget (benchmarks/bench_lecture.py).
MAX_LECTURE_FIGURES = 480


class LectureTooLarge(ValueError):
    """A lecture export over its budget; nothing was written."""


# A lecture's figures differ in cost by two orders of magnitude (a 4 × 4 gemm against a
# 256 × 256 traversal or a divergence graph of 40 nodes), so the count above does not bound the
# work alone: an export whose figures have drawn more items than this (a shape or label each, a
# batch's rows each: figures.scene.drawn_items) stops, writing nothing, and says how far it got.
# Work, not time: the same file is accepted or refused on any machine under any load. The
# largest bundled lecture's web page (four layouts of each figure) draws about 19,000.
MAX_LECTURE_ITEMS = 200_000
# and no lecture file grows past this while it is made (a handout of hundreds of pages of large
# figures reached 430 MB and 1.2 GB of memory before this bound)
MAX_LECTURE_BYTES = 96 * 1024 * 1024


class Clock:
    """The work budget of one lecture export (:data:`MAX_LECTURE_ITEMS` drawn items, or
    ``items``), checked after each page is built. A refusal suggests the steps that fit:
    ``first`` is the first step (1-based) the export holds."""

    def __init__(self, what: str, items: int | None = None, first: int = 1) -> None:
        self.what = what
        self.items = MAX_LECTURE_ITEMS if items is None else items
        self.start = built_items()
        self.first = first
        # items drawn by the first p pages (the overview or title page, then the steps): the
        # work an export of the first p - 1 steps does, known exactly, not estimated
        self.drawn_by: dict[int, int] = {}

    def check(self, done: int, total: int, size: int = 0,
              pages: tuple[int, int] | None = None) -> None:
        """After ``done`` of ``total`` units of work (``pages``: the pages they are, where a
        page takes more than one unit), ``size`` bytes written so far."""
        page, of = pages or (done, total)
        if size > MAX_LECTURE_BYTES:
            raise LectureTooLarge(
                f"{self.what} grew past {MAX_LECTURE_BYTES >> 20} MiB after {page} of {of} "
                "pages, so it was stopped and nothing was written: export fewer steps at a "
                "time (--steps A-B)")
        drawn = built_items() - self.start
        if done >= total or done <= 0:
            return
        if done <= of:  # the building units, one a page (a handout's painting draws none)
            self.drawn_by[page] = drawn
        projected = drawn / page * of if done <= of else float(drawn)
        if drawn > self.items:
            said = f"drew over {self.items:,} figure items after {page} of {of} pages"
        elif done >= 3 and done <= of and projected > self.items:  # say so early
            said = (f"would draw about {projected:,.0f} figure items ({page} of {of} pages "
                    f"drew {drawn:,}; the limit is {self.items:,})")
        else:
            return
        fit = min(self.steps_that_fit(), max(1, of - 2))
        raise LectureTooLarge(
            f"{self.what} {said}, so it was stopped and nothing was written: export at most "
            f"{plural(fit, 'step')} at a time (--steps {self.first}-{self.first + fit - 1})")

    def steps_that_fit(self) -> int:
        """How many steps from the first an export holds within the budget (at least 1). Those
        whose pages were built within it are known to; past them, as many as the heaviest
        page seen so far leaves room for, with a tenth to spare, and no more than keeps each
        projection made on the way (the first pages' work, per page, times the pages) within
        the budget, so that an export of the steps suggested is not refused early."""
        known = sorted(self.drawn_by.items())
        fitting = [p for p, d in known if d <= self.items]
        pages = max(fitting, default=1)
        if known and pages == known[-1][0]:  # all built within: how many more would fit
            prev = [(0, 0), *known]
            heaviest = max((d1 - d0) / (p1 - p0) for (p0, d0), (p1, d1)
                           in itertools.pairwise(prev))
            room = self.items - known[-1][1]
            pages += int(room / (1.1 * heaviest)) if heaviest > 0 else 1 << 30
            pages = min([pages, *(int(self.items * p / d) for p, d in known if p >= 3 and d)])
        return max(1, pages - 1)


def check_lecture_size(pages: Sequence[Page], layouts: int, what: str) -> None:
    """Refuse, before anything is built, a lecture whose figures are over the budget, saying
    how many steps would fit."""
    figures = sum(len(p.panels) for p in pages) * layouts
    if figures <= MAX_LECTURE_FIGURES:
        return
    per_page = max(len(p.panels) for p in pages) * layouts
    fit = max(1, MAX_LECTURE_FIGURES // per_page - 1)
    raise LectureTooLarge(
        f"{what} of {plural(len(pages) - 1, 'step')} builds {figures:,} figures "
        f"({layouts} layout{'' if layouts == 1 else 's'} of each); at most "
        f"{MAX_LECTURE_FIGURES} are built in one file: export at most {fit} steps at a time "
        f"(--steps 1-{fit})")


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def first_step(pages: Sequence[Page]) -> int:
    """The first step (1-based, as ``--steps`` counts) of a lecture's pages (1 for none)."""
    return next((p.number for p in pages if p.number > 0), 1)
