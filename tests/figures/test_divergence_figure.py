"""The divergence figure: CFG nodes and edges, the stack trace, issue orders, selection, themes."""


import pytest

from gpuviz.figures import divergence as divergence_figure
from gpuviz.figures.display import Group, Polyline, Rect, Rects, Text, text_box, walk
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
    row = next(t for t in nested if t.startswith("region x → x_join"))
    assert row.split("x_join", 1)[1].strip().startswith("6 issued, 50 %")


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
def test_a_hatched_block_keeps_its_name_off_the_hatching(target):
    _, fig = _graph("divergence-nested.json", target)
    hatched = 0
    for g in walk(fig.items):
        if not (isinstance(g, Group) and (g.key or "").startswith("node:")):
            continue
        rects = [i for i in g.items if isinstance(i, Rect)]
        if not rects[0].style.hatch:
            continue
        hatched += 1
        clear = [i for i in rects[1:] if not i.style.hatch and i.style.fill == rects[0].style.fill]
        assert clear, g.key
        for text in (i for i in g.items if isinstance(i, Text)):
            x0, y0, x1, y1 = text_box(text)
            assert any(c.x <= x0 and c.y <= y0 and x1 <= c.x + c.w and y1 <= c.y + c.h
                       for c in clear), (g.key, text.text)
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
