"""Text in figures: the one word-wrapper (measured with the shipped faces), line steps, and the
shared text blocks: a paragraph, the title with its subtitle, and a receipt of aligned lines."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from gpuviz.figures.blocks import Block, BlockCanvas
from gpuviz.figures.display import PT_TO_MM, Style
from gpuviz.figures.metrics import FontKind, cap_height, descent, room_width, text_width
from gpuviz.figures.theme import Theme


def wrap(text: str, size: float, width: float, font: FontKind = "sans",
         bold: bool = False) -> list[str]:
    """Words of ``text`` in lines that fit ``width`` mm, measured (with room for a wider
    fallback face where the layout leaves it: :func:`~gpuviz.figures.metrics.room_width`); a
    word longer than the width is kept whole on its own line (the lint reports it). A line
    never starts with a unit or a closing mark, nor breaks at an equals sign."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in _runs(para):
            candidate = f"{line} {word}" if line else word
            if line and room_width(candidate, size, font, bold) > width:
                lines.append(line)
                candidate = word
            line = candidate
        lines.append(line)
    return lines


#: what never starts a line: a unit or closing mark stays with the word before it ("47.1 %)")
_CLOSING = tuple("%)]}»”’,.;:!?")


@lru_cache(maxsize=4096)  # a layout search wraps the same texts at a dozen widths
def _runs(para: str) -> tuple[str, ...]:
    """The runs of ``para`` a line may break between (:func:`_unbreakable`)."""
    return tuple(_unbreakable(para.split(" ")))


def _unbreakable(words: list[str]) -> list[str]:
    """``words`` joined where a line must not break: before a unit or a closing mark, and on
    either side of an equals sign ("P = 765" stays one run)."""
    out: list[str] = []
    for word in words:
        if out and word and (word.startswith(_CLOSING) or out[-1].endswith("=")
                             or word == "="):
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def without_orphan(lines: list[str], text: str, size: float, width: float,
                   font: FontKind = "sans", bold: bool = False) -> list[str]:
    """``lines`` (``text`` wrapped to ``width``) rewrapped narrower, as little as it takes,
    so that the last line is not one word alone; as they were if no width down to 3/4 does."""
    if len(lines) < 2 or " " in lines[-1].strip():
        return lines
    for k in range(1, 11):
        narrower = wrap(text, size, width * (1.0 - 0.025 * k), font, bold)
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
    used = max((room_width(ln, size, font, bold) for ln in lines), default=0.0)
    return c.block(min(width, used), height, name)


def formula_block(formula: str, theme: Theme, width: float, *, size: float | None = None,
                  color: str | None = None, name: str = "formula") -> Block:
    """A formula in the monospaced face, wrapped to ``width`` at an operator outside its
    parenthesised groups: "physical = offset ^" and "((offset & 0x380) >> 3)", not before
    ">> 3" (the groups held together by no-break spaces, for the word-wrapper only)."""
    size = size or theme.small_pt
    held, depth = [], 0
    for ch in formula:
        depth += (ch == "(") - (ch == ")")
        held.append("\u00a0" if ch == " " and depth > 0 else ch)
    lines = wrap("".join(held), size, width, "mono")
    return text_block("\n".join(lines).replace("\u00a0", " "), theme, width, size=size,
                      color=color, font="mono", name=name)


def title_block(title: str, subtitle: str, theme: Theme, width: float,
                balance: bool = False) -> Block:
    """The figure's title (bold) and a one-paragraph subtitle that says how to read it.
    ``balance``: no subtitle line of one word at the end (an orphan), for slides and views."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    y = cap_height(theme.title_pt)
    used = 0.0
    # a title never ends in a word alone (as many lines, rewrapped narrower)
    heads = without_orphan(wrap(title, theme.title_pt, width, bold=True), title,
                           theme.title_pt, width, bold=True) if title else []
    for i, line in enumerate(heads):
        if i:
            y += line_step(theme.title_pt)
        c.text(0.0, y, line, theme.title_pt, fg, bold=True)
        used = max(used, room_width(line, theme.title_pt, bold=True))
    bottom = y + descent(theme.title_pt)
    if subtitle:  # under the title, or alone (a slide sets the title in its title band)
        y = (y + line_step(theme.small_pt, 1.2) + cap_height(theme.small_pt) * 0.6 if heads
             else cap_height(theme.small_pt))
        lines = wrap(subtitle, theme.small_pt, width)
        if balance:
            lines = without_orphan(lines, subtitle, theme.small_pt, width)
        for i, line in enumerate(lines):
            c.text(0.0, y + i * line_step(theme.small_pt), line, theme.small_pt, muted)
            used = max(used, room_width(line, theme.small_pt))
        bottom = y + (len(lines) - 1) * line_step(theme.small_pt) + descent(theme.small_pt)
    return c.block(min(width, used), bottom, "title")


def receipt_block(rows: Sequence[str | tuple[str, str]], theme: Theme, width: float, *,
                  title: str | None = None, color: str | None = None) -> Block:
    """Monospaced lines that add up (a receipt): ``(label, value)`` rows align their values in
    one column; plain strings are wrapped to ``width``. Where an aligned row would not fit the
    width, each row is its ``label:`` and its value beside it, the value wrapped under its own
    start (a hanging indent), or, where a label takes more than
    :data:`RECEIPT_LABEL_SHARE` of the width, the value under its label, indented: a receipt
    stays label and value, never ``label: value`` lines run together as prose."""
    c = BlockCanvas()
    fg = color or theme.color("foreground")
    size = theme.small_pt
    labels = [r[0] for r in rows if isinstance(r, tuple)]
    pad = max((len(s) for s in labels), default=0)
    aligned = all(text_width(f"{r[0].ljust(pad)}  {r[1]}", size, "mono") <= width
                  for r in rows if isinstance(r, tuple))
    indent = text_width("  ", size, "mono")
    lines: list[list[tuple[float, str]]] = []  # each line's texts: (x, text)
    for r in rows:
        if isinstance(r, tuple):
            label, value = r
            if aligned:
                lines.append([(0.0, f"{label.ljust(pad)}  {value}")])
                continue
            head = label if label.endswith(":") else f"{label}:"
            at = text_width(head + " ", size, "mono")
            if at <= RECEIPT_LABEL_SHARE * width:
                values = wrap(value, size, width - at, "mono")
                lines.append([(0.0, head), (at, values[0])])
                lines += [[(at, v)] for v in values[1:]]
            else:
                lines += [[(0.0, ln)] for ln in wrap(head, size, width, "mono")]
                lines += [[(indent, v)] for v in wrap(value, size, width - indent, "mono")]
        else:
            lines += [[(0.0, ln)] for ln in wrap(r, size, width, "mono")]
    y = 0.0
    used = 0.0
    if title:
        y = cap_height(size)
        c.text(0.0, y, title, size, fg, bold=True)
        used = room_width(title, size, bold=True)
        y += line_step(size) - cap_height(size, "mono")
    for i, line in enumerate(lines):
        for x, text in line:
            c.text(x, y + cap_height(size, "mono") + i * line_step(size), text, size, fg,
                   font="mono")
            used = max(used, x + text_width(text, size, "mono"))
    height = y + cap_height(size, "mono") + (len(lines) - 1) * line_step(size) \
        + descent(size, "mono") if lines else y
    return c.block(min(width, used), height, "receipt")


RECEIPT_LABEL_SHARE = 0.5  # of a receipt's width: the most a label beside its value takes


def table_block(header: Sequence[str], rows: Sequence[Sequence[str]], theme: Theme,
                width: float, *, size: float | None = None, floor: float | None = None,
                right: Sequence[bool] = (), keys: Sequence[str | None] = (),
                colors: Sequence[str | None] = (), name: str = "table",
                least: Sequence[float] = ()) -> Block:
    """Values in columns under a header and a rule (none where the header is all empty): what
    a receipt spelt as sentences says, set so that each value stands in its column
    (``right``: the columns aligned right, for numbers; ``keys`` and ``colors``: each row's key
    and ink; ``least``: the columns' least widths in mm, so that tables stacked one under
    another share their columns). A column wider than its share of ``width`` wraps its cells at
    words (the widest column first); where that is not enough, the type steps down to
    ``floor`` points."""
    size = size or theme.small_pt
    floor = min(floor or size, size)
    fg, muted = theme.color("foreground"), theme.color("muted")
    n = len(header)
    cells = [[str(v) for v in row] for row in rows]
    while True:
        gap, laid, col_w = _table_columns(header, cells, size, width, least)
        if sum(col_w) + gap * (n - 1) <= width + 1e-6 or size <= floor:
            break
        size = max(floor, size - 0.5)
    c = BlockCanvas()
    xs = [sum(col_w[:j]) + gap * j for j in range(n)]
    step = line_step(size)
    y = cap_height(size)

    def put(j: int, yy: float, text: str, color: str, bold: bool, key: str | None) -> None:
        at_right = j < len(right) and right[j]
        c.text(xs[j] + (col_w[j] if at_right else 0.0), yy, text, size, color,
               anchor="end" if at_right else "start", bold=bold, key=key)

    used = xs[-1] + col_w[-1] if n else 0.0
    if any(header):  # a header over a rule; none where every column's header is empty
        for j, head in enumerate(header):
            put(j, y, head, muted, True, None)
        rule_y = y + descent(size) + 0.5
        c.line(0.0, rule_y, used, rule_y, Style(stroke=theme.grid, stroke_width=theme.thin_mm))
        y = rule_y + 0.6 + cap_height(size)
    for i, laid_row in enumerate(laid):
        key = keys[i] if i < len(keys) else None
        color = (colors[i] if i < len(colors) else None) or fg
        for j, cell in enumerate(laid_row):
            for k, line in enumerate(cell):
                put(j, y + k * step, line, color, False, key)
        y += max(len(cell) for cell in laid_row) * step
    return c.block(used, y - step + descent(size), name)


def _table_columns(header: Sequence[str], cells: list[list[str]], size: float,
                   width: float, least: Sequence[float] = ()
                   ) -> tuple[float, list[list[list[str]]], list[float]]:
    """A table's gap, its cells' lines and its columns' widths at ``size``: the widest
    columns wrapped first, down to their header's width, while the table is wider than
    ``width``."""
    gap = size * PT_TO_MM * 0.8
    n = len(header)

    def widest(j: int, lines: Sequence[Sequence[list[str]]]) -> float:
        return max([room_width(header[j], size, bold=True), least[j] if j < len(least) else 0.0]
                   + [room_width(ln, size) for row in lines for ln in row[j]])

    laid = [[[v] for v in row] for row in cells]
    col_w = [widest(j, laid) for j in range(n)]
    room = width - gap * (n - 1)
    for j in sorted(range(n), key=lambda j: -col_w[j]):  # wrap the widest columns first
        over = sum(col_w) - room
        if over <= 0:
            break
        narrowest = room_width(header[j], size, bold=True)
        for i, row in enumerate(cells):
            laid[i][j] = wrap(row[j], size, max(narrowest, col_w[j] - over))
        col_w[j] = widest(j, laid)
    return gap, laid, col_w
