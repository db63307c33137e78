"""The figure layout layer: measured items, shared builders, and a layout for a target size.

A panel's ``build(result, selection, theme, target)`` makes *blocks* (self-contained pieces of
display list with a measured size: the data, a legend, a receipt) with the builders here, and
:func:`compose` places them for the target: the natural size, a journal column (85 or 178 mm), a
16:9 slide, or the shape of a view in the app. A figure is re-laid out for its target, never
scaled down into it: type keeps its size in points, and a body that is too wide for a column is
rebuilt narrower by its panel (``body(width)`` is a function of the width it gets).

Text is measured with the shipped fonts (:mod:`gpuviz.figures.metrics`). A value that does not
fit its cell shrinks to the target's floor, then is shortened by a stated rule (``5.1k``,
``2²⁴``; the figure lists each shortened value with its exact value), and is never dropped.
Labels that must sit on lines or hatching get a *knockout* (an opaque box of the background
behind the text). :mod:`gpuviz.figures.lint` checks all of this over every bundled figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal

from gpuviz.figures.display import (
    PT_TO_MM,
    Canvas,
    Circle,
    Figure,
    Group,
    Image,
    Item,
    Polyline,
    Rect,
    Rects,
    Segments,
    Style,
    Text,
)
from gpuviz.figures.metrics import (
    FontKind,
    _on_typeface,
    cap_height,
    descent,
    ink_height,
    text_width,
)
from gpuviz.figures.theme import Theme

# --------------------------------------------------------------------------------------------
# Targets


@dataclass(frozen=True)
class Target:
    """What a figure is laid out for: a page width in mm (None: the panel's natural width) and,
    for slides and views, the page's aspect (width / height)."""

    name: str = "natural"
    width: float | None = None
    aspect: float | None = None
    # for a slide or a view: lay out with this arrangement ("stacked" or "beside") and design
    # width factor only, instead of searching them; the app's redraw while a control is dragged
    # or a figure plays keeps the design its last full layout chose (Figure.design)
    design: Design | None = None
    # the panel's parts to draw, in this order (None: all, in the panel's own arrangement)
    parts: tuple[str, ...] | None = None
    # what surrounds the parts: "full" (title, subtitle, notes, legend), "legend" (the parts'
    # legend entries and nothing else) or "none" (the drawing alone, for a caption set elsewhere)
    chrome: Chrome = "full"

    def searched(self) -> Target:
        """This target without a design: the full search."""
        return replace(self, design=None) if self.design is not None else self

    @property
    def whole(self) -> bool:
        """Whether this is the panel's whole figure: every part, with full chrome."""
        return self.parts is None and self.chrome == "full"

    def shows(self, *parts: str) -> bool:
        """Whether a block of ``parts`` is drawn: one of them is shown (none named: a block of
        every part)."""
        return not parts or self.parts is None or any(p in self.parts for p in parts)

    def showing(self, parts: Sequence[str] | None = None, chrome: Chrome = "full") -> Target:
        """This target drawing only ``parts`` (None: all) inside ``chrome``."""
        return replace(self, parts=None if parts is None else tuple(parts), chrome=chrome)

    @property
    def min_pt(self) -> float:
        """The smallest type allowed at this size: 7 pt (a journal's least, in a single column
        as well)."""
        return 7.0


NATURAL = Target()
SINGLE = Target("single", 85.0)
DOUBLE = Target("double", 178.0)
SLIDE = Target("slide", 254.0, 16.0 / 9.0)  # 10 × 5.625 in
TARGETS: dict[str, Target] = {t.name: t for t in (NATURAL, SINGLE, DOUBLE, SLIDE)}


def view_target(width_mm: float, aspect: float) -> Target:
    """The target of a view in the app: its width in mm at the chosen zoom, and its shape."""
    return Target("view", max(40.0, float(width_mm)), max(0.2, min(6.0, float(aspect))))


Chrome = Literal["full", "legend", "none"]
CHROMES: tuple[Chrome, ...] = ("full", "legend", "none")
Design = tuple[str, float]  # (arrangement, design width factor) of a slide or view layout
DESIGN_FACTORS = (0.6, 0.8, 1.0, 1.25, 1.6, 2.0)  # design widths tried, × the natural width

MARGIN = 2.0  # mm around the content
GAP = 3.5  # mm between blocks


# --------------------------------------------------------------------------------------------
# Numbers: one format per figure


def format_number(v: float, digits: int = 3) -> str:
    """The one number format of every figure: integers with comma grouping (``1,024``), other
    values with ``digits`` significant digits (``0.125``, ``1.5e+08``)."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int) or (isinstance(v, float) and math.isfinite(v) and v == round(v)
                              and abs(v) < 1e15):
        return f"{round(v):,}"
    if isinstance(v, float) and not math.isfinite(v):
        return "∞" if v > 0 else ("−∞" if v < 0 else "NaN")
    return f"{v:.{digits}g}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, in the number the count asks for: "1 round", "2 rounds"."""
    return f"{format_number(n)} {noun if n == 1 else plural or noun + 's'}"


def format_percent(fraction: float) -> str:
    """A share as a percentage bounded to 0–100 % (one decimal where it matters)."""
    p = max(0.0, min(100.0, fraction * 100.0))
    return f"{p:.0f} %" if abs(p - round(p)) < 0.05 else f"{p:.1f} %"


def format_bytes(n: int) -> str:
    """Bytes in the unit that keeps them exact where possible: 1,024 B, 48 KiB, 1.5 KiB."""
    if n < 1024:
        return f"{n:,} B"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            q = n / size
            return f"{q:,.0f} {unit}" if n % size == 0 else f"{q:,.1f} {unit}"
    return f"{n:,} B"


_SUPERSCRIPT = str.maketrans("0123456789+-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")


def short_forms(text: str) -> list[str]:
    """Shorter spellings of a number, most exact first: without grouping, as a power of two (±
    a small remainder), then rounded with k/M/G. A text that is not a number has none."""
    raw = text.replace(",", "").replace("\u2009", "").replace("−", "-").strip()
    try:
        value = int(raw)
    except ValueError:
        try:
            f = float(raw)
        except ValueError:
            return []
        if not math.isfinite(f):
            return []
        return [s for s in (f"{f:.3g}", f"{f:.2g}", f"{f:.1g}") if s != text]
    forms: list[str] = []
    if raw != text:
        forms.append(raw)
    mag = abs(value)
    if mag >= 1024:
        k = round(math.log2(mag))
        rest = mag - (1 << k)
        if abs(rest) <= 99:
            sign = "-" if value < 0 else ""
            tail = "" if rest == 0 else (f"+{rest}" if rest > 0 else f"−{-rest}")
            forms.append(f"{sign}2{str(k).translate(_SUPERSCRIPT)}{tail}")
    if mag >= 1000:
        for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
            if mag >= size:
                q = value / size
                forms += [f"{q:.3g}{unit}", f"{q:.2g}{unit}"]
                if abs(q) >= 10:
                    forms.append(f"{round(q)}{unit}")
                break
    unique: list[str] = []
    for form in forms:
        if form not in unique and form != text:
            unique.append(form)
    return unique


# --------------------------------------------------------------------------------------------
# Blocks and the canvas that records promises and shortened values


@dataclass(frozen=True)
class Block:
    """A placed-later piece of a figure: items in its own mm coordinates from (0, 0)."""

    width: float
    height: float
    items: tuple[Item, ...]
    name: str | None = None
    promises: tuple[str, ...] = ()
    shortened: tuple[tuple[str, str], ...] = ()  # (short form, exact text)
    # the panel parts this block belongs to (empty: every part's) and what it is to them: their
    # drawing, their legend, or notes (shown with full chrome only)
    parts: tuple[str, ...] = ()
    role: Role = "notes"


Role = Literal["drawing", "legend", "notes"]


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
        self.shortened: dict[str, str] = {}
        self.parts: list[str] = []  # the parts of the drawings placed in it

    def block(self, width: float, height: float, name: str | None = None,
              parts: tuple[str, ...] = (), role: Role = "notes") -> Block:
        """The items drawn so far as a block; one that holds placed parts' drawings draws
        those parts, unless ``parts`` says otherwise."""
        if not parts and self.parts:
            parts, role = tuple(self.parts), "drawing"
        fig = self.figure(width, height, "#FFFFFF")
        return Block(float(width), float(height), fig.items, name, tuple(self.promises),
                     tuple(self.shortened.items()), parts, role)

    def value(self, x: float, y: float, w: float, h: float, text: str, size: float, color: str,
              *, floor: float, font: FontKind = "mono", key: str | None = None,
              bold: bool = False, anchor: str = "middle", pad: float = 0.25) -> Text:
        """The value ``text`` centred in the cell (x, y, w, h): at ``size`` if it fits, else
        shrunk down to ``floor`` points, else shortened (see :func:`short_forms`), and drawn
        even if nothing fits (the lint reports that cell). The cell's key is promised."""
        fitted, pt = fit_value(text, w - 2 * pad, h, size, floor, font, bold)
        if fitted != text:
            self.shortened[fitted] = text
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


_on_typeface.append(fit_value.cache_clear)  # fitted with the widths of the faces in use


# --------------------------------------------------------------------------------------------
# Shared builders: title, legend, receipt, note


@dataclass(frozen=True)
class LegendEntry:
    """One meaning, one mark: a swatch (a cell's style), a line (a stroke style), a dot, or the
    selection's double outline (``selection``: the style is its outer line)."""

    label: str
    style: Style
    kind: Literal["swatch", "line", "dot", "selection"] = "swatch"
    # the parts that draw this meaning (empty: every part, such as "selected")
    parts: tuple[str, ...] = ()


# A legend's note: a paragraph, or a paragraph and the parts it speaks of
Note = str | tuple[str, tuple[str, ...]]


def legend_for(entries: Sequence[LegendEntry], notes: Sequence[Note],
               target: Target | None) -> tuple[list[LegendEntry], list[str]]:
    """The entries of the parts ``target`` shows, and their notes if its chrome is full: a part
    drawn alone lists only its own meanings."""
    def shown(parts: Sequence[str]) -> bool:
        return target is None or target.shows(*parts)

    kept = [e for e in entries if shown(e.parts)]
    if target is not None and target.chrome != "full":
        return kept, []
    return kept, [n if isinstance(n, str) else n[0] for n in notes
                  if isinstance(n, str) or shown(n[1])]


def wrap(text: str, size: float, width: float, font: FontKind = "sans",
         bold: bool = False) -> list[str]:
    """Words of ``text`` in lines that fit ``width`` mm, measured; a word longer than the width
    is kept whole on its own line (the lint reports it)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, size, font, bold) > width:
                lines.append(line)
                candidate = word
            line = candidate
        lines.append(line)
    return lines


def without_orphan(lines: list[str], text: str, size: float, width: float,
                   font: FontKind = "sans") -> list[str]:
    """``lines`` (``text`` wrapped to ``width``) rewrapped narrower, as little as it takes,
    so that the last line is not one word alone; as they were if no width down to 3/4 does."""
    if len(lines) < 2 or " " in lines[-1].strip():
        return lines
    for k in range(1, 11):
        narrower = wrap(text, size, width * (1.0 - 0.025 * k), font)
        if len(narrower) == len(lines) and " " in narrower[-1].strip():
            return narrower
    return lines


def line_step(size: float, leading: float = 1.3) -> float:
    return size * PT_TO_MM * leading


def text_block(text: str, theme: Theme, width: float, *, size: float | None = None,
               color: str | None = None, font: FontKind = "sans", bold: bool = False,
               name: str = "note") -> Block:
    """A paragraph wrapped to ``width``."""
    size = size or theme.small_pt
    c = BlockCanvas()
    y = cap_height(size, font)
    lines = wrap(text, size, width, font, bold)
    for i, line in enumerate(lines):
        c.text(0.0, y + i * line_step(size), line, size, color or theme.color("foreground"),
               font=font, bold=bold)
    height = y + (len(lines) - 1) * line_step(size) + descent(size, font)
    used = max((text_width(ln, size, font, bold) for ln in lines), default=0.0)
    return c.block(min(width, used), height, name)


def title_block(title: str, subtitle: str, theme: Theme, width: float,
                balance: bool = False) -> Block:
    """The figure's title (bold) and a one-paragraph subtitle that says how to read it.
    ``balance``: no subtitle line of one word at the end (an orphan), for slides and views."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    y = cap_height(theme.title_pt)
    used = 0.0
    for i, line in enumerate(wrap(title, theme.title_pt, width, bold=True)):
        if i:
            y += line_step(theme.title_pt)
        c.text(0.0, y, line, theme.title_pt, fg, bold=True)
        used = max(used, text_width(line, theme.title_pt, bold=True))
    bottom = y + descent(theme.title_pt)
    if subtitle:
        y += line_step(theme.small_pt, 1.2) + cap_height(theme.small_pt) * 0.6
        lines = wrap(subtitle, theme.small_pt, width)
        if balance:
            lines = without_orphan(lines, subtitle, theme.small_pt, width)
        for i, line in enumerate(lines):
            c.text(0.0, y + i * line_step(theme.small_pt), line, theme.small_pt, muted)
            used = max(used, text_width(line, theme.small_pt))
        bottom = y + (len(lines) - 1) * line_step(theme.small_pt) + descent(theme.small_pt)
    return c.block(min(width, used), bottom, "title")


def legend_block(entries: Sequence[LegendEntry], theme: Theme, width: float, *,
                 title: str | None = None, notes: Sequence[Note] = (),
                 target: Target | None = None) -> Block:
    """Swatches with labels, flowed in rows to ``width``; each entry is a group named
    ``legend:<label>`` (the lint checks one mark per meaning). ``notes`` follow as paragraphs.
    For a ``target`` showing some parts, only their entries (:func:`legend_for`)."""
    entries, notes = legend_for(entries, notes, target)
    c = BlockCanvas()
    fg = theme.color("foreground")
    size = theme.small_pt
    sw = max(2.6, cap_height(size) * 1.25)
    row = max(sw, ink_height(size)) + 1.4
    x, y = 0.0, 0.0
    used = 0.0
    if title:
        c.text(0.0, cap_height(size), title, size, fg, bold=True)
        y = row
    seen: set[str] = set()
    row_h = row  # the tallest entry of the current row (a long label wraps to lines)
    for entry in entries:
        if entry.label in seen:
            continue
        seen.add(entry.label)
        room = max(width - sw - 1.0, 1.0)
        lines = wrap(entry.label, size, room)
        label_w = max(text_width(line, size) for line in lines)
        need = sw + 1.0 + label_w + 3.0
        entry_h = row + (len(lines) - 1) * line_step(size)
        if x > 0 and (x + need - 3.0 > width or len(lines) > 1):
            x, y = 0.0, y + row_h
            row_h = row
        with c.group(name=f"legend:{entry.label}"):
            top = y + (row - 1.4 - sw) / 2
            if entry.kind == "line":
                style = entry.style
                c.line(x, top + sw / 2, x + sw, top + sw / 2, style)
            elif entry.kind == "dot":
                c.circle(x + sw / 2, top + sw / 2, sw / 2.6, entry.style)
            elif entry.kind == "selection":
                theme.select(c, x + 0.3, top + 0.3, sw - 0.6, sw - 0.6)
            else:
                c.rect(x, top, sw, sw, entry.style)
            for i, line in enumerate(lines):
                c.text(x + sw + 1.0, top + sw / 2 + i * line_step(size), line, size, fg,
                       baseline="middle")
        used = max(used, x + need - 3.0)
        row_h = max(row_h, entry_h)
        x += need
        if len(lines) > 1:  # a wrapped entry has the row to itself
            x, y = 0.0, y + row_h
            row_h = row
    if x == 0.0 and y > 0 and row_h == row and seen:
        y -= row  # the last wrapped entry already moved to a fresh, empty row
    height = y + row - 1.4 if entries or title else 0.0
    for note in notes:
        block = text_block(note, theme, width, color=theme.color("muted"))
        _place(c, block, 0.0, height + (1.2 if height else 0.0))
        height += block.height + (1.2 if height else 0.0)
        used = max(used, block.width)
    return c.block(min(width, max(used, 1.0)), height, "legend", role="legend")


def receipt_block(rows: Sequence[str | tuple[str, str]], theme: Theme, width: float, *,
                  title: str | None = None, color: str | None = None) -> Block:
    """Monospaced lines that add up (a receipt): ``(label, value)`` rows align their values in
    one column; plain strings are wrapped to ``width``. Where an aligned row would not fit the
    width, every row is written as ``label: value`` on its own instead (too narrow to align)."""
    c = BlockCanvas()
    fg = color or theme.color("foreground")
    size = theme.small_pt
    labels = [r[0] for r in rows if isinstance(r, tuple)]
    pad = max((len(s) for s in labels), default=0)
    aligned = all(text_width(f"{r[0].ljust(pad)}  {r[1]}", size, "mono") <= width
                  for r in rows if isinstance(r, tuple))
    lines: list[str] = []
    for r in rows:
        if isinstance(r, tuple):
            label, value = r
            text = (f"{label.ljust(pad)}  {value}" if aligned else
                    f"{label} {value}" if label.endswith(":") else f"{label}: {value}")
            lines += wrap(text, size, width, "mono")
        else:
            lines += wrap(r, size, width, "mono")
    y = 0.0
    used = 0.0
    if title:
        y = cap_height(size)
        c.text(0.0, y, title, size, fg, bold=True)
        used = text_width(title, size, bold=True)
        y += line_step(size) - cap_height(size, "mono")
    for i, line in enumerate(lines):
        c.text(0.0, y + cap_height(size, "mono") + i * line_step(size), line, size, fg,
               font="mono")
        used = max(used, text_width(line, size, "mono"))
    height = y + cap_height(size, "mono") + (len(lines) - 1) * line_step(size) \
        + descent(size, "mono") if lines else y
    return c.block(min(width, used), height, "receipt")


# --------------------------------------------------------------------------------------------
# Composing blocks for a target

BlocksFor = Callable[[float], Sequence[Block]]


@dataclass
class _Arrangement:
    blocks: list[tuple[Block, float, float]] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0


def compose(target: Target, theme: Theme, *, title: str, subtitle: str = "",
            body: BlocksFor, side: BlocksFor | None = None, natural_width: float = 170.0,
            figure_title: str = "", description: str = "") -> Figure:
    """Lay a figure out for ``target``.

    ``body(width)`` builds the data blocks for a content width; ``side(width)`` the legend,
    receipts and notes. Natural: the panel's ``natural_width`` (wider for large-type themes).
    A column: exactly its width. A slide or a view: the arrangement (stacked, or the side
    blocks beside the body) and design width that let the content fill the page at the largest
    scale, then that scale, centred; type is never scaled below its size in points."""
    grow = max(1.0, theme.text_pt / 8.0)
    figure_title = figure_title or title
    if not target.whole:
        body = _shown(body, target)
        side = None if side is None else _shown(side, target)
        if target.chrome != "full":
            title = subtitle = ""
    if target.width is None:
        arr = _stacked(theme, title, subtitle, body, side, natural_width * grow)
        return _figure(arr, arr.width + 2 * MARGIN, arr.height + 2 * MARGIN, 1.0, theme,
                       figure_title, description, target_parts=target.parts)
    page_w = float(target.width)
    if target.aspect is None:
        arr = _stacked(theme, title, subtitle, body, side, page_w - 2 * MARGIN)
        return _figure(arr, page_w, arr.height + 2 * MARGIN, 1.0, theme, figure_title,
                       description, fixed_width=True, target_parts=target.parts)
    page_h = page_w / target.aspect
    best: tuple[float, _Arrangement, Design] | None = None
    base = natural_width * grow
    designs: list[Design] = [(kind, factor) for factor in DESIGN_FACTORS
                             for kind in ("stacked", "beside") if kind == "stacked" or side]
    if target.design is not None and (target.design[0] == "stacked" or side is not None):
        designs = [target.design]
    for kind, factor in designs:
        width = base * factor
        arr = (_stacked(theme, title, subtitle, body, side, width, True) if kind == "stacked"
               else _beside(theme, title, subtitle, body, side, width,  # type: ignore[arg-type]
                            True))
        s = min((page_w - 2 * MARGIN) / arr.width, (page_h - 2 * MARGIN) / arr.height)
        if best is None or s > best[0] + 1e-6:
            best = (s, arr, (kind, factor))
    assert best is not None
    s, arr, design = best
    s = max(1.0, min(s, 3.0)) if s >= 1.0 else s
    fig = _figure(arr, page_w, page_h, s, theme, figure_title, description, fixed_width=True,
                  target_parts=target.parts)
    return replace(fig, design=design)


def _shown(blocks_for: BlocksFor, target: Target) -> BlocksFor:
    """``blocks_for`` keeping the blocks of the parts ``target`` shows, in its order, and of
    those, what its chrome keeps: the drawing always, the legend unless "none", notes if
    "full"."""
    order = {p: i for i, p in enumerate(target.parts or ())}
    roles = {"full": ("drawing", "legend", "notes"), "legend": ("drawing", "legend"),
             "none": ("drawing",)}[target.chrome]

    def shown(width: float) -> list[Block]:
        kept = [b for b in blocks_for(width)
                if b.height > 0 and target.shows(*b.parts) and b.role in roles]
        return sorted(kept, key=lambda b: min((order.get(p, len(order)) for p in b.parts),
                                              default=len(order)))

    return shown


def _stacked(theme: Theme, title: str, subtitle: str, body: BlocksFor, side: BlocksFor | None,
             width: float, balance: bool = False) -> _Arrangement:
    arr = _Arrangement()
    y = _head(arr, theme, title, subtitle, width, balance)
    y = _flow(arr, body(width), width, y)
    if side is not None:
        y = _flow(arr, side(width), width, y)
    arr.height = y - GAP
    arr.width = max((b.width + x for b, x, _ in arr.blocks), default=width)
    return arr


def _beside(theme: Theme, title: str, subtitle: str, body: BlocksFor, side: BlocksFor,
            width: float, balance: bool = False) -> _Arrangement:
    arr = _Arrangement()
    top = _head(arr, theme, title, subtitle, width, balance)
    first = len(arr.blocks)
    main_w = width * 0.68
    side_w = width - main_w - GAP
    yb = _flow(arr, body(main_w), main_w, top)
    used = max((b.width + x for b, x, _ in arr.blocks[first:]), default=main_w)
    ys = top
    for b in side(side_w):
        if b.height <= 0:
            continue
        arr.blocks.append((b, used + GAP, ys))
        ys += b.height + GAP
    arr.height = max(yb, ys) - GAP
    arr.width = max((b.width + x for b, x, _ in arr.blocks), default=width)
    return arr


def _head(arr: _Arrangement, theme: Theme, title: str, subtitle: str, width: float,
          balance: bool = False) -> float:
    """The title block at the top, if there is a title; the y where the content begins."""
    if not title and not subtitle:
        return 0.0
    head = title_block(title, subtitle, theme, width, balance)
    arr.blocks.append((head, 0.0, 0.0))
    return head.height + GAP


def _flow(arr: _Arrangement, blocks: Sequence[Block], width: float, y: float) -> float:
    """Blocks left to right, wrapping to a new row when the next does not fit ``width``."""
    x, row_h = 0.0, 0.0
    for b in blocks:
        if b.height <= 0 and b.width <= 0:
            continue
        if x > 0 and x + b.width > width + 1e-6:
            y += row_h + GAP
            x, row_h = 0.0, 0.0
        arr.blocks.append((b, x, y))
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
    c = BlockCanvas()
    promises: list[str] = []
    shortened: dict[str, str] = {}
    parts: list[str] = []
    for block, x, y in arr.blocks:
        with c.group(name=block.name):
            for item in block.items:
                c.add(transform(item, scale, ox + x * scale, oy + y * scale))
        promises += block.promises
        shortened.update(block.shortened)
        if block.role == "drawing":
            parts += [p for p in block.parts if p not in parts]
    if description and target_parts is not None and parts:
        description = alt_text(description, parts)
    fig = c.figure(page_w, page_h, theme.background, title, description)
    return replace(fig, promises=tuple(promises), shortened=tuple(shortened.items()),
                   parts=tuple(parts))


def alt_text(description: str, parts: Sequence[str]) -> str:
    """The one-sentence alt text of the ``parts`` of a figure whose whole ``description`` is
    given: "The rack and receipt parts of the shared-memory banks serving …"."""
    names = list(parts)
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    what = "part" if len(names) == 1 else "parts"
    return f"The {listed} {what} of {description[:1].lower()}{description[1:]}"


def _place(c: Canvas, block: Block, x: float, y: float) -> None:
    for item in block.items:
        c.add(transform(item, 1.0, x, y))


def place(c: BlockCanvas, block: Block, x: float, y: float) -> None:
    """Draw ``block`` into ``c`` at (x, y), keeping its promises and shortened values."""
    with c.group(name=block.name):
        _place(c, block, x, y)
    c.promises += block.promises
    c.shortened.update(block.shortened)
    if block.role == "drawing":
        c.parts += [p for p in block.parts if p not in c.parts]


def shortened_note(shortened: Sequence[tuple[str, str]], limit: int = 6) -> str:
    """The legend's statement of shortened values: each with its exact value, or the rule."""
    if not shortened:
        return ""
    pairs = sorted(set(shortened), key=lambda p: p[1])
    if len(pairs) <= limit:
        return "Shortened to fit: " + "; ".join(f"{s} = {exact}" for s, exact in pairs) + "."
    return ("Values too long for their cells are shortened: 2ⁿ = a power of two (± a small "
            "remainder); k, M, G = thousands, millions, billions, rounded.")


# --------------------------------------------------------------------------------------------
# Moving and scaling items


def _style(style: Style, u: float) -> Style:
    if u == 1.0:
        return style
    return _scaled_style(style, u)


@lru_cache(maxsize=4096)
def _scaled_style(style: Style, u: float) -> Style:
    """``style`` with its stroke and dashes scaled by ``u`` (a figure has few styles and one
    scale, and every item passes through here)."""
    dash = tuple(d * u for d in style.dash) if style.dash else style.dash
    return Style(style.fill, style.stroke, style.stroke_width * u, dash, style.opacity,
                 style.hatch, style.hatch_color)


def _moved(item: Item, changes: dict[str, Any]) -> Item:
    """A copy of the frozen ``item`` with ``changes``: its fields were checked when it was
    made, so they are copied rather than passed through ``__init__`` again (a frozen
    dataclass sets each field with ``object.__setattr__``; this is 2-3× faster, and every item
    of a figure is moved once per build)."""
    new = object.__new__(type(item))
    fields = new.__dict__
    fields.update(item.__dict__)
    fields.update(changes)
    return new


def transform(item: Item, u: float, dx: float, dy: float) -> Item:
    """``item`` scaled by ``u`` about the origin, then moved by (dx, dy) mm."""
    if u == 1.0 and dx == 0.0 and dy == 0.0:
        return item  # items are immutable: unmoved, the same item
    if isinstance(item, Text):
        return _moved(item, {"x": item.x * u + dx, "y": item.y * u + dy, "size": item.size * u})
    if isinstance(item, Group):
        return Group(tuple([transform(i, u, dx, dy) for i in item.items]), item.key, item.name)
    if isinstance(item, Rect):
        return _moved(item, {"x": item.x * u + dx, "y": item.y * u + dy, "w": item.w * u,
                             "h": item.h * u, "style": _style(item.style, u),
                             "radius": item.radius * u})
    if isinstance(item, Rects):
        if isinstance(item.xywh, tuple):
            xywh: Any = tuple([(x * u + dx, y * u + dy, w * u, h * u) for x, y, w, h in item.xywh])
        else:  # an array: moved in one vectorised step
            xywh = item.xywh * u
            xywh[:, 0] += dx
            xywh[:, 1] += dy
        return _moved(item, {"xywh": xywh, "style": _style(item.style, u)})
    if isinstance(item, Segments):
        if isinstance(item.xyxy, tuple):
            xyxy: Any = tuple([(a * u + dx, b * u + dy, c * u + dx, d * u + dy)
                               for a, b, c, d in item.xyxy])
        else:
            xyxy = item.xyxy * u
            xyxy[:, [0, 2]] += dx
            xyxy[:, [1, 3]] += dy
        return _moved(item, {"xyxy": xyxy, "style": _style(item.style, u)})
    if isinstance(item, Circle):
        return _moved(item, {"cx": item.cx * u + dx, "cy": item.cy * u + dy, "r": item.r * u,
                             "style": _style(item.style, u)})
    if isinstance(item, Polyline):
        return _moved(item, {"points": tuple([(x * u + dx, y * u + dy) for x, y in item.points]),
                             "style": _style(item.style, u)})
    if isinstance(item, Image):
        return _moved(item, {"x": item.x * u + dx, "y": item.y * u + dy, "w": item.w * u,
                             "h": item.h * u})
    raise TypeError(f"cannot move {type(item).__name__}")


def knock_out(c: BlockCanvas, text: Text, color: str | None) -> None:
    """Put ``text``, the item ``c`` drew last (a :meth:`BlockCanvas.value`), on an opaque box of
    ``color``: for a value printed on a hatched cell."""
    assert c._items[-1] is text, "knock_out takes the text just drawn"
    c._items[-1] = _moved(text, {"knockout": color})
