"""One layout per view for a whole lecture: the parts that fit, one design, one type size.

A figure laid out for a view fills it at the largest scale its content allows, so a state with
little to show (one bank round) comes out at twice the type of one with much (32 rounds), and
the room re-reads the picture at every step. For a view, this module chooses once, over every
state of the lecture (the overview and each step, and what is shown now):

- the parts the view draws: the whole figure when its median type, as painted, is at least the
  view's least type; else the panel's parts grouped, in order, into pages that each reach it
  (a page of one part may still fall short: the largest that part allows);
- the design (arrangement and design width) of the largest state, kept for every state;
- the layout scale of that state (``scale``): every state is drawn at it, each figure painted at
  ``scale / layout_scale(figure)`` of its fitted size, so type and arrangement stay put.

Qt-free: the dock runs :func:`lay_out_view` on the thread pool; the tests call it directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from gpuviz.figures.display import PT_TO_MM, Figure, Text, walk
from gpuviz.figures.targets import DESIGN_FACTORS, Design, Target

VIEW_INSET_PX = 8  # the view paints the page inside its rectangle less 4 px on each side

Build = Callable[[Any, Target], Figure]  # (result, target) -> the panel's figure
GAIN_PX = 1.0  # a page is shown instead of the whole figure only if its type is this much larger
PROBE: Design = ("stacked", 1.0)  # the design the states are compared in, to find the largest
TRIED = 3  # designs tried on every state, of those that serve the largest state best
SPREAD = 1.25  # states whose scales differ more: the smallest state's best designs tried too
DESIGNS: tuple[Design, ...] = tuple((kind, factor) for factor in DESIGN_FACTORS
                                    for kind in ("stacked", "beside"))
# states a layout is measured on: each costs a build per design tried, and 250 steps of a
# launch over 2^20 blocks never settled; a longer lecture is measured on the overview, what is
# shown and steps spread evenly between (a state left out is drawn at its own fit, never larger)
MEASURED_STATES = 12


def measured_states(count: int, most: int = MEASURED_STATES) -> list[int]:
    """Which of ``count`` states (the overview first, what is shown last) a layout is measured
    on: all of them, or ``most`` spread evenly with the first and the last."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def paint_scale(figure: Figure, view_px: tuple[int, int]) -> float:
    """Screen pixels per millimetre of ``figure`` fitted to a view of ``view_px`` pixels."""
    w, h = view_px
    return max(min((w - VIEW_INSET_PX) / figure.width, (h - VIEW_INSET_PX) / figure.height), 0.0)


def median_pt(figure: Figure) -> float:
    sizes = sorted(t.size for t in walk(figure.items) if isinstance(t, Text))
    n = len(sizes)
    if not n:
        return 0.0
    return sizes[n // 2] if n % 2 else (sizes[n // 2 - 1] + sizes[n // 2]) / 2


def type_px(figure: Figure, view_px: tuple[int, int], zoom: float = 1.0) -> float:
    """The figure's median type in screen pixels, painted in a view of ``view_px`` at ``zoom``
    of its fitted size (what ``benchmarks/bench_hall.py`` measures)."""
    return median_pt(figure) * PT_TO_MM * paint_scale(figure, view_px) * zoom


def layout_scale(figure: Figure, title_pt: float) -> float:
    """The scale a slide or view layout placed its content at: its title (the first text of a
    figure with its full chrome, set at the theme's ``title_pt`` at scale 1) over that size."""
    first = next((t for t in walk(figure.items) if isinstance(t, Text)), None)
    return first.size / title_pt if first is not None and title_pt > 0 else 1.0


class ViewLayout(NamedTuple):
    """What a view draws for every state of a lecture. (A named tuple: a frozen dataclass
    costs start-up a millisecond or so to define.)"""

    pages: tuple[tuple[str, ...], ...]  # the part groups offered (one page: the whole figure)
    parts: tuple[str, ...] | None  # the page drawn (None: the whole figure)
    design: Design | None  # kept for every state (None: a figure not laid out for a view)
    scale: float  # the layout scale every state is drawn at
    type_px: float  # the median type of the largest state, painted
    scales: tuple[float, ...] = ()  # each state's own layout scale with ``design``, in order

    def zoom(self, scale: float) -> float:
        """How much of its fitted size a figure laid out at ``scale`` is painted at: the
        lecture's one scale, never larger than its own fit."""
        return min(1.0, self.scale / scale) if scale > 0 else 1.0


class _Common(NamedTuple):
    design: Design | None
    scale: float  # the least of the states' scales with that design
    type_px: float  # the least of the states' median types, each painted at ``scale``
    scales: tuple[float, ...]


class _Measure:
    """Figures of one panel's states for one view, measured and remembered."""

    def __init__(self, build: Build, results: Sequence[Any], view_px: tuple[int, int],
                 title_pt: float, extra: Sequence[Any] = (), memo: dict | None = None):
        self.build, self.results, self.view_px = build, list(results), view_px
        self.extra = list(extra)  # measured only in the design the results choose
        self.title_pt = title_pt
        # what was measured for these states in this view, kept by the caller across the
        # layouts of one view (another page, a step's parts ask for the same groupings)
        self._common: dict = memo if memo is not None else {}
        self._scales: list[float] | None = None  # each state's scale, whole, in PROBE
        self._drawn: list[set[str]] = []  # the parts each state draws, whole

    def common(self, target: Target) -> _Common:
        """The design that draws every state at the largest type, and that type: one
        arrangement for the lecture, each state painted at the least state's scale. The
        designs are ranked on the largest and on the smallest state, and the best few of
        each tried on every state."""
        if target in self._common:
            return self._common[target]
        tried: list[Design] = []
        probe = self._probe(target)
        apart = max(probe) > SPREAD * min(probe)  # else the largest state's designs serve all
        for state in dict.fromkeys((self.worst(target),
                                    *((self.least(target),) if apart else ()))):
            ranked: list[tuple[float, Design]] = []
            for design in DESIGNS:
                figure = self.build(self.results[state], replace(target, design=design))
                if figure.design == design:  # else no legend or notes to set beside the body
                    ranked.append((type_px(figure, self.view_px), design))
            ranked.sort(key=lambda r: -r[0])
            tried += [d for _, d in ranked[:TRIED] if d not in tried]
        best: _Common | None = None
        for design in tried:
            kept = replace(target, design=design)
            figures = [self.build(r, kept) for r in self.results]
            scales = tuple(layout_scale(f, self.title_pt) for f in figures)
            scale = min(scales)
            shown = min(type_px(f, self.view_px) * scale / s if s > 0 else 0.0
                        for f, s in zip(figures, scales, strict=True))
            if best is None or shown > best.type_px + 1e-6:
                best = _Common(design, scale, shown, scales)
        if best is None:  # a figure not laid out for a view's shape
            figures = [self.build(r, target) for r in [*self.results, *self.extra]]
            best = _Common(None, 1.0, min(type_px(f, self.view_px) for f in figures),
                           tuple(1.0 for _ in figures))
        elif self.extra:
            best = self._with_extra(target, best)
        self._common[target] = best
        return best

    def _with_extra(self, target: Target, best: _Common) -> _Common:
        """``best`` with the extra states (a step's selection) drawn in its design too."""
        figures = [self.build(r, replace(target, design=best.design)) for r in self.extra]
        scales = tuple(layout_scale(f, self.title_pt) for f in figures)
        scale = min(best.scale, *scales)
        shown = min([best.type_px * scale / best.scale if best.scale > 0 else 0.0,
                     *(type_px(f, self.view_px) * scale / s if s > 0 else 0.0
                       for f, s in zip(figures, scales, strict=True))])
        return _Common(best.design, scale, shown, best.scales + scales)

    def fits_largest(self, target: Target, min_px: float) -> bool:
        """Whether the largest state reaches ``min_px`` laid out alone (one searched build):
        where it does not, no one design for every state does."""
        key = ("alone", target, min_px)
        if key not in self._common:
            figure = self.build(self.results[self.worst(target)], target)
            self._common[key] = type_px(figure, self.view_px) >= min_px
        return bool(self._common[key])

    def worst(self, target: Target) -> int:
        """The state with the most to show: the least scale the whole figure reaches in one
        plain design (the same state for every page)."""
        return min(range(len(self._probe(target))), key=self._probe(target).__getitem__)

    def least(self, target: Target) -> int:
        """The state with the least to show: a design that suits only the largest state may
        draw it far smaller (one bank round in the width 32 rounds need), so the designs that
        suit it are tried on every state too."""
        return max(range(len(self._probe(target))), key=self._probe(target).__getitem__)

    def _probe(self, target: Target) -> list[float]:
        if self._scales is None:
            whole = replace(target.showing(None, target.chrome), design=PROBE)
            figures = [self.build(r, whole) for r in self.results]
            self._scales = [layout_scale(f, self.title_pt) for f in figures]
            self._drawn = [set(f.parts) for f in figures]
        return self._scales

    def opening(self, pages: Sequence[tuple[str, ...]], target: Target) -> tuple[str, ...]:
        """The page shown where none is chosen: the first of those that the most states draw
        something of. A figure whose parts change with its state (the mma panel draws a
        descriptor or the completion beside the warpgroup at some steps) opens on what every
        state draws, not on a part most states leave empty."""
        self._probe(target)
        return max(pages, key=lambda page: sum(1 for d in self._drawn if d & set(page)))

    def fits(self, target: Target, min_px: float) -> bool:
        return self.common(target).type_px >= min_px


def lay_out_view(build: Build, results: Sequence[Any], target: Target,
                 view_px: tuple[int, int], min_px: float, title_pt: float,
                 parts: tuple[str, ...] | None = None,
                 chosen: str | None = None, every: tuple[str, ...] = (),
                 extra: Sequence[Any] = (), memo: dict | None = None) -> ViewLayout:
    """The layout of a view of ``view_px`` pixels laid out for ``target`` (no parts), for a
    lecture whose states have ``results``. ``parts``: what the state asks for (a step's parts:
    drawn whatever their type); else the whole figure where every state reaches ``min_px``
    with one design, or the page holding ``chosen`` (when none, the first page: the parts in
    the figure's reading order, so the room and the window open on the figure's beginning,
    the same part in both; the first that every state draws something of, ``opening``).
    ``every``: the panel's parts, for a whole figure that does not name the parts it drew;
    ``extra``: states drawn too but not compared for the design (the steps' selections);
    ``memo``: what was measured for these states, view and theme before (filled in)."""
    m = _Measure(build, results, view_px, title_pt, extra, memo)
    whole = target.showing(None, target.chrome)
    drawn = build(m.results[m.worst(whole)], replace(whole, design=PROBE)).parts or every
    if parts is not None or not drawn:
        pages: tuple[tuple[str, ...], ...] = ((parts,) if parts else ()) or (drawn,)
    elif m.fits(whole, min_px):
        pages = (drawn,)
    else:
        pages = _pages(m, target, drawn, min_px)
    page = parts
    if page is None:
        held = [p for p in pages if chosen in p]
        page = held[0] if held else m.opening(pages, whole)
    shown = whole if page is None or (page == drawn and parts is None) else \
        target.showing(page, target.chrome)
    c = m.common(shown)
    if parts is None and shown is not whole and c.type_px < m.common(whole).type_px + GAIN_PX:
        # no page reaches the type, and this one is hardly larger than the whole: the whole
        shown, pages, c = whole, (drawn,), m.common(whole)
    return ViewLayout(pages, page if shown is not whole else None, c.design, c.scale,
                      c.type_px, c.scales)


def _pages(m: _Measure, target: Target, drawn: tuple[str, ...],
           min_px: float) -> tuple[tuple[str, ...], ...]:
    """``drawn`` in order, grouped greedily into pages that reach ``min_px`` in every state
    with one design (a part that reaches it alone in no page starts a page of its own)."""
    pages: list[tuple[str, ...]] = []
    current: tuple[str, ...] = ()
    for part in drawn:
        grouped = target.showing((*current, part), target.chrome)
        if current and m.fits_largest(grouped, min_px) and m.fits(grouped, min_px):
            current += (part,)
            continue
        if current:
            pages.append(current)
        current = (part,)
    pages.append(current)
    return tuple(pages)
