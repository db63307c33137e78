"""The divergence figure: CFG nodes and edges, the stack trace, issue orders, selection, themes."""


from dataclasses import dataclass

import numpy as np
import pytest

from gpuviz.figures import divergence as divergence_figure
from gpuviz.figures.display import (
    Group,
    Polyline,
    Rect,
    Rects,
    Text,
    arrow_head_width,
    text_box,
    walk,
)
from gpuviz.figures.geometry import segment_hits_box
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(name, step):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step),
                       ("divergence",))["divergence"]


def build(name="divergence-if-else.json", step=0, selection=frozenset(), theme_name="screen"):
    return divergence_figure.build(result_of(name, step), selection, theme(theme_name))


def test_nodes_edges_steps_and_lanes_are_pointable():
    r = result_of("divergence-nested.json", 0)
    keys = set(divergence_figure.build(r, frozenset(), theme("screen")).keys())
    assert {f"node:{n}" for n in r.nodes} <= keys
    assert {f"edge:{s}->{t}" for s, t, _ in r.edges} <= keys
    assert {f"step:{e.step}" for e in r.trace} <= keys
    assert {f"lane:{i}" for i in range(32)} <= keys


def test_texts_carry_ipdom_and_efficiency():
    texts = build().texts()
    assert "Divergence: 8 instructions issued, lane efficiency 50 %" in texts
    assert "ipdom of entry" in texts  # beside the join where the branch reconverges
    assert "lane < 16" in texts and "else" in texts
    nested = build("divergence-nested.json").texts()
    assert "Divergence: 12 instructions issued, lane efficiency 25 %" in nested
    # the efficiency table: a region's label, then its value in the next column
    at = nested.index("region x → x_join")
    assert nested[at + 1].startswith("6 issued, 50 %")


def test_active_lanes_of_each_trace_row_are_drawn():
    r = result_of("divergence-if-else.json", 0)
    fig = divergence_figure.build(r, frozenset(), theme("screen"))
    active = [i for i in walk(fig.items) if isinstance(i, Rects) and i.keys
              and all(k.startswith("lane:") for k in i.keys)]
    assert len(active) == 1
    assert len(active[0].xywh) == sum(e.active for e in r.trace)


def test_issue_orders_have_one_cell_per_instruction():
    r = result_of("divergence-nested.json", 0)
    fig = divergence_figure.build(r, frozenset(), theme("screen"))
    cells = [i for i in walk(fig.items) if isinstance(i, Rects) and i.keys
             and all(k.startswith("node:") for k in i.keys)]
    assert sum(len(c.xywh) for c in cells) == 2 * r.issued


def _outside_legend(items):
    for item in items:
        if isinstance(item, Group):
            if not (item.name or "").startswith("legend"):
                yield from _outside_legend(item.items)
        else:
            yield item


def test_selected_node_is_outlined_in_the_graph_and_the_issue_orders():
    t = theme("screen")
    fig = build(selection=frozenset({"node:then"}))
    outlines = [i for i in _outside_legend(fig.items)
                if isinstance(i, Rect) and i.style == t.highlight()]
    assert len(outlines) == 1 + 2 * 4  # the block, and its four instructions in both orders


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_every_issuing_block_has_its_own_mark(theme_name):
    r = result_of("divergence-nested.json", 0)
    fig = divergence_figure.build(r, frozenset(), theme(theme_name))
    marks = {}
    for item in walk(fig.items):
        if isinstance(item, Rects) and item.keys and item.keys[0].startswith("node:"):
            marks.setdefault(item.keys[0], set()).add((item.style.fill, item.style.hatch))
    issuing = [n for n in r.nodes if r.instructions[n] > 0]
    assert sorted(marks) == sorted(f"node:{n}" for n in issuing)
    assert all(len(m) == 1 for m in marks.values())
    distinct = {next(iter(m)) for m in marks.values()}
    assert len(distinct) == len(issuing)
    # A second channel besides colour: no two blocks share a pattern among the first five.
    assert len({h for _, h in distinct}) == min(len(issuing), 5)


def test_every_edge_has_an_arrowhead():
    r = result_of("divergence-nested.json", 0)
    fig = divergence_figure.build(r, frozenset(), theme("screen"))
    for s, t, _ in r.edges:
        groups = [g for g in walk(fig.items) if isinstance(g, Group) and g.key == f"edge:{s}->{t}"]
        lines = [i for g in groups for i in walk(g.items) if isinstance(i, Polyline)]
        assert lines and all(line.arrow_end for line in lines)


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_every_theme_builds(theme_name):
    fig = build("divergence-nested.json", theme_name=theme_name)
    assert fig.background == THEMES[theme_name].background


def _graph(name, target, theme_name="print"):
    r = result_of(name, 0)
    return r, divergence_figure.build(r, frozenset(), theme(theme_name), target.showing(["graph"]))


@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=["single", "slide"])
def test_a_hatched_block_keeps_its_hatch_in_bands_off_its_name(target):
    _, fig = _graph("divergence-nested.json", target)
    hatched = 0
    for g in walk(fig.items):
        if not (isinstance(g, Group) and (g.key or "").startswith("node:")):
            continue
        rects = [i for i in g.items if isinstance(i, Rect)]
        bands = [i for i in rects[1:] if i.style.hatch and i.style.fill is None]
        if not bands:
            continue
        hatched += 1
        assert rects[0].style.hatch is None and rects[0].style.fill, g.key  # its own colour
        assert {round(b.w, 6) for b in bands} == {round(rects[0].w, 6)}  # across the block
        for text in (i for i in g.items if isinstance(i, Text)):
            _x0, y0, _x1, y1 = text_box(text)
            assert all(b.y + b.h <= y0 or b.y >= y1 for b in bands), (g.key, text.text)
    assert hatched >= 2  # x_odd and y_odd in print


def _predicates(fig):
    return [text_box(i) for g in walk(fig.items)
            if isinstance(g, Group) and (g.key or "").startswith("edge:")
            for i in walk(g.items) if isinstance(i, Text)]


@pytest.mark.parametrize("theme_name", ["print", "presentation"])
@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=["single", "slide"])
def test_edge_predicates_never_run_together(target, theme_name):
    """"otherwise" and "lane % 2 == 0" a word space apart on one line read as one phrase."""
    _, fig = _graph("divergence-nested.json", target, theme_name)
    boxes = _predicates(fig)
    assert len(boxes) == 6
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart_x = max(b[0] - a[2], a[0] - b[2])
            apart_y = max(b[1] - a[3], a[1] - b[3])
            assert apart_y > 0.3 or apart_x >= 4.0, (a, b)


@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=["single", "slide"])
def test_arrowheads_into_a_join_stand_apart(target):
    r, fig = _graph("divergence-nested.json", target)
    tips: dict[str, list[tuple[float, float, float]]] = {}
    for s, t, _ in r.edges:
        line = next(i for g in walk(fig.items)
                    if isinstance(g, Group) and g.key == f"edge:{s}->{t}"
                    for i in walk(g.items) if isinstance(i, Polyline) and i.arrow_end)
        x, y = line.points[-1]
        tips.setdefault(t, []).append((x, y, line.style.stroke_width * 4 + 0.6))
    joins = [t for t, ends in tips.items() if len(ends) > 1]
    assert len(joins) == 3
    for t in joins:
        (xa, _, w), (xb, _, _) = sorted(tips[t])[:2]
        assert xb - xa >= 2 * w, t  # two heads' widths apart: they never touch


# --------------------------------------------------------------------------------------------
# The graph's labels, outlines and arrowheads, as a reader sees them (divergence-nested's step
# 2 selects x_join and y_join, the reconvergence points of x and y)

NESTED = "divergence-nested.json"
STEPS = [(name, step) for name in ("divergence-if-else.json", NESTED)
         for step in range(len(load_scenario(SCENARIOS / name).steps) + 1)]


@dataclass
class Seen:
    """The graph part as drawn: its blocks' boxes, each block's outlines (dashed or selected,
    as drawn around it), its edges as drawn, its predicates (by edge) and notes, and its scale
    (mm drawn per mm laid out)."""

    blocks: dict[str, Rect]
    around: dict[str, list[Rect]]
    edges: dict[str, Polyline]
    predicates: list[tuple[str, Text]]
    notes: list[Text]
    scale: float


def _seen(name, step, target, theme_name, selection=None) -> Seen:
    """The graph part of ``name`` at ``step`` for ``target``, with the step's selection (or
    ``selection``)."""
    scenario = load_scenario(SCENARIOS / name)
    if selection is None:
        selection = frozenset(scenario.steps[step - 1].select) if step else frozenset()
    th = theme(theme_name)
    fig = divergence_figure.build(result_of(name, step), selection, th,
                                  target.showing(["graph"]))
    blocks, outlines, edges, predicates, notes = {}, [], {}, [], []

    def visit(items, key=None):
        for item in items:
            if isinstance(item, Group):
                visit(item.items, item.key or key)
            elif isinstance(item, Rect) and (key or "").startswith("node:"):
                blocks.setdefault(key[5:], item)
            elif isinstance(item, Rect) and key is None and item.style.fill is None:
                outlines.append(item)
            elif isinstance(item, Polyline) and item.arrow_end:
                edges[key[5:]] = item
            elif isinstance(item, Text) and (key or "").startswith("edge:"):
                predicates.append((key[5:], item))
            elif isinstance(item, Text) and item.text.startswith("ipdom"):
                notes.append(item)

    visit(fig.items)
    scale = next(iter(edges.values())).style.stroke_width / th.line_mm
    around = {n: [o for o in outlines if o.x <= b.x and o.y <= b.y and o.x + o.w >= b.x + b.w
                  and o.y + o.h >= b.y + b.h and b.x - o.x < 4 * scale]
              for n, b in blocks.items()}
    return Seen(blocks, around, edges, predicates, notes, scale)


def _outer(rect):
    """The box a rectangle's outline covers, out to the outer edge of its stroke."""
    half = rect.style.stroke_width / 2
    return rect.x - half, rect.y - half, rect.x + rect.w + half, rect.y + rect.h + half


def _apart(a, b):
    """How far apart two boxes are (negative where they overlap)."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def _crosses(line, box):
    return bool(segment_hits_box(np.asarray([[*line.points[0], *line.points[-1]]]), box)[0])


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("name,step", STEPS)
def test_predicates_stand_beside_their_edges_where_nothing_crosses_them_on_a_slide(
        name, step, theme_name):
    """On a slide every predicate has a place of its own beside its edge, nearer it than any
    other: divergence-nested's 'lane % 2 == 0' under x sat across the x → x_even edge on a
    halo, and the x → x_odd edge ran through its '0' (presentation, step 2; in every theme)."""
    r, seen = result_of(name, step), _seen(name, step, SLIDE, theme_name)
    assert len(seen.predicates) == sum(1 for s, _, _ in r.edges if s in r.branches)
    edges = seen.edges
    for edge, label in seen.predicates:
        box = text_box(label)
        assert not label.knockout, (edge, label.text)
        assert not [e for e, line in edges.items() if _crosses(line, box)], (edge, label.text)
        assert min(edges, key=lambda e: _distance(box, edges[e].points)) == edge, label.text
        assert _distance(box, edges[edge].points) <= 1.5 * seen.scale, (edge, label.text)


@pytest.mark.parametrize("theme_name", ["print", "screen", "dark"])
@pytest.mark.parametrize("name,step", STEPS)
def test_a_crowded_predicate_in_a_column_lies_on_its_own_edge_only(name, step, theme_name):
    """In a column 'lane % 2 == 0' is wider than x's slot (4 blocks in 81 mm): it may lie on
    its own edge on a halo, but no other edge crosses it (x → x_odd ran through it). (The
    presentation theme's type in a column leaves no such place: its graph has no height to
    spare, so its labels keep their halos as before.)"""
    seen = _seen(name, step, SINGLE, theme_name)
    for edge, label in seen.predicates:
        box = text_box(label)
        crossing = [e for e, line in seen.edges.items() if _crosses(line, box)]
        assert crossing in ([], [edge]), (edge, label.text, crossing)
        assert not crossing or label.knockout


def _distance(box, points):
    """The distance from a box to a segment (0 where the segment meets it), sampled."""
    (x0, y0), (x1, y1) = points[0], points[-1]
    best = float("inf")
    for i in range(201):
        x, y = x0 + (x1 - x0) * i / 200, y0 + (y1 - y0) * i / 200
        dx = max(box[0] - x, 0.0, x - box[2])
        dy = max(box[1] - y, 0.0, y - box[3])
        best = min(best, (dx * dx + dy * dy) ** 0.5)
    return best


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=["single", "slide"])
@pytest.mark.parametrize("everything", [False, True], ids=["step", "all-selected"])
def test_a_note_keeps_clear_of_its_blocks_selection_outline(target, theme_name, everything):
    """'ipdom of x' touched the selected x_join's double outline and 'ipdom of y' lay on
    y_join's (slide, presentation: 0.3 mm into it): the outline is drawn outside the box and
    is thick, and the note stood 1.6 mm from the box. Every note keeps 0.3 mm from every
    outline as drawn, with the step's selection or every block selected."""
    r = result_of(NESTED, 2)
    selection = frozenset(f"node:{n}" for n in r.nodes) if everything else None
    seen = _seen(NESTED, 2, target, theme_name, selection)
    assert len(seen.notes) == 3
    for note in seen.notes:
        for name, rings in seen.around.items():
            for ring in rings:
                assert _apart(text_box(note), _outer(ring)) >= 0.3 * seen.scale, (note.text, name)


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=["single", "slide"])
def test_an_arrow_into_a_selected_block_ends_outside_its_outline(target, theme_name):
    """The arrows into the selected x_join and y_join ended 0.3 mm above the box, under the
    thick outline drawn outside it (1.2 mm out, 1.35 mm wide in presentation): their heads
    showed as short black stubs. Each arrow into a selected block ends outside its outline,
    and is long enough for its whole head and some line."""
    seen = _seen(NESTED, 2, target, theme_name)
    into = [(e, line) for e, line in seen.edges.items()
            if e.split("->")[1] in ("x_join", "y_join")]
    assert len(into) == 4
    for edge, line in into:
        top = min(_outer(ring)[1] for ring in seen.around[edge.split("->")[1]])
        (x0, y0), (x1, y1) = line.points[0], line.points[-1]
        assert y1 <= top - 0.1 * seen.scale, edge
        head = arrow_head_width(line.style.stroke_width) * 1.4
        assert ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 >= head + 0.5 * seen.scale, edge


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_a_selected_reconvergence_point_keeps_its_dashed_outline_in_sight(theme_name):
    """The selected x_join's double outline (1.2 mm out, 0.6-1.35 mm wide) covered its dashed
    reconvergence outline (0.8 mm out): the step about the inner reconvergence points drew
    them without the mark the legend names. The dashed outline lies inside the selection's."""
    around = _seen(NESTED, 2, SLIDE, theme_name).around
    for name in ("x_join", "y_join"):
        dashed = [o for o in around[name] if o.style.dash]
        selected = [o for o in around[name] if not o.style.dash]
        assert dashed and selected, name
        inner = max(o.x + o.style.stroke_width / 2 for o in selected)  # its inner edge
        assert all(_outer(d)[0] >= inner for d in dashed), name


@pytest.mark.parametrize("theme_name", ["print", "presentation"])
def test_selecting_blocks_moves_no_label(theme_name):
    """Labels keep clear of the outline every block would have if selected, so a step that
    selects blocks (or a click) moves no label, and the blocks stay where they were."""
    r = result_of(NESTED, 2)
    every = frozenset(f"node:{n}" for n in r.nodes)
    bare, selected = (_seen(NESTED, 2, SLIDE, theme_name, s) for s in (frozenset(), every))
    assert [(t.x, t.y) for _, t in bare.predicates] == \
        [(t.x, t.y) for _, t in selected.predicates]
    assert [(t.x, t.y) for t in bare.notes] == [(t.x, t.y) for t in selected.notes]
    assert {n: (b.x, b.y) for n, b in bare.blocks.items()} == \
        {n: (b.x, b.y) for n, b in selected.blocks.items()}


def _gray(color):
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("name", ["divergence-if-else.json", "divergence-nested.json"])
def test_every_issue_cell_keeps_its_full_height_reference_in_grayscale(name, theme_name):
    """A bar's height is its share of active lanes: each cell carries an outline of the full
    height (every lane), in a grey that stands off the paper, so a print in grayscale keeps the
    reference the bars are read against (the surface under them is the paper in print)."""
    t = theme(theme_name)
    r = result_of(name, 0)
    fig = divergence_figure.build(r, frozenset(), t, SINGLE.showing(["issue"]))
    bars = [tuple(row) for i in walk(fig.items) if isinstance(i, Rects) and i.keys
            and i.keys[0].startswith("node:") for row in i.xywh]
    frames = [(tuple(row), i.style) for i in walk(fig.items) if isinstance(i, Rects)
              and not i.keys and i.style.fill is None and i.style.stroke for row in i.xywh]
    assert len(bars) == 2 * r.issued
    full = {round(fh, 9) for (_, _, _, fh), _ in frames}
    assert len(full) == 1
    (height,) = full
    # the outline is the height of all 32 lanes: the bars fill it by the lane efficiency
    assert sum(h for *_, h in bars) / (len(bars) * height) == pytest.approx(r.lane_efficiency)
    for x, y, w, h in bars:
        frame = [s for (fx, fy, fw, fh), s in frames
                 if abs(fx - x) < 1e-9 and abs(fw - w) < 1e-9
                 and abs(fy + fh - (y + h)) < 1e-9]
        assert frame, (x, y, w, h)
        assert abs(_gray(frame[0].stroke) - _gray(t.background)) >= 0.25


def _skipping():
    """A warp through a branch whose taken edge skips five blocks (t → zs) and another whose
    taken edge skips two (ustcskfz → zs): found by generated parameters, where both edges ran
    straight through the blocks between."""
    from gpuviz.models.divergence import DivergenceParams, EdgeParams, NodeParams
    from gpuviz.registry import panel

    names = ("zdbz", "hp", "t", "yafyzeln", "xscynp", "ustcskfz", "bmnosgpn", "moqi", "zs")
    edges = (("zdbz", "hp", ""), ("hp", "t", ""), ("t", "zs", "12 < 56"), ("t", "yafyzeln", ""),
             ("yafyzeln", "xscynp", ""), ("xscynp", "ustcskfz", ""),
             ("ustcskfz", "zs", "(blockDim.x ^ blockIdx.x) & threadIdx.x > 4"),
             ("ustcskfz", "bmnosgpn", ""), ("bmnosgpn", "moqi", ""), ("moqi", "zs", ""))
    params = DivergenceParams(nodes=tuple(NodeParams(name=n, instructions=100 + i)
                                          for i, n in enumerate(names)),
                              edges=tuple(EdgeParams(source=a, target=b, predicate=p)
                                          for a, b, p in edges), warp=12)
    return panel("divergence").compute(params)


@pytest.mark.parametrize(("target", "theme_name"), [(None, "screen"), (SINGLE, "print"),
                                                    (SLIDE, "presentation")])
def test_an_edge_that_skips_layers_runs_down_a_gutter_clear_of_the_blocks_between(
        target, theme_name):
    r = _skipping()
    fig = (divergence_figure.build(r, frozenset(), theme(theme_name)) if target is None
           else divergence_figure.build(r, frozenset(), theme(theme_name), target))
    boxes = {}
    for g in walk(fig.items):
        if isinstance(g, Group) and (g.key or "").startswith("node:"):
            rect = next(i for i in g.items if isinstance(i, Rect))
            boxes[g.key[5:]] = (rect.x, rect.y, rect.x + rect.w, rect.y + rect.h)
    lines = {}
    for g in walk(fig.items):
        if isinstance(g, Group) and (g.key or "").startswith("edge:"):
            line = next((i for i in g.items if isinstance(i, Polyline)), None)
            if line is not None:
                lines[g.key[5:]] = line.points
    for edge in ("t->zs", "ustcskfz->zs"):
        src, tgt = edge.split("->")
        between = [n for n in r.nodes if r.layer[src] < r.layer[n] < r.layer[tgt]]
        points = np.asarray(lines[edge], dtype=float)
        assert len(points) == 4, f"{edge}: into its gutter, down it and out of it"
        segs = np.hstack([points[:-1], points[1:]])
        for n in between:
            assert not segment_hits_box(segs, boxes[n]).any(), f"{edge} runs through {n}"
        assert points[1, 0] == points[2, 0], f"{edge}: its gutter runs plumb"
