"""Where the divergence graph's labels go: each branch edge's lane predicate beside its edge, and
each reconvergence point's note naming the branches that reconverge there, placed on the
graph's layout (:class:`Graph`, which ``divergence_graph.py`` lays out and draws) before it is
drawn.

Predicates stand beside their edges where no edge, block outline (as it would be if selected)
or other label meets them, the layers of their branches growing taller where that finds them a
place; the reconvergence notes keep clear of those outlines too. So selecting a block moves
nothing but a crowded label.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from gpuviz import keys
from gpuviz.figures.display import BASELINE_SHIFT_EM, PT_TO_MM, Anchor
from gpuviz.figures.display import text_width as drawn_width
from gpuviz.figures.geometry import segments_hit_boxes
from gpuviz.figures.metrics import FontKind, cap_height, descent, ink_height
from gpuviz.figures.theme import Theme
from gpuviz.models.divergence import DivergenceResult

LABEL_GAP = 6.0  # mm between two labels side by side: more than a word space, so two never read as one
NEAR_LABEL_GAP = 3.4  # mm between a crowded label and another (4 mm between their inks): a word space and more
CLEARANCE = 0.5  # mm between a label's box and the outline its block would have if selected
EDGE_CLEARANCE = 0.5  # mm between a label's box and the middle of the edge it stands beside
PAD = 0.3  # mm around a label's ink: its box (text_box(t, PAD))
SPREAD = 0.4  # of its room, that a branch layer grows where its labels crowd one another
Place = tuple[float, float, Anchor]  # where a label goes: its point and its anchor
Box = tuple[float, float, float, float]
Edge = tuple[str, str]


@dataclass
class Graph:
    """Where the blocks and edges go, before any label is placed; the same for every selection."""

    pos: dict[str, tuple[float, float]]  # each block's box: the middle of its top
    node_w: float
    node_h: float
    one_line: bool
    top: float  # the first layer's top
    width: float
    room: dict[int, float]  # the room below each layer, to the next
    reach: dict[str, float]  # how far each block's outline reaches, selected or not
    # each edge from its source's bottom to its target's top, spread along both; an edge that
    # skips a layer to where it reaches its gutter (its predicate goes beside that leg)
    ends: dict[Edge, tuple[tuple[float, float], tuple[float, float]]]
    out_of: dict[str, list[str]]  # each block's successors, left to right
    predicate: dict[Edge, str]
    # each edge's line as drawn, source to target: two points, or (an edge that skips a
    # layer) four, down a gutter clear of the blocks between
    legs: dict[Edge, tuple[tuple[float, float], ...]]

    def segments(self) -> tuple[list[tuple[float, float, float, float]], list[int]]:
        """Every leg of every edge as (x0, y0, x1, y1), and the edge (its place in ``ends``)
        each is a leg of."""
        segs, owner = [], []
        for i, edge in enumerate(self.ends):
            points = self.legs[edge]
            for a, b in pairwise(points):
                segs.append((*a, *b))
                owner.append(i)
        return segs, owner


class Crowded(Exception):
    """A label found no clear place in the plain layout: the staggered one is drawn instead."""


@dataclass(frozen=True)
class Label:
    """A placed label: drawn in its edge's group (``group``), on a halo where it is crowded."""

    place: Place
    text: str
    color: str
    font: FontKind
    halo: bool
    group: str | None


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


def placed(r: DivergenceResult, g: Graph, theme: Theme, stagger: bool,
           drawn: dict[str, float]) -> tuple[list[Label], list[Edge | None]]:
    """The notes and predicates placed clear of the edges, the outline each block would have
    if selected and one another; and the edges whose predicate (None: a note) found no clear
    place (placed as well as :func:`crowd` can; the plain layout raises :class:`Crowded` at
    the first). ``drawn``: how far each block's outline reaches as drawn, which the last
    resorts of a crowded label keep clear of instead."""
    pt = theme.small_pt
    cfg_w, top = g.width, g.top
    segs, owners = g.segments()
    index = {edge: i for i, edge in enumerate(g.ends)}
    owner = np.asarray(owners, dtype=int)
    s = np.asarray(segs, dtype=float).reshape(-1, 4)
    placed: list[Box] = []
    labels: list[Label] = []
    crowded: list[Edge | None] = []  # labels that found no clear place beside their edge

    lo, hi = np.minimum(s[:, :2], s[:, 2:]), np.maximum(s[:, :2], s[:, 2:])
    lo0, lo1, hi0, hi1 = lo[:, 0].copy(), lo[:, 1].copy(), hi[:, 0].copy(), hi[:, 1].copy()
    blocks = {False: _kept_clear(g, g.reach), True: _kept_clear(g, drawn)}  # True: as drawn
    # the placed labels' boxes as four arrays, a column written as each is placed (a note a
    # block at most, a predicate an edge)
    kept = [np.zeros((4, len(r.nodes) + len(r.edges) + 1))]

    def apart(gap: float) -> np.ndarray:
        """The placed labels' boxes widened by ``gap`` across and 0.6 mm up and down (the room
        kept around them), as four arrays."""
        return kept[0][:, :len(placed)] + np.array([[-gap], [-0.6], [gap], [0.6]])

    def keep(box: Box) -> None:
        if len(placed) == kept[0].shape[1]:
            kept[0] = np.concatenate([kept[0], np.zeros_like(kept[0])], axis=1)
        kept[0][:, len(placed)] = box
        placed.append(box)

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
        out[at[owner[seg] != but]] = True
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
            labels.append(Label(candidates[i], text, color, font, False, _group(edge)))
            keep(cands[i])
            return
        if not stagger:
            raise Crowded(text)
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
        labels.append(Label(place, text, color, font, halo, _group(edge)))
        keep(box)

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


def _kept_clear(g: Graph, reach: dict[str, float]) -> np.ndarray:
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


def _note_places(g: Graph, name: str, note: str, pt: float) -> tuple[list[Place], list[Place]]:
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


def _predicate_places(r: DivergenceResult, g: Graph, edge: Edge, label: str, pt: float,
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


def grown(r: DivergenceResult, g: Graph, theme: Theme, crowded: list[Edge | None]
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


def label_boxes_of(labels: list[Label], pt: float) -> list[Box]:
    return [_label_boxes(lb.text, pt, lb.font, [lb.place])[0] for lb in labels]
