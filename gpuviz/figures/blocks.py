"""Blocks: self-contained pieces of a figure with a measured size (the data, a legend, a
receipt), drawn from (0, 0) on a :class:`BlockCanvas`, which records the values a block promises
to print and those it had to shorten; a value cell fitted to its cell (:func:`fit_value`), and
blocks placed into one another (:func:`place`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from gpuviz.figures.display import Canvas, Item, Text, walk
from gpuviz.figures.metrics import (
    FontKind,
    ink_height,
    leaves_room,
    on_typeface_change,
    room_width,
    text_width,
)
from gpuviz.figures.numbers import Shortened, short_forms
from gpuviz.figures.transform import moved, transform

Role = Literal["drawing", "legend", "notes"]


@dataclass(frozen=True)
class Block:
    """A placed-later piece of a figure: items in its own mm coordinates from (0, 0)."""

    width: float
    height: float
    items: tuple[Item, ...]
    name: str | None = None
    promises: tuple[str, ...] = ()
    shortened: tuple[Shortened, ...] = ()  # (place, short form, exact text), one per place
    # the panel parts this block belongs to (empty: every part's) and what it is to them: their
    # drawing, their legend, or notes (shown with full chrome only)
    parts: tuple[str, ...] = ()
    role: Role = "notes"


def as_part(part: str | tuple[str, ...], block: Block, role: Role = "drawing") -> Block:
    """``block`` as (a piece of) the drawing of the panel part named ``part`` (or its notes);
    a block that draws several parts at once names them all."""
    return replace(block, parts=(part,) if isinstance(part, str) else part, role=role)


class BlockCanvas(Canvas):
    """A :class:`Canvas` that also records the values it promises to print and the values it
    had to shorten, so the layout can state them and the lint can check them."""

    def __init__(self) -> None:
        super().__init__()
        self.promises: list[str] = []
        self.shortened: dict[str, tuple[str, str]] = {}  # by place: (short form, exact)
        self.parts: list[str] = []  # the parts of the drawings placed in it

    def block(self, width: float, height: float, name: str | None = None,
              parts: tuple[str, ...] = (), role: Role = "notes") -> Block:
        """The items drawn so far as a block; one that holds placed parts' drawings draws
        those parts, unless ``parts`` says otherwise. Where the layout leaves room for a wider
        fallback face, the block is at least as wide as its texts reach in it
        (:func:`fallback_reach`), so that what is placed beside it leaves them that room."""
        if not parts and self.parts:
            parts, role = tuple(self.parts), "drawing"
        fig = self.figure(width, height, "#FFFFFF")
        if leaves_room():
            width = max(float(width), fallback_reach(fig.items))
        return Block(float(width), float(height), fig.items, name, tuple(self.promises),
                     tuple((p, s, e) for p, (s, e) in self.shortened.items()), parts, role)

    def value(self, x: float, y: float, w: float, h: float, text: str, size: float, color: str,
              *, floor: float, font: FontKind = "mono", key: str | None = None,
              bold: bool = False, anchor: str = "middle", pad: float = 0.25) -> Text:
        """The value ``text`` centred in the cell (x, y, w, h): at ``size`` if it fits, else
        shrunk down to ``floor`` points, else shortened (see :func:`short_forms`), and drawn
        even if nothing fits (the lint reports that cell). The cell's key is promised."""
        fitted, pt = fit_value(text, w - 2 * pad, h, size, floor, font, bold)
        if fitted != text:
            self.shortened[shortened_place(key, x, y)] = (fitted, text)
        if key is not None:
            self.promises.append(key)
        if anchor == "middle":
            tx = x + w / 2
        elif anchor == "end":
            tx = x + w - pad
        else:
            tx = x + pad
        return self.text(tx, y + h / 2, fitted, pt, color, anchor=anchor,  # type: ignore[arg-type]
                         baseline="middle", font=font, bold=bold, key=key)

    def label(self, x: float, y: float, text: str, size: float, color: str, *, knockout: str,
              **kw) -> Text:
        """A text that lies on lines or hatching: drawn over an opaque box of ``knockout``."""
        return self.text(x, y, text, size, color, knockout=knockout, **kw)


def fallback_reach(items: tuple[Item, ...]) -> float:
    """How far right the sans texts of ``items`` reach where a wider fallback face sets them
    (:func:`~gpuviz.figures.metrics.room_width`): a start-anchored text by its room, a centred
    one by half of it (monospaced text keeps its width; rotated text is left as it is)."""
    reach = 0.0
    for item in walk(items):
        if (isinstance(item, Text) and item.font == "sans" and not item.rotate
                and item.anchor != "end"):
            w = room_width(item.text, item.size, "sans", item.bold)
            reach = max(reach, item.x + (w if item.anchor == "start" else w / 2))
    return reach


@lru_cache(maxsize=8192)  # a figure's cells repeat their sizes and values
def fit_value(text: str, width: float, height: float, size: float, floor: float,
              font: FontKind = "mono", bold: bool = False) -> tuple[str, float]:
    """The spelling and type size at which ``text`` fits ``width`` × ``height`` mm: the full
    text at the largest size from ``size`` down to ``floor``, else the first short form that
    fits at ``floor`` or above, else the shortest form at ``floor`` (it overflows)."""
    floor = min(floor, size)

    def largest(t: str) -> float:
        w = text_width(t, 1.0, font, bold)
        h = ink_height(1.0, font)
        by_w = width / w if w > 0 else size
        by_h = height / h if h > 0 else size
        return min(size, by_w, by_h)

    pt = largest(text)
    if pt >= floor - 1e-9:
        return text, pt
    forms = short_forms(text)
    for form in forms:
        pt = largest(form)
        if pt >= floor - 1e-9:
            return form, pt
    shortest = min([text, *forms], key=len)
    return shortest, floor


on_typeface_change(fit_value.cache_clear)  # fitted with the widths of the faces in use


def place_items(c: Canvas, block: Block, x: float, y: float) -> None:
    """Draw ``block``'s items into ``c`` at (x, y), without a group or its promises (a block
    drawn inside a block builder that states them itself)."""
    for item in block.items:
        c.add(transform(item, 1.0, x, y))


def shortened_place(key: str | None, x: float, y: float) -> str:
    """Where a shortened value is: its key (the thing it is the value of), else its cell's
    corner."""
    return key if key is not None else f"@{x:.3f},{y:.3f}"


def place(c: BlockCanvas, block: Block, x: float, y: float) -> None:
    """Draw ``block`` into ``c`` at (x, y), keeping its promises and shortened values."""
    with c.group(name=block.name):
        place_items(c, block, x, y)
    c.promises += block.promises
    c.shortened.update({p: (s, e) for p, s, e in block.shortened})
    if block.role == "drawing":
        c.parts += [p for p in block.parts if p not in c.parts]


def knock_out(c: BlockCanvas, text: Text, color: str | None) -> None:
    """Put ``text``, the item ``c`` drew last (a :meth:`BlockCanvas.value`), on an opaque box of
    ``color``: for a value printed on a hatched cell."""
    assert c.last() is text, "knock_out takes the text just drawn"
    c.replace_last(moved(text, {"knockout": color}))
