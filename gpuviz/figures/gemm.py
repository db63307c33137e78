"""The GEMM walkthrough: A·B with k revealed two positions at a time, three ownership strategies
with what each owner loads and reads, and the requested-bytes calculator with its plot.

Keys: ``a:i,k`` and ``b:k,j`` (operand cells), ``c:i,j`` (output cells; a selected one becomes
the focus output of the walkthrough, default ``c:0,0``), ``thread:<strategy>,<t>`` (the outputs a
thread owns in ``naive``, ``shared`` or ``register``; selecting one shows that thread's loads),
``strategy:<name>`` (a strategy's receipt), ``series:<label>`` (plot lines).

The pieces are functions of the data and the theme (:func:`walkthrough_block`,
:func:`strategy_block`, :func:`flops_plot`, :func:`flops_series`, :func:`legend_entries`), so a
dock can draw the same plot in the same style.
"""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.display import Figure, Style
from gpuviz.figures.layout import (
    GAP,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    knock_out,
    line_step,
    place,
    shortened_note,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.plot import (
    Mark,
    Series,
    mark_style,
    plot_block,
    plot_legend_block,
    series_legend,
)
from gpuviz.figures.theme import Theme
from gpuviz.models.gemm import SIZE, STRATEGIES, GemmResult, StrategyResult

NATURAL_WIDTH = 200.0  # × 1.25 = a 16:9 slide's 250 mm at full size
STRATEGY_TITLES = {
    "naive": ("Naive", "16 threads, one output each"),
    "shared": ("Shared-memory tiling", "2 × 2 threads per block, one output each"),
    "register": ("Register tiling", "4 threads, a 2 × 2 region each"),
}
CELL = 6.0
MINI = 3.0
PLOT_W = 84.0
PLOT_H = 50.0
BLOCK_SHADES = 4
#: The categories whose tints shade thread blocks: blue, orange, bluish green, reddish purple
#: (sky blue, the fourth category, would be a tint of blue beside blue and the load colour).
BLOCK_CATEGORIES = (0, 1, 2, 5)


def fpb(v: float) -> str:
    """FLOPs per byte, everywhere in the figure with two decimals."""
    return f"{v:.2f}"


def _focus(selection: frozenset[str]) -> tuple[int, int]:
    for key in sorted(selection):
        if key.startswith("c:"):
            try:
                i, j = (int(v) for v in key[2:].split(","))
            except ValueError:
                continue
            if 0 <= i < SIZE and 0 <= j < SIZE:
                return i, j
    return 0, 0


def _selected_thread(selection: frozenset[str], name: str, s: StrategyResult,
                     focus: tuple[int, int]) -> int:
    for key in sorted(selection):
        if key.startswith(f"thread:{name},"):
            try:
                t = int(key.split(",", 1)[1])
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
    grayscale, its hue at gray 0.55, apart from A (0.78), B (0.66), C (0.44) and the dimmed
    and block-tinted cells (0.8–0.9), as the load gray itself (0.82) is not."""
    style = theme.fill("load")
    if theme.hatches:
        return replace(style, fill=theme.at_gray(theme.color("load"), 0.55))
    return style


def read_style(theme: Theme) -> Style:
    """An operand the chosen thread reads: a ring, visible on a loaded and on a plain cell."""
    return Style(fill=theme.background, stroke=theme.foreground, stroke_width=theme.thin_mm)


def chosen_style(theme: Theme) -> Style:
    """The selection's outer line; boxes are drawn with :meth:`Theme.select`."""
    return theme.highlight()


# --------------------------------------------------------------------------------------------
# The walkthrough


def _matrix(c: BlockCanvas, x: float, y: float, cell: float, values, prefix: str, fills,
            text_colors, size: float, floor: float) -> None:
    """A 4 × 4 grid of cells, each printing its value; ``fills[i][j]`` is a Style."""
    by_style: dict[Style, list[tuple[float, float, float, float]]] = {}
    keys: dict[Style, list[str]] = {}
    for i in range(SIZE):
        for j in range(SIZE):
            st = fills[i][j]
            by_style.setdefault(st, []).append((x + j * cell, y + i * cell, cell, cell))
            keys.setdefault(st, []).append(f"{prefix}:{i},{j}")
    for st, rects in by_style.items():
        c.rects(rects, st, keys[st])
    for i in range(SIZE):
        for j in range(SIZE):
            c.value(x + j * cell, y + i * cell, cell, cell, format_number(int(values[i][j])),
                    size, text_colors[i][j], floor=floor, key=f"{prefix}:{i},{j}")


def walkthrough_block(r: GemmResult, focus: tuple[int, int], theme: Theme, width: float,
                      target: Target = NATURAL) -> Block:
    """A × B = C with the focus output's row, column and tile lit, k revealed so far."""
    c = BlockCanvas()
    fi, fj = focus
    kr = r.k_revealed
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    sign_pt = max(theme.title_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    plain = theme.fill("absent")
    dim = theme.fill("faded")
    a_on, b_on, c_on = theme.fill("a_operand"), theme.fill("b_operand"), theme.fill("c_output")
    a_ink, b_ink, c_ink = (theme.ink_on(theme.color(role))  # the ink on a_on, b_on, c_on
                           for role in ("a_operand", "b_operand", "c_output"))
    shown = "no k positions yet" if kr == 0 else (
        "k positions 0–1" if kr == 2 else "all four k positions")
    titles = ("A (entries 1–16)", "B (fixed)", f"C after {shown}")
    k_w = text_width("k3", small) + 1.0
    sign_w = max(text_width("×", sign_pt), text_width("=", sign_pt)) + 3.0
    fixed = 2 * sign_w + k_w
    cell = max(4.5, min(CELL, (width - fixed) / (3 * SIZE)))
    side = cell * SIZE
    ax = 0.0
    narrow = 3 * side + 2 * sign_w + k_w + 20.0 > width
    if narrow:  # titles wrap into their columns
        bx = ax + side + sign_w + k_w
        cx = bx + side + sign_w
        spans = (bx - ax - k_w, cx - bx, max(side, width - cx))
    else:
        bx = ax + max(side + sign_w + k_w, text_width(titles[0], size, bold=True) + 2.0)
        cx = bx + max(side + sign_w, text_width(titles[1], size, bold=True) + 2.0)
        spans = (1e9, 1e9, 1e9)
    wrapped = [wrap(t, size, span, bold=True) for t, span in zip(titles, spans, strict=True)]
    head = max(len(w) for w in wrapped)
    top = cap_height(size) + (head - 1) * line_step(size) + descent(size) \
        + line_step(small, 1.2) + 0.5
    title_w = 0.0
    for x, lines in zip((ax, bx, cx), wrapped, strict=True):
        for i, line in enumerate(lines):
            c.text(x, cap_height(size) + i * line_step(size), line, size, fg, bold=True)
        title_w = max(title_w, x + max(text_width(ln, size, bold=True) for ln in lines))
    for k in range(SIZE):  # k positions: columns of A, rows of B
        color = fg if k < kr else muted
        c.text(ax + (k + 0.5) * cell, top - 1.0, f"k{k}", small, color, anchor="middle")
        c.text(bx - 1.0, top + (k + 0.5) * cell, f"k{k}", small, color, anchor="end",
               baseline="middle")
    a_fill = [[(a_on if (i == fi and k < kr) else plain) for k in range(SIZE)]
              for i in range(SIZE)]
    a_text = [[a_ink if a_fill[i][k] is a_on else
               fg if i == fi else muted for k in range(SIZE)] for i in range(SIZE)]
    _matrix(c, ax, top, cell, r.a.tolist(), "a", a_fill, a_text, size, target.min_pt)
    b_fill = [[(b_on if (j == fj and k < kr) else plain) for j in range(SIZE)]
              for k in range(SIZE)]
    b_text = [[b_ink if b_fill[k][j] is b_on else
               fg if j == fj else muted for j in range(SIZE)] for k in range(SIZE)]
    _matrix(c, bx, top, cell, r.b.tolist(), "b", b_fill, b_text, size, target.min_pt)
    # The focus output's 2 × 2 tile stays lit; every other output tile is dimmed.
    ti, tj = fi // 2, fj // 2
    c_fill = [[(c_on if (i, j) == (fi, fj) else plain if (i // 2, j // 2) == (ti, tj) else dim)
               for j in range(SIZE)] for i in range(SIZE)]
    c_text = [[c_ink if (i, j) == (fi, fj) else
               fg if (i // 2, j // 2) == (ti, tj) else muted for j in range(SIZE)]
              for i in range(SIZE)]
    _matrix(c, cx, top, cell, r.c_partial.tolist(), "c", c_fill, c_text, size, target.min_pt)
    # The operands' row and column in their own colours; the focus output as selected.
    c.rect(ax, top + fi * cell, side, cell, theme.stroke("a_operand", theme.line_mm * 1.5))
    c.rect(bx + fj * cell, top, cell, side, theme.stroke("b_operand", theme.line_mm * 1.5))
    theme.select(c, cx + fj * cell, top + fi * cell, cell, cell)
    c.text(ax + side + sign_w / 2, top + side / 2, "×", sign_pt, fg, anchor="middle",
           baseline="middle")
    c.text(bx + side + sign_w / 2, top + side / 2, "=", sign_pt, fg, anchor="middle",
           baseline="middle")
    used = max(cx + side, title_w)
    return c.block(min(width, used), top + side, "walkthrough")


def dot_product_block(r: GemmResult, focus: tuple[int, int], theme: Theme, width: float,
                      target: Target = NATURAL) -> Block:
    """The focus output's dot product: the revealed terms, their sum, what is still to come."""
    c = BlockCanvas()
    fi, fj = focus
    kr = r.k_revealed
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    terms = [f"{r.a[fi, k]}·{r.b[k, fj]}" for k in range(SIZE)]
    value = int(r.c_partial[fi, fj])
    rows: list[tuple[str, float, str, str, bool]] = []  # text, size, colour, font, bold
    if kr:
        rows.append((f"C[{fi},{fj}] = " + " + ".join(terms[:kr]), size, fg, "mono", False))
        rows.append((f"       = {format_number(value)}", size, fg, "mono", True))
    else:
        rows.append((f"C[{fi},{fj}] = 0", size, fg, "mono", True))
        rows.append(("nothing accumulated yet", small, muted, "sans", False))
    if kr < SIZE:
        rows.append(("still to come: + " + " + ".join(terms[kr:]), small, muted, "mono", False))
    steps = " → ".join(format_number(v) for v in r.c00_by_step)
    rows.append((f"C[0,0] by step: {steps}", small, muted, "sans", False))
    y, used = 0.0, 0.0
    for i, (text, pt, color, font, bold) in enumerate(rows):
        lines = [text] if text.startswith(" ") else wrap(text, pt, width, font, bold)  # type: ignore[arg-type]
        for j, line in enumerate(lines):
            y += cap_height(pt) if i == j == 0 else line_step(pt, 1.35)
            c.text(0.0, y, line, pt, color, font=font, bold=bold)  # type: ignore[arg-type]
            used = max(used, text_width(line, pt, font, bold))  # type: ignore[arg-type]
    return c.block(min(width, used), y + descent(small), "dot product")


# --------------------------------------------------------------------------------------------
# The strategies


def strategy_block(s: StrategyResult, focus: tuple[int, int], selection: frozenset[str],
                   theme: Theme, width: float, target: Target = NATURAL,
                   compact: bool = False) -> Block:
    """One strategy: who owns each output, what the chosen thread loads and reads, and the
    strategy's counts. ``compact``: what the thread loads and reads under its owner grid
    instead of beside it, so that three strategies share a journal column's row."""
    c = BlockCanvas()
    mini = MINI * 0.85 if compact else MINI
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    cell = max(CELL, text_width(f"t{s.threads - 1}", small, "mono") + 1.2)
    side = cell * SIZE
    title, subtitle = STRATEGY_TITLES[s.name]
    chosen = _selected_thread(selection, s.name, s, focus)
    with c.group(f"strategy:{s.name}", name=s.name):
        y = cap_height(size)
        heads = wrap(title, size, width, bold=True) if compact else [title]
        used = 0.0
        for i, line in enumerate(heads):
            c.text(0.0, y + i * line_step(size), line, size, fg, bold=True)
            used = max(used, text_width(line, size, bold=True))
        y += (max(len(heads), 2 if compact else 1) - 1) * line_step(size)
        lines = wrap(subtitle, small, width)
        for line in lines:
            y += line_step(small, 1.25)
            c.text(0.0, y, line, small, muted)
            used = max(used, text_width(line, small))
        if compact:  # three side by side: their grids at one height
            y += max(0, 3 - len(lines)) * line_step(small, 1.25)
        top = y + descent(small) + line_step(small, 1.1) + 0.6
        # Owner grid: colour = block, label = thread.
        for t in range(s.threads):
            ij = [(i, j) for i in range(SIZE) for j in range(SIZE) if s.owner[i, j] == t]
            blk = int(s.block_of_output[ij[0]])
            c.rects([(j * cell, top + i * cell, cell, cell) for i, j in ij],
                    block_style(theme, blk if s.blocks > 1 else 0),
                    [f"thread:{s.name},{t}"] * len(ij))
        for i in range(SIZE):
            for j in range(SIZE):
                label = c.value(j * cell, top + i * cell, cell, cell, f"t{s.owner[i, j]}", small,
                                fg, floor=target.min_pt, key=f"thread:{s.name},{s.owner[i, j]}")
                blk = int(s.block_of_output[i, j]) if s.blocks > 1 else 0
                style = block_style(theme, blk)
                if style.hatch:  # the label sits on hatching
                    knock_out(c, label, style.fill)
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
            mx, mtop = 0.0, top + side + 1.6 + cap_height(small)
        for mat, ox, letter in (("a", mx, "A"), ("b", mx + SIZE * mini + 2.5, "B")):
            c.text(ox, mtop - 0.8, letter, small, muted)
            c.rects([(ox + j * mini, mtop + i * mini, mini, mini)
                     for i in range(SIZE) for j in range(SIZE)], theme.fill("absent"))
            loads = sorted({(r_, c_) for t, m, r_, c_ in s._global_sources
                            if t == chosen and m == mat})
            c.rects([(ox + cc * mini, mtop + rr * mini, mini, mini) for rr, cc in loads],
                    load_style(theme))
            reads = sorted({(r_, c_) for t, m, r_, c_ in s._operand_reads
                            if t == chosen and m == mat})
            for rr, cc in reads:
                c.circle(ox + (cc + 0.5) * mini, mtop + (rr + 0.5) * mini, mini * 0.24,
                         read_style(theme))
        used = max(used, mx + 2 * SIZE * mini + 2.5)
        info = ((f"thread t{chosen}", True),
                (format_number(s.global_loads_per_thread[chosen]) + " global", False),
                (format_number(s.shared_reads_per_thread[chosen]) + " shared", False),
                (format_number(s.register_reuse_per_thread[chosen]) + " reused", False))
        iy = mtop + SIZE * mini + 1.0
        for text, bold in info:
            iy += line_step(small, 1.05 if compact else 1.15)
            c.text(mx, iy, text, small, fg, bold=bold)
            used = max(used, mx + text_width(text, small, bold=bold))

        bottom = max(top + side, iy + descent(small))
        if subject_of(selection) == s.name:  # the strategy a step (or a click) talks about
            c.rect(-0.8, top - 0.8, side + 1.6, side + 1.6, subject_style(theme),
                   key=f"strategy:{s.name}")
    return c.block(min(width, used), bottom, f"strategy {s.name}")


def compact_width(r: GemmResult, theme: Theme, target: Target) -> float:
    """The width a compact strategy block needs: its owner grid, or its A and B under it, or
    its longest title word."""
    small = max(theme.small_pt, target.min_pt)
    size = max(theme.text_pt, target.min_pt)
    threads = max(s.threads for s in r.strategies.values())
    cell = max(CELL, text_width(f"t{threads - 1}", small, "mono") + 1.2)
    words = [w for title, _ in STRATEGY_TITLES.values() for w in title.split()]
    return max(cell * SIZE, 2 * SIZE * MINI * 0.85 + 2.5,
               *(text_width(w, size, bold=True) for w in words))


def subject_of(selection: frozenset[str]) -> str | None:
    """The strategy a selected thread belongs to: the subject of the step that selects it."""
    names = sorted({k[7:].split(",", 1)[0] for k in selection if k.startswith("thread:")})
    return names[0] if len(names) == 1 and names[0] in STRATEGIES else None


def subject_style(theme: Theme) -> Style:
    return theme.subject()


def counts_block(r: GemmResult, theme: Theme, width: float, target: Target = NATURAL) -> Block:
    """The three strategies' counts side by side: the same MACs, different traffic."""
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
            with c.group(f"strategy:{n}"):
                c.text(x, y, f(r.strategies[n]), small, fg, anchor="end", font="mono",
                       bold=True)
        y += (len(lines) - 1) * line_step(small)
    return c.block(min(width, x), y + descent(small), "counts")


# --------------------------------------------------------------------------------------------
# The requested-bytes calculator


def flops_series(r: GemmResult) -> list[Series]:
    """FLOPs per requested byte against the tile side T, and the naive FP32 level."""
    return [
        Series(f"T × T tile, K = {format_number(r.k_dim)}", r.tile_sizes,
               r.flops_per_byte_by_tile, 0, markers=True),
        Series(f"naive FP32, K = {format_number(r.k_dim)}", r.tile_sizes,
               [r.naive_flops_per_byte] * len(r.tile_sizes), 4),
    ]


CALCULATOR_LABELS = ("Requested bytes: FLOPs per byte as the tile grows",
                     "tile side T (elements)", "intensity (FLOPs/byte)")


def calculator_series(r: GemmResult) -> tuple[list[Series], tuple[Mark, ...]]:
    """The requested-bytes plot's data, a dot at the chosen tile: one definition for the figure
    and the dock's interactive plot."""
    marks = (Mark(r.tile, r.tile_flops_per_byte, ""),) if r.tile in r.tile_sizes else ()
    return flops_series(r), marks


def flops_plot(r: GemmResult, theme: Theme, width: float = PLOT_W,
               target: Target = NATURAL, height: float = PLOT_H) -> Block:
    """The calculator's plot, a dot at the chosen tile (its value is in the text beside)."""
    series, marks = calculator_series(r)
    return plot_block(series, theme, width, height, x_label="tile side T",
                      x_unit="elements", y_label="intensity", y_unit="FLOPs/byte",
                      x_range=(0.0, float(max(r.tile_sizes))),
                      y_range=(0.0, max(r.flops_per_byte_by_tile)), marks=marks,
                      key="plot:flops_per_byte", title=CALCULATOR_LABELS[0], target=target,
                      name="calculator plot")


def calculator_block(r: GemmResult, theme: Theme, width: float,
                     target: Target = NATURAL) -> Block:
    """The arithmetic behind the plot, from the naive product to the T × T tile."""
    c = BlockCanvas()
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    k = format_number(r.k_dim)
    lines = (
        ("Naive FP32, per output:", True),
        ("2 float loads per MAC + 1 float store", False),
        ("2K / (8K + 4) FLOPs/byte → 1/4 as K grows:", False),
        (f"{fpb(r.strategies['naive'].flops_per_byte)} at K = 4 (the table), "
         f"{fpb(r.naive_flops_per_byte)} at K = {k} (the plot)", False),
        ("", False),
        ("T × T output tile, cooperative loads:", True),
        ("A panel T × K + B panel K × T, once: 8TK bytes", False),
        ("T² stores: 4T² bytes; 2T²K FLOPs", False),
        ("2T²K / (8TK + 4T²) = T / (4 + 2T/K)", False),
        ("", False),
        (f"T = {format_number(r.tile)}, K = {k}: {fpb(r.tile_flops_per_byte)} FLOPs/byte", True),
        (f"large K: T/4 = {format_number(r.tile_flops_per_byte_limit)} FLOPs/byte", True),
        (f"= T/2 = {format_number(r.tile_macs_per_loaded_element)} MACs per loaded element",
         False),
    )
    y, used, first = 0.0, 0.0, True
    for text, bold in lines:
        if not text:
            y += line_step(small, 0.5)
            continue
        for line in wrap(text, small, width, bold=bold):
            y += cap_height(small) if first else line_step(small, 1.25)
            first = False
            c.text(0.0, y, line, small, fg if bold else muted, bold=bold)
            used = max(used, text_width(line, small, bold=bold))
    return c.block(min(width, used), y + descent(small), "calculator")


# --------------------------------------------------------------------------------------------
# The figure


def legend_entries(r: GemmResult, theme: Theme,
                   selection: frozenset[str] = frozenset()) -> list[LegendEntry]:
    blocks = max(s.blocks for s in r.strategies.values())
    walk, owners, plot = ("walkthrough",), ("owners",), ("intensity",)
    entries = [LegendEntry("focus output's A row (revealed k)", theme.fill("a_operand"),
                           parts=walk),
               LegendEntry("its B column (revealed k)", theme.fill("b_operand"), parts=walk),
               LegendEntry("focus output", theme.fill("c_output"), parts=walk),
               LegendEntry("other output tiles (dimmed)", theme.fill("faded"), parts=walk),
               LegendEntry("chosen output / the chosen thread's outputs", chosen_style(theme),
                           "selection", parts=owners)]
    repeat = blocks > BLOCK_SHADES  # shades repeat: name every block a shade stands for
    entries += [LegendEntry(f"thread block {b}" + (f", {b + BLOCK_SHADES}, …" if repeat else ""),
                            block_style(theme, b), parts=owners)
                for b in range(min(blocks, BLOCK_SHADES))]
    entries += [LegendEntry("loaded from global memory by the chosen thread", load_style(theme),
                            parts=owners),
                LegendEntry("operand it reads (shared memory; naive: global)",
                            read_style(theme), "dot", parts=owners)]
    if subject_of(selection) is not None:
        entries.append(LegendEntry("the strategy of the selected thread", subject_style(theme),
                                   parts=owners))
    entries += [replace(e, parts=plot) for e in series_legend(flops_series(r), theme)]
    entries.append(LegendEntry(f"T = {format_number(r.tile)}", mark_style(theme), "dot",
                               parts=plot))
    return entries


def notes(r: GemmResult, shortened: list[tuple[str, str]]) -> list[Note]:
    out: list[Note] = [("Owner grids: shade = thread block, label = owning thread; select an "
                        "output or a thread to choose.", ("owners",))]
    if shortened:
        out.append(shortened_note(shortened))
    return out


def row_blocks(blocks: list[Block], width: float) -> list[Block]:
    """``blocks`` side by side in rows as wide as ``width`` (a block that does not fit starts
    the next row), each row a block of the full width so that rows never share a line."""
    rows: list[list[Block]] = [[]]
    x = 0.0
    for b in blocks:
        if rows[-1] and x + b.width > width + 1e-6:
            rows.append([])
            x = 0.0
        rows[-1].append(b)
        x += b.width + GAP
    out = []
    for row in rows:
        c = BlockCanvas()
        x = 0.0
        for b in row:
            place(c, b, x, 0.0)
            x += b.width + GAP
        out.append(c.block(width, max(b.height for b in row), "row"))
    return out


def build(result: GemmResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    focus = _focus(selection)
    shortened: list[tuple[str, str]] = []

    def body(width: float) -> list[Block]:
        # Rows of blocks, each row as wide as the page so that rows never run into each other:
        # natural and columns: walkthrough | dot product; the strategies; their counts;
        # plot | arithmetic; legend. A 16:9 slide packs three rows: walkthrough | dot product |
        # counts; the strategies | arithmetic; plot | legend.
        walk = as_part("walkthrough", walkthrough_block(result, focus, theme, width, target))
        dot = as_part("walkthrough", dot_product_block(result, focus, theme, min(width, 62.0),
                                                       target))
        counts = as_part("counts", counts_block(result, theme, width, target))
        # three in a row: beside their grids where 54 mm each fit, else under them
        compact = width < 3 * 54.0 + 2 * GAP and 3 * compact_width(result, theme, target) \
            + 2 * GAP <= width
        each = (width - 2 * GAP) / 3 if compact else min(width, 54.0)
        strategies = [as_part("owners", strategy_block(result.strategies[n], focus, selection,
                                                       theme, each, target, compact))
                      for n in STRATEGIES]
        calc = as_part("intensity", calculator_block(result, theme, min(width, 80.0), target))
        wide = width >= 240.0
        plot = as_part("intensity", flops_plot(result, theme, min(width, 78.0 if wide else PLOT_W),
                                               target, PLOT_H * 0.8 if wide else PLOT_H))
        parts = [walk, dot, counts, *strategies, calc, plot]
        shortened[:] = [p for b in parts if target.shows(*b.parts) for p in b.shortened]

        def legend(w: float) -> Block:
            return plot_legend_block(legend_entries(result, theme, selection), theme, w,
                                     notes=notes(result, shortened), target=target)

        if not target.whole:
            groups = {"walkthrough": [walk, dot], "owners": strategies, "counts": [counts],
                      "intensity": [plot, calc]}
            return [b for name, group in groups.items() if target.shows(name)
                    for b in row_blocks(group, width)] + [legend(width)]
        if wide:
            rows = [[walk, dot, counts], [*strategies, calc],
                    [plot, legend(width - plot.width - GAP)]]
        else:
            rows = [[walk, dot], strategies, [counts], [plot, calc], [legend(width)]]
        return [b for row in rows for b in row_blocks(row, width)]

    same = "the same" if result.same_values else "DIFFERENT"
    return compose(target, theme, title="Matrix multiplication as a reuse problem: C\u00a0=\u00a0A\u00a0·\u00a0B",
                   subtitle=f"k is revealed two positions at a time. Every strategy performs "
                            f"{format_number(result.macs)} multiply-accumulates and produces "
                            f"{same} {format_number(result.outputs)} values.",
                   body=body, natural_width=NATURAL_WIDTH,
                   figure_title="GEMM: matrix multiplication as reuse",
                   description=f"A 4 × 4 matrix multiplication C = A · B of "
                               f"{counted(result.macs, 'multiply-accumulate')} under three "
                               f"owner strategies, with "
                               + ", ".join(counted(result.strategies[n].global_loads,
                                                   "global load") + f" ({n})"
                                           for n in STRATEGIES)
                               + ", and the bytes each requests per FLOP.")
