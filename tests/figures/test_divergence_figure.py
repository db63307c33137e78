"""The divergence figure: CFG nodes and edges, the stack trace, issue orders, selection, themes."""


import pytest

from gpuviz.figures import divergence as divergence_figure
from gpuviz.figures.display import Group, Polyline, Rect, Rects, walk
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
    assert {f"edge:{s}->{t}" for s, t, _ in r._edges} <= keys
    assert {f"step:{e.step}" for e in r.trace} <= keys
    assert {f"lane:{i}" for i in range(32)} <= keys


def test_texts_carry_ipdom_and_efficiency():
    texts = build().texts()
    assert "Divergence: 8 instructions issued, lane efficiency 50 %" in texts
    assert "ipdom: join" in texts
    assert "lane < 16" in texts and "otherwise" in texts
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
    issuing = [n for n in r.nodes if r._instructions[n] > 0]
    assert sorted(marks) == sorted(f"node:{n}" for n in issuing)
    assert all(len(m) == 1 for m in marks.values())
    distinct = {next(iter(m)) for m in marks.values()}
    assert len(distinct) == len(issuing)
    # A second channel besides colour: no two blocks share a pattern among the first five.
    assert len({h for _, h in distinct}) == min(len(issuing), 5)


def test_every_edge_has_an_arrowhead():
    r = result_of("divergence-nested.json", 0)
    fig = divergence_figure.build(r, frozenset(), theme("screen"))
    for s, t, _ in r._edges:
        groups = [g for g in walk(fig.items) if isinstance(g, Group) and g.key == f"edge:{s}->{t}"]
        lines = [i for g in groups for i in walk(g.items) if isinstance(i, Polyline)]
        assert lines and all(line.arrow_end for line in lines)


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_every_theme_builds(theme_name):
    fig = build("divergence-nested.json", theme_name=theme_name)
    assert fig.background == THEMES[theme_name].background
