"""The divergence figure's ``graph`` part: the control-flow graph in layers from the entry, each
block a box with its name and instruction count (hatched blocks keep their hatch as a frame
around clear ground for the text), edges with arrowheads spread along the nodes they meet and
their lane predicates beside them, and each reconvergence point (a branch's immediate
post-dominator) outlined and naming the branches that reconverge there.

Keys: ``node:<name>`` (a block), ``edge:<source>-><target>`` (an edge and its predicate).
"""

from __future__ import annotations

import numpy as np

from gpuviz import keys
from gpuviz.figures.display import BASELINE_SHIFT_EM, PT_TO_MM, Anchor, Style, text_box
from gpuviz.figures.display import text_width as drawn_width
from gpuviz.figures.geometry import segments_hit_boxes
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import Block, BlockCanvas, line_step
from gpuviz.figures.metrics import FontKind, cap_height, descent, ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.divergence import DivergenceResult

ARROW_ROOM = 4.5  # mm between two layers whose edges carry no predicate
LABEL_GAP = 6.0  # mm between two labels side by side: more than a word space, so two never read as one
HATCH_FRAME = 0.8  # mm of a hatched node's hatch left as a frame around its clear labels
Place = tuple[float, float, Anchor]  # where a label goes: its point and its anchor


def plain_style(theme: Theme) -> Style:
    """A block that issues nothing."""
    return Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm)


def reconvergence_style(theme: Theme) -> Style:
    """The dashed outline of a reconvergence point."""
    return theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5))


def _node_size(r: DivergenceResult, pt: float, one_line: bool = False) -> tuple[float, float]:
    """A node's box: its name and instruction count on two lines (or one, where the graph is
    wide), and a frame around them where its hatch stays visible."""
    if one_line:
        node_w = max(text_width(n, pt, bold=True) + text_width("  ", pt, bold=True)
                     + text_width(_count(r, n), pt) for n in r.nodes)
    else:
        node_w = max(max(text_width(n, pt, bold=True), text_width(_count(r, n), pt))
                     for n in r.nodes)
    lines = 1 if one_line else 2
    return node_w + 2.4 + 2 * HATCH_FRAME, lines * line_step(pt) + 1.0 + HATCH_FRAME


def _count(r: DivergenceResult, name: str) -> str:
    return f"{r.instructions[name]} instr."


def _label_boxes(text: str, pt: float, font: FontKind,
                 places: list[Place]) -> list[tuple[float, float, float, float]]:
    """The box ``text_box(t, 0.3)`` gives a label ``text`` set at each place (middle baseline,
    not bold, not rotated), without drawing it there."""
    w = drawn_width(text, pt, font)
    base = BASELINE_SHIFT_EM["middle"] * pt * PT_TO_MM
    top, bottom = base - cap_height(pt, font) - 0.3, base + descent(pt, font) + 0.3
    out = []
    for x, y, anchor in places:
        x0 = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor]
        fx, fy = float(x), float(y)
        out.append((fx + (x0 - 0.3), fy + top, fx + (x0 + w + 0.3), fy + bottom))
    return out


def cfg_min_width(r: DivergenceResult, theme: Theme) -> float:
    widest = max(sum(1 for n in r.nodes if r.layer[n] == layer) for layer in set(r.layer.values()))
    return max(62.0, widest * (_node_size(r, theme.small_pt)[0] + 4.0))


_DRAWN: Kept[Block] = Kept(32)  # graphs: a view's layout search draws one at a few widths


def graph_block(r: DivergenceResult, selection: frozenset[str], theme: Theme,
                marks: dict[str, Style], width: float) -> Block:
    """The graph; where some label finds no clear place beside its edge, laid out again with
    taller branch layers and the labels of a branch's edges staggered along them. ``marks``
    are the figure's marks of ``r`` in ``theme``. Kept for the last graphs drawn
    (:class:`~gpuviz.figures.kept.Kept`): many designs give the graph the same width."""

    def drawn() -> Block:
        try:
            return _cfg_drawn(r, selection, theme, marks, width, stagger=False)[0]
        except _Crowded:  # given up at the first crowded label: that drawing is not shown
            return _cfg_drawn(r, selection, theme, marks, width, stagger=True)[0]

    return _DRAWN.get((r, theme), (selection, width), drawn)


class _Crowded(Exception):
    """A label found no clear place in the plain layout: the staggered one is drawn instead."""


def _cfg_drawn(r: DivergenceResult, selection: frozenset[str], theme: Theme,
               marks: dict[str, Style], width: float, stagger: bool) -> tuple[Block, bool]:
    c = BlockCanvas()
    pt = theme.small_pt
    fg = theme.foreground
    head = cap_height(theme.text_pt)
    c.text(0.0, head, "Control-flow graph", theme.text_pt, fg, bold=True)
    layers: dict[int, list[str]] = {}
    for name in r.nodes:
        layers.setdefault(r.layer[name], []).append(name)
    widest = max(len(names) for names in layers.values())
    one_line = widest * (_node_size(r, pt, True)[0] + 4.0) <= width
    node_w, node_h = _node_size(r, pt, one_line)
    cfg_w = width
    top = head + descent(theme.text_pt) + 2.2
    # Layers whose edges carry predicates get room for them; the others are closer.
    labelled = {r.layer[b] for b in r.branches}
    layer_y = {}
    y = top
    # room for a predicate beside its edge, with a label height to spare above and below
    label_h = ink_height(pt, "mono")
    label_room = 2.5 * label_h + 2.0
    if stagger:  # two labels at 0.28 and 0.72 of the edge: a clear line apart, clear of nodes
        label_room = max(label_room, (label_h + 1.3) / 0.44, (label_h / 2 + 1.3) / 0.28) + 0.2
    for layer in sorted(layers):
        layer_y[layer] = y
        y += node_h + (label_room if layer in labelled else ARROW_ROOM)
    pos: dict[str, tuple[float, float]] = {}
    for layer, names in layers.items():
        step = cfg_w / len(names)
        for i, name in enumerate(names):
            pos[name] = (step * (i + 0.5), layer_y[layer])
    reconvergence = {r.ipdom[b] for b in r.branches if r.ipdom[b]}
    edge_style = theme.stroke("foreground", theme.line_mm)
    segs: list[tuple[float, float, float, float]] = []
    # Edges into a join end apart along its top (their arrowheads fused into one blob at its
    # centre), in the order their sources stand left to right; so do edges out of a branch.
    into: dict[str, list[str]] = {}
    out_of: dict[str, list[str]] = {}
    for src, tgt, _ in r.edges:
        into.setdefault(tgt, []).append(src)
        out_of.setdefault(src, []).append(tgt)

    def spread(names: list[str], me: str, centre: float) -> float:
        """Where the edge to or from ``me`` meets a node: the node's width shared out evenly
        among its edges (two arrowheads into a join a third of its width apart)."""
        order = sorted(names, key=lambda n: pos[n][0])
        step = node_w / (len(order) + 1)
        return centre + (order.index(me) - (len(order) - 1) / 2) * step

    ends: dict[tuple[str, str], tuple[tuple[float, float], tuple[float, float]]] = {}
    for src, tgt, _ in r.edges:
        (sx, sy), (tx, ty) = pos[src], pos[tgt]
        key = keys.key("edge", f"{src}->{tgt}")
        a = (spread(out_of[src], tgt, sx), sy + node_h)
        b = (spread(into[tgt], src, tx), ty - 0.3)
        ends[(src, tgt)] = (a, b)
        with c.group(key):
            c.polyline([a, b], edge_style, arrow_end=True)
        if key in selection:
            c.polyline([a, b], theme.highlight())
        segs.append((*a, *b))
    s = np.asarray(segs, dtype=float).reshape(-1, 4)
    boxes = [(x - node_w / 2 - 0.9, y - 0.9, x + node_w / 2 + 0.9, y + node_h + 0.9)
             for x, y in pos.values()]
    placed: list[tuple[float, float, float, float]] = []
    crowded: list[str] = []  # labels that found no clear place beside their edge

    lo, hi = np.minimum(s[:, :2], s[:, 2:]), np.maximum(s[:, :2], s[:, 2:])
    lo0, lo1, hi0, hi1 = lo[:, 0].copy(), lo[:, 1].copy(), hi[:, 0].copy(), hi[:, 1].copy()
    n0, n1, n2, n3 = np.asarray(boxes, dtype=float).reshape(-1, 4).T.copy()
    # the placed labels' boxes widened by the room kept around them, as arrays
    room: list[np.ndarray] = [np.zeros((4, 0))]

    def clear(cands: list[tuple[float, float, float, float]], edges: bool) -> np.ndarray:
        """Which candidate boxes lie inside the graph, clear of every node and, by more than a
        word space, of every label placed (two never read as one), and (``edges``) clear of
        every edge: all candidates of a label at once."""
        b = np.asarray(cands, dtype=float).reshape(-1, 4)
        c0, c1, c2, c3 = b.T
        ok = (c0 >= 0) & (c2 <= cfg_w) & (c1 >= top - 1.0)
        b0, b1, b2, b3 = c0[:, None], c1[:, None], c2[:, None], c3[:, None]
        ok &= ~((b0 < n2) & (n0 < b2) & (b1 < n3) & (n1 < b3)).any(axis=1)
        if placed:
            if room[0].shape[1] != len(placed):
                o = np.asarray(placed, dtype=float)
                room[0] = np.stack([o[:, 2] + LABEL_GAP, o[:, 0] - LABEL_GAP, o[:, 3] + 0.6,
                                    o[:, 1] - 0.6])
            r2, r0, r3, r1 = room[0]
            ok &= ~((b0 < r2) & (r0 < b2) & (b1 < r3) & (r1 < b3)).any(axis=1)
        if edges and len(s) and ok.any():
            # only the edges whose bounding boxes meet the label's can cross it
            near = (lo0 < b2) & (hi0 > b0) & (lo1 < b3) & (hi1 > b1)
            near &= ok[:, None]
            at, seg = np.nonzero(near)
            if len(at):
                ok[at[segments_hit_boxes(s[seg], b[at])]] = False
        return ok

    def put(key: str | None, candidates: list[Place], text: str, color: str, font: FontKind,
            fallback: list[Place] | None = None) -> None:
        """The text at the first candidate where it is clear of edges, nodes and other labels;
        else knocked out at the first ``fallback`` place clear of nodes and labels (on its
        edge)."""
        cands = _label_boxes(text, pt, font, candidates)
        ok = clear(cands, edges=True)
        if ok.any():
            i = int(ok.argmax())
            x, y, anchor = candidates[i]
            c.text(x, y, text, pt, color, anchor=anchor, baseline="middle", font=font, key=key)
            placed.append(cands[i])
            return
        if not stagger:
            raise _Crowded(text)
        crowded.append(text)
        spots = (fallback or []) + candidates
        cands = _label_boxes(text, pt, font, spots)
        ok = clear(cands, edges=False)
        if ok.any():
            i = int(ok.argmax())
            x, y, anchor = spots[i]
            c.label(x, y, text, pt, color, knockout=theme.background, anchor=anchor,
                    baseline="middle", font=font, key=key)
            box = cands[i]
        else:
            crowded.append(text)  # overlaps: the layout with staggered labels is tried
            # Nowhere clear: the first place, moved inside the graph's width, knocked out.
            x, y, anchor = (fallback or candidates)[0]
            t = c.label(x, y, text, pt, color, knockout=theme.background, anchor=anchor,
                        baseline="middle", font=font, key=key)
            box = text_box(t, 0.3)
            shift = min(0.0, cfg_w - box[2]) or max(0.0, -box[0])
            if shift:
                c.remove_last()
                t = c.label(x + shift, y, text, pt, color, knockout=theme.background,
                            anchor=anchor, baseline="middle", font=font, key=key)
                box = text_box(t, 0.3)
        placed.append(box)

    # Each reconvergence point names the branches that reconverge there, beside it on the
    # outer side (where the branch layers' predicates do not go); a branch that reconverges
    # only at the exit says so beside itself. Placed before the predicates, which have more
    # places to go.
    joined: dict[str, list[str]] = {}
    for name in r.branches:
        joined.setdefault(r.ipdom[name] or "", []).append(name)
    notes = [(j, f"ipdom of {', '.join(bs)}") for j, bs in joined.items() if j]
    notes += [(b, "ipdom: exit") for b in joined.get("", [])]
    for name, note in notes:
        x, y = pos[name]
        up = y - 1.6 - descent(pt)
        side = y + node_h / 2
        east: Place = (x + node_w / 2 + 1.6, side, "start")
        west: Place = (x - node_w / 2 - 1.6, side, "end")
        below = y + node_h + 1.2 + cap_height(pt) / 2
        spots: list[Place] = [east, west] if x >= cfg_w / 2 else [west, east]
        # beside it a line higher or lower, where a neighbour's note takes the middle
        shift = ink_height(pt) + 1.3
        spots += [(sx, sy + d, a) for d in (shift, -shift) for sx, sy, a in spots[:2]]
        spots += [(x + 1.5, below, "start"), (x - 1.5, below, "end"),
                  (x + 1.5, up - cap_height(pt) / 2, "start"),
                  (x - 1.5, up - cap_height(pt) / 2, "end")]
        put(None, spots, note, theme.muted, "sans",
            [(x, below, "middle"), (x, y - 1.2 - cap_height(pt) / 2, "middle")])
    # Predicates beside their edges (as drawn, spread along the nodes), on the outer side
    # first: away from the branch's centre.
    for src, tgt, pred in r.edges:
        if src not in r.branches:
            continue
        (x0, y0), (x1, y1) = ends[(src, tgt)]
        label = pred or "else"
        outer: list[Place] = []
        inner: list[Place] = []
        siblings = sorted(out_of[src], key=lambda n: pos[n][0])
        k, n = siblings.index(tgt), len(siblings)
        # staggered: a branch's edges carry their labels at different heights
        first = 0.28 + 0.44 * k / (n - 1) if stagger and n > 1 else 0.5
        on_edge: list[Place] = [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, "middle")
                                for t in sorted((0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, first),
                                                key=lambda t: abs(t - first))]
        goes_left = x1 < x0 or (x1 == x0 and x0 < pos[src][0])
        slope = abs((x1 - x0) / (y1 - y0)) if y1 != y0 else 0.0
        # Far enough that the edge clears the box's lower (or upper) corner.
        below = 0.36 * pt * PT_TO_MM + descent(pt, "mono") + 0.35
        above = cap_height(pt, "mono") - 0.36 * pt * PT_TO_MM + 0.35
        off = 0.8 + max(below, above) * slope
        for t in (0.5, 0.35, 0.65, 0.25, 0.75):
            mx, my = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            outer.append((mx - off, my, "end") if goes_left else (mx + off, my, "start"))
            inner.append((mx + off, my, "start") if goes_left else (mx - off, my, "end"))
        with c.group(keys.key("edge", f"{src}->{tgt}")):
            put(None, outer + inner, label, fg, "mono", on_edge)
    bottom = top
    for name in r.nodes:
        x, y = pos[name]
        key = keys.key("node", name)
        x0 = x - node_w / 2
        style = marks.get(name, plain_style(theme))
        with c.group(key):
            c.rect(x0, y, node_w, node_h, style, radius=1.0)
            if style.hatch:  # the hatch is a frame: the labels stand on the block's own colour
                c.rect(x0 + HATCH_FRAME, y + HATCH_FRAME, node_w - 2 * HATCH_FRAME,
                       node_h - 2 * HATCH_FRAME, Style(fill=style.fill), radius=0.5)
            ink = theme.ink_on(style.fill or theme.surface)
            knock = style.fill if style.hatch else None
            lines = 1 if one_line else 2
            base = y + (node_h - cap_height(pt) - descent(pt) - (lines - 1) * line_step(pt)) / 2 \
                + cap_height(pt)
            if one_line:  # name and count grow apart from the gap between them, so a wider
                # fallback face cannot run them together
                name_w = text_width(name, pt, bold=True)
                gap = text_width("  ", pt, bold=True)
                split = x - (name_w + gap + text_width(_count(r, name), pt)) / 2 + name_w + gap / 2
                c.text(split - gap / 2, base, name, pt, ink, anchor="end", bold=True,
                       knockout=knock)
                c.text(split + gap / 2, base, _count(r, name), pt, ink, knockout=knock)
            else:
                c.text(x, base, name, pt, ink, anchor="middle", bold=True, knockout=knock)
                c.text(x, base + line_step(pt), _count(r, name), pt, ink, anchor="middle",
                       knockout=knock)
        if name in reconvergence:
            c.rect(x0 - 0.8, y - 0.8, node_w + 1.6, node_h + 1.6, reconvergence_style(theme),
                   radius=1.5)
        if key in selection:
            theme.select(c, x0 - 1.2, y - 1.2, node_w + 2.4, node_h + 2.4, radius=1.8)
        bottom = max(bottom, y + node_h)
    # as wide as what is drawn, so that a layout centring the graph centres what it shows
    extent = max([x + node_w / 2 + 1.2 for x, _ in pos.values()] + [o[2] for o in placed])
    return c.block(min(cfg_w, extent), bottom + 1.6, "cfg"), bool(crowded)
