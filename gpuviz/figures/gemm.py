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

from gpuviz.figures.budget import BUDGETS
from gpuviz.figures.display import Figure, Style
from gpuviz.figures.gemm_intensity import (
    CALCULATOR_LABELS,
    PLOT_H,
    PLOT_W,
    calculator_block,
    calculator_series,
    flops_plot,
    flops_series,
)
from gpuviz.figures.gemm_owners import (
    BLOCK_SHADES,
    CELL,
    STRATEGY_TITLES,
    block_style,
    compact_rows,
    compact_width,
    counts_block,
    fpb,
    load_style,
    read_style,
    strategy_block,
    subject_of,
    subject_style,
)
from gpuviz.figures.layout import (
    GAP,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Shortened,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    legend_block,
    line_step,
    place,
    shortened_note,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.plot import (
    mark_style,
    plot_legend_block,
    series_legend,
    with_selection,
)
from gpuviz.figures.theme import Theme, gray_of_lightness
from gpuviz.keys import key, of_kind
from gpuviz.models.gemm import SIZE, STRATEGIES, GemmResult

__all__ = ["CALCULATOR_LABELS", "STRATEGY_TITLES", "calculator_series", "fpb"]

NATURAL_WIDTH = 200.0  # × 1.25 = a 16:9 slide's 250 mm at full size
PLOT_H_LEAST = 28.0  # a journal column's plot gives up height down to this


def _focus(selection: frozenset[str]) -> tuple[int, int]:
    """The focus output: the first selected ``c:i,j`` inside C, else C[0,0]."""
    for i, j in of_kind(selection, "c", 2):
        if 0 <= i < SIZE and 0 <= j < SIZE:
            return i, j
    return 0, 0


def chosen_style(theme: Theme) -> Style:
    """The selection's outer line; boxes are drawn with :meth:`Theme.select`."""
    return theme.highlight()


# --------------------------------------------------------------------------------------------
# The walkthrough


def _matrix(c: BlockCanvas, x: float, y: float, cell: float, values, prefix: str, fills,
            text_colors, size: float, floor: float, width: float | None = None) -> None:
    """A 4 × 4 grid of cells ``width`` wide (default: square) and ``cell`` tall, each printing
    its value; ``fills[i][j]`` is a Style."""
    w = cell if width is None else width
    by_style: dict[Style, list[tuple[float, float, float, float]]] = {}
    keys: dict[Style, list[str]] = {}
    for i in range(SIZE):
        for j in range(SIZE):
            st = fills[i][j]
            by_style.setdefault(st, []).append((x + j * w, y + i * cell, w, cell))
            keys.setdefault(st, []).append(key(prefix, i, j))
    for st, rects in by_style.items():
        c.rects(rects, st, keys[st])
    for i in range(SIZE):
        for j in range(SIZE):
            c.value(x + j * w, y + i * cell, w, cell, format_number(int(values[i][j])),
                    size, text_colors[i][j], floor=floor, key=key(prefix, i, j))


VALUE_ROOM = 0.25 + 0.1  # mm each side of a walkthrough value: the cell's pad and a margin
LEAST_ROW = 4.0  # mm: rows shortened to this where C's values need the width


def value_width(values, size: float, grouped: bool = True) -> float:
    """The column width a matrix's widest value needs at ``size``: as drawn first (grouped:
    ``-1,190``), else ungrouped (``-1190``, the spelling :meth:`BlockCanvas.value` falls back
    to)."""
    def need(v: int) -> float:
        return text_width(format_number(int(v)) if grouped else str(int(v)), size, "mono")
    return max(need(v) for row in values for v in row) + 2 * VALUE_ROOM


def column_widths(mats, cell: float, size: float, floor: float, room: float) -> tuple[
        float, tuple[float, ...]]:
    """The rows' height and each matrix's column width: ``cell`` square where the values fit,
    a column as wide as its widest value needs where not, and the rows shortened (not under
    LEAST_ROW) until the three fit ``room``: a four-digit negative C stays whole beside the
    two-digit A. The values' room is the first that fits: at the type's ``size``, at its
    ``floor``, at the floor ungrouped."""
    for pt, grouped in ((size, True), (floor, True), (floor, False)):
        needs = [value_width(m, pt, grouped) for m in mats]
        h = cell
        while SIZE * sum(max(h, n) for n in needs) > room + 1e-9 and h > LEAST_ROW:
            h = max(LEAST_ROW, h - 0.1)
        if SIZE * sum(max(h, n) for n in needs) <= room + 1e-9:
            break
    return h, tuple(max(h, n) for n in needs)


def tile_style(theme: Theme) -> Style:
    """The focus output's 2 × 2 tile: a light tint of C, so that the other tiles, on the paper,
    are the dimmed ones (less contrast with the ground) in every theme; in a grayscale-safe theme
    printed at L* 89, 13 apart from A (76) and from the paper."""
    style = theme.fill("c_output")
    if theme.hatches:
        return replace(style, fill=theme.at_gray(theme.color("c_output"), gray_of_lightness(89.0)))
    return replace(style, fill=theme.mix(style.fill, 0.18))


def walkthrough_block(r: GemmResult, focus: tuple[int, int], theme: Theme, width: float,
                      target: Target = NATURAL, selection: frozenset[str] = frozenset()) -> Block:
    """A × B = C with the focus output's row, column and tile lit, k revealed so far; a
    selected A or B cell (``a:i,k``, ``b:k,j``) with the selection's double outline."""
    c = BlockCanvas()
    fi, fj = focus
    kr = r.k_revealed
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    sign_pt = max(theme.title_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    plain = theme.fill("absent")
    lit = tile_style(theme)
    a_on, b_on, c_on = theme.fill("a_operand"), theme.fill("b_operand"), theme.fill("c_output")
    a_ink, b_ink, c_ink = (theme.ink_on(theme.color(role))  # the ink on a_on, b_on, c_on
                           for role in ("a_operand", "b_operand", "c_output"))
    shown = "no k positions yet" if kr == 0 else (
        "k positions 0–1" if kr == 2 else "all four k positions")
    titles = ("A (entries 1–16)", "B (fixed)", f"C after {shown}")
    k_w = text_width("k3", small) + 1.0
    mats = (r.a.tolist(), r.b.tolist(), r.c_partial.tolist())
    for room in (3.0, 1.2):  # the signs' room, closed up where C's values need the width
        sign_w = max(text_width("×", sign_pt), text_width("=", sign_pt)) + room
        fixed = 2 * sign_w + k_w
        cell, (wa, wb, wc) = column_widths(
            mats, max(4.5, min(CELL, (width - fixed) / (3 * SIZE))), size, target.min_pt,
            width - fixed)
        if SIZE * (wa + wb + wc) <= width - fixed + 1e-9:
            break
    side, side_a, side_b, side_c = cell * SIZE, wa * SIZE, wb * SIZE, wc * SIZE
    ax = 0.0
    narrow = side_a + side_b + side_c + 2 * sign_w + k_w + 20.0 > width
    if narrow:  # titles wrap into their columns
        bx = ax + side_a + sign_w + k_w
        cx = bx + side_b + sign_w
        spans = (bx - ax - k_w, cx - bx, max(side_c, width - cx))
    else:
        bx = ax + max(side_a + sign_w + k_w, text_width(titles[0], size, bold=True) + 2.0)
        cx = bx + max(side_b + sign_w, text_width(titles[1], size, bold=True) + 2.0)
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
        c.text(ax + (k + 0.5) * wa, top - 1.0, f"k{k}", small, color, anchor="middle")
        c.text(bx - 1.0, top + (k + 0.5) * cell, f"k{k}", small, color, anchor="end",
               baseline="middle")
    a_fill = [[(a_on if (i == fi and k < kr) else plain) for k in range(SIZE)]
              for i in range(SIZE)]
    a_text = [[a_ink if a_fill[i][k] is a_on else
               fg if i == fi else muted for k in range(SIZE)] for i in range(SIZE)]
    _matrix(c, ax, top, cell, mats[0], "a", a_fill, a_text, size, target.min_pt, wa)
    b_fill = [[(b_on if (j == fj and k < kr) else plain) for j in range(SIZE)]
              for k in range(SIZE)]
    b_text = [[b_ink if b_fill[k][j] is b_on else
               fg if j == fj else muted for j in range(SIZE)] for k in range(SIZE)]
    _matrix(c, bx, top, cell, mats[1], "b", b_fill, b_text, size, target.min_pt, wb)
    # The focus output's 2 × 2 tile is lit; every other output tile is dimmed to the paper.
    ti, tj = fi // 2, fj // 2
    c_fill = [[(c_on if (i, j) == (fi, fj) else lit if (i // 2, j // 2) == (ti, tj) else plain)
               for j in range(SIZE)] for i in range(SIZE)]
    c_text = [[c_ink if (i, j) == (fi, fj) else
               fg if (i // 2, j // 2) == (ti, tj) else muted for j in range(SIZE)]
              for i in range(SIZE)]
    _matrix(c, cx, top, cell, mats[2], "c", c_fill, c_text, size, target.min_pt, wc)
    # The operands' row and column in their own colours; the focus output as selected.
    c.rect(ax, top + fi * cell, side_a, cell, theme.stroke("a_operand", theme.line_mm * 1.5))
    c.rect(bx + fj * wb, top, wb, side, theme.stroke("b_operand", theme.line_mm * 1.5))
    theme.select(c, cx + fj * wc, top + fi * cell, wc, cell)
    for name, x0, w in (("a", ax, wa), ("b", bx, wb)):
        for i, j in of_kind(selection, name, 2):
            if 0 <= i < SIZE and 0 <= j < SIZE:
                theme.select(c, x0 + j * w, top + i * cell, w, cell)
    c.text(ax + side_a + sign_w / 2, top + side / 2, "×", sign_pt, fg, anchor="middle",
           baseline="middle")
    c.text(bx + side_b + sign_w / 2, top + side / 2, "=", sign_pt, fg, anchor="middle",
           baseline="middle")
    used = max(cx + side_c, title_w)
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
# The figure


def legend_entries(r: GemmResult, theme: Theme,
                   selection: frozenset[str] = frozenset()) -> list[LegendEntry]:
    blocks = max(s.blocks for s in r.strategies.values())
    walk, owners, plot = ("walkthrough",), ("owners",), ("intensity",)
    entries = [LegendEntry("focus output's A row (revealed k)", theme.fill("a_operand"),
                           parts=walk),
               LegendEntry("its B column (revealed k)", theme.fill("b_operand"), parts=walk),
               LegendEntry("focus output", theme.fill("c_output"), parts=walk),
               LegendEntry("focus output's tile (others dimmed)", tile_style(theme),
                           parts=walk),
               LegendEntry("chosen thread's outputs", chosen_style(theme), "selection",
                           parts=owners)]
    repeat = blocks > BLOCK_SHADES  # shades repeat: name every block a shade stands for
    entries += [LegendEntry(f"thread block {b}" + (f", {b + BLOCK_SHADES}, …" if repeat else ""),
                            block_style(theme, b), parts=owners)
                for b in range(min(blocks, BLOCK_SHADES))]
    if subject_of(selection) is not None:  # after the blocks: a column's row has room for it
        entries.append(LegendEntry("chosen thread's strategy", subject_style(theme),
                                   parts=owners))
    entries += [LegendEntry("loaded from global memory by the chosen thread", load_style(theme),
                            parts=owners),
                LegendEntry("operand it reads (shared memory; naive: global)",
                            read_style(theme), "dot", parts=owners)]
    entries += [replace(e, parts=plot) for e in series_legend(flops_series(r), theme)]
    entries.append(LegendEntry(f"T = {format_number(r.tile)}", mark_style(theme), "dot",
                               parts=plot))
    return entries


def notes(r: GemmResult, shortened: list[Shortened]) -> list[Note]:
    out: list[Note] = []
    if shortened:
        out.append(shortened_note(shortened))
    return out


def _rows(blocks: list[Block], width: float) -> list[list[Block]]:
    """``blocks`` split into rows as wide as ``width``: a block that does not fit starts the
    next row."""
    rows: list[list[Block]] = [[]]
    x = 0.0
    for b in blocks:
        if rows[-1] and x + b.width > width + 1e-6:
            rows.append([])
            x = 0.0
        rows[-1].append(b)
        x += b.width + GAP
    return rows


def row_blocks(blocks: list[Block], width: float) -> list[Block]:
    """``blocks`` side by side in rows as wide as ``width`` (a block that does not fit starts
    the next row), each row a block of the full width so that rows never share a line."""
    out = []
    for row in _rows(blocks, width):
        c = BlockCanvas()
        x = 0.0
        for b in row:
            place(c, b, x, 0.0)
            x += b.width + GAP
        out.append(c.block(width, max(b.height for b in row), "row"))
    return out


def _intensity_sentence(r: GemmResult) -> str:
    """What a tile's FLOPs per byte come to: about T/4 where K dwarfs T (within 5 %); at a
    short K the stores count and the exact form says so (2.67 at T = 16, K = 16, not 4)."""
    head = "A T × T output tile requests its A and B panels once: "
    k = format_number(r.k_dim)
    if r.tile_flops_per_byte >= 0.95 * r.tile_flops_per_byte_limit:
        return head + f"about T/4 FLOPs per byte at K = {k}."
    return head + (f"T / (4 + 2T/K) FLOPs per byte, {r.tile_flops_per_byte:.2f} at T = "
                   f"{format_number(r.tile)} and K = {k}, short of T/4 = "
                   f"{format_number(r.tile_flops_per_byte_limit)}.")


def subtitle(r: GemmResult, target: Target = NATURAL) -> str:
    """How to read the figure, or the parts it shows: the walkthrough reveals k two positions
    at a time, every strategy does the same work, a tile's intensity grows with its side."""
    same = "the same" if r.same_values else "DIFFERENT"
    sentences = {
        "walkthrough": "k is revealed two positions at a time.",
        "owners": f"Every strategy performs {format_number(r.macs)} multiply-accumulates and "
                  f"produces {same} {format_number(r.outputs)} values.",
        "intensity": _intensity_sentence(r),
    }
    sentences["counts"] = sentences["owners"]
    shown = [n for n in ("walkthrough", "owners", "counts", "intensity") if target.shows(n)]
    if len(shown) == 4:  # the whole figure
        shown = ["walkthrough", "owners"]
    return " ".join(dict.fromkeys(sentences[n] for n in shown))


def stacked_rows(blocks: list[Block], width: float) -> Block:
    """``blocks`` in rows as wide as ``width`` (as :func:`row_blocks` makes them), the rows one
    under another in one block as wide as its widest row (a part's drawing, centred on a slide
    by what it draws)."""
    c = BlockCanvas()
    y, used = 0.0, 0.0
    for row in _rows(blocks, width):
        x = 0.0
        for b in row:
            place(c, b, x, y)
            x += b.width + GAP
        used = max(used, x - GAP)
        y += max(b.height for b in row) + GAP
    return c.block(used, y - GAP, "rows")


def build(result: GemmResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    figure = _build(result, selection, theme, target, PLOT_H)
    limit = BUDGETS[target.name].max_height if target.name in BUDGETS else None
    if (limit is not None and figure.height > limit and not target.paged
            and not target.whole and target.shows("intensity")):
        # a journal column's plot gives up what the page would run over by
        # (never shorter than its y label, which runs along it)
        least = max(PLOT_H_LEAST, text_width(CALCULATOR_LABELS[2],
                                             max(theme.small_pt, target.min_pt)) + 9.0)
        figure = _build(result, selection, theme, target,
                        max(least, PLOT_H - (figure.height - limit) - 0.01))
    return figure


def _build(result: GemmResult, selection: frozenset[str], theme: Theme, target: Target,
           plot_h: float) -> Figure:
    focus = _focus(selection)
    shortened: list[Shortened] = []

    def legend(w: float) -> Block:
        if target.whole or target.shows("intensity"):  # line swatches for the plot's series
            return plot_legend_block(legend_entries(result, theme, selection), theme, w,
                                     notes=notes(result, shortened), target=target)
        return legend_block(legend_entries(result, theme, selection), theme, w,
                            notes=notes(result, shortened), target=target)

    def side(width: float) -> list[Block]:
        return [legend(width)]

    def body(width: float) -> list[Block]:
        # Rows of blocks, each row as wide as the page so that rows never run into each other:
        # natural and columns: walkthrough | dot product; the strategies; their counts;
        # plot | arithmetic; legend. A 16:9 slide packs three rows: walkthrough | dot product |
        # counts; the strategies | arithmetic; plot | legend.
        walk = as_part("walkthrough", walkthrough_block(result, focus, theme, width, target,
                                                          selection))
        dot = as_part("walkthrough", dot_product_block(result, focus, theme, min(width, 62.0),
                                                       target))
        counts = as_part("counts", counts_block(result, theme, width, target, selection))
        # three in a row: beside their grids where 54 mm each fit, else under them
        compact = width < 3 * 54.0 + 2 * GAP and 3 * compact_width(result, theme, target) \
            + 2 * GAP <= width
        each = (width - 2 * GAP) / 3 if compact else min(width, 54.0)
        heading = compact_rows(theme, each, target)
        framed = subject_of(selection) is not None or any(
            key("strategy", n) in selection for n in STRATEGIES)
        strategies = [as_part("owners", strategy_block(result.strategies[n], focus, selection,
                                                       theme, each, target, compact,
                                                       heading, framed))
                      for n in STRATEGIES]
        column = target.single_column
        calc = as_part("intensity", calculator_block(result, theme, min(width, 80.0), target,
                                                     1.12 if column else 1.25))
        wide = width >= 240.0
        plot = as_part("intensity", with_selection(
            flops_plot(result, theme, min(width, 78.0 if wide else PLOT_W), target,
                       PLOT_H * 0.8 if wide else plot_h),
            selection, theme, "plot:flops_per_byte"))
        parts = [walk, dot, counts, *strategies, calc, plot]
        shortened[:] = [p for b in parts if target.shows(*b.parts) for p in b.shortened]

        if not target.whole:  # the parts' drawings; their legend is the side block
            groups = {"walkthrough": [walk, dot], "owners": strategies, "counts": [counts],
                      "intensity": [plot]}
            # the intensity's derivation is a note: without chrome the plot stands alone
            return [stacked_rows(group, width) for name, group in groups.items()
                    if target.shows(name)] + [as_part("intensity", calc, "notes")]
        if wide:
            rows = [[walk, dot, counts], [*strategies, calc],
                    [plot, legend(width - plot.width - GAP)]]
        else:
            rows = [[walk, dot], strategies, [counts], [plot, calc], [legend(width)]]
        return [b for row in rows for b in row_blocks(row, width)]

    return compose(target, theme,
                   title="Matrix multiplication as a reuse problem: C\u00a0=\u00a0A\u00a0·\u00a0B",
                   column_title="GEMM as a reuse problem: C\u00a0=\u00a0A\u00a0·\u00a0B",
                   subtitle=subtitle(result, target),
                   body=body, side=None if target.whole else side,
                   natural_width=NATURAL_WIDTH,
                   figure_title="GEMM: matrix multiplication as reuse",
                   description=f"A 4 × 4 matrix multiplication C = A · B of "
                               f"{counted(result.macs, 'multiply-accumulate')} under three "
                               f"owner strategies, with "
                               + ", ".join(counted(result.strategies[n].global_loads,
                                                   "global load") + f" ({n})"
                                           for n in STRATEGIES)
                               + ", and the bytes each requests per FLOP.")
