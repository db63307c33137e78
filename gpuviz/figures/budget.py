"""Size budgets: what a figure laid out for a journal column or a slide must meet.

- Single column (85 mm): one part, at most 120 mm tall, type of at least 7 pt.
- Double column (178 mm): at most 200 mm tall.
- A 16:9 slide shown at 1280 × 720: body type of at least 20 px and titles of at least 28 px
  (what the back of a room reads), laid out on the title-safe grid (``figures.slide_grid``):
  everything within margins of 5 % of the width, the body's content filling its box between
  balanced margins across (anchored at its top), and no orphan word (a subtitle whose last
  line is one word). The title and caption bands' fixed type does not count as body type.

A budget is met by laying the figure out (fewer parts, another arrangement), never by scaling
it. A request that cannot meet its budget is refused, naming the parts that would
(:func:`gpuviz.export.files.export_figure`); :mod:`gpuviz.figures.lint` reports the same rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpuviz.figures.display import (
    PT_TO_MM,
    Circle,
    Figure,
    Group,
    Image,
    Item,
    Polyline,
    Rect,
    Rects,
    Segments,
    Text,
    text_box,
    walk,
)
from gpuviz.figures.targets import Target

SLIDE_PX = 1280.0  # the width in pixels a slide is shown at (1280 × 720)
BODY_PX = 20.0
TITLE_PX = 28.0
FILL = 0.9  # the content spans at least this share of the slide's width or height
BALANCE = 0.04  # opposite margins differ by at most this share of the page
BODY_FILL = 0.85  # on the grid, of the body box: its blocks' ink, inside their own padding
LARGE = 2.0  # body type of this many times the least fills a slide's body, whatever its shape
MARGIN = 0.05  # on the slide's grid: content this share of the width (height) from each edge


def median_of(values: Sequence[float]) -> float:
    """The median of ``values`` (as ``statistics.median``, which start-up need not import: it
    brings fractions, decimal and random, 3 ms before the first frame)."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("no median of no values")
    mid = n // 2
    return ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2


@dataclass(frozen=True)
class Budget:
    max_height: float | None = None  # mm
    max_parts: int | None = None
    slide: bool = False


BUDGETS: dict[str, Budget] = {
    "single": Budget(max_height=120.0, max_parts=1),
    "double": Budget(max_height=200.0),
    "slide": Budget(slide=True),
}


def px(figure: Figure, size_pt: float) -> float:
    """The height in pixels of type of ``size_pt`` on ``figure`` shown 1280 pixels wide."""
    return size_pt * PT_TO_MM * SLIDE_PX / figure.width


def over_budget(figure: Figure, target: Target) -> list[tuple[str, str]]:
    """``(rule, sentence)`` for each way ``figure`` misses the budget of ``target``'s size:
    rule ``budget`` (parts, height) or ``slide`` (type, fill, margins, orphan words)."""
    budget = BUDGETS.get(target.name)
    if budget is None:
        return []
    out: list[tuple[str, str]] = []
    if budget.max_parts is not None and len(figure.parts) > budget.max_parts:
        out.append(("budget", f"{len(figure.parts)} parts ({', '.join(figure.parts)}) where "
                              f"{target.name} column holds {budget.max_parts}"))
    if budget.max_height is not None and figure.height > budget.max_height + 1e-6:
        out.append(("budget", f"{figure.height:.0f} mm tall where {target.name} column allows "
                              f"{budget.max_height:.0f} mm"))
    if budget.slide:
        out += [("slide", s) for s in _slide(figure)]
    return out


def meets_budget(figure: Figure, target: Target) -> bool:
    """Whether ``figure`` meets ``target``'s budget as a file of its own: within it and, on a
    slide, laid out on the title-safe grid (a figure laid out off it, centred on the page as a
    whole, is written in pages where they meet it on the grid)."""
    return not over_budget(figure, target) and (figure.body_box is not None
                                                or not target.gridded)


def budget_pages_of(figure_of: Callable[[tuple[str, ...] | None], Figure], target: Target,
                    candidates: Sequence[str], parts: Sequence[str] | None = None
                    ) -> tuple[tuple[str, ...], ...] | None:
    """The pages of parts a figure too large for ``target``'s budget is written as, one file
    each: of ``candidates`` (the parts drawn) in order, each page as many as meet the budget
    together (:func:`meets_budget`); a part that meets it alone in no page is a page of its
    own (refused by the export). ``figure_of(parts)`` builds the figure of those parts (None:
    the whole, or the ``parts`` asked for). None where the whole (or the parts asked for)
    meets the budget, or the target has none: it is written as one file."""
    if target.kind == "natural":
        return None
    if meets_budget(figure_of(tuple(parts) if parts else None), target) \
            or len(candidates) < (2 if parts else 1):
        return None
    pages: list[tuple[str, ...]] = []
    for part in candidates:
        grown = (*pages[-1], part) if pages else ()
        if grown and meets_budget(figure_of(grown), target):
            pages[-1] = grown
        else:
            pages.append((part,))
    return tuple(pages)


def _slide(figure: Figure) -> list[str]:
    out = []
    bands, body_items = _bands(figure)
    titles = [t for t in _title_texts(figure.items) if t.bold]
    others = {id(t) for t in _title_texts(figure.items)} | \
        {id(t) for t in walk(bands) if isinstance(t, Text)}
    body = [t.size for t in walk(figure.items) if isinstance(t, Text) and id(t) not in others]
    if body:
        median = median_of(body)
        if px(figure, median) < BODY_PX - 1e-6:
            out.append(f"body type {px(figure, median):.1f} px (median) where a slide needs "
                       f"{BODY_PX:g} px")
    if titles and px(figure, titles[0].size) < TITLE_PX - 1e-6:
        out.append(f"title {px(figure, titles[0].size):.1f} px where a slide needs "
                   f"{TITLE_PX:g} px")
    out += _margins(figure) if figure.body_box is not None else []
    frame = figure.body_box or (0.0, 0.0, figure.width, figure.height)
    box = content_box(body_items)
    if box is not None:
        x0, y0, x1, y1 = box
        fx0, fy0, fx1, fy1 = frame
        w, h = fx1 - fx0, fy1 - fy0
        what = "the body" if figure.body_box is not None else "the slide"
        # a body set at twice the least type has grown enough: a strip stays a strip
        large = body and px(figure, median_of(body)) >= LARGE * BODY_PX
        fill = FILL if figure.body_box is None else BODY_FILL
        if max((x1 - x0) / w, (y1 - y0) / h) < fill and not large:
            out.append(f"content fills {100 * (x1 - x0) / w:.0f} % of {what}'s width and "
                       f"{100 * (y1 - y0) / h:.0f} % of its height (a slide needs "
                       f"{100 * fill:.0f} % of one)")
        # on the grid the body is anchored at its top: its margins across are balanced
        if abs((x0 - fx0) - (fx1 - x1)) > BALANCE * figure.width or \
                (figure.body_box is None and abs((y0 - fy0) - (fy1 - y1)) > BALANCE * h):
            out.append(f"margins {x0 - fx0:.0f} | {fx1 - x1:.0f} mm and {y0 - fy0:.0f} / "
                       f"{fy1 - y1:.0f} mm in {what} are not balanced")
    subtitle = [t for t in _title_texts(figure.items) if not t.bold]
    if len(subtitle) >= 2 and " " not in subtitle[-1].text.strip():
        out.append(f"orphan word {subtitle[-1].text!r} ends the subtitle")
    return out


def _bands(figure: Figure) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """The figure's items in the title and caption bands of its grid, and those in its body
    (a slide off the grid: all in the body)."""
    if figure.body_box is None:
        return (), figure.items
    _, top, _, bottom = figure.body_box
    bands: list[Item] = []
    body: list[Item] = []
    for item in figure.items:  # by the middle of its ink: a plot's axis label may overhang
        box = content_box((item,))
        inside = box is None or top <= (box[1] + box[3]) / 2 <= bottom
        (body if inside else bands).append(item)
    return tuple(bands), tuple(body)


def _margins(figure: Figure) -> list[str]:
    """Content within the grid's margins: 5 % of the slide's width left and right, 5 % of its
    height at the top and bottom."""
    box = content_box(figure.items)
    if box is None:
        return []
    mx, my = MARGIN * figure.width - 1e-6, MARGIN * figure.height - 1e-6
    x0, y0, x1, y1 = box
    if min(x0, figure.width - x1) < mx or min(y0, figure.height - y1) < my:
        return [f"content {x0:.1f} | {figure.width - x1:.1f} mm from the slide's left and "
                f"right edges and {y0:.1f} / {figure.height - y1:.1f} mm from its top and "
                f"bottom, inside the margins of {100 * MARGIN:.0f} % of its width and height"]
    return []


def _title_texts(items: tuple[Item, ...]) -> list[Text]:
    """The texts of the figure's title block, in order (the title, then its subtitle)."""
    out: list[Text] = []  # on a slide's grid: the band's title, then the body's subtitle
    for item in items:
        if isinstance(item, Group) and item.name == "title":
            out += [t for t in walk(item.items) if isinstance(t, Text)]
    return out


def content_box(items: tuple[Item, ...]) -> tuple[float, float, float, float] | None:
    """The box around the texts and shapes drawn (the page's background is not drawn)."""
    import numpy as np  # not on the start-up path

    xs0: list[float] = []
    ys0: list[float] = []
    xs1: list[float] = []
    ys1: list[float] = []

    def add(x0: float, y0: float, x1: float, y1: float) -> None:
        xs0.append(x0)
        ys0.append(y0)
        xs1.append(x1)
        ys1.append(y1)

    for item in walk(items):
        if isinstance(item, Text):
            add(*text_box(item))
        elif isinstance(item, (Rect, Image)):
            add(item.x, item.y, item.x + item.w, item.y + item.h)
        elif isinstance(item, Rects) and len(item.xywh):
            a = np.asarray(item.xywh, dtype=float).reshape(-1, 4)
            add(a[:, 0].min(), a[:, 1].min(), (a[:, 0] + a[:, 2]).max(), (a[:, 1] + a[:, 3]).max())
        elif isinstance(item, Segments) and len(item.xyxy):
            a = np.asarray(item.xyxy, dtype=float).reshape(-1, 4)
            add(a[:, [0, 2]].min(), a[:, [1, 3]].min(), a[:, [0, 2]].max(), a[:, [1, 3]].max())
        elif isinstance(item, Polyline) and item.points:
            p = np.asarray(item.points, dtype=float)
            add(p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max())
        elif isinstance(item, Circle):
            add(item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r)
    if not xs0:
        return None
    return min(xs0), min(ys0), max(xs1), max(ys1)
