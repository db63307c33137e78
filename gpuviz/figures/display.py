"""The display list: a Qt-free description of a figure in millimetres.

A figure is a tree of immutable items. The screen painter and the SVG writer both walk the same
tree, so what is shown is what is exported. Every item a user can point at carries a ``key``
(``"lane:3"``, ``"sector:12"``, ``"tile:2,5"``): hover, selection and linking use it, and it
becomes the SVG element's identity. Many similar shapes go into one batched item (``Rects``,
``Segments``) or one ``Image``, never thousands of items.

Build figures with :class:`Canvas`::

    c = Canvas()
    with c.group("lane:3"):
        c.rect(0, 0, 4, 4, theme.fill("valid"))
    fig = c.figure(width=40, height=10, background=theme.background, title="lanes")
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from gpuviz.figures.metrics import cap_height, descent
from gpuviz.figures.metrics import text_width as measured_width
from gpuviz.keys import numbers

if TYPE_CHECKING:  # numpy is not imported to build or paint a figure without images
    import numpy as np

Anchor = Literal["start", "middle", "end"]
Baseline = Literal["alphabetic", "middle", "hanging"]
Hatch = Literal["diagonal", "cross", "dots", "horizontal"]
PT_TO_MM = 25.4 / 72.0
# Baselines other than "alphabetic" are shifted by fixed fractions of the type size, the same in
# every renderer (SVG viewers disagree on dominant-baseline; these fit Inter and Noto Sans Mono).
BASELINE_SHIFT_EM = {"alphabetic": 0.0, "middle": 0.36, "hanging": 0.76}
Row = tuple[float, float, float, float]
# How both renderers draw what the display list only names (the SVG writer and the painter read
# these, so a PDF, a PNG and an SVG of one figure agree): the halo of a knocked-out label, in mm
# of background around its glyphs; hatching in millimetres (line pitch, line width, dot radius).
KNOCKOUT_PAD = 0.35
HATCH_PITCH = 2.0
HATCH_LINE = 0.18
HATCH_DOT = 0.25


def rows4(data: Any) -> tuple[Row, ...] | np.ndarray:
    """Rows of four floats: an (N, 4) float array when given a numpy array (a figure that made
    one has numpy loaded; large batches stay vectorised), else plain tuples from a flat sequence
    or a sequence of rows, so that a figure built from lists needs no numpy (start-up)."""
    if hasattr(data, "reshape"):  # a numpy array
        return data.astype(float).reshape(-1, 4)
    flat = [float(v) for row in data for v in (row if hasattr(row, "__len__") else (row,))]
    if len(flat) % 4:
        raise ValueError(f"{len(flat)} values do not make rows of four")
    return tuple(zip(flat[0::4], flat[1::4], flat[2::4], flat[3::4], strict=True))


def row_list(batch: tuple[Row, ...] | np.ndarray) -> list | tuple[Row, ...]:
    """A batch's rows as Python floats (``tolist`` of an array, the tuples as they are)."""
    return batch.tolist() if hasattr(batch, "tolist") else batch


@dataclass(frozen=True)
class Style:
    """How a shape is filled and outlined. Colours are ``#rrggbb`` strings from a theme."""

    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0  # mm
    dash: tuple[float, ...] | None = None  # mm, on/off
    opacity: float = 1.0
    hatch: Hatch | None = None  # drawn over the fill in ``hatch_color``
    hatch_color: str | None = None

    def with_stroke(self, color: str | None, width: float) -> Style:
        return Style(self.fill, color, width, self.dash, self.opacity, self.hatch, self.hatch_color)

    def with_opacity(self, opacity: float) -> Style:
        return Style(self.fill, self.stroke, self.stroke_width, self.dash, opacity,
                     self.hatch, self.hatch_color)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style
    key: str | None = None
    radius: float = 0.0


@dataclass(frozen=True, eq=False)
class Rects:
    """Many rectangles of one style: ``xywh`` holds N ``(x, y, w, h)`` rows in mm (tuples, or
    an (N, 4) array; see :func:`rows4`)."""

    xywh: tuple[Row, ...] | np.ndarray
    style: Style
    keys: tuple[str | None, ...] | None = None


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style
    key: str | None = None


@dataclass(frozen=True)
class Polyline:
    """An open (or, with ``closed``, a filled) path through points; optional arrow heads."""

    points: tuple[tuple[float, float], ...]
    style: Style
    key: str | None = None
    closed: bool = False
    arrow_end: bool = False
    arrow_start: bool = False


@dataclass(frozen=True, eq=False)
class Segments:
    """Many straight segments of one style: ``xyxy`` holds N ``(x1, y1, x2, y2)`` rows in mm
    (tuples, or an (N, 4) array; see :func:`rows4`)."""

    xyxy: tuple[Row, ...] | np.ndarray
    style: Style
    keys: tuple[str | None, ...] | None = None


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float  # points
    color: str
    anchor: Anchor = "start"
    baseline: Baseline = "alphabetic"
    font: Literal["sans", "mono"] = "sans"
    bold: bool = False
    rotate: float = 0.0  # degrees, clockwise, about (x, y)
    key: str | None = None
    knockout: str | None = None  # a colour: the text sits on an opaque box of it (over lines)


@dataclass(frozen=True, eq=False)
class Image:
    """A dense grid drawn as pixels (nearest-neighbour): ``rgb`` is (rows, cols, 3) uint8."""

    x: float
    y: float
    w: float
    h: float
    rgb: np.ndarray
    key: str | None = None
    # a grid too dense for a shape per cell can still be pointed at cell by cell: the pixel at
    # (row, col) answers the key "<cells>:<row>,<col>"
    cells: str | None = None


@dataclass(frozen=True)
class Group:
    """Items that belong together; a keyed group is one pointable thing (all its children)."""

    items: tuple[Item, ...]
    key: str | None = None
    name: str | None = None  # a readable layer name for SVG editors (e.g. "lanes")


Item = Rect | Rects | Circle | Polyline | Segments | Text | Image | Group
ItemT = TypeVar("ItemT", bound=Item)


@dataclass(frozen=True)
class Figure:
    width: float  # mm
    height: float  # mm
    background: str
    items: tuple[Item, ...]
    title: str = ""
    description: str = ""
    promises: tuple[str, ...] = ()  # keys of value cells that must print their value
    shortened: tuple[tuple[str, str], ...] = ()  # (short form, exact value), one per value shortened
    # a slide or view layout's (arrangement, design width factor), to lay out again alike
    design: tuple[str, float] | None = None
    # the panel parts drawn, in the order drawn (empty: a figure not made of parts)
    parts: tuple[str, ...] = ()
    # a slide's body box (x0, y0, x1, y1) on its grid (``figures.slide_grid``); None elsewhere
    body_box: tuple[float, float, float, float] | None = None

    def keys(self) -> list[str]:
        """Every key in the figure, in drawing order (duplicates kept)."""
        out: list[str] = []
        for item in walk(self.items):
            if isinstance(item, (Rects, Segments)) and item.keys:
                out.extend(k for k in item.keys if k)
            elif not isinstance(item, (Rects, Segments)) and item.key:
                out.append(item.key)
        return out

    def texts(self) -> list[str]:
        return [item.text for item in walk(self.items) if isinstance(item, Text)]

    def colours(self) -> set[str]:
        """Every colour the figure paints with (fills, strokes, hatches, text)."""
        used = {self.background}
        for item in walk(self.items):
            style = getattr(item, "style", None)
            if style is not None:
                used |= {c for c in (style.fill, style.stroke, style.hatch_color) if c}
            if isinstance(item, Text):
                used.add(item.color)
        return used


def walk(items: Sequence[Item]) -> Iterator[Item]:
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from walk(item.items)


class Canvas:
    """A mutable builder for a :class:`Figure`; the figure it makes is immutable."""

    def __init__(self) -> None:
        self._stack: list[tuple[list[Item], str | None, str | None]] = [([], None, None)]

    @property
    def _items(self) -> list[Item]:
        return self._stack[-1][0]

    def add(self, item: ItemT) -> ItemT:
        self._items.append(item)
        return item

    def last(self) -> Item:
        """The item drawn last (in the group open now)."""
        return self._items[-1]

    def drawn(self) -> tuple[Item, ...]:
        """The items drawn so far in the group open now (what a label keeps clear of)."""
        return tuple(self._items)

    def replace_last(self, item: ItemT) -> ItemT:
        """Put ``item`` in place of the item drawn last: a label drawn, measured, then given a
        knockout."""
        self._items[-1] = item
        return item

    def remove_last(self) -> Item:
        """Take back the item drawn last (a label that turned out not to fit) and return it."""
        return self._items.pop()

    @contextmanager
    def group(self, key: str | None = None, name: str | None = None) -> Iterator[None]:
        self._stack.append(([], key, name))
        try:
            yield
        finally:
            items, gkey, gname = self._stack.pop()
            if items:
                self._items.append(Group(tuple(items), gkey, gname))

    def rect(self, x: float, y: float, w: float, h: float, style: Style,
             key: str | None = None, radius: float = 0.0) -> Rect:
        return self.add(Rect(float(x), float(y), float(w), float(h), style, key, radius))

    def rects(self, xywh: Sequence[Sequence[float]] | np.ndarray, style: Style,
              keys: Sequence[str | None] | None = None) -> Rects | None:
        rows = rows4(xywh)
        if not len(rows):
            return None
        return self.add(Rects(rows, style, tuple(keys) if keys is not None else None))

    def circle(self, cx: float, cy: float, r: float, style: Style, key: str | None = None) -> Circle:
        return self.add(Circle(float(cx), float(cy), float(r), style, key))

    def line(self, x1: float, y1: float, x2: float, y2: float, style: Style,
             key: str | None = None, arrow: bool = False) -> Polyline:
        return self.add(Polyline(((float(x1), float(y1)), (float(x2), float(y2))), style, key,
                                 arrow_end=arrow))

    def polyline(self, points: Sequence[tuple[float, float]], style: Style, key: str | None = None,
                 closed: bool = False, arrow_end: bool = False) -> Polyline:
        pts = tuple((float(x), float(y)) for x, y in points)
        return self.add(Polyline(pts, style, key, closed, arrow_end))

    def segments(self, xyxy: Sequence[Sequence[float]] | np.ndarray, style: Style,
                 keys: Sequence[str | None] | None = None) -> Segments | None:
        rows = rows4(xyxy)
        if not len(rows):
            return None
        return self.add(Segments(rows, style, tuple(keys) if keys is not None else None))

    def text(self, x: float, y: float, text: str, size: float, color: str, *,
             anchor: Anchor = "start", baseline: Baseline = "alphabetic",
             font: Literal["sans", "mono"] = "sans", bold: bool = False, rotate: float = 0.0,
             key: str | None = None, knockout: str | None = None) -> Text:
        return self.add(Text(float(x), float(y), str(text), float(size), color, anchor, baseline,
                             font, bold, float(rotate), key, knockout))

    def image(self, x: float, y: float, w: float, h: float, rgb: np.ndarray,
              key: str | None = None, cells: str | None = None) -> Image:
        import numpy as np  # only a dense figure draws an image

        return self.add(Image(float(x), float(y), float(w), float(h),
                              np.ascontiguousarray(rgb, dtype=np.uint8), key, cells))

    def figure(self, width: float, height: float, background: str, title: str = "",
               description: str = "") -> Figure:
        if len(self._stack) != 1:
            raise RuntimeError("figure() called inside an open group")
        return Figure(float(width), float(height), background, tuple(self._items), title, description)


def key_at(figure: Figure, x: float, y: float) -> str | None:
    """The key of the topmost pointable shape under (x, y) mm, or None."""
    return _key_at(figure.items, x, y, None)


def _key_at(items: Sequence[Item], x: float, y: float, inherited: str | None) -> str | None:
    for item in reversed(items):
        if isinstance(item, Group):
            found = _key_at(item.items, x, y, item.key or inherited)
            if found:
                return found
            continue
        own = getattr(item, "key", None)
        if isinstance(item, Image) and item.cells and _contains(item, x, y):
            rows, cols = item.rgb.shape[:2]
            r = min(rows - 1, int((y - item.y) / item.h * rows)) if item.h > 0 else 0
            col = min(cols - 1, int((x - item.x) / item.w * cols)) if item.w > 0 else 0
            return f"{item.cells}:{r},{col}"
        if isinstance(item, Rects):
            if item.keys is None and inherited is None:
                continue
            rows = row_list(item.xywh)
            for i in range(len(rows) - 1, -1, -1):
                rx, ry, rw, rh = rows[i]
                if rx <= x <= rx + rw and ry <= y <= ry + rh:
                    return (item.keys[i] if item.keys else None) or inherited
            continue
        if own is None and inherited is None:
            continue
        if isinstance(item, Rect) and own is None and item.style.fill is None:
            continue  # an outline (a frame, a highlight) points at what it frames
        if _contains(item, x, y):
            return own or inherited
    return None


def _contains(item: Item, x: float, y: float) -> bool:
    if isinstance(item, (Rect, Image)):
        return item.x <= x <= item.x + item.w and item.y <= y <= item.y + item.h
    if isinstance(item, Circle):
        return (x - item.cx) ** 2 + (y - item.cy) ** 2 <= item.r ** 2
    if isinstance(item, Polyline):
        xs = [p[0] for p in item.points]
        ys = [p[1] for p in item.points]
        pad = max(item.style.stroke_width, 0.8)
        return min(xs) - pad <= x <= max(xs) + pad and min(ys) - pad <= y <= max(ys) + pad
    if isinstance(item, Text):
        x0, y0, x1, y1 = text_box(item)
        return x0 <= x <= x1 and y0 <= y <= y1
    return False


def text_width(text: str, size_pt: float, font: Literal["sans", "mono"] = "sans",
               bold: bool = False) -> float:
    """The width of ``text`` in mm, measured with the bundled font's advance widths."""
    return measured_width(text, size_pt, font, bold)


def text_box(t: Text, pad: float = 0.0) -> tuple[float, float, float, float]:
    """The (x0, y0, x1, y1) mm box of a text's ink (cap height to descent), measured, with
    rotation about its anchor point; ``pad`` mm added on every side."""
    w = text_width(t.text, t.size, t.font, t.bold)
    base = BASELINE_SHIFT_EM[t.baseline] * t.size * PT_TO_MM
    x0 = {"start": 0.0, "middle": -w / 2, "end": -w}[t.anchor]
    top, bottom = base - cap_height(t.size, t.font), base + descent(t.size, t.font)
    corners = [(x0 - pad, top - pad), (x0 + w + pad, top - pad), (x0 - pad, bottom + pad),
               (x0 + w + pad, bottom + pad)]
    if t.rotate:
        a = math.radians(t.rotate)
        ca, sa = math.cos(a), math.sin(a)
        corners = [(x * ca - y * sa, x * sa + y * ca) for x, y in corners]
    xs = [t.x + x for x, _ in corners]
    ys = [t.y + y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def selected_numbers(selection: frozenset[str], prefix: str) -> set[int]:
    """The numbers of the selected keys of one kind: ``{"lane:3", "lane:7"}`` → ``{3, 7}``."""
    return numbers(selection, prefix)


def arrow_head_width(stroke_width: float) -> float:
    """How wide (mm) the arrow head of a line ``stroke_width`` mm thick is drawn."""
    return stroke_width * 4 + 0.6


def arrow_head(points: Sequence[tuple[float, float]], width: float) -> tuple[tuple[float, float], ...]:
    """The triangle of an arrow head at the last point of a polyline, ``width`` mm across."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    back = width * 1.4
    bx, by = x2 - ux * back, y2 - uy * back
    nx, ny = -uy * width / 2, ux * width / 2
    return ((x2, y2), (bx + nx, by + ny), (bx - nx, by - ny))
