"""Composing a figure for its target: blocks flowed in rows under the title, stacked or with the
side blocks beside the body, searched for the design that fills a slide or a view at the largest
scale; for a figure of some parts, only their blocks, in the order asked, inside the chrome."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from gpuviz.figures.bands import clear_glyphs
from gpuviz.figures.blocks import Block, BlockCanvas
from gpuviz.figures.budget import BODY_PX, content_box, median_of, over_budget
from gpuviz.figures.display import PT_TO_MM, Figure, Group, Rect, Text, walk
from gpuviz.figures.legible import keep_legible
from gpuviz.figures.lint_slide_room import BAND_NAMES, cramped_column
from gpuviz.figures.metrics import fallback_room
from gpuviz.figures.slide_grid import (
    CAPTION_LINES,
    CAPTION_MIN_PX,
    CAPTION_PX,
    TITLE_MIN_PX,
    TITLE_PX,
    SlideGrid,
    slide_grid,
)
from gpuviz.figures.spacing import ROOMY
from gpuviz.figures.targets import DESIGN_FACTORS, PAGED, Design, Kind, Target
from gpuviz.figures.text_blocks import text_block, title_block, wrap
from gpuviz.figures.theme import Theme
from gpuviz.figures.transform import transform

# mm around the content, between blocks and under a part's name (``Target.part_title``: it
# heads its part closely), the same at every kind of target (``figures.spacing``)
MARGIN = ROOMY.margin
GAP = ROOMY.gap
PART_GAP = ROOMY.heading_gap
# a slide's body box is wider than a page of 16:9 (about 2.1 : 1): its search tries finer widths
SLIDE_FACTORS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.12, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4)
SLIDE_MOST = 4.0  # the largest scale of a slide's body: a strip of a drawing takes the width
# a side-by-side design by its arrangement: the body's share of the width (the side column
# has the rest, less the gap); a slide whose side column wraps a value beside an empty body
# (``figures.lint_slide_room``) is laid out again with a wider side column
SHARES = {"beside": 0.68, "beside-60": 0.6, "beside-52": 0.52, "beside-44": 0.44}
# the designs tried, in turn, for such a slide: wider side columns, then stacked alone (the
# drawing takes the width, the words go under it)
WIDER: tuple[tuple[str, ...], ...] = (("beside-60",), ("beside-52",), ("beside-44",), ())


@dataclass(frozen=True)
class Reach:
    """The size of the block a figure's ``body`` yields next, told before it is built: the
    layout search gives up a design that this block already keeps from beating the best one,
    without building it. Nothing is drawn for it; the block that follows must be this size."""

    width: float
    height: float


BlocksFor = Callable[[float], Iterable[Block | Reach]]


@dataclass
class _Arrangement:
    blocks: list[tuple[Block, float, float]] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0
    # a search's bar (page width, page height, scale to beat): the arrangement is given up
    # as soon as the blocks placed so far cannot reach more than that scale
    bar: tuple[float, float, float] | None = None
    reach: tuple[float, float] = (0.0, 0.0)  # how far right and down the blocks placed reach

    def placed(self, block: Block, x: float, y: float) -> None:
        self.blocks.append((block, x, y))
        self.reaches(block.width + x, block.height + y)

    def reaches(self, right: float, down: float) -> None:
        """A block reaches ``right`` and ``down``: given up if the search's bar is out of reach."""
        if self.bar is None:
            return
        page_w, page_h, beat = self.bar
        # the arrangement only grows: its final scale is at most the one it reaches now
        self.reach = right, down = max(self.reach[0], right), max(self.reach[1], down)
        if min(page_w / right if right > 0 else float("inf"),
               page_h / down if down > 0 else float("inf")) <= beat:
            raise _Beaten


class _Beaten(Exception):
    """A design of the search that cannot beat the best one found so far."""


def compose(target: Target, theme: Theme, *, title: str, subtitle: str = "",
            body: BlocksFor, side: BlocksFor | None = None, natural_width: float = 170.0,
            figure_title: str = "", description: str = "", column_title: str = "") -> Figure:
    """Lay a figure out for ``target``.

    ``body(width)`` builds the data blocks for a content width; ``side(width)`` the legend,
    receipts and notes. Natural: the panel's ``natural_width`` (wider for large-type themes).
    A column: exactly its width. A slide or a view: the arrangement (stacked, or the side
    blocks beside the body) and design width that let the content fill the page at the largest
    scale, then that scale, centred; type is never scaled below its size in points.
    ``column_title``: the shorter title a column sets where ``title`` would take two lines."""
    grow = max(1.0, theme.text_pt / 8.0)
    figure_title = figure_title or title
    if not target.whole:
        body = _shown(body, target)
        side = None if side is None else _shown(side, target)
        if target.chrome != "full":
            title = subtitle = ""
        elif target.part_title:  # the parts' own name, not the whole figure's title again
            title, subtitle, column_title = target.part_title, "", ""
    step = (target.heading, target.caption) if target.chrome == "full" else ("", "")
    # a part's name heads it closely, as a section heading does
    head_gap = PART_GAP if target.part_title and not target.whole else GAP
    if target.kind == "natural":
        arr = _stacked(theme, title, subtitle, body, side, natural_width * grow, step=step,
                       head_gap=head_gap)
        return _figure(arr, arr.width + 2 * MARGIN, arr.height + 2 * MARGIN, 1.0, theme,
                       figure_title, description, target_parts=target.parts)
    if target.kind == "column":
        page_w = target.width_mm
        title = _title_for(theme, title, column_title, page_w - 2 * MARGIN)
        arr = _stacked(theme, title, subtitle, body, side, page_w - 2 * MARGIN, step=step,
                       head_gap=head_gap)
        return _figure(arr, page_w, arr.height + 2 * MARGIN, 1.0, theme, figure_title,
                       description, fixed_width=True, target_parts=target.parts)
    # a view in the app is painted in the shipped faces; a slide leaves room for a wider face
    # where its export does (an SVG with text as text)
    with fallback_room(False) if target.on_screen else nullcontext():
        return _paged(target, theme, title, subtitle, body, side, natural_width * grow,
                      figure_title, description, column_title, step)


def side_column(target: Target, width: float, drawing_w: float, least: float,
                kinds: tuple[Kind, ...] = PAGED) -> float | None:
    """The width of a column beside a drawing ``drawing_w`` wide, in a body ``width`` wide, for
    the notes, legend or table that would otherwise go below it: what is left beside the
    drawing after the gap between blocks, where that is at least ``least``; None where they go
    below. A side column is set on the ``kinds`` of target that offer their width across: by
    default a page (a slide or a view, whose height is the scarcer); a figure whose part alone
    leaves room in a journal column names that kind."""
    if target.kind not in kinds:
        return None
    room = width - drawing_w - GAP
    return room if room >= least else None


def _paged(target: Target, theme: Theme, title: str, subtitle: str, body: BlocksFor,
           side: BlocksFor | None, base: float, figure_title: str, description: str,
           column_title: str = "", step: tuple[str, str] = ("", "")) -> Figure:
    """A slide or a view: the design that fills the page at the largest scale. As in a
    column, a design too narrow for ``title`` on one line sets ``column_title`` (a second
    title line took the height a 16-round bank rack beside the swizzle grid needed in F5).
    A slide is laid out on its title-safe grid (:func:`_gridded`); a figure whose body type
    stays under the slide's least on it, and meets the budget centred on the page as a whole,
    is laid out so (a few of the bundled parts: gemm's intensity plot, a 32-lane tree), as is
    one that the body box would shrink under its size in points (a whole dashboard)."""
    if target.gridded:
        fig = _gridded(target, theme, title, subtitle, body, side, base, figure_title,
                       description, step)
        shrunk = _least_pt(fig) < target.min_pt - 1e-6  # scaled under its size to fit
        if not shrunk and not any(m.startswith("body type")
                                  for _, m in over_budget(fig, target)):
            return fig
        off = _paged(replace(target, kind="page"), theme, title, subtitle, body, side,
                     base, figure_title, description, column_title, step)
        if shrunk:  # a whole figure too large for the body box: at its size on the page
            return off if _least_pt(off) > _least_pt(fig) else fig
        return fig if over_budget(off, target) else off
    page_w, page_h = target.page
    s, arr, design = _search(target, page_w - 2 * MARGIN, page_h - 2 * MARGIN, theme, title,
                             subtitle, body, side, base, column_title, step)
    fig = _figure(arr, page_w, page_h, s, theme, figure_title, description, fixed_width=True,
                  target_parts=target.parts)
    return replace(fig, design=design)


def _least_pt(figure: Figure) -> float:
    return min((t.size for t in walk(figure.items) if isinstance(t, Text)), default=1e9)


def _search(target: Target, box_w: float, box_h: float, theme: Theme, title: str,
            subtitle: str, body: BlocksFor, side: BlocksFor | None, base: float,
            column_title: str = "", step: tuple[str, str] = ("", ""), most: float = 3.0,
            besides: tuple[str, ...] = ("beside",)) -> tuple[float, _Arrangement, Design]:
    """The scale, arrangement and design that fill a ``box_w`` × ``box_h`` box at the
    largest scale (at most ``most``; under 1 × only where no design fits at its size), of
    stacked designs and the side-by-side ``besides`` (:data:`SHARES`)."""
    best: tuple[float, _Arrangement, Design] | None = None
    factors = SLIDE_FACTORS if target.gridded else DESIGN_FACTORS
    designs: list[Design] = [(kind, factor) for factor in factors
                             for kind in ("stacked", *besides) if kind == "stacked" or side]
    if target.design is not None:  # kept: its width (a figure with no side column is stacked)
        designs = [target.design if side is not None else ("stacked", target.design[1])]
    for kind, factor in designs:
        width = base * factor
        head = _title_for(theme, title, column_title, width)
        # a design is built only as far as it can still beat the best so far (its blocks
        # placed so far already bound its scale): the same design wins, in a fraction of the
        # builds (the launch figure's first frame: 12 builds of its body in 5)
        bar = None if best is None or len(designs) == 1 else (box_w, box_h, best[0] + 1e-6)
        try:
            arr = (_stacked(theme, head, subtitle, body, side, width, True, step, bar)
                   if kind == "stacked"
                   else _beside(theme, head, subtitle, body, side, width,  # type: ignore[arg-type]
                                True, step, bar, SHARES.get(kind, SHARES["beside"])))
        except _Beaten:
            continue
        s = min(box_w / arr.width, box_h / arr.height)
        if best is None or s > best[0] + 1e-6:
            best = (s, arr, (kind, factor))
    assert best is not None
    s, arr, design = best
    return (max(1.0, min(s, most)) if s >= 1.0 else s), arr, design


def _gridded(target: Target, theme: Theme, title: str, subtitle: str, body: BlocksFor,
             side: BlocksFor | None, base: float, figure_title: str, description: str,
             step: tuple[str, str]) -> Figure:
    """A slide on its title-safe grid (:func:`_on_grid`) where its drawing takes the room:
    where a column of words beside the drawing wraps a value while much of the body box stays
    empty (``cramped-column``, ``figures.lint_slide_room``), the layout with a wider side
    column (:data:`WIDER`) that does not, else (a column the body sets beside its drawing
    itself) the design width that does not, and of those the one with the largest type; the
    first layout where every one does."""
    fig = _on_grid(target, theme, title, subtitle, body, side, base, figure_title,
                   description, step)
    if not cramped_column(fig):
        return fig
    tried = [] if side is None else [
        _on_grid(target, theme, title, subtitle, body, side, base, figure_title, description,
                 step, besides) for besides in WIDER]
    roomier = [f for f in tried if _roomier(f, target)]
    if not roomier and fig.design is not None:
        # the column is the body's own (a rack's receipt and legend beside it): the other
        # design widths of the same arrangement
        tried = [_on_grid(replace(target, design=(fig.design[0], factor)), theme, title,
                          subtitle, body, side, base, figure_title, description, step)
                 for factor in SLIDE_FACTORS if factor != fig.design[1]]
        roomier = [f for f in tried if _roomier(f, target)]
    return max(roomier, key=_body_pt, default=fig)


def _roomier(figure: Figure, target: Target) -> bool:
    """Whether a slide laid out again for its column's room keeps it and draws as cleanly:
    no column wrapping beside an empty body, and no text over another, across a line or off
    the page (a drawing laid out at another width may crowd its own labels)."""
    from gpuviz.figures.lint import lint

    return not cramped_column(figure) and not any(
        f.rule in ("overlap", "crossing", "off-page") for f in lint(figure, target))


def _body_pt(figure: Figure) -> float:
    """The median type of a slide's body (its bands aside), in points on the page."""
    sizes = [t.size for g in figure.items if isinstance(g, Group) and g.name not in BAND_NAMES
             for t in walk(g.items) if isinstance(t, Text)]
    return median_of(sizes) if sizes else 0.0


def _on_grid(target: Target, theme: Theme, title: str, subtitle: str, body: BlocksFor,
             side: BlocksFor | None, base: float, figure_title: str, description: str,
             step: tuple[str, str], besides: tuple[str, ...] = ("beside",)) -> Figure:
    """A slide on its title-safe grid (``figures.slide_grid``): the step's heading (else the
    figure's title) in the title band at a fixed top and size, the step's caption in the
    caption band at a fixed bottom, and the rest (the figure's subtitle, drawing, legend,
    notes) laid out for the body box, the design that fills it at the largest scale,
    anchored at its top and centred across: the same drawing sits at one place and scale on
    every step, whatever the heading and caption say. Every slide keeps the caption band,
    drawn or not (the deck sets its caption as text of its own), so a figure has one body
    box on every slide."""
    page_w, page_h = target.page
    grid = slide_grid(page_w, page_h)
    heading, caption = step
    # one title a slide: the step's heading stands for the figure's own, as in the deck
    band_title = heading or title
    placed: list[tuple[Block, float, float, float]] = []
    title_h = caption_h = 0.0
    if band_title:
        block = _band_text(band_title, theme, grid, TITLE_PX, TITLE_MIN_PX, 1, bold=True,
                           name="step-title" if heading else "title")
        placed.append((block, grid.title.x, grid.title.y, 1.0))
        title_h = block.height
    if caption:
        block = _band_text(caption, theme, grid, CAPTION_PX, CAPTION_MIN_PX, CAPTION_LINES,
                           name="step-caption")
        caption_h = block.height
    grid = slide_grid(page_w, page_h, title_h=title_h, caption_h=caption_h)
    if caption:
        placed.append((block, grid.caption.x, grid.caption.bottom - block.height, 1.0))
    box = grid.body
    s, arr, design = _fit(target, theme, box, subtitle, body, side, base, grid.unit, besides)
    bands = len(placed)
    placed += [(b, box.x + MARGIN + x * s, box.y + y * s, s) for b, x, y in arr.blocks]
    fig = _placed_figure(placed, page_w, page_h, theme, figure_title, description,
                         target.parts)
    # the body's ink centred across the body box (a block's measured width may exceed its
    # ink), an outline aside (a selection's, drawn around a box: selecting moves nothing)
    ink = content_box(tuple(i for i in walk(fig.items[bands:]) if not _outline(i)))
    if ink is not None:
        dx = (box.x + box.right) / 2 - (ink[0] + ink[2]) / 2
        dx = min(max(dx, box.x - ink[0]), box.right - ink[2])
        if abs(dx) > 1e-9:
            fig = replace(fig, items=fig.items[:bands] + tuple(
                transform(item, 1.0, dx, 0.0) for item in fig.items[bands:]))
    return replace(fig, design=design, body_box=(box.x, box.y, box.right, box.bottom))


def _outline(item: Any) -> bool:
    """Whether ``item`` is a group or an outline alone (a rectangle stroked, not filled)."""
    return isinstance(item, Group) or (isinstance(item, Rect) and item.style.fill is None)


def _fit(target: Target, theme: Theme, box: Any, subtitle: str, body: BlocksFor,
         side: BlocksFor | None, base: float, unit: float,
         besides: tuple[str, ...] = ("beside",)) -> tuple[float, _Arrangement, Design]:
    """The design that fills a slide's body ``box`` at the largest scale (inside it by the
    page's margin across, for ink past a block's edge: a selection's outline, a stroke's half
    width). The drawing takes the space: where the body's type stays under the slide's least,
    the subtitle yields (the slide's title and a step's caption say what it shows), then the
    notes (as on a deck slide), each only where the body's type gains by it (at least a
    pixel, or up to the budget): a note that frees no room stays on the slide."""
    s, arr, design = _search(target, box.w - 2 * MARGIN, box.h, theme, "", subtitle, body,
                             side, base, most=SLIDE_MOST, besides=besides)
    if target.chrome != "full":
        return s, arr, design
    px = _body_px(arr, s, unit)
    for body_for, side_for in ((body, side), (_without_notes(body),
                                              None if side is None else _without_notes(side))):
        if px >= BODY_PX:
            break
        fewer = _search(target, box.w - 2 * MARGIN, box.h, theme, "", "", body_for, side_for,
                        base, most=SLIDE_MOST, besides=besides)
        fewer_px = _body_px(fewer[1], fewer[0], unit)
        if fewer_px >= min(BODY_PX, px + 1.0):  # words give way only for type it gains
            (s, arr, design), px = fewer, fewer_px
    return s, arr, design


def _without_notes(blocks_for: BlocksFor) -> BlocksFor:
    """``blocks_for`` without its notes (and the size told of each note): the blocks of the
    notes role that are text alone. A block of that role that draws (a figure whose drawing
    is not told as a part's, as a whole traversal figure's grids are) stays: notes give way
    to the drawing, never the drawing to them."""

    def kept(width: float) -> Iterable[Block | Reach]:
        told: Reach | None = None
        for b in blocks_for(width):
            if isinstance(b, Reach):
                told = b
                continue
            if not _text_note(b):
                yield from (told, b) if told is not None else (b,)
            told = None

    return kept


def _text_note(block: Block) -> bool:
    """Whether ``block`` is a note of text alone (it draws nothing but words)."""
    return block.role == "notes" and all(isinstance(i, (Text, Group)) for i in walk(block.items))


def _body_px(arr: _Arrangement, scale: float, unit: float) -> float:
    """The median type of an arrangement's blocks (its subtitle aside) at ``scale``, in
    pixels of ``unit`` page units each (the slide budget's measure)."""
    sizes = [t.size for b, _, _ in arr.blocks if b.name != "title"
             for t in walk(b.items) if isinstance(t, Text)]
    return median_of(sizes) * scale * PT_TO_MM / unit if sizes else float("inf")


def _band_text(text: str, theme: Theme, grid: SlideGrid, px: float, least_px: float,
               lines: int, *, bold: bool = False, name: str) -> Block:
    """``text`` for a band of the grid: at ``px`` where it takes at most ``lines`` lines of the
    band's width, else at the size down to ``least_px`` that does, else at ``least_px`` on as
    many lines as it takes."""
    size = grid.pt(least_px)
    for k in range(int(px - least_px) + 1):
        size = grid.pt(px - k)
        if len(wrap(text, size, grid.title.w, bold=bold)) <= lines:
            break
    return text_block(text, theme, grid.title.w, size=size, bold=bold, name=name)


def _title_for(theme: Theme, title: str, column_title: str, width: float) -> str:
    """``title``, or the shorter ``column_title`` where ``title`` takes two lines of
    ``width``."""
    if column_title and title and len(wrap(title, theme.title_pt, width, bold=True)) > 1:
        return column_title
    return title


def by_width(blocks_for: BlocksFor) -> BlocksFor:
    """``blocks_for`` asked once per width, for a figure whose ``body``/``side`` are pure
    functions of the width (nothing one leaves for the other: reduction's body tells its side
    what it shortened): the design search asks each width again and again (a slide's designs,
    its wider side columns, its other design widths, the page off the grid). Made afresh for
    each :func:`compose` call. A width's blocks are kept as far as they were taken, so a
    design given up early (``Reach``) still builds no block it does not place; a
    ``blocks_for`` that raises is asked again next time."""
    seen: dict[float, tuple[list[Block | Reach], Iterator[Block | Reach]]] = {}

    def again(width: float) -> Iterator[Block | Reach]:
        entry = seen.get(width)
        if entry is None:
            entry = seen[width] = ([], iter(blocks_for(width)))
        done, rest = entry
        i = 0
        while True:
            if i == len(done):
                try:
                    done.append(next(rest))
                except StopIteration:
                    return
                except BaseException:
                    seen.pop(width, None)
                    raise
            yield done[i]
            i += 1

    return again


def _shown(blocks_for: BlocksFor, target: Target) -> BlocksFor:
    """``blocks_for`` keeping the blocks of the parts ``target`` shows, in its order, and of
    those, what its chrome keeps: the drawing always, the legend unless "none", notes if
    "full"."""
    order = {p: i for i, p in enumerate(target.parts or ())}
    roles = {"full": ("drawing", "legend", "notes"), "legend": ("drawing", "legend"),
             "none": ("drawing",)}[target.chrome]

    def shown(width: float) -> list[Block]:
        kept = [b for b in blocks_for(width) if isinstance(b, Block)
                and b.height > 0 and target.shows(*b.parts) and b.role in roles]
        return sorted(kept, key=lambda b: min((order.get(p, len(order)) for p in b.parts),
                                              default=len(order)))

    return shown


def _stacked(theme: Theme, title: str, subtitle: str, body: BlocksFor, side: BlocksFor | None,
             width: float, balance: bool = False,
             step: tuple[str, str] = ("", ""),
             bar: tuple[float, float, float] | None = None,
             head_gap: float = GAP) -> _Arrangement:
    arr = _Arrangement(bar=bar)
    y = _head(arr, theme, title, subtitle, width, balance, step[0], head_gap)
    y = _flow(arr, body(width), width, y)
    if side is not None:
        y = _flow(arr, side(width), width, y)
    y = _foot(arr, theme, step[1], width, y)
    arr.height = y - GAP
    arr.width = max((b.width + x for b, x, _ in arr.blocks), default=width)
    return arr


def _beside(theme: Theme, title: str, subtitle: str, body: BlocksFor, side: BlocksFor,
            width: float, balance: bool = False,
            step: tuple[str, str] = ("", ""),
            bar: tuple[float, float, float] | None = None,
            share: float = SHARES["beside"]) -> _Arrangement:
    arr = _Arrangement(bar=bar)
    top = _head(arr, theme, title, subtitle, width, balance, step[0])
    first = len(arr.blocks)
    main_w = width * share
    side_w = width - main_w - GAP
    yb = _flow(arr, body(main_w), main_w, top)
    used = max((b.width + x for b, x, _ in arr.blocks[first:]), default=main_w)
    ys = top
    for b in side(side_w):
        if not isinstance(b, Block) or b.height <= 0:  # a told size: placed as it comes
            continue
        arr.placed(b, used + GAP, ys)
        ys += b.height + GAP
    arr.height = _foot(arr, theme, step[1], width, max(yb, ys)) - GAP
    arr.width = max((b.width + x for b, x, _ in arr.blocks), default=width)
    return arr


def _head(arr: _Arrangement, theme: Theme, title: str, subtitle: str, width: float,
          balance: bool = False, heading: str = "", head_gap: float = GAP) -> float:
    """A lecture step's heading, then the title block, at the top, where there are; the y
    where the content begins."""
    y = 0.0
    if heading:
        step = text_block(heading, theme, width, size=theme.title_pt, bold=True,
                          name="step-title")
        arr.placed(step, 0.0, 0.0)
        y = step.height + GAP
    if not title and not subtitle:
        return y
    head = title_block(title, subtitle, theme, width, balance)
    arr.placed(head, 0.0, y)
    return y + head.height + head_gap


def _foot(arr: _Arrangement, theme: Theme, caption: str, width: float, y: float) -> float:
    """A lecture step's caption under everything, in body type; the y after it."""
    if not caption:
        return y
    block = text_block(caption, theme, width, size=theme.text_pt, name="step-caption")
    arr.placed(block, 0.0, y)
    return y + block.height + GAP


def _flow(arr: _Arrangement, blocks: Iterable[Block | Reach], width: float, y: float) -> float:
    """Blocks left to right, wrapping to a new row when the next does not fit ``width``."""
    x, row_h = 0.0, 0.0
    told: Reach | None = None
    for b in blocks:
        if isinstance(b, Reach):  # where the next block will go, if the design is not beaten
            nx, ny = (0.0, y + row_h + GAP) if x > 0 and x + b.width > width + 1e-6 else (x, y)
            arr.reaches(b.width + nx, b.height + ny)
            told = b
            continue
        assert told is None or (told.width, told.height) == (b.width, b.height), (told, b.name)
        told = None
        if b.height <= 0 and b.width <= 0:
            continue
        if x > 0 and x + b.width > width + 1e-6:
            y += row_h + GAP
            x, row_h = 0.0, 0.0
        arr.placed(b, x, y)
        x += b.width + GAP
        row_h = max(row_h, b.height)
    return y + row_h + GAP if row_h else y


def _figure(arr: _Arrangement, page_w: float, page_h: float, scale: float, theme: Theme,
            title: str, description: str, fixed_width: bool = False,
            target_parts: tuple[str, ...] | None = None) -> Figure:
    content_w, content_h = arr.width * scale, arr.height * scale
    ox = MARGIN if not fixed_width else max(MARGIN, (page_w - content_w) / 2)
    oy = MARGIN if scale == 1.0 and not fixed_width else max(MARGIN, (page_h - content_h) / 2)
    if fixed_width and abs(page_h - (arr.height + 2 * MARGIN)) < 1e-9:
        oy = MARGIN
    placed = [(b, ox + x * scale, oy + y * scale, scale) for b, x, y in arr.blocks]
    return _placed_figure(placed, page_w, page_h, theme, title, description, target_parts)


def _placed_figure(placed: Sequence[tuple[Block, float, float, float]], page_w: float,
                   page_h: float, theme: Theme, title: str, description: str,
                   target_parts: tuple[str, ...] | None = None) -> Figure:
    """The figure of blocks each placed at ``(x, y)`` on the page at its ``scale``."""
    c = BlockCanvas()
    promises: list[str] = []
    shortened: dict[str, tuple[str, str]] = {}  # by place
    parts: list[str] = []
    for block, x, y, scale in placed:
        with c.group(name=block.name):
            for item in block.items:
                c.add(transform(item, scale, x, y))
        promises += block.promises
        shortened.update({p: (s, e) for p, s, e in block.shortened})
        if block.role == "drawing":
            parts += [p for p in block.parts if p not in parts]
    if description and target_parts is not None and parts:
        description = alt_text(description, parts)
    fig = c.figure(page_w, page_h, theme.background, title, description)
    # no hatch under a glyph and no text that its ground swallows, whatever the blocks drew:
    # laid out at its final size, once
    items = keep_legible(clear_glyphs(fig.items), fig.background, theme)
    return replace(fig, items=items, promises=tuple(promises),
                   shortened=tuple(shortened.values()), parts=tuple(parts))


def alt_text(description: str, parts: Sequence[str]) -> str:
    """The one-sentence alt text of the ``parts`` of a figure whose whole ``description`` is
    given: "The rack and receipt parts of the shared-memory banks serving …"."""
    names = list(parts)
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    what = "part" if len(names) == 1 else "parts"
    return f"The {listed} {what} of {description[:1].lower()}{description[1:]}"
