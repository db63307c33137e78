"""The divergence figure's ``graph`` part: the control-flow graph in layers from the entry, each
block a box with its name and instruction count (hatched blocks keep their hatch in bands
above and below the text), edges with arrowheads spread along the nodes they meet and
their lane predicates beside them, and each reconvergence point (a branch's immediate
post-dominator) outlined and naming the branches that reconverge there. Where the predicates
and notes go is ``divergence_labels.py``'s, as is the record of the layout they are placed on
(``Graph``), which this module lays out and draws.

A selected block's double outline runs close around its box (a selected reconvergence point's
own box is dashed instead of the dashed outline the thick one would cover), and an arrow into a
block ends at the outer edge of its outermost outline, so that its head stays in sight: the room
between two layers leaves every arrow its head and some line outside the outline its block would
have if selected.

Keys: ``node:<name>`` (a block), ``edge:<source>-><target>`` (an edge and its predicate).
"""

from __future__ import annotations

from gpuviz import keys
from gpuviz.figures.display import Style, arrow_head_width
from gpuviz.figures.divergence_labels import (
    CLEARANCE,
    Crowded,
    Edge,
    Graph,
    Label,
    grown,
    label_boxes_of,
    placed,
)
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import Block, BlockCanvas, line_step
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.divergence import DivergenceResult

ARROW_ROOM = 4.5  # mm at least between two layers whose edges carry no predicate
MIN_SHAFT = 1.0  # mm of an arrow's line left showing above its head
HATCH_FRAME = 0.8  # mm of room a hatched node adds for its hatch's bands beside its labels
RECONVERGENCE_RING = 0.8  # mm from a reconvergence point's box to the middle of its dashed outline
SELECT_GAP = 0.3  # mm between a block's box and its selection outline
TIP_GAP = 0.3  # mm between an arrow's tip and the outermost outline of the block it points at
# A graph with more crowded labels than this is too dense for its width for taller layers to
# mend (a 64-block ladder at 117 mm: 61), and placing them all again costs as much as the first
# time: it keeps its halos (a layout search tries it wider).
GROW_AT_MOST = 16
GUTTER_CLEAR = 1.2  # mm between an edge's gutter and a block's outline (as if selected)
LINES_APART = 1.2  # mm between two edges' gutters past one layer


def plain_style(theme: Theme) -> Style:
    """A block that issues nothing."""
    return Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm)


def reconvergence_style(theme: Theme) -> Style:
    """The dashed outline of a reconvergence point."""
    return theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5))


def selection_ring(theme: Theme) -> float:
    """How far outside a block's box the middle of its selection outline runs: close around
    the box (a selected reconvergence point's box is outlined dashed itself, as the thick
    outline would hide a dashed outline around it: the selected x_join showed no sign of
    being one), so that an arrow into it keeps its head in the room between two layers."""
    return SELECT_GAP + theme.highlight().stroke_width / 2


def reach(theme: Theme, reconverges: bool, selected: bool) -> float:
    """How far outside its box a block's outermost outline reaches (its outer edge; 0 for a
    bare box)."""
    if selected:
        return selection_ring(theme) + theme.highlight().stroke_width / 2
    if reconverges:
        return RECONVERGENCE_RING + reconvergence_style(theme).stroke_width / 2
    return 0.0


def _node_size(r: DivergenceResult, pt: float, one_line: bool = False,
               tight: bool = False) -> tuple[float, float]:
    """A node's box: its name and instruction count on two lines (or one, where the graph is
    wide), and room around them where its hatch stays visible (beside them only, where the
    graph is ``tight``: a page's height to keep to, its hatch then in bands at its sides)."""
    if one_line:
        node_w = max(text_width(n, pt, "mono", True) + text_width("  ", pt, bold=True)
                     + text_width(_count(r, n), pt) for n in r.nodes)
    else:
        node_w = max(max(text_width(n, pt, "mono", True), text_width(_count(r, n), pt))
                     for n in r.nodes)
    lines = 1 if one_line else 2
    return (node_w + 2.4 + 2 * HATCH_FRAME,
            lines * line_step(pt) + 1.0 + (0.0 if tight else HATCH_FRAME))


def _count(r: DivergenceResult, name: str) -> str:
    return f"{r.instructions[name]} instr."


def cfg_min_width(r: DivergenceResult, theme: Theme) -> float:
    widest = max(sum(1 for n in r.nodes if r.layer[n] == layer) for layer in set(r.layer.values()))
    return max(62.0, widest * (_node_size(r, theme.small_pt)[0] + 4.0))


# graphs: a view's layout search draws one at a few widths; a slide's, at some 23 widths with
# the layers grown and again kept short (46 keys), visited in turn by each design it tries and
# again by each page of parts tried: 32 kept none of them to its next visit (a deck's step
# drew 266 graphs where 69 differ)
_DRAWN: Kept[Block] = Kept(128)


def graph_block(r: DivergenceResult, selection: frozenset[str], theme: Theme,
                marks: dict[str, Style], width: float, grow: bool = True) -> Block:
    """The graph; where some label finds no clear place beside its edge, laid out again with
    taller branch layers and the labels of a branch's edges staggered along them (taller
    still where that gives a label a clear place, unless ``grow`` is false: a page with a
    height to keep to). ``marks`` are the figure's marks of ``r`` in ``theme``. Kept for the
    last graphs drawn (:class:`~gpuviz.figures.kept.Kept`): many designs give the graph the
    same width."""

    def drawn() -> Block:
        try:
            return _cfg_drawn(r, selection, theme, marks, width, stagger=False)[0]
        except Crowded:  # given up at the first crowded label: that drawing is not shown
            return _cfg_drawn(r, selection, theme, marks, width, stagger=True, grow=grow)[0]

    return _DRAWN.get((r, theme), (selection, width, grow), drawn)


def _cfg_drawn(r: DivergenceResult, selection: frozenset[str], theme: Theme,
               marks: dict[str, Style], width: float, stagger: bool,
               grow: bool = True) -> tuple[Block, bool]:
    """The graph drawn at ``width``: plain (raising :class:`Crowded` at its first crowded
    label) or staggered, where (``grow``) the layers of branches whose predicates are crowded
    grow tall enough to give them a clear place, where one can (:func:`grown`; kept where
    that leaves fewer labels crowded)."""
    g = _laid_out(r, theme, width, stagger, {}, not grow)
    reconvergence = _reconvergence(r)
    drawn = {n: reach(theme, n in reconvergence, keys.key("node", n) in selection)
             for n in r.nodes}
    labels, crowded = placed(r, g, theme, stagger, drawn)
    if grow and 0 < len(crowded) <= GROW_AT_MOST:
        more_room = grown(r, g, theme, crowded)
        if more_room:
            taller = _laid_out(r, theme, width, stagger, more_room, not grow)
            more, still = placed(r, taller, theme, stagger, drawn)
            if len(still) < len(crowded):
                g, labels, crowded = taller, more, still
    return _drawing(r, g, labels, selection, theme, marks), bool(crowded)


def _laid_out(r: DivergenceResult, theme: Theme, width: float, stagger: bool,
              grown: dict[int, float], tight: bool = False) -> Graph:
    """Blocks in layers spread over ``width``, the layers as far apart as :func:`_rooms` has
    them (``grown`` mm more below the layers named); ``tight``: a page's height to keep to."""
    pt = theme.small_pt
    layers: dict[int, list[str]] = {}
    for name in r.nodes:
        layers.setdefault(r.layer[name], []).append(name)
    widest = max(len(names) for names in layers.values())
    one_line = widest * (_node_size(r, pt, True)[0] + 4.0) <= width
    node_w, node_h = _node_size(r, pt, one_line, tight)
    reconvergence = _reconvergence(r)
    ring = {n: max(reach(theme, n in reconvergence, s) for s in (False, True)) for n in r.nodes}
    first = max(ring[n] for n in layers[min(layers)])
    top = cap_height(theme.text_pt) + descent(theme.text_pt) + max(2.2, first + CLEARANCE)
    x = {name: width / len(names) * (i + 0.5)
         for names in layers.values() for i, name in enumerate(names)}
    spread = _spread(r, x, node_w)
    gutter = _gutters(r, layers, x, spread, node_w, ring, width)
    room = _rooms(r, theme, sorted(layers), spread, ring, stagger, grown, gutter)
    layer_y, y = {}, top
    for layer in sorted(layers):
        layer_y[layer] = y
        y += node_h + room[layer]
    pos = {name: (x[name], layer_y[r.layer[name]]) for name in r.nodes}
    legs: dict[Edge, tuple[tuple[float, float], ...]] = {}
    ends = {}
    for s, t, _ in r.edges:
        a, b = (spread[(s, t)][0], pos[s][1] + node_h), (spread[(s, t)][1], pos[t][1])
        if (s, t) in gutter:  # into its gutter at the next layer's top, down it past the
            # blocks between, and out of it at the last one's bottom
            xg = gutter[(s, t)]
            into = (xg, layer_y[r.layer[s] + 1])
            legs[(s, t)] = (a, into, (xg, layer_y[r.layer[t] - 1] + node_h), b)
            ends[(s, t)] = (a, into)
        else:
            legs[(s, t)] = (a, b)
            ends[(s, t)] = (a, b)
    out_of: dict[str, list[str]] = {}
    for s, t, _ in r.edges:
        out_of.setdefault(s, []).append(t)
    out_of = {s: sorted(ts, key=lambda n: x[n]) for s, ts in out_of.items()}
    return Graph(pos, node_w, node_h, one_line, top, width, room, ring, ends, out_of,
                 {(s, t): p for s, t, p in r.edges}, legs)


def _gutters(r: DivergenceResult, layers: dict[int, list[str]], x: dict[str, float],
             spread: dict[Edge, tuple[float, float]], node_w: float, ring: dict[str, float],
             width: float) -> dict[Edge, float]:
    """Where each edge that skips a layer runs down past the blocks between (a straight line
    ran through them): the x nearest the middle of its ends that keeps ``GUTTER_CLEAR`` from
    the outline each block between would have if selected, and ``LINES_APART`` from the
    gutters taken before it; none where no such x is inside the graph (drawn straight)."""
    out: dict[Edge, float] = {}
    taken: dict[int, list[float]] = {}
    for s, t, _ in r.edges:
        between = range(r.layer[s] + 1, r.layer[t])
        if not between:
            continue
        blocked = [(x[n] - node_w / 2 - ring[n] - GUTTER_CLEAR,
                    x[n] + node_w / 2 + ring[n] + GUTTER_CLEAR)
                   for layer in between for n in layers.get(layer, ())]
        blocked += [(g - LINES_APART, g + LINES_APART)
                    for layer in between for g in taken.get(layer, ())]
        ideal = sum(spread[(s, t)]) / 2
        free, at = [], GUTTER_CLEAR
        for lo, hi in sorted(blocked):
            if lo > at:
                free.append((at, lo))
            at = max(at, hi)
        if width - GUTTER_CLEAR > at:
            free.append((at, width - GUTTER_CLEAR))
        if not free:
            continue
        xg = min((min(max(ideal, lo), hi) for lo, hi in free), key=lambda v: abs(v - ideal))
        out[(s, t)] = xg
        for layer in between:
            taken.setdefault(layer, []).append(xg)
    return out


def _rooms(r: DivergenceResult, theme: Theme, layers: list[int],
           spread: dict[Edge, tuple[float, float]], ring: dict[str, float], stagger: bool,
           grown: dict[int, float], gutter: dict[Edge, float]) -> dict[int, float]:
    """The room below each layer: for each arrow into the next layer its head and some line
    clear of the outline its block would have if selected (``ring``), and below a branch
    layer room for its predicates (``grown`` mm more below the layers named)."""
    label_h = ink_height(theme.small_pt, "mono")
    # room for a predicate beside its edge, with a label height to spare above and below
    label_room = 2.5 * label_h + 2.0
    if stagger:  # two labels at 0.28 and 0.72 of the edge: a clear line apart, clear of nodes
        label_room = max(label_room, (label_h + 1.3) / 0.44, (label_h / 2 + 1.3) / 0.28) + 0.2
    head = arrow_head_width(theme.line_mm) * 1.4 + MIN_SHAFT  # as long as arrow_head draws it
    room = dict.fromkeys(layers, ARROW_ROOM)
    for s, t, _ in r.edges:
        if r.layer[t] == r.layer[s] + 1:
            drop = _arrow_room(spread[(s, t)], head, ring[t] + TIP_GAP)
            room[r.layer[s]] = max(room[r.layer[s]], drop)
        elif (s, t) in gutter:  # its last leg, out of its gutter into its target
            drop = _arrow_room((gutter[(s, t)], spread[(s, t)][1]), head, ring[t] + TIP_GAP)
            room[r.layer[t] - 1] = max(room[r.layer[t] - 1], drop)
    for layer in {r.layer[b] for b in r.branches}:
        room[layer] = max(room[layer], label_room + grown.get(layer, 0.0))
    return room


def _arrow_room(xs: tuple[float, float], head: float, behind: float) -> float:
    """The least drop (at least ``ARROW_ROOM``) from a block to the next layer that leaves an
    edge running from ``xs[0]`` to ``xs[1]`` ``head`` mm long where it ends ``behind`` mm
    above the next block (on the line to its box); a slanting edge needs less drop than a
    plumb one."""
    run = abs(xs[1] - xs[0])

    def length(drop: float) -> float:
        return (drop - behind) / drop * (run * run + drop * drop) ** 0.5

    lo, hi = ARROW_ROOM, max(ARROW_ROOM, head + behind)  # plumb at hi: long enough
    if length(lo) >= head:
        return lo
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if length(mid) >= head else (mid, hi)
    return hi


def _reconvergence(r: DivergenceResult) -> set[str]:
    return {r.ipdom[b] for b in r.branches if r.ipdom[b]}


def _spread(r: DivergenceResult, x: dict[str, float], node_w: float
            ) -> dict[Edge, tuple[float, float]]:
    """Where each edge leaves its source's bottom and meets its target's top, across. Edges
    into a join end apart along its top (their arrowheads fused into one blob at its
    centre), in the order their sources stand left to right; so do edges out of a branch."""
    into: dict[str, list[str]] = {}
    out_of: dict[str, list[str]] = {}
    for src, tgt, _ in r.edges:
        into.setdefault(tgt, []).append(src)
        out_of.setdefault(src, []).append(tgt)

    def spread(names: list[str], me: str, centre: float) -> float:
        """Where the edge to or from ``me`` meets a node: the node's width shared out evenly
        among its edges (two arrowheads into a join a third of its width apart)."""
        order = sorted(names, key=lambda n: x[n])
        step = node_w / (len(order) + 1)
        return centre + (order.index(me) - (len(order) - 1) / 2) * step

    return {(src, tgt): (spread(out_of[src], tgt, x[src]), spread(into[tgt], src, x[tgt]))
            for src, tgt, _ in r.edges}


def _drawing(r: DivergenceResult, g: Graph, labels: list[Label], selection: frozenset[str],
             theme: Theme, marks: dict[str, Style]) -> Block:
    """The graph drawn: its heading, the edges (an arrow ending at the outer edge of the
    outermost outline of the block it points at), the labels, the blocks and their outlines."""
    c = BlockCanvas()
    pt = theme.small_pt
    c.text(0.0, cap_height(theme.text_pt), "Control-flow graph", theme.text_pt, theme.foreground,
           bold=True)
    reconvergence = _reconvergence(r)
    edge_style = theme.stroke("foreground", theme.line_mm)
    head = arrow_head_width(theme.line_mm) * 1.4 + MIN_SHAFT
    for src, tgt, _ in r.edges:
        key = keys.key("edge", f"{src}->{tgt}")
        outline = [reach(theme, n in reconvergence, keys.key("node", n) in selection)
                   for n in (src, tgt)]
        points = g.legs[(src, tgt)]
        if len(points) == 2:
            line = list(_drawn((points[0], points[1]), head, *outline))
        else:  # down a gutter: from its source's outline, to its target's
            line = [_drawn((points[0], points[1]), 0.0, outline[0], -TIP_GAP)[0],
                    *points[1:-1], _drawn((points[-2], points[-1]), head, 0.0, outline[1])[1]]
        with c.group(key):
            c.polyline(line, edge_style, arrow_end=True)
        if key in selection:
            c.polyline(line, theme.highlight())
    for label in labels:
        x, y, anchor = label.place
        with c.group(label.group):
            if label.halo:
                c.label(x, y, label.text, pt, label.color, knockout=theme.background,
                        anchor=anchor, baseline="middle", font=label.font)
            else:
                c.text(x, y, label.text, pt, label.color, anchor=anchor, baseline="middle",
                       font=label.font)
    for name in r.nodes:
        _node(c, r, g, name, theme, marks, selection, name in reconvergence)
    boxes = label_boxes_of(labels, pt)
    # as wide as what is drawn, so that a layout centring the graph centres what it shows
    extent = max([x + g.node_w / 2 + g.reach[n] for n, (x, _) in g.pos.items()]
                 + [o[2] for o in boxes])
    last = max(y + g.node_h for _, y in g.pos.values())
    bottom = max([y + g.node_h + g.reach[n] for n, (_, y) in g.pos.items()]
                 + [o[3] for o in boxes])
    return c.block(min(g.width, extent), max(bottom, last + 1.6), "cfg")


def _drawn(end: tuple[tuple[float, float], tuple[float, float]], head: float, source: float,
           target: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """An edge as drawn, along the line the labels were placed beside whatever is selected:
    to ``TIP_GAP`` outside the outline of its target (``target`` mm outside its box), and from
    the outline of its source (``source`` mm) as far as that leaves it ``head`` mm long (it
    showed between a box and its outlines)."""
    (ax, ay), (bx, by) = end
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 / (by - ay)  # along the line, a mm down

    def at(y: float) -> tuple[float, float]:
        return ax + (bx - ax) * (y - ay) / (by - ay), y

    tip = by - target - TIP_GAP
    return at(ay + max(0.0, min(source, tip - ay - head / length))), at(tip)


def _node(c: BlockCanvas, r: DivergenceResult, g: Graph, name: str, theme: Theme,
          marks: dict[str, Style], selection: frozenset[str], reconverges: bool) -> None:
    """A block: its box with its name and count, its dashed outline where it is a
    reconvergence point, and the selection's outline around both where it is selected."""
    pt = theme.small_pt
    x, y = g.pos[name]
    node_w, node_h = g.node_w, g.node_h
    key = keys.key("node", name)
    x0 = x - node_w / 2
    style = marks.get(name, plain_style(theme))
    selected = key in selection
    if reconverges and selected:  # its own outline dashed, inside the selection's
        style = style.with_stroke(None, 0.0)
    with c.group(key):
        # a hatched block keeps its hatch in bands above and below its labels, which stand on
        # its own colour (bands.clear_glyphs, as the figure is composed)
        c.rect(x0, y, node_w, node_h, style, radius=1.0)
        ink = theme.ink_on(style.fill or theme.surface)
        lines = 1 if g.one_line else 2
        base = y + (node_h - cap_height(pt) - descent(pt) - (lines - 1) * line_step(pt)) / 2 \
            + cap_height(pt)
        # the block's name is an identifier: in the code face, as the stack table sets it (a
        # sans face sets "ltg" as "Itg")
        if g.one_line:  # name and count grow apart from the gap between them, so a wider
            # fallback face cannot run them together
            name_w = text_width(name, pt, "mono", True)
            gap = text_width("  ", pt, bold=True)
            split = x - (name_w + gap + text_width(_count(r, name), pt)) / 2 + name_w + gap / 2
            c.text(split - gap / 2, base, name, pt, ink, anchor="end", bold=True, font="mono")
            c.text(split + gap / 2, base, _count(r, name), pt, ink)
        else:
            c.text(x, base, name, pt, ink, anchor="middle", bold=True, font="mono")
            c.text(x, base + line_step(pt), _count(r, name), pt, ink, anchor="middle")
    if reconverges:
        d = 0.0 if selected else RECONVERGENCE_RING
        c.rect(x0 - d, y - d, node_w + 2 * d, node_h + 2 * d, reconvergence_style(theme),
               radius=1.0 + d * 0.625)
    if selected:
        d = selection_ring(theme)
        theme.select(c, x0 - d, y - d, node_w + 2 * d, node_h + 2 * d, radius=1.0 + d * 2 / 3)
