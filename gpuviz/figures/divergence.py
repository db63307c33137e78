"""The divergence figure: the control-flow graph with each branch's reconvergence point, the
pre-Volta SIMT stack trace with every active mask, and the issue order before and after Volta.

The CFG (``divergence_graph.py``, its labels placed by ``divergence_labels.py``): blocks in layers from the entry, edges with arrowheads and
their lane predicates beside them; each reconvergence point (a branch's immediate post-dominator)
is outlined and names its branches. The stack trace: one row per push, issue, pop or jump, with the mask as a strip of lanes.
The issue orders: one cell per issued instruction, pre-Volta (one path after the other) and Volta
(paths interleaved). Each block that issues instructions has its own mark, a colour and a
pattern (so a grey print keeps them apart); blocks that issue nothing are drawn plain.

Keys: ``node:<name>`` (a block, and every issued instruction of it), ``edge:<source>-><target>``,
``step:<i>`` (a row of the stack trace), ``lane:<l>`` (a lane column of the mask strips).
"""

from __future__ import annotations

from itertools import islice

from gpuviz import keys
from gpuviz.figures.budget import over_budget
from gpuviz.figures.display import Figure, Hatch, Style, Text, walk
from gpuviz.figures.divergence_graph import (
    cfg_min_width,
    graph_block,
    plain_style,
    reconvergence_style,
)
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    by_width,
    compose,
    counted,
    format_number,
    format_percent,
    legend_block,
    line_step,
    place,
    wrap,
)
from gpuviz.figures.lint_distinct import MIN_DELTA_E, MIN_LIGHTNESS_STEP, delta_e
from gpuviz.figures.metrics import FontKind, cap_height, descent, room_width, text_width
from gpuviz.figures.text_blocks import table_block
from gpuviz.figures.theme import Theme, gray_of_lightness, printed_lightness
from gpuviz.models.divergence import DivergenceResult

MAX_ROWS = 36
PAGE_ROWS = 16  # the stack's events on a page that cannot hold MAX_ROWS in its type
MAX_CELLS = 160
PATTERNS: tuple[Hatch | None, ...] = (None, "diagonal", "dots", "cross", "horizontal")


def build(result: DivergenceResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    marks = _marks(r, theme)
    title = (f"Divergence: {format_number(r.issued)} instructions issued, lane efficiency "
             f"{format_percent(r.lane_efficiency)}")
    # the subtitle speaks of the parts shown: the graph's rule, the stack's order
    subtitle = " ".join(
        s for s, parts in (("A branch reconverges at its immediate post-dominator (ipdom).",
                            ("graph",)),
                           ("Pre-Volta, a per-warp stack runs one path, then the other.",
                            ("stack", "issue", "efficiency")))
        if target.shows(*parts))

    grow = [True]  # the graph's layers grow for crowded labels, where the page allows
    under = [False]  # on a page: the issue orders under the stack, beside the graph
    rows = [MAX_ROWS]  # the stack's events drawn (on a page, fewer where they are the tallest)

    def body(width: float) -> list[Block]:
        trace_min = _trace_min_width(r, theme)
        # Large type needs more room around the graph for its predicates and notes.
        room = cfg_min_width(r, theme) + max(0.0, theme.small_pt - 7.0) * 8.0
        beside = target.shows("stack") and width - trace_min - 5.0 >= room
        cfg_w = width - trace_min - 5.0 if beside else min(width, 140.0)
        cfg = graph_block(r, selection, theme, marks, cfg_w, grow[0])
        trace_w = width - cfg.width - 5.0 if beside else width
        stack = as_part("stack", _trace(r, selection, theme, trace_w, rows[0]))
        if beside and under[0] and target.shows("issue"):
            # a slide or a view, whose height is short: the issue orders under the stack,
            # beside the graph, not under both (a deep graph drew the whole slide in 6 pt,
            # the room under the stack empty)
            issue = as_part("issue", _orders(r, selection, theme, marks, trace_w))
            both = BlockCanvas()
            place(both, stack, 0.0, 0.0)
            place(both, issue, 0.0, stack.height + 5.0)
            return [as_part("graph", cfg),
                    both.block(max(stack.width, issue.width), stack.height + 5.0
                                 + issue.height, "stack and issue")]
        return [as_part("graph", cfg), stack,
                as_part("issue", _orders(r, selection, theme, marks, width))]

    def side(width: float) -> list[Block]:
        # the graph's nodes name themselves; the issue orders' cells are known by their mark
        blocks, stack = ("issue",), ("stack",)
        entries = [LegendEntry(f"block {n}", marks[n], parts=blocks) for n in r.nodes
                   if n in marks]
        entries += [LegendEntry("reconvergence point (ipdom)", reconvergence_style(theme),
                                parts=("graph",)),
                    LegendEntry("active lane", theme.fill("valid"), parts=stack),
                    LegendEntry("masked lane", theme.fill("masked"), parts=stack)]
        if any(k.partition(":")[0] in ("node", "edge", "step", "lane") for k in selection):
            entries.append(LegendEntry("selected", theme.highlight(), "selection"))
        rows: list[tuple[str, str]] = [
            ("issued", f"{format_number(r.issued)} instructions"),
            ("lane-instructions", f"{format_number(r.lane_instructions)} of "
                                  f"{format_number(r.issued * r.warp_size)} lane slots"),
            ("lane efficiency", format_percent(r.lane_efficiency)),
            ("deepest stack", str(r.max_depth))]
        for g in r.regions:
            rows.append((f"region {g.branch} → {g.reconverge or 'exit'}",
                         f"{format_number(g.issued)} issued, {format_percent(g.lane_efficiency)} "
                         f"of the {g.mask.bit_count()} lanes active at the branch"))
        return [legend_block(entries, theme, width, target=target),
                as_part("efficiency", _efficiency_table(rows, theme, width))]

    def composed() -> Figure:
        # body and side read only the width (and ``grow``, fixed for one composition): each
        # width built once per composition (a slide's search asks a dozen widths 30 times)
        return compose(target, theme, title=title, subtitle=subtitle, body=by_width(body),
                       side=by_width(side),
                       natural_width=195.0, figure_title="gpuviz divergence",
                       description=f"A {r.warp_size}-lane warp through a control-flow graph "
                                   f"of {counted(len(r.nodes), 'block')}: "
                                   f"{counted(r.issued, 'instruction')} issued at "
                                   f"{format_percent(r.lane_efficiency)} lane efficiency, a "
                                   f"reconvergence stack {r.max_depth} deep.")

    figure = composed()
    if target.shows("graph") and over_budget(figure, target):
        # a page with a budget (a journal column's height, a slide's type) keeps the graph's
        # layers as short as its labels' halos allow: a label on its edge, not a refusal; on a
        # page the issue orders may go under the stack too, and the stack draw its first
        # events only. Where every way misses the budget, the one in the largest type (a
        # slide of a deep graph at 7.3 pt, not 6.9)
        grow[0] = False
        tried = [composed()]
        if target.paged:  # and the issue orders beside the graph, under the stack; and the
            # stack's first PAGE_ROWS events, the rest counted
            for under[0], rows[0] in ((True, MAX_ROWS), (False, PAGE_ROWS), (True, PAGE_ROWS)):
                if rows[0] < len(r.trace) or rows[0] == MAX_ROWS:
                    tried.append(composed())
        within = [f for f in tried if not over_budget(f, target)]
        best = within[0] if within else max(tried, key=_least_type)
        if within or _least_type(best) > _least_type(figure):
            figure = best
    return figure


def _least_type(figure: Figure) -> float:
    """The smallest type size in ``figure``, in points."""
    return min((item.size for item in walk(figure.items) if isinstance(item, Text)),
               default=0.0)


def _marks(r: DivergenceResult, theme: Theme) -> dict[str, Style]:
    """Each block that issues instructions: its own category colour, the same in every theme
    (the palette after its first, blue, which means an active lane), lighter tints once they
    run out, and its own pattern, a second channel for colour-blind readers and print. Past
    the patterns (five), a block shares its pattern with an earlier one: its colour is then
    the first, from its own on, that stays apart from theirs and from the lanes' swatches
    (:func:`_apart`; six blocks put two yellows of one gray on one pattern)."""
    out: dict[str, Style] = {}
    issuing = [n for n in r.nodes if r.instructions.get(n, 0) > 0]
    palette = theme.palette[1:]
    k = len(palette)
    lanes = [theme.fill("valid"), theme.fill("masked")]
    for i, name in enumerate(issuing):
        hatch = PATTERNS[i % len(PATTERNS)]
        own = theme.mix(palette[i % k], 1.0 - 0.4 * (i // k % 3))
        taken = [st.fill for st in [*out.values(), *lanes] if st.hatch == hatch and st.fill]
        candidates = [own] + [theme.mix(palette[(i + j) % k], t) for t in (1.0, 0.6, 0.2)
                              for j in range(k)]
        if theme.hatches:  # print: the hues at gray levels a step apart as well
            candidates += [theme.at_gray(palette[i % k], gray_of_lightness(v))
                           for v in (38.0, 50.0, 62.0, 74.0, 86.0)]
        colour = next((col for col in candidates if _apart(col, taken, theme)), own)
        ink = theme.ink_on(colour)
        out[name] = Style(fill=colour, stroke=theme.outline, stroke_width=theme.thin_mm,
                          hatch=hatch, hatch_color=ink if hatch else None)
    return out


def _apart(colour: str, taken: list[str], theme: Theme) -> bool:
    """Whether ``colour`` reads apart from every one of ``taken`` (swatches of its pattern):
    ΔE 10 on a screen, 12 L* as printed where the theme must survive grayscale."""
    if theme.hatches:
        return all(abs(printed_lightness(colour) - printed_lightness(t)) >= MIN_LIGHTNESS_STEP
                   for t in taken)
    return all(delta_e(colour, t) >= MIN_DELTA_E for t in taken)


def _heading(c: BlockCanvas, text: str, theme: Theme, width: float) -> tuple[float, float]:
    """A bold section heading wrapped to ``width``; returns the y below it and its width."""
    lines = wrap(text, theme.text_pt, width, bold=True)
    y = cap_height(theme.text_pt)
    for i, line in enumerate(lines):
        c.text(0.0, y + i * line_step(theme.text_pt), line, theme.text_pt, theme.foreground,
               bold=True)
    used = max(text_width(line, theme.text_pt, bold=True) for line in lines)
    return y + (len(lines) - 1) * line_step(theme.text_pt) + descent(theme.text_pt) + 1.5, used


# --------------------------------------------------------------------------------------------
# The pre-Volta stack trace


LEAST_LANE = 0.3  # mm: a lane's bar in the stack table at its narrowest


def _trace_columns(r: DivergenceResult, pt: float) -> dict[str, float]:
    events = r.trace[:MAX_ROWS]
    gap = 2.0

    def column(title: str, values: list[str], font: FontKind = "mono") -> float:
        # the heading is set in the text face, with room for a wider one (SVG text as text)
        return max(room_width(title, pt, bold=True),
                   *(text_width(v, pt, font, bold=True) for v in values)) + gap

    return {
        "step": column("#", [str(e.step) for e in events]),
        "op": column("action", [_op(e) for e in events], "sans"),
        "pc": column("PC", [e.node or "exit" for e in events]),
        "rpc": column("reconv.", [e.reconverge or "exit" for e in events]),
        "depth": column("depth", [str(e.depth) for e in events]),
    }


def _op(e) -> str:
    return e.op + (f" ×{e.instructions}" if e.instructions else "")


def _trace_min_width(r: DivergenceResult, theme: Theme) -> float:
    return sum(_trace_columns(r, theme.small_pt).values()) + r.warp_size * 1.0 + 2.0


_TRACES: Kept[Block] = Kept(32)  # the stack's table: a layout search draws it at a few widths


def _trace(r: DivergenceResult, selection: frozenset[str], theme: Theme, width: float,
           rows: int = MAX_ROWS) -> Block:
    return _TRACES.get((r, theme), (selection, width, rows),
                       lambda: _trace_drawn(r, selection, theme, width, rows))


def _trace_drawn(r: DivergenceResult, selection: frozenset[str], theme: Theme,
                 width: float, rows: int = MAX_ROWS) -> Block:
    """The stack's events, the first ``rows`` of them (the rest counted)."""
    c = BlockCanvas()
    pt = theme.small_pt
    fg, muted = theme.foreground, theme.muted
    head = cap_height(theme.text_pt)
    c.text(0.0, head, "Pre-Volta SIMT stack", theme.text_pt, fg, bold=True)
    events = r.trace[:rows]
    w = _trace_columns(r, pt)
    # the lanes take what the other columns leave, down to LEAST_LANE a lane (a wavefront of 64
    # beside two 8-letter block names in a column: at 0.6 mm the depth ran off the page)
    mask_w = max(width - sum(w.values()) - 2.0, r.warp_size * LEAST_LANE)
    lane_w = min(2.6, mask_w / r.warp_size)
    cols = {"step": 0.0}
    cols["op"] = cols["step"] + w["step"]
    cols["pc"] = cols["op"] + w["op"]
    cols["mask"] = cols["pc"] + w["pc"]
    # the lanes' heading over their bars, shorter where a wider face would overrun them
    mask_title = ("active lanes" if room_width("active lanes", pt, bold=True)
                  <= lane_w * r.warp_size + 1.0 else "lanes")
    cols["rpc"] = cols["mask"] + max(lane_w * r.warp_size,
                                     room_width(mask_title, pt, bold=True)) + 2.0
    cols["depth"] = cols["rpc"] + w["rpc"]
    right = cols["depth"] + w["depth"]
    top = head + descent(theme.text_pt) + 1.5 + cap_height(pt)
    for name, title in (("step", "#"), ("op", "action"), ("pc", "PC"), ("mask", mask_title),
                        ("rpc", "reconv."), ("depth", "depth")):
        c.text(cols[name], top, title, pt, muted, bold=True)
    row = max(line_step(pt) * 1.1, 3.2)
    y = top + descent(pt) + 0.6
    on, off, on_keys = [], [], []
    for e in events:
        key = keys.key("step", e.step)
        base = y + row / 2
        with c.group(key):
            c.text(cols["step"], base, str(e.step), pt, fg, font="mono", baseline="middle")
            c.text(cols["op"], base, _op(e), pt, fg, baseline="middle")
            c.text(cols["pc"], base, e.node or "exit", pt, fg, font="mono", bold=e.op == "issue",
                   baseline="middle")
            c.text(cols["rpc"], base, e.reconverge or "exit", pt, muted, font="mono",
                   baseline="middle")
            c.text(cols["depth"], base, str(e.depth), pt, fg, font="mono", baseline="middle")
        for lane in range(r.warp_size):
            cell = (cols["mask"] + lane * lane_w, y + row * 0.15, lane_w * 0.85, row * 0.7)
            if (e.mask >> lane) & 1:
                on.append(cell)
                on_keys.append(keys.key("lane", lane))
            else:
                off.append(cell)
        if key in selection:
            theme.select(c, -0.4, y, right + 0.8, row)
        y += row
    c.rects(on, theme.fill("valid"), keys=on_keys)
    c.rects(off, theme.fill("masked"))
    first = top + descent(pt) + 0.6
    for lane in sorted(keys.numbers(selection, "lane")):
        if 0 <= lane < r.warp_size:
            theme.select(c, cols["mask"] + lane * lane_w - 0.2, first, lane_w * 0.85 + 0.4,
                         row * len(events))
    if len(r.trace) > rows:
        c.text(0.0, y + cap_height(pt) + 0.8, f"… {len(r.trace) - rows} more events", pt,
               muted)
        y += row
    return c.block(right + 0.4, y + 0.4, "stack trace")


# --------------------------------------------------------------------------------------------
# The issue orders


def _full_height_style(theme: Theme) -> Style:
    """The outline of an issue cell's full height, every lane active: the theme's outline, thin,
    with no fill (the bar inside it is the share of lanes that issued)."""
    return Style(fill=None, stroke=theme.outline, stroke_width=theme.thin_mm)


# the issue orders: a layout search draws them at every width it tries, a slide's page search
# at the same widths again (``marks`` are the result's in the theme, so not in the key)
_ORDERS: Kept[Block] = Kept(128)


def _orders(r: DivergenceResult, selection: frozenset[str], theme: Theme,
            marks: dict[str, Style], width: float) -> Block:
    return _ORDERS.get((r, theme), (selection, width),
                       lambda: _orders_drawn(r, selection, theme, marks, width))


def _orders_drawn(r: DivergenceResult, selection: frozenset[str], theme: Theme,
                  marks: dict[str, Style], width: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    fg = theme.foreground
    y, heading_w = _heading(c, "Issue order, one cell per instruction (height: active lanes)",
                            theme, width)
    # only the cells drawn are expanded: a long run is stored as runs, not instructions
    stack_order = list(islice(((e.node, e.mask) for e in r.trace if e.op == "issue"
                               for _ in range(e.instructions)), MAX_CELLS))
    volta_order = [(node, mask) for node, _, mask in r.volta_order[:MAX_CELLS]]
    label_w = text_width("Volta interleaved", pt) + 2.0
    shown = min(len(stack_order), MAX_CELLS)
    cell = min(6.0, (width - label_w) / max(shown, 1))
    h = 6.0
    for title, order in (("pre-Volta stack", stack_order), ("Volta interleaved", volta_order)):
        c.text(0.0, y + h / 2, title, pt, fg, baseline="middle")
        by_node: dict[str, list[tuple[float, float, float, float]]] = {}
        for i, (node, mask) in enumerate(order[:shown]):
            frac = mask.bit_count() / r.warp_size
            x = label_w + i * cell
            by_node.setdefault(node, []).append((x, y + h * (1 - frac), cell * 0.85, h * frac))
        c.rect(label_w, y, cell * shown, h, Style(fill=theme.surface))
        # each cell's full height (32 lanes) outlined: the reference its bar is read against,
        # kept where the surface is the paper itself (print)
        c.rects([(label_w + i * cell, y, cell * 0.85, h) for i in range(len(order[:shown]))],
                _full_height_style(theme))
        for node, cells in by_node.items():
            key = keys.key("node", node)
            c.rects(cells, marks.get(node, plain_style(theme)), keys=[key] * len(cells))
            if key in selection:
                for x, cy, w, ch in cells:
                    theme.select(c, x, cy, w, ch)
        y += h + 2.0
    if r.issued > shown:
        c.text(label_w, y + cap_height(pt), f"first {shown} of {format_number(r.issued)} "
               "instructions", pt, theme.muted)
        y += line_step(pt)
    return c.block(min(width, max(heading_w, label_w + cell * shown)), y - 2.0 + 0.3,
                   "issue order")


def _efficiency_table(rows: list[tuple[str, str]], theme: Theme, width: float) -> Block:
    """The lane efficiency's quantities as a table under its heading: a label and a value in
    columns (a receipt of "label: value" lines wrapped in a narrow column read as prose)."""
    c = BlockCanvas()
    size = theme.small_pt
    c.text(0.0, cap_height(size), "Lane efficiency", size, theme.foreground, bold=True)
    table = table_block(("", ""), rows, theme, width, size=size, name="efficiency")
    top = line_step(size) + 0.4
    place(c, table, 0.0, top)
    used = max(table.width, room_width("Lane efficiency", size, bold=True))
    return c.block(min(width, used), top + table.height, "receipt")
