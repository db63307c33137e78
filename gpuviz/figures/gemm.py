"""The GEMM walkthrough: A·B with k revealed two positions at a time, three ownership strategies
with what each owner loads and reads, and the requested-bytes calculator with its plot.

Keys: ``a:i,k`` and ``b:k,j`` (operand cells), ``c:i,j`` (output cells; a selected one becomes
the focus output of the walkthrough, default ``c:0,0``), ``thread:<strategy>,<t>`` (the outputs a
thread owns in ``naive``, ``shared`` or ``register``; selecting one shows that thread's loads),
``strategy:<name>`` (a strategy's receipt), ``series:<label>`` (plot lines).
"""

from __future__ import annotations

from gpuviz.figures.display import (
    PT_TO_MM,
    Canvas,
    Figure,
    Style,
)
from gpuviz.figures.plot import Mark, Series, line_plot, nice_ticks
from gpuviz.figures.theme import Theme
from gpuviz.figures.type_scale import build_for_type_size
from gpuviz.models.gemm import SIZE, STRATEGIES, GemmResult, StrategyResult

WIDTH = 180.0
STRATEGY_TITLES = {
    "naive": ("Naive", "16 threads, one output each"),
    "shared": ("Shared-memory tiling", "2 × 2 threads per block, one output each"),
    "register": ("Register tiling", "4 threads, a 2 × 2 region each"),
}
PANEL_W = 55.0


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


def _matrix(c: Canvas, x: float, y: float, cell: float, values, prefix: str, fills,
            theme: Theme, text_colors, size: float) -> None:
    """A 4 × 4 grid of numbered cells; ``fills[i][j]`` is a Style, ``text_colors`` a colour."""
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
            c.text(x + (j + 0.5) * cell, y + (i + 0.5) * cell, str(values[i][j]), size,
                   text_colors[i][j], anchor="middle", baseline="middle", font="mono")


def _walkthrough(c: Canvas, r: GemmResult, y: float, focus: tuple[int, int],
                 theme: Theme) -> float:
    fi, fj = focus
    kr = r.k_revealed
    cell = 6.0
    size = theme.text_pt
    em = size * PT_TO_MM
    small = theme.small_pt
    side = cell * SIZE
    gap = 11.0
    ax, bx, cx = 12.0, 12.0 + side + gap, 12.0 + 2 * (side + gap)
    top = y + 9.0
    plain = theme.fill("absent")
    dim = theme.fill("faded")
    a_on, b_on, c_on = theme.fill("a_operand"), theme.fill("b_operand"), theme.fill("c_output")
    fg, muted = theme.foreground, theme.muted

    c.text(ax, y + 3.0, "A (entries 1–16)", size, fg, bold=True)
    c.text(bx, y + 3.0, "B (fixed)", size, fg, bold=True)
    shown = "no k positions yet" if kr == 0 else (
        "k positions 0–1" if kr == 2 else "all four k positions")
    c.text(cx, y + 3.0, f"C after {shown}", size, fg, bold=True)
    # k position labels: columns of A, rows of B
    for k in range(SIZE):
        color = fg if k < kr else muted
        c.text(ax + (k + 0.5) * cell, top - 1.2, f"k{k}", small, color, anchor="middle")
        c.text(bx - 2.2, top + (k + 0.5) * cell, f"k{k}", small, color, anchor="end",
               baseline="middle")

    a_fill = [[(a_on if (i == fi and k < kr) else plain) for k in range(SIZE)]
              for i in range(SIZE)]
    a_text = [[theme.ink_on(a_fill[i][k].fill) if a_fill[i][k] is a_on else
               fg if i == fi else muted for k in range(SIZE)] for i in range(SIZE)]
    _matrix(c, ax, top, cell, r.a.tolist(), "a", a_fill, theme, a_text, size)
    b_fill = [[(b_on if (j == fj and k < kr) else plain) for j in range(SIZE)]
              for k in range(SIZE)]
    b_text = [[theme.ink_on(b_fill[k][j].fill) if b_fill[k][j] is b_on else
               fg if j == fj else muted for j in range(SIZE)] for k in range(SIZE)]
    _matrix(c, bx, top, cell, r.b.tolist(), "b", b_fill, theme, b_text, size)
    # The focus output's 2 × 2 tile stays lit; every other output tile is dimmed.
    ti, tj = fi // 2, fj // 2
    c_fill = [[(c_on if (i, j) == (fi, fj) else plain if (i // 2, j // 2) == (ti, tj) else dim)
               for j in range(SIZE)] for i in range(SIZE)]
    c_text = [[theme.ink_on(c_on.fill) if (i, j) == (fi, fj) else
               fg if (i // 2, j // 2) == (ti, tj) else muted for j in range(SIZE)]
              for i in range(SIZE)]
    _matrix(c, cx, top, cell, r.c_partial.tolist(), "c", c_fill, theme, c_text, size)
    hl = theme.highlight()
    c.rect(ax, top + fi * cell, side, cell, hl.with_stroke(theme.color("a_operand"),
                                                          theme.line_mm * 1.5))
    c.rect(bx + fj * cell, top, cell, side, hl.with_stroke(theme.color("b_operand"),
                                                          theme.line_mm * 1.5))
    c.rect(cx + fj * cell, top + fi * cell, cell, cell, hl)
    c.text(ax + side + gap / 2, top + side / 2, "×", theme.title_pt, fg, anchor="middle",
           baseline="middle")
    c.text(bx + side + gap / 2, top + side / 2, "=", theme.title_pt, fg, anchor="middle",
           baseline="middle")

    # The dot product of the focus output, revealed terms first.
    tx = cx + side + 7.0
    ty = top + 2.5
    terms = [f"{r.a[fi, k]}·{r.b[k, fj]}" for k in range(SIZE)]
    done = " + ".join(terms[:kr]) if kr else "0"
    value = int(r.c_partial[fi, fj])
    if kr:
        c.text(tx, ty, f"C[{fi},{fj}] = {done}", size, fg, font="mono")
        c.text(tx, ty + em * 1.5, f"       = {value}", size, fg, font="mono", bold=True)
    else:
        c.text(tx, ty, f"C[{fi},{fj}] = 0", size, fg, font="mono", bold=True)
        c.text(tx, ty + em * 1.5, "nothing accumulated yet", theme.small_pt, theme.muted)
    if kr < SIZE:
        rest = " + ".join(terms[kr:])
        c.text(tx, ty + em * 3.0, f"still to come: + {rest}", small, muted, font="mono")
    steps = " → ".join(str(v) for v in r.c00_by_step)
    c.text(tx, ty + em * 4.7, f"C[0,0] by step: {steps}", small, muted)
    c.text(tx, ty + em * 6.1, "Dimmed: other tiles, other owners.", small, muted)
    c.text(tx, ty + em * 7.2, "Outlined: the focus output,", small, muted)
    c.text(tx, ty + em * 8.3, "its A row and its B column.", small, muted)
    return top + side + 4.0


def _strategy(c: Canvas, s: StrategyResult, x: float, y: float, focus: tuple[int, int],
              selection: frozenset[str], theme: Theme) -> float:
    size = theme.text_pt
    small = theme.small_pt
    em = size * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    cell = 6.0
    side = cell * SIZE
    title, subtitle = STRATEGY_TITLES[s.name]
    c.text(x, y + 3.0, title, size, fg, bold=True)
    c.text(x, y + 3.0 + em * 1.1, subtitle, small, muted)
    top = y + 5.0 + em * 2.0
    chosen = _selected_thread(selection, s.name, s, focus)
    with c.group(f"strategy:{s.name}", name=s.name):
        # Owner grid: colour = block, label = thread.
        for t in range(s.threads):
            ij = [(i, j) for i in range(SIZE) for j in range(SIZE) if s.owner[i, j] == t]
            blk = int(s.block_of_output[ij[0]])
            # a light, opaque tint of the block's colour (alpha costs far more to paint)
            fill = Style(fill=theme.mix(theme.category(blk % 4 if s.blocks > 1 else 0), 0.35),
                         stroke=theme.outline, stroke_width=theme.thin_mm)
            c.rects([(x + j * cell, top + i * cell, cell, cell) for i, j in ij], fill,
                    [f"thread:{s.name},{t}"] * len(ij))
        for i in range(SIZE):
            for j in range(SIZE):
                c.text(x + (j + 0.5) * cell, top + (i + 0.5) * cell, f"t{s.owner[i, j]}", small,
                       fg, anchor="middle", baseline="middle", font="mono")
        # thick lines around each thread's region
        region = 2 if s.outputs_per_thread == 4 else 1
        bounds = Style(stroke=theme.foreground, stroke_width=theme.line_mm)
        segs = []
        for v in range(0, SIZE + 1, region):
            segs.append((x, top + v * cell, x + side, top + v * cell))
            segs.append((x + v * cell, top, x + v * cell, top + side))
        c.segments(segs, bounds)
        owned = [(x + j * cell, top + i * cell, cell, cell)
                 for i in range(SIZE) for j in range(SIZE) if s.owner[i, j] == chosen]
        for rect in owned:
            c.rect(*rect, theme.highlight())

        # What the chosen thread loads from global memory and reads as operands.
        mini = 3.0
        mx = x + side + 3.5
        for mat, ox, label in (("a", mx, "A"), ("b", mx + SIZE * mini + 2.5, "B")):
            c.text(ox, top - 0.8, label, small, muted)
            c.rects([(ox + j * mini, top + i * mini, mini, mini)
                     for i in range(SIZE) for j in range(SIZE)], theme.fill("absent"))
            loads = sorted({(r_, c_) for t, m, r_, c_ in s._global_sources
                            if t == chosen and m == mat})
            c.rects([(ox + cc * mini, top + rr * mini, mini, mini) for rr, cc in loads],
                    theme.fill("load"))
            reads = sorted({(r_, c_) for t, m, r_, c_ in s._operand_reads
                            if t == chosen and m == mat})
            dot = Style(fill=theme.color("a_operand" if mat == "a" else "b_operand"),
                        stroke=theme.foreground, stroke_width=theme.thin_mm)
            for rr, cc in reads:
                c.circle(ox + (cc + 0.5) * mini, top + (rr + 0.5) * mini, mini * 0.22, dot)
        info = (
            (f"thread t{chosen}", True),
            (f"{s.global_loads_per_thread[chosen]} global", False),
            (f"{s.shared_reads_per_thread[chosen]} shared", False),
            (f"{s.register_reuse_per_thread[chosen]} reused", False),
        )
        iy = top + SIZE * mini + em * 1.2
        for text, bold in info:
            c.text(mx, iy, text, small, fg, bold=bold)
            iy += em * 1.05

        ry = top + side + em * 1.4
        rows = (
            ("threads × outputs", f"{s.threads} × {s.outputs_per_thread}"),
            ("multiply-accumulates", f"{s.macs}"),
            ("global loads", f"{s.global_loads}"),
            ("shared-memory reads", f"{s.shared_reads}"),
            ("register reuses", f"{s.register_reuse}"),
            ("FLOPs per requested byte", f"{s.flops_per_byte:.2f}"),
        )
        for label, value in rows:
            c.text(x, ry, label, small, muted)
            c.text(x + 50.0, ry, value, small, fg, anchor="end", font="mono", bold=True)
            ry += em * 1.25
    return ry


def _legend(c: Canvas, x: float, y: float, theme: Theme) -> None:
    small = theme.small_pt
    em = small * PT_TO_MM
    muted = theme.muted
    c.rect(x, y - em * 0.8, em, em, theme.fill("load"))
    c.text(x + em * 1.4, y, "A or B element the chosen thread loads from global memory", small,
           muted)
    c.circle(x + em * 0.5, y + em * 1.05, em * 0.35,
             Style(fill=theme.color("a_operand"), stroke=theme.foreground,
                   stroke_width=theme.thin_mm))
    c.text(x + em * 1.4, y + em * 1.4, "an operand it reads (from shared memory; naive: global)",
           small, muted)
    c.text(x, y + em * 2.8, "Owner grids: shade = thread block, label = owning thread,", small,
           muted)
    c.text(x, y + em * 3.9, "outline = the chosen thread's outputs (select a thread to choose).",
           small, muted)


def calculator_series(r: GemmResult) -> tuple[list[Series], tuple[Mark, ...]]:
    """The requested-bytes plot's data: one definition for the figure and the dock's plot."""
    series = [
        Series(f"T × T tile, K = {r.k_dim}", r.tile_sizes, r.flops_per_byte_by_tile, 0,
               markers=True),
        Series("naive FP32", r.tile_sizes, [r.naive_flops_per_byte] * len(r.tile_sizes), 3),
    ]
    marks: tuple[Mark, ...] = ()
    if r.tile in r.tile_sizes:
        marks = (Mark(r.tile, r.tile_flops_per_byte, ""),)
    return series, marks


CALCULATOR_LABELS = ("Requested bytes: FLOPs per byte as the tile grows", "tile side T",
                     "FLOPs per byte")


def _calculator(c: Canvas, r: GemmResult, y: float, theme: Theme) -> float:
    size = theme.text_pt
    small = theme.small_pt
    em = size * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    plot_w, plot_h = 84.0, 50.0
    c.text(6.0, y + 3.0, "Requested bytes: FLOPs per byte as the tile grows", size, fg,
           bold=True)
    series, marks = calculator_series(r)
    x_hi = float(max(r.tile_sizes))
    y_hi = max(r.flops_per_byte_by_tile)
    left, top, pw, ph = line_plot(
        c, 6.0, y + 5.0, plot_w, plot_h, series, theme, x_label="tile side T",
        y_label="FLOPs per byte", x_range=(0.0, x_hi), y_range=(0.0, y_hi),
        marks=marks, key="plot:flops_per_byte")
    if marks:
        # The plot rounds its top up to a tick; read it back from the data area.
        y_top = max(y_hi, nice_ticks(0.0, y_hi)[-1])
        mx = left + r.tile / x_hi * pw
        my = top + ph - r.tile_flops_per_byte / y_top * ph
        c.text(mx + 1.8, my + em * 1.3, f"{r.tile} × {r.tile}: {r.tile_flops_per_byte:.2f}",
               small, fg, bold=True)
    tx = 6.0 + plot_w + 6.0
    ty = y + 10.0
    lines = (
        ("Naive FP32, per output:", True),
        ("2 float loads per MAC + 1 float store", False),
        (f"2K / (8K + 4) = {r.naive_flops_per_byte:.3f} FLOPs/byte → 1/4", False),
        ("", False),
        ("T × T output tile, cooperative loads:", True),
        ("A panel T × K + B panel K × T, once: 8TK bytes", False),
        ("T² stores: 4T² bytes; 2T²K FLOPs", False),
        ("2T²K / (8TK + 4T²) = T / (4 + 2T/K)", False),
        ("", False),
        (f"T = {r.tile}, K = {r.k_dim}: {r.tile_flops_per_byte:.3f} FLOPs/byte", True),
        (f"large K: T/4 = {r.tile_flops_per_byte_limit:g} FLOPs/byte", True),
        (f"= T/2 = {r.tile_macs_per_loaded_element:g} MACs per loaded element", False),
    )
    for text, bold in lines:
        if text:
            c.text(tx, ty, text, small, fg if bold else muted, bold=bold)
        ty += em * (1.2 if text else 0.6)
    return y + 5.0 + plot_h


def build(result: GemmResult, selection: frozenset[str], theme: Theme) -> Figure:
    return build_for_type_size(_build, result, selection, theme)


def _build(result: GemmResult, selection: frozenset[str], theme: Theme) -> Figure:
    c = Canvas()
    focus = _focus(selection)
    fg = theme.foreground
    em = theme.text_pt * PT_TO_MM
    c.text(6.0, 6.0, "Matrix multiplication as a reuse problem: C = A · B", theme.title_pt, fg,
           bold=True)
    same = "the same" if result.same_values else "DIFFERENT"
    c.text(6.0, 6.0 + em * 1.5, "k is revealed two positions at a time.", theme.small_pt,
           theme.muted)
    c.text(6.0, 6.0 + em * 2.6, f"Every strategy performs {result.macs} multiply-accumulates "
           f"and produces {same} {result.outputs} values.", theme.small_pt, theme.muted)
    with c.group(name="walkthrough"):
        y = _walkthrough(c, result, 6.0 + em * 3.4, focus, theme)
    x = 6.0
    bottom = y
    with c.group(name="strategies"):
        for name in STRATEGIES:
            bottom = max(bottom, _strategy(c, result.strategies[name], x, y + 2.0, focus,
                                           selection, theme))
            x += PANEL_W + 3.5
        _legend(c, 6.0, bottom + 1.0, theme)
    with c.group(name="calculator"):
        end = _calculator(c, result, bottom + 4.0 + 4.4 * theme.small_pt * PT_TO_MM, theme)
    return c.figure(WIDTH, end + 3.0, theme.background,
                    title="GEMM: matrix multiplication as reuse",
                    description="Walkthrough of C = A·B, three ownership strategies, and the "
                    "requested-bytes calculator.")


# --------------------------------------------------------------------------- larger type
