"""The gemm figure's owners part: the three strategies' owner grids (shade = thread block,
label = owning thread), what the chosen thread loads from global memory and reads, and the
counts part, the three strategies' counts side by side.

Keys: ``thread:<strategy>,<t>`` and ``strategy:<name>``."""

from __future__ import annotations

import re
from dataclasses import replace

from gpuviz.figures.bands import unhatched
from gpuviz.figures.display import HATCH_PITCH, Style, Text, text_box
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    Target,
    format_number,
    line_step,
    wrap,
)
from gpuviz.figures.lint import RULE_CLEAR
from gpuviz.figures.metrics import cap_height, descent, room_width, text_width
from gpuviz.figures.theme import Theme, gray_of_lightness
from gpuviz.keys import key, prefix
from gpuviz.models.gemm import SIZE, STRATEGIES, GemmResult, StrategyResult

STRATEGY_TITLES = {
    "naive": ("Naive", "16 threads, one output each"),
    # no-break spaces: the word-wrapper never splits "2 × 2" across lines
    "shared": ("Shared-memory tiling", "2\u00a0×\u00a02 threads per block, one output each"),
    "register": ("Register tiling", "4 threads, a 2\u00a0×\u00a02 region each"),
}
CELL = 6.0
MINI = 3.0
COMPACT_MINI = 0.8  # of MINI, the A and B under a compact owner grid
BLOCK_SHADES = 4
#: The categories whose tints shade thread blocks: blue, orange, bluish green, reddish purple
#: (sky blue, the fourth category, would be a tint of blue beside blue and the load colour).
BLOCK_CATEGORIES = (0, 1, 2, 5)


def fpb(v: float) -> str:
    """FLOPs per byte, everywhere in the figure with two decimals."""
    return f"{v:.2f}"

def _selected_thread(selection: frozenset[str], name: str, s: StrategyResult,
                     focus: tuple[int, int]) -> int:
    for text in sorted(selection):
        if text.startswith(prefix("thread", name)):
            try:
                t = int(text.split(",", 1)[1])
            except ValueError:
                continue
            if 0 <= t < s.threads:
                return t
    return int(s.owner[focus])


def block_style(theme: Theme, block: int) -> Style:
    """A light, opaque tint of a thread block's colour (alpha costs far more to paint), hatched
    where the theme tells categories by hatch too (tints come out as near grays in print)."""
    hatch = theme.category_hatch(block % BLOCK_SHADES)
    return Style(fill=theme.mix(theme.category(BLOCK_CATEGORIES[block % BLOCK_SHADES]), 0.35),
                 stroke=theme.outline, stroke_width=theme.thin_mm, hatch=hatch,
                 hatch_color=theme.muted if hatch else None)


def load_style(theme: Theme) -> Style:
    """An element the chosen thread loads from global memory: the load role, as in every panel
    (B is drawn in its own operand colour, apart from it); where the theme must survive
    grayscale, its hue printed at L* 34, darker than C (47), B (66), A (80) and the dimmed and
    block-tinted cells by 12 L* or more (the lint's ``lightness`` rule), as the load gray itself
    (84) is not."""
    style = theme.fill("load")
    if theme.hatches:
        return replace(style, fill=theme.at_gray(theme.color("load"), gray_of_lightness(34.0)))
    return style


def read_style(theme: Theme) -> Style:
    """An operand the chosen thread reads: a ring, visible on a loaded and on a plain cell."""
    return Style(fill=theme.background, stroke=theme.foreground, stroke_width=theme.thin_mm)




def strategy_block(s: StrategyResult, focus: tuple[int, int], selection: frozenset[str],
                   theme: Theme, width: float, target: Target = NATURAL,
                   compact: bool = False, rows: tuple[int, int] = (2, 3),
                   framed: bool = False) -> Block:
    """One strategy: who owns each output, what the chosen thread loads and reads, and the
    strategy's counts. ``compact``: what the thread loads and reads under its owner grid
    instead of beside it, so that three strategies share a journal column's row, their grids
    at one height under ``rows`` (title lines, subtitle lines) of heading; ``framed``: room
    around the grid for a frame (a strategy selected, or the subject of a step)."""
    c = BlockCanvas()
    mini = MINI * COMPACT_MINI if compact else MINI
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    cell = max(CELL, text_width(f"t{s.threads - 1}", small, "mono") + 1.2,
               _least_banded(theme, small))
    if compact:  # down to what the thread labels need at the smallest type
        cell = min(cell, max(_floor_cell(s.threads, target), _least_banded(theme, small),
                             width / SIZE))
    side = cell * SIZE
    title, subtitle = STRATEGY_TITLES[s.name]
    chosen = _selected_thread(selection, s.name, s, focus)
    with c.group(key("strategy", s.name), name=s.name):
        y = cap_height(size)
        heads = title_lines(title, size, width) if compact else [title]
        used = 0.0
        for i, line in enumerate(heads):
            c.text(0.0, y + i * line_step(size), line, size, fg, bold=True)
            used = max(used, text_width(line, size, bold=True))
        y += (max(len(heads), rows[0] if compact else 1) - 1) * line_step(size)
        # wrapped with "2 × 2" held together, set with plain spaces
        lines = [line.replace("\u00a0", " ") for line in wrap(subtitle, small, width)]
        for line in lines:
            y += line_step(small, 1.25)
            c.text(0.0, y, line, small, muted)
            used = max(used, text_width(line, small))
        if compact:  # three side by side: their grids at one height
            y += max(0, rows[1] - len(lines)) * line_step(small, 1.25)
        # room for the A and B labels beside, or for a frame around the grid (its offset and
        # its heavy line) under the compact heading
        if not compact:
            room = line_step(small, 1.1) + 0.6
        else:
            room = 2.0 + theme.thick_mm * 1.5 if framed else 0.6
        top = y + descent(small) + room
        # Owner grid: colour = block, label = thread; in print the block's pattern keeps to a
        # band along the cell's bottom edge, the label above it (:func:`edge_band`)
        band = edge_band(theme, small)
        # the label's room: the whole cell, or above the band, centred there: its box
        # RULE_CLEAR clear of its own band and of the band of the cell above
        label_h = cell - band
        shift = sum(_label_box(small)) / 2 if band else 0.0  # its box, not its middle, centred
        for t in range(s.threads):
            ij = [(i, j) for i in range(SIZE) for j in range(SIZE) if s.owner[i, j] == t]
            blk = int(s.block_of_output[ij[0]])
            style = block_style(theme, blk if s.blocks > 1 else 0)
            c.rects([(j * cell, top + i * cell, cell, cell) for i, j in ij],
                    unhatched(style) if band else style, [key("thread", s.name, t)] * len(ij))
            if band and style.hatch:
                c.rects([(j * cell, top + (i + 1) * cell - band, cell, band) for i, j in ij],
                        Style(hatch=style.hatch, hatch_color=style.hatch_color))
        for i in range(SIZE):
            for j in range(SIZE):
                c.value(j * cell, top + i * cell - shift, cell, label_h, f"t{s.owner[i, j]}",
                        small, fg, floor=target.min_pt, key=key("thread", s.name, s.owner[i, j]))
        # thick lines around each thread's region
        region = 2 if s.outputs_per_thread == 4 else 1
        segs = []
        for v in range(0, SIZE + 1, region):
            segs.append((0.0, top + v * cell, side, top + v * cell))
            segs.append((v * cell, top, v * cell, top + side))
        c.segments(segs, Style(stroke=theme.foreground, stroke_width=theme.line_mm))
        for i in range(SIZE):
            for j in range(SIZE):
                if s.owner[i, j] == chosen:
                    theme.select(c, j * cell, top + i * cell, cell, cell)

        # What the chosen thread loads from global memory and reads as operands.
        mx, mtop = side + 3.5, top
        if compact:
            # (the "A" and "B" under the grid clear of its last row's pattern band)
            mx, mtop = 0.0, top + side + (2.4 if framed else 1.0) + cap_height(small) \
                + (RULE_CLEAR if band else 0.0)
        for mat, ox, letter in (("a", mx, "A"), ("b", mx + SIZE * mini + 2.5, "B")):
            c.text(ox, mtop - 0.8, letter, small, muted)
            c.rects([(ox + j * mini, mtop + i * mini, mini, mini)
                     for i in range(SIZE) for j in range(SIZE)], theme.fill("absent"))
            loads = sorted({(r_, c_) for t, m, r_, c_ in s.global_sources
                            if t == chosen and m == mat})
            c.rects([(ox + cc * mini, mtop + rr * mini, mini, mini) for rr, cc in loads],
                    load_style(theme))
            reads = sorted({(r_, c_) for t, m, r_, c_ in s.operand_reads
                            if t == chosen and m == mat})
            for rr, cc in reads:
                c.circle(ox + (cc + 0.5) * mini, mtop + (rr + 0.5) * mini, mini * 0.24,
                         read_style(theme))
        used = max(used, side, mx + 2 * SIZE * mini + 2.5)
        global_text = format_number(s.global_loads_per_thread[chosen]) + " global"
        info: tuple[tuple[str, bool], ...] = (
            ((f"thread t{chosen}", True), (global_text, False)) if not compact
            else ((f"t{chosen}: {global_text}", True),))
        info += ((format_number(s.shared_reads_per_thread[chosen]) + " shared", False),
                 (format_number(s.register_reuse_per_thread[chosen]) + " reused", False))
        iy = mtop + SIZE * mini + 1.0
        for text, bold in info:
            iy += line_step(small, 1.0 if compact else 1.15)
            c.text(mx, iy, text, small, fg, bold=bold)
            used = max(used, mx + text_width(text, small, bold=bold))

        bottom = max(top + side, iy + descent(small))
        if subject_of(selection) == s.name:  # the strategy a step (or a click) talks about
            c.rect(-0.8, top - 0.8, side + 1.6, side + 1.6, subject_style(theme),
                   key=key("strategy", s.name))
        elif key("strategy", s.name) in selection:  # the strategy itself selected
            theme.select(c, -0.8, top - 0.8, side + 1.6, side + 1.6, key=key("strategy", s.name))
    return c.block(min(width, used), bottom, f"strategy {s.name}")


def edge_band(theme: Theme, pt: float) -> float:
    """The height of the band along an owner cell's bottom edge that keeps the block's pattern
    where the theme hatches (print), else 0: a pitch and a little, so every band shows a row
    of the pattern, wherever the pattern's grid falls. A pattern under or just beside "t0"
    read as a strike-through ("-t0-"): the label stands above the band, clear of it."""
    return HATCH_PITCH + 0.05 if theme.hatches else 0.0


def _label_box(pt: float) -> tuple[float, float]:
    """Where an owner label's box starts and ends, above and below the middle it is set on."""
    b = text_box(Text(0.0, 0.0, "t0", pt, "#000000", baseline="middle", font="mono"))
    return b[1], b[3]


def _label_h(pt: float) -> float:
    """The height of an owner label's box."""
    top, bottom = _label_box(pt)
    return bottom - top


def _least_banded(theme: Theme, pt: float) -> float:
    """The least owner cell that holds a label and its edge band apart (print), else 0: the
    label clear of its own band below and of the band of the cell above."""
    band = edge_band(theme, pt)
    return band + 2 * RULE_CLEAR + _label_h(pt) + 0.1 if band else 0.0


def _floor_cell(threads: int, target: Target) -> float:
    """The least owner cell: its widest thread label at the target's smallest type."""
    return text_width(f"t{threads - 1}", target.min_pt, "mono") + 1.2


def _title_words(title: str) -> list[str]:
    """A title's words, a hyphenated one split after its hyphens ("Shared-", "memory")."""
    return [piece for word in title.split() for piece in re.findall(r"[^-]+-?|-", word)]


def title_lines(title: str, size: float, width: float) -> list[str]:
    """A strategy's title wrapped to ``width``, breaking after a hyphen where a word alone is
    wider than the column."""
    lines = wrap(title, size, width, bold=True)
    if all(room_width(line, size, bold=True) <= width + 1e-6 for line in lines):
        return lines
    out: list[str] = []
    for piece in _title_words(title):
        joined = (out[-1] + ("" if out[-1].endswith("-") else " ") + piece) if out else piece
        if out and room_width(joined, size, bold=True) <= width + 1e-6:
            out[-1] = joined
        else:
            out.append(piece)
    return out


def compact_rows(theme: Theme, width: float, target: Target) -> tuple[int, int]:
    """The title and subtitle lines the compact strategy blocks of ``width`` reserve: the most
    any of them needs, so that their grids stand at one height."""
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    return (max(len(title_lines(title, size, width)) for title, _ in STRATEGY_TITLES.values()),
            max(len(wrap(sub, small, width)) for _, sub in STRATEGY_TITLES.values()))


def compact_width(r: GemmResult, theme: Theme, target: Target) -> float:
    """The width a compact strategy block needs: its owner grid at the least cell, or its A
    and B under it, or its longest title piece (a hyphenated word breaks after its hyphen)."""
    size = max(theme.text_pt, target.min_pt)
    threads = max(s.threads for s in r.strategies.values())
    pieces = [w for title, _ in STRATEGY_TITLES.values() for w in _title_words(title)]
    return max(_floor_cell(threads, target) * SIZE, 2 * SIZE * MINI * COMPACT_MINI + 2.5,
               *(room_width(w, size, bold=True) for w in pieces))


def subject_of(selection: frozenset[str]) -> str | None:
    """The strategy a selected thread belongs to: the subject of the step that selects it."""
    names = sorted({k.partition(":")[2].split(",", 1)[0] for k in selection
                    if k.startswith(prefix("thread"))})
    return names[0] if len(names) == 1 and names[0] in STRATEGIES else None


def subject_style(theme: Theme) -> Style:
    return theme.subject()


def counts_block(r: GemmResult, theme: Theme, width: float, target: Target = NATURAL,
                 selection: frozenset[str] = frozenset()) -> Block:
    """The three strategies' counts side by side: the same MACs, different traffic; a selected
    strategy's column (``strategy:<name>``) with the selection's double outline."""
    c = BlockCanvas()
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    rows = (
        ("threads × outputs", lambda s: f"{s.threads} × {s.outputs_per_thread}"),
        ("multiply-accumulates", lambda s: format_number(s.macs)),
        ("global loads", lambda s: format_number(s.global_loads)),
        ("shared-memory reads", lambda s: format_number(s.shared_reads)),
        ("register reuses", lambda s: format_number(s.register_reuse)),
        ("FLOPs per requested byte, K = 4", lambda s: fpb(s.flops_per_byte)),
    )
    heads = {"naive": "naive", "shared": "shared", "register": "register"}
    col_w = [max([text_width(heads[n], small, bold=True)]
                 + [text_width(f(r.strategies[n]), small, "mono", True) for _, f in rows]) + 2.5
             for n in STRATEGIES]
    label_w = min(max(text_width(lb, small) for lb, _ in rows) + 2.5,
                  max(20.0, width - sum(col_w)))
    y = cap_height(small)
    x = label_w
    for n, w in zip(STRATEGIES, col_w, strict=True):
        x += w
        c.text(x, y, heads[n], small, fg, anchor="end", bold=True)
    c.line(0.0, y + descent(small) + 0.4, x, y + descent(small) + 0.4,
           theme.stroke("muted", theme.thin_mm))
    y += 0.8
    for label, f in rows:
        y += line_step(small, 1.3)
        lines = wrap(label, small, label_w - 2.5)
        for i, line in enumerate(lines):
            c.text(0.0, y + i * line_step(small), line, small, muted)
        x = label_w
        for n, w in zip(STRATEGIES, col_w, strict=True):
            x += w
            with c.group(key("strategy", n)):
                c.text(x, y, f(r.strategies[n]), small, fg, anchor="end", font="mono",
                       bold=True)
        y += (len(lines) - 1) * line_step(small)
    x = label_w
    for n, w in zip(STRATEGIES, col_w, strict=True):
        if key("strategy", n) in selection:
            theme.select(c, x + 0.6, -0.4, w - 0.2, y + descent(small) + 0.8)
        x += w
    return c.block(min(width, x), y + descent(small), "counts")
