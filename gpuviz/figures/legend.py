"""The legend: one meaning, one mark (:class:`LegendEntry`), flowed in rows with its notes, and
for a figure of some parts only those parts' entries (:func:`legend_for`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gpuviz.figures.blocks import Block, BlockCanvas, place_items
from gpuviz.figures.display import Style
from gpuviz.figures.metrics import cap_height, ink_height, room_width
from gpuviz.figures.targets import Target
from gpuviz.figures.text_blocks import line_step, text_block, wrap
from gpuviz.figures.theme import Theme


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


def draw_entry(c: BlockCanvas, entry: LegendEntry, lines: list[str], x: float, top: float,
               sw: float, mark_w: float, size: float, theme: Theme) -> None:
    """One legend entry: its swatch (a ``mark_w`` mm stretch of line, a dot, the selection's
    mark or a square of ``sw`` mm) with its top at ``top``, and its label's ``lines`` beside."""
    with c.group(name=f"legend:{entry.label}"):
        if entry.kind == "line":
            c.line(x, top + sw / 2, x + mark_w, top + sw / 2, entry.style)
        elif entry.kind == "dot":
            c.circle(x + sw / 2, top + sw / 2, sw / 2.6, entry.style)
        elif entry.kind == "selection":
            theme.select(c, x + 0.3, top + 0.3, sw - 0.6, sw - 0.6)
        else:
            c.rect(x, top, sw, sw, entry.style)
        for i, line in enumerate(lines):
            c.text(x + mark_w + 1.0, top + sw / 2 + i * line_step(size), line, size,
                   theme.foreground, baseline="middle")


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
        label_w = max(room_width(line, size) for line in lines)  # room for a wider fallback
        need = sw + 1.0 + label_w + 3.0
        entry_h = row + (len(lines) - 1) * line_step(size)
        if x > 0 and (x + need - 3.0 > width or len(lines) > 1):
            x, y = 0.0, y + row_h
            row_h = row
        draw_entry(c, entry, lines, x, y + (row - 1.4 - sw) / 2, sw, sw, size, theme)
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
        place_items(c, block, 0.0, height + (1.2 if height else 0.0))
        height += block.height + (1.2 if height else 0.0)
        used = max(used, block.width)
    return c.block(min(width, max(used, 1.0)), height, "legend", role="legend")
