"""The divergence figure's ``graph`` part: the control-flow graph in layers from the entry, each
block a box with its name and instruction count (hatched blocks keep their hatch as a frame
around clear ground for the text), edges with arrowheads spread along the nodes they meet and
their lane predicates beside them, and each reconvergence point (a branch's immediate
post-dominator) outlined and naming the branches that reconverge there.

A selected block's double outline runs close around its box (a selected reconvergence point's
own box is dashed instead of the dashed outline the thick one would cover), and an arrow into a
block ends at the outer edge of its outermost outline, so that its head stays in sight: the room
between two layers leaves every arrow its head and some line outside the outline its block would
have if selected. Predicates stand beside their edges where no edge, block outline (as it would
be if selected) or other label meets them, the layers of their branches growing taller where
that finds them a place; the reconvergence notes keep clear of those outlines too. So selecting
a block moves nothing but a crowded label.

Keys: ``node:<name>`` (a block), ``edge:<source>-><target>`` (an edge and its predicate).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from gpuviz import keys
from gpuviz.figures.display import BASELINE_SHIFT_EM, PT_TO_MM, Anchor, Style, arrow_head_width
from gpuviz.figures.display import text_width as drawn_width
from gpuviz.figures.geometry import segments_hit_boxes
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import Block, BlockCanvas, line_step
from gpuviz.figures.metrics import FontKind, cap_height, descent, ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.divergence import DivergenceResult

ARROW_ROOM = 4.5  # mm at least between two layers whose edges carry no predicate
MIN_SHAFT = 1.0  # mm of an arrow's line left showing above its head
LABEL_GAP = 6.0  # mm between two labels side by side: more than a word space, so two never read as one
NEAR_LABEL_GAP = 3.4  # mm between a crowded label and another (4 mm between their inks): a word space and more
HATCH_FRAME = 0.8  # mm of a hatched node's hatch left as a frame around its clear labels
RECONVERGENCE_RING = 0.8  # mm from a reconvergence point's box to the middle of its dashed outline
SELECT_GAP = 0.3  # mm between a block's box and its selection outline
TIP_GAP = 0.3  # mm between an arrow's tip and the outermost outline of the block it points at
CLEARANCE = 0.5  # mm between a label's box and the outline its block would have if selected
EDGE_CLEARANCE = 0.5  # mm between a label's box and the middle of the edge it stands beside
PAD = 0.3  # mm around a label's ink: its box (text_box(t, PAD))
SPREAD = 0.4  # of its room, that a branch layer grows where its labels crowd one another
# A graph with more crowded labels than this is too dense for its width for taller layers to
# mend (a 64-block ladder at 117 mm: 61), and placing them all again costs as much as the first
# time: it keeps its halos (a layout search tries it wider).
GROW_AT_MOST = 16
Place = tuple[float, float, Anchor]  # where a label goes: its point and its anchor
Box = tuple[float, float, float, float]
Edge = tuple[str, str]


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


def _extent(text: str, pt: float, font: FontKind) -> tuple[float, float, float]:
    """A label's box about its point (middle baseline, start anchor): its width, and how far
    above and below the point its top and bottom lie (its ink and ``PAD`` around it)."""
    w = drawn_width(text, pt, font) + 2 * PAD
    base = BASELINE_SHIFT_EM["middle"] * pt * PT_TO_MM
    return w, base - cap_height(pt, font) - PAD, base + descent(pt, font) + PAD


def _label_boxes(text: str, pt: float, font: FontKind, places: list[Place]) -> list[Box]:
    """The box ``text_box(t, 0.3)`` gives a label ``text`` set at each place (middle baseline,
    not bold, not rotated), without drawing it there."""
    w, top, bottom = _extent(text, pt, font)
    out = []
    for x, y, anchor in places:
        x0 = {"start": -PAD, "middle": -w / 2, "end": PAD - w}[anchor]
        fx, fy = float(x), float(y)
        out.append((fx + x0, fy + top, fx + x0 + w, fy + bottom))
    return out


def cfg_min_width(r: DivergenceResult, theme: Theme) -> float:
    widest = max(sum(1 for n in r.nodes if r.layer[n] == layer) for layer in set(r.layer.values()))
    return max(62.0, widest * (_node_size(r, theme.small_pt)[0] + 4.0))


_DRAWN: Kept[Block] = Kept(32)  # graphs: a view's layout search draws one at a few widths


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
        except _Crowded:  # given up at the first crowded label: that drawing is not shown
            return _cfg_drawn(r, selection, theme, marks, width, stagger=True, grow=grow)[0]

    return _DRAWN.get((r, theme), (selection, width, grow), drawn)


class _Crowded(Exception):
    """A label found no clear place in the plain layout: the staggered one is drawn instead."""


@dataclass
class _Graph:
    """Where the blocks and edges go, before any label is placed; the same for every selection."""

    pos: dict[str, tuple[float, float]]  # each block's box: the middle of its top
    node_w: float
    node_h: float
    one_line: bool
    top: float  # the first layer's top
    width: float
    room: dict[int, float]  # the room below each layer, to the next
    reach: dict[str, float]  # how far each block's outline reaches, selected or not
    # each edge from its source's bottom to its target's top, spread along both
    ends: dict[Edge, tuple[tuple[float, float], tuple[float, float]]]
    out_of: dict[str, list[str]]  # each block's successors, left to right
    predicate: dict[Edge, str]


@dataclass(frozen=True)
class _Label:
    """A placed label: drawn in its edge's group (``group``), on a halo where it is crowded."""

    place: Place
    text: str
    color: str
    font: FontKind
    halo: bool
    group: str | None


def _cfg_drawn(r: DivergenceResult, selection: frozenset[str], theme: Theme,
               marks: dict[str, Style], width: float, stagger: bool,
               grow: bool = True) -> tuple[Block, bool]:
    """The graph drawn at ``width``: plain (raising :class:`_Crowded` at its first crowded
    label) or staggered, where (``grow``) the layers of branches whose predicates are crowded
    grow tall enough to give them a clear place, where one can (:func:`_grown`; kept where
    that leaves fewer labels crowded)."""
    g = _laid_out(r, theme, width, stagger, {})
    reconvergence = _reconvergence(r)
    drawn = {n: reach(theme, n in reconvergence, keys.key("node", n) in selection)
             for n in r.nodes}
    labels, crowded = _placed(r, g, theme, stagger, drawn)
    if grow and 0 < len(crowded) <= GROW_AT_MOST:
        grown = _grown(r, g, theme, crowded)
        if grown:
            taller = _laid_out(r, theme, width, stagger, grown)
            more, still = _placed(r, taller, theme, stagger, drawn)
            if len(still) < len(crowded):
                g, labels, crowded = taller, more, still
    return _drawing(r, g, labels, selection, theme, marks), bool(crowded)


def _laid_out(r: DivergenceResult, theme: Theme, width: float, stagger: bool,
              grown: dict[int, float]) -> _Graph:
    """Blocks in layers spread over ``width``, the layers as far apart as :func:`_rooms` has
    them (``grown`` mm more below the layers named)."""
    pt = theme.small_pt
    layers: dict[int, list[str]] = {}
    for name in r.nodes:
        layers.setdefault(r.layer[name], []).append(name)
    widest = max(len(names) for names in layers.values())
    one_line = widest * (_node_size(r, pt, True)[0] + 4.0) <= width
    node_w, node_h = _node_size(r, pt, one_line)
    reconvergence = _reconvergence(r)
    ring = {n: max(reach(theme, n in reconvergence, s) for s in (False, True)) for n in r.nodes}
    first = max(ring[n] for n in layers[min(layers)])
    top = cap_height(theme.text_pt) + descent(theme.text_pt) + max(2.2, first + CLEARANCE)
    x = {name: width / len(names) * (i + 0.5)
         for names in layers.values() for i, name in enumerate(names)}
    spread = _spread(r, x, node_w)
    room = _rooms(r, theme, sorted(layers), spread, ring, stagger, grown)
    layer_y, y = {}, top
    for layer in sorted(layers):
        layer_y[layer] = y
        y += node_h + room[layer]
    pos = {name: (x[name], layer_y[r.layer[name]]) for name in r.nodes}
    ends = {(s, t): ((spread[(s, t)][0], pos[s][1] + node_h), (spread[(s, t)][1], pos[t][1]))
            for s, t, _ in r.edges}
    out_of: dict[str, list[str]] = {}
    for s, t, _ in r.edges:
        out_of.setdefault(s, []).append(t)
    out_of = {s: sorted(ts, key=lambda n: x[n]) for s, ts in out_of.items()}
    return _Graph(pos, node_w, node_h, one_line, top, width, room, ring, ends, out_of,
                  {(s, t): p for s, t, p in r.edges})


def _rooms(r: DivergenceResult, theme: Theme, layers: list[int],
           spread: dict[Edge, tuple[float, float]], ring: dict[str, float], stagger: bool,
           grown: dict[int, float]) -> dict[int, float]:
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


def _beside(a: tuple[float, float], b: tuple[float, float], mid: float, right: bool,
            top: float, bottom: float) -> Place:
    """The place of a label whose point is at height ``mid`` and whose box reaches ``top``
    above and ``bottom`` below it (:func:`_extent`), left or right of the edge a → b: its box
    ``EDGE_CLEARANCE`` from the edge where the edge comes nearest it (at its top or its
    bottom)."""
    (x0, y0), (x1, y1) = a, b

    def at(y: float) -> float:
        t = min(1.0, max(0.0, (y - y0) / (y1 - y0))) if y1 != y0 else 0.0
        return x0 + (x1 - x0) * t

    xs = (at(mid + top), at(mid + bottom))
    if right:
        return max(xs) + EDGE_CLEARANCE + PAD, mid, "start"
    return min(xs) - EDGE_CLEARANCE - PAD, mid, "end"


def _under(y: float, text: str, pt: float, font: FontKind) -> float:
    """The height of a label's point that puts its box's top at ``y``."""
    return y - _extent(text, pt, font)[1]


def _over(y: float, text: str, pt: float, font: FontKind) -> float:
    """The height of a label's point that puts its box's bottom at ``y``."""
    return y - _extent(text, pt, font)[2]


def _placed(r: DivergenceResult, g: _Graph, theme: Theme, stagger: bool,
            drawn: dict[str, float]) -> tuple[list[_Label], list[Edge | None]]:
    """The notes and predicates placed clear of the edges, the outline each block would have
    if selected and one another; and the edges whose predicate (None: a note) found no clear
    place (placed as well as :func:`crowd` can; the plain layout raises :class:`_Crowded` at
    the first). ``drawn``: how far each block's outline reaches as drawn, which the last
    resorts of a crowded label keep clear of instead."""
    pt = theme.small_pt
    cfg_w, top = g.width, g.top
    segs = [(*a, *b) for a, b in g.ends.values()]
    index = {edge: i for i, edge in enumerate(g.ends)}
    s = np.asarray(segs, dtype=float).reshape(-1, 4)
    placed: list[Box] = []
    labels: list[_Label] = []
    crowded: list[Edge | None] = []  # labels that found no clear place beside their edge

    lo, hi = np.minimum(s[:, :2], s[:, 2:]), np.maximum(s[:, :2], s[:, 2:])
    lo0, lo1, hi0, hi1 = lo[:, 0].copy(), lo[:, 1].copy(), hi[:, 0].copy(), hi[:, 1].copy()
    blocks = {False: _kept_clear(g, g.reach), True: _kept_clear(g, drawn)}  # True: as drawn
    kept: list[np.ndarray] = [np.zeros((4, 0))]  # the placed labels' boxes, as four arrays

    def apart(gap: float) -> np.ndarray:
        """The placed labels' boxes widened by ``gap`` across and 0.6 mm up and down (the room
        kept around them), as four arrays."""
        if kept[0].shape[1] != len(placed):
            kept[0] = np.asarray(placed, dtype=float).T
        return kept[0] + np.array([[-gap], [-0.6], [gap], [0.6]])

    def inside(b: np.ndarray) -> np.ndarray:
        """Which boxes (rows of ``b``) lie inside the graph."""
        return (b[:, 0] >= 0) & (b[:, 2] <= cfg_w) & (b[:, 1] >= top - 1.0)

    def off_blocks(b: np.ndarray, as_drawn: bool = False) -> np.ndarray:
        """Which boxes keep clear of every block's outline (the one it would have if
        selected, or ``as_drawn``)."""
        n0, n1, n2, n3 = blocks[as_drawn]
        b0, b1, b2, b3 = (b[:, i, None] for i in range(4))
        return ~((b0 < n2) & (n0 < b2) & (b1 < n3) & (n1 < b3)).any(axis=1)

    def off_labels(b: np.ndarray, gap: float = LABEL_GAP) -> np.ndarray:
        """Which boxes keep ``gap`` (more than a word space) across, or 0.6 mm up and down,
        from every label placed: two never read as one."""
        if not placed:
            return np.ones(len(b), bool)
        r0, r1, r2, r3 = apart(gap)
        b0, b1, b2, b3 = (b[:, i, None] for i in range(4))
        return ~((b0 < r2) & (r0 < b2) & (b1 < r3) & (r1 < b3)).any(axis=1)

    def crossing(b: np.ndarray, ask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(box, edge) for each edge crossing one of the boxes asked about: only the edges
        whose bounding boxes meet a box's can cross it."""
        near = (lo0 < b[:, 2, None]) & (hi0 > b[:, 0, None]) & (lo1 < b[:, 3, None]) \
            & (hi1 > b[:, 1, None]) & ask[:, None]
        at, seg = np.nonzero(near)
        if not len(at):
            return at, seg
        hit = segments_hit_boxes(s[seg], b[at])
        return at[hit], seg[hit]

    def crossed(b: np.ndarray, ask: np.ndarray, but: int = -1) -> np.ndarray:
        """Which of the boxes asked about an edge (but the ``but``-th) crosses."""
        at, seg = crossing(b, ask) if len(s) else (np.zeros(0, int), np.zeros(0, int))
        out = np.zeros(len(b), bool)
        out[at[seg != but]] = True
        return out

    def clear(cands: list[Box]) -> np.ndarray:
        """Which candidate boxes lie inside the graph, clear of every block's outline (as it
        would be if selected), of every label placed and of every edge: all candidates of a
        label at once, the cheapest tests first."""
        b = np.asarray(cands, dtype=float).reshape(-1, 4)
        ok = inside(b) & off_blocks(b) & off_labels(b)
        if ok.any():
            ok &= ~crossed(b, ok)
        return ok

    def put(edge: Edge | None, text: str, color: str, font: FontKind,
            candidates: list[Place], fallback: list[Place]) -> None:
        """The text at the first candidate where it is clear of edges, nodes and other labels;
        else (staggered) where :func:`crowd` finds it room."""
        cands = _label_boxes(text, pt, font, candidates)
        ok = clear(cands)
        if ok.any():
            i = int(ok.argmax())
            labels.append(_Label(candidates[i], text, color, font, False, _group(edge)))
            placed.append(cands[i])
            return
        if not stagger:
            raise _Crowded(text)
        crowded.append(edge)
        crowd(edge, text, color, font, candidates, fallback)

    def crowd(edge: Edge | None, text: str, color: str, font: FontKind,
              candidates: list[Place], fallback: list[Place]) -> None:
        """A label with no clear place, at the first place of the first of these that has
        one: beside its edge, clear of everything, keeping only ``NEAR_LABEL_GAP`` from
        another label, or clear only of the outlines as drawn (a block not selected leaves it
        room); else on a halo on its edge (``fallback``), where no other edge crosses it,
        clear of nodes and labels, the same ways; else on a halo at any of its places clear of
        nodes and labels as drawn; else at its first place on its edge, moved inside the
        graph."""
        spots = fallback + candidates
        cands = _label_boxes(text, pt, font, spots)
        b = np.asarray(cands, dtype=float).reshape(-1, 4)
        beside = np.arange(len(spots)) >= len(fallback)
        can = inside(b)
        drawn_ok, near_ok = off_blocks(b, True) & can, off_labels(b, NEAR_LABEL_GAP)
        if_selected, far = off_blocks(b) & can, off_labels(b)

        def tiers() -> Iterator[tuple[bool, np.ndarray]]:
            """(on a halo, where) for each way in turn; the edges tested only as asked."""
            ask = drawn_ok & near_ok & beside
            clean = ask & ~crossed(b, ask)
            yield False, clean & if_selected & near_ok
            yield False, clean & drawn_ok & far
            yield False, clean & drawn_ok & near_ok
            ask = drawn_ok & near_ok & ~beside
            if edge and ask.any():  # on its own edge, where no other crosses it
                others = ask & ~crossed(b, ask, but=index[edge])
                for blocks_ok in (if_selected, drawn_ok):
                    for gap_ok in (far, near_ok):
                        yield True, others & blocks_ok & gap_ok
            yield True, drawn_ok & far
            yield True, drawn_ok & near_ok

        for on_halo, ok in tiers():
            if ok.any():
                i = int(ok.argmax())
                place, box, halo = spots[i], cands[i], on_halo
                break
        else:  # nowhere clear: the first place, moved inside the graph's width
            x, y, anchor = fallback[0]
            box = _label_boxes(text, pt, font, [(x, y, anchor)])[0]
            shift = min(0.0, cfg_w - box[2]) or max(0.0, -box[0])
            place, box = (x + shift, y, anchor), (box[0] + shift, box[1], box[2] + shift, box[3])
            halo = True
        labels.append(_Label(place, text, color, font, halo, _group(edge)))
        placed.append(box)

    # Each reconvergence point names the branches that reconverge there, beside it on the
    # outer side (where the branch layers' predicates do not go); a branch that reconverges
    # only at the exit says so beside itself. Placed before the predicates, which have more
    # places to go.
    for name, note in _notes(r):
        put(None, note, theme.muted, "sans", *_note_places(g, name, note, pt))
    for src, tgt, pred in r.edges:
        if src in r.branches:
            label = pred or "else"
            put((src, tgt), label, theme.foreground, "mono",
                *_predicate_places(r, g, (src, tgt), label, pt, stagger))
    return labels, crowded


def _kept_clear(g: _Graph, reach: dict[str, float]) -> np.ndarray:
    """What labels keep clear of: each block's box widened by its outline's ``reach`` and
    ``CLEARANCE``, as four arrays (x0, y0, x1, y1)."""
    return np.asarray([(x - g.node_w / 2 - m, y - m, x + g.node_w / 2 + m, y + g.node_h + m)
                       for name, (x, y) in g.pos.items() for m in [reach[name] + CLEARANCE]],
                      dtype=float).reshape(-1, 4).T


def _group(edge: Edge | None) -> str | None:
    """The key of the group a label is drawn in: its edge's (a note's: none)."""
    return keys.key("edge", f"{edge[0]}->{edge[1]}") if edge else None


def _notes(r: DivergenceResult) -> list[tuple[str, str]]:
    """(block, note): each reconvergence point with the branches that reconverge there, and
    each branch that reconverges only at the exit."""
    joined: dict[str, list[str]] = {}
    for name in r.branches:
        joined.setdefault(r.ipdom[name] or "", []).append(name)
    notes = [(j, f"ipdom of {', '.join(bs)}") for j, bs in joined.items() if j]
    return notes + [(b, "ipdom: exit") for b in joined.get("", [])]


def _note_places(g: _Graph, name: str, note: str, pt: float) -> tuple[list[Place], list[Place]]:
    """Where a block's note may go, best first, clear of the outline the block would have if
    selected: beside it on the graph's outer side, then the inner, a line higher or lower,
    below and above it; and, where none is clear, under or over it on a halo."""
    x, y = g.pos[name]
    away = g.reach[name] + CLEARANCE + 0.1 + PAD  # from the box to the note's ink
    side = y + g.node_h / 2
    east: Place = (x + g.node_w / 2 + away, side, "start")
    west: Place = (x - g.node_w / 2 - away, side, "end")
    below = _under(y + g.node_h + away - PAD, note, pt, "sans")
    above = _over(y - away + PAD, note, pt, "sans")
    spots: list[Place] = [east, west] if x >= g.width / 2 else [west, east]
    # beside it a line higher or lower, where a neighbour's note takes the middle
    shift = ink_height(pt) + 1.3
    spots += [(sx, sy + d, a) for d in (shift, -shift) for sx, sy, a in spots[:2]]
    spots += [(x + 1.5, below, "start"), (x - 1.5, below, "end"),
              (x + 1.5, above, "start"), (x - 1.5, above, "end")]
    return spots, [(x, below, "middle"), (x, above, "middle")]


def _predicate_places(r: DivergenceResult, g: _Graph, edge: Edge, label: str, pt: float,
                      stagger: bool) -> tuple[list[Place], list[Place]]:
    """Where a predicate may go beside its edge (as drawn, spread along the nodes), best
    first: on the outer side (away from the branch's centre) along the edge, then just under
    its source and just over its target, clear of their outlines; then the same on the inner
    side. And, where none is clear, on the edge on a halo."""
    src, tgt = edge
    a, b = g.ends[edge]
    (x0, y0), (x1, y1) = a, b
    siblings = g.out_of[src]
    k, n = siblings.index(tgt), len(siblings)
    # staggered: a branch's edges carry their labels at different heights
    first = 0.28 + 0.44 * k / (n - 1) if stagger and n > 1 else 0.5
    on_edge: list[Place] = [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, "middle")
                            for t in sorted((0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, first),
                                            key=lambda t: abs(t - first))]
    goes_left = x1 < x0 or (x1 == x0 and x0 < g.pos[src][0])
    heights = [y0 + (y1 - y0) * t for t in sorted((0.5, 0.35, 0.65, 0.25, 0.75),
                                                  key=lambda t: abs(t - first))]
    _, top, bottom = _extent(label, pt, "mono")
    heights += [y0 + g.reach[src] + CLEARANCE + 0.05 - top,  # just under its source
                y1 - g.reach[tgt] - CLEARANCE - 0.05 - bottom]  # just over its target
    places = []
    for right in (not goes_left, goes_left):  # the outer side first
        places += [_beside(a, b, mid, right, top, bottom) for mid in heights]
    return places, on_edge


def _grown(r: DivergenceResult, g: _Graph, theme: Theme, crowded: list[Edge | None]
           ) -> dict[int, float]:
    """How much taller each branch layer with a crowded predicate grows: enough for the
    predicate to fit just under its source, on the outer side of its edge between the edge and
    the graph's side (a steeper edge leaves it more room there); where that side is wide
    enough already (other labels or edges are in its way), by ``SPREAD`` of its room, for
    labels at different heights to stand further apart. Layers where no height would do (the
    label wider than that side) do not grow; none grows more than twice its room."""
    pt = theme.small_pt
    grown: dict[int, float] = {}
    for edge in crowded:
        if edge is None:
            continue
        src = edge[0]
        label = g.predicate[edge] or "else"
        (x0, y0), (x1, y1) = g.ends[edge]
        w, top, bottom = _extent(label, pt, "mono")
        run = abs(x1 - x0)
        side = g.width - x0 if x1 > x0 else x0
        room = side - EDGE_CLEARANCE - w
        if run == 0 or room <= 0.5:
            continue
        depth = g.reach[src] + CLEARANCE + 0.05 + (bottom - top)  # the label's bottom under y0
        need = depth * run / room - (y1 - y0)  # the edge's drop that leaves it room
        layer = r.layer[src]
        more = need + 0.2 if need > 0 else SPREAD * g.room[layer]
        grown[layer] = max(grown.get(layer, 0.0), min(more, 2 * g.room[layer]))
    return grown


def _drawing(r: DivergenceResult, g: _Graph, labels: list[_Label], selection: frozenset[str],
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
        a, b = _drawn(g.ends[(src, tgt)], head, *(
            reach(theme, n in reconvergence, keys.key("node", n) in selection)
            for n in (src, tgt)))
        with c.group(key):
            c.polyline([a, b], edge_style, arrow_end=True)
        if key in selection:
            c.polyline([a, b], theme.highlight())
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
    boxes = _label_boxes_of(labels, pt)
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


def _label_boxes_of(labels: list[_Label], pt: float) -> list[Box]:
    return [_label_boxes(lb.text, pt, lb.font, [lb.place])[0] for lb in labels]


def _node(c: BlockCanvas, r: DivergenceResult, g: _Graph, name: str, theme: Theme,
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
        c.rect(x0, y, node_w, node_h, style, radius=1.0)
        if style.hatch:  # the hatch is a frame: the labels stand on the block's own colour
            c.rect(x0 + HATCH_FRAME, y + HATCH_FRAME, node_w - 2 * HATCH_FRAME,
                   node_h - 2 * HATCH_FRAME, Style(fill=style.fill), radius=0.5)
        ink = theme.ink_on(style.fill or theme.surface)
        knock = style.fill if style.hatch else None
        lines = 1 if g.one_line else 2
        base = y + (node_h - cap_height(pt) - descent(pt) - (lines - 1) * line_step(pt)) / 2 \
            + cap_height(pt)
        if g.one_line:  # name and count grow apart from the gap between them, so a wider
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
    if reconverges:
        d = 0.0 if selected else RECONVERGENCE_RING
        c.rect(x0 - d, y - d, node_w + 2 * d, node_h + 2 * d, reconvergence_style(theme),
               radius=1.0 + d * 0.625)
    if selected:
        d = selection_ring(theme)
        theme.select(c, x0 - d, y - d, node_w + 2 * d, node_h + 2 * d, radius=1.0 + d * 2 / 3)
