"""The swizzle grid figure: chunks in both grids, readers' banks, selection and themes."""

import itertools

import pytest

from gpuviz.figures import swizzle as swizzle_figure
from gpuviz.figures.display import Group, Polyline, Rect, Rects, Text, walk
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import THEMES, gray_level, theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(step=-1):
    scenario = load_scenario(SCENARIOS / "swizzle-column3.json").at_step(step)
    return compute_all(scenario, ("swizzle",))["swizzle"]


def build(selection=frozenset(), theme_name="screen", step=-1):
    return swizzle_figure.build(result_of(step), selection, theme(theme_name))


def test_every_chunk_appears_in_both_grids():
    keys = build().keys()
    for row in range(8):
        for col in range(8):
            assert keys.count(f"chunk:{row},{col}") >= 2
    assert {f"row:{r}" for r in range(8)} <= set(keys)
    assert {f"bank:{b}" for b in range(32)} <= set(keys)


def test_figure_states_formula_and_the_seed_bank_counts():
    texts = build().texts()
    assert "physical = offset ^ ((offset & 0x380) >> 3)" in texts
    assert "1 bank, 8-way" in texts
    assert "8 banks" in texts
    assert "8" in texts  # the linear bank 12 serves 8 readers
    [row5] = [t for t in texts if t.startswith("row 5 ")]
    assert row5.endswith("bank 12 → 24")  # row 5: bank 12 linear, 24 swizzled


def test_arrow_targets_follow_the_mapping():
    texts = build().texts()
    assert [t for t in texts if t.startswith("col ")] == [f"col {3 ^ r}" for r in range(8)]


def test_selecting_a_chunk_lights_its_arrow_and_covers_no_other_cell():
    """A selected chunk is outlined in both grids and its row's arrow between them is lit.
    Its route used to run along the row's top edge from grid to grid, over the row above,
    with its arrowhead on the physical cell above the target (row 4's "2" hidden at chunk
    5,3)."""
    t = theme("screen")
    plain = build()
    chosen = build(frozenset({"chunk:5,3"}))

    def arrows(fig):
        return [i for i in walk(fig.items) if isinstance(i, Polyline) and i.arrow_end]

    def lit(fig):
        return [a for a in arrows(fig) if a.style.stroke_width == t.thick_mm]

    assert len(arrows(chosen)) == len(arrows(plain)) and not lit(plain)
    [arrow] = lit(chosen)
    assert arrow.key == "chunk:5,3"
    rows = {round(a.points[0][1], 6) for a in arrows(chosen)}
    assert len(rows) == 8  # one arrow a row, each on its own row: nothing runs between rows


def test_64b_mode_gives_4_banks_2_way():
    assert "4 banks, 2-way" in build(step=2).texts()


@pytest.mark.parametrize("name", list(THEMES))
def test_every_theme_builds_from_theme_colours_only(name):
    t = theme(name)
    allowed = t.colours()
    allowed |= {swizzle_figure.column_fill(t, k) for k in range(8)}  # the chunk columns
    fig = build(frozenset({"chunk:2,3", "row:4", "bank:12"}), name)
    used = fig.colours()
    assert used <= allowed, used - allowed


@pytest.mark.parametrize("name", list(THEMES))
def test_the_conflict_count_never_lies_on_hatching_or_lines(name):
    from gpuviz.figures.lint import lint

    fig = build(theme_name=name)
    [eight] = [t for t in walk(fig.items) if isinstance(t, Text) and t.text == "8"
               and t.key == "bank:12"]
    hatched = [i for i in walk(fig.items) if isinstance(i, (Rect, Rects)) and i.style.hatch]
    assert not hatched or eight.knockout
    assert [f for f in lint(fig) if f.key == "bank:12"] == []


@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=lambda t: t.name)
def test_every_size_keeps_both_grids_and_all_banks(target):
    fig = swizzle_figure.build(result_of(), frozenset(), theme("screen"), target)
    keys = fig.keys()
    assert all(keys.count(f"chunk:{r},{c}") >= 2 for r in range(8) for c in range(8))
    assert {f"bank:{b}" for b in range(32)} <= set(keys)
    assert {f"row:{r}" for r in range(8)} <= set(keys)


def test_chunk_columns_that_meet_keep_apart_in_a_grayscale_print():
    """Columns 0 and 4, and 1 and 6, were nearly one tint, and column 4 almost white in print."""
    gray = [gray_level(swizzle_figure.column_fill(theme("print"), k)) for k in range(8)]
    assert max(gray) <= 0.9  # no chunk looks like an empty cell
    r = result_of()
    meet = {frozenset(p) for row in r.mapping for p in itertools.pairwise(row)}
    meet |= {frozenset((a, b)) for up, down in itertools.pairwise(r.mapping)
             for a, b in zip(up, down, strict=True)}
    meet |= {frozenset((c, c ^ 4)) for c in range(8)}
    assert len(meet) >= 12
    for pair in meet:
        a, b = sorted(pair)
        assert abs(gray[a] - gray[b]) >= 0.1, (a, b, gray[a], gray[b])


def _drawing(items):
    """The items outside the legend."""
    for item in items:
        if isinstance(item, Group):
            if not (item.name or "").startswith("legend"):
                yield from _drawing(item.items)
        else:
            yield item


def _outlined(fig, t):
    """The (x, y) of every box of the drawing outlined as selected."""
    return {(round(i.x, 3), round(i.y, 3)) for i in _drawing(fig.items)
            if isinstance(i, Rect) and i.style == t.highlight()}


def test_a_lane_selected_in_the_bank_rack_lights_its_reader_here():
    """Keys are shared by the docks of a scenario: lane 5 clicked in banks (which follows this
    panel in banks-swizzled-columns) is the reader of row 5, drawn as if row 5 were selected."""
    t = theme("screen")
    scenario = load_scenario(SCENARIOS / "banks-swizzled-columns.json")
    r = compute_all(scenario, ("swizzle",))["swizzle"]
    by_lane = swizzle_figure.build(r, frozenset({"lane:5"}), t)
    by_row = swizzle_figure.build(r, frozenset({"row:5"}), t)
    assert _outlined(by_lane, t) == _outlined(by_row, t) != _outlined(
        swizzle_figure.build(r, frozenset(), t), t)
    bold = [i.text for i in walk(by_lane.items) if isinstance(i, Text) and i.bold
            and i.key == "row:5"]
    assert bold and "→ 736" in bold[0]  # row 5's word, swizzled to byte 736
    assert "Lane 5: the reader of row 5 (lane l reads row l mod 8)." in by_lane.texts()


def test_a_selected_bank_lights_the_chunks_stored_in_it():
    t = theme("screen")
    r = result_of()
    plain = _outlined(build(theme_name="screen"), t)
    fig = build(frozenset({"bank:20"}), "screen")
    lit = _outlined(fig, t) - plain
    # bank 20 is bytes 80-83 of every row: physical chunk column 5 in all eight rows, the logical
    # chunks stored there in the left grid, and bank 20 in both strips
    assert len(lit) == 8 + 8 + 2
    cells = [i for i in walk(fig.items) if isinstance(i, Rects) and i.keys
             and i.keys[0].startswith("chunk:")]
    stored = {(row, col) for row in range(8) for col in range(8) if r.mapping[row][col] == 5}
    assert len(stored) == 8
    logical = cells[:len(cells) // 2]  # the left grid's cells come first
    boxes = {k: xywh for c in logical for k, xywh in zip(c.keys, c.xywh, strict=True)}
    for row, col in stored:
        x, y, _, _ = boxes[f"chunk:{row},{col}"]
        assert any(abs(x - 0.2 - ox) < 2e-3 and abs(y - 0.2 - oy) < 2e-3 for ox, oy in lit)


def test_a_column_breaks_the_formula_at_an_operator_not_inside_its_group():
    """At 85 mm in the largest type the formula takes two lines: it broke before ">> 3"."""
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.targets import SINGLE
    from gpuviz.figures.theme import theme
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    scenario = load_scenario(scenario_dir() / "swizzle-column3.json")
    fig = figure_for(scenario, "swizzle", theme("presentation"), frozenset(),
                     SINGLE.showing(["physical"]))
    texts = fig.texts()
    i = texts.index("physical = offset ^")
    assert texts[i + 1] == "((offset & 0x380) >> 3)"


@pytest.mark.parametrize("view", [((125, 0.97), (637, 659)), ((124, 0.96), (634, 659))])
def test_the_banks_alone_in_a_square_view_reach_the_rooms_type(view):
    """The banks part beside the bank rack in F5 on a 1280×720 projector (banks-swizzled-
    columns, steps 4–5): half the screen, about 636 × 659 px, 125 mm at the room's type.
    Designed from the grids' 172 mm, even the narrowest design set the figure 126 mm wide and
    it was shrunk to 15.2 px; designed from a strip of 16 banks, 17.4 px, its title on two
    lines. A design too narrow for the title sets the short one: 18 px, the least type of a
    presented figure."""
    from gpuviz.figures.scene import build_figure
    from gpuviz.figures.targets import view_target
    from gpuviz.ui.presentation import PRESENT_MIN_PX
    from gpuviz.ui.view_layout import lay_out_view

    (width, aspect), px = view
    room = theme("presentation")
    scenario = load_scenario(SCENARIOS / "banks-swizzled-columns.json")
    states = [compute_all(scenario.at_step(k), ("swizzle",))["swizzle"] for k in (3, 4)]
    layout = lay_out_view(lambda r, t: build_figure("swizzle", r, frozenset(), room, t),
                          states, view_target(width, aspect), px, PRESENT_MIN_PX,
                          room.title_pt, ("banks",))
    assert layout.type_px >= PRESENT_MIN_PX, layout


def test_the_readers_are_as_wide_as_their_lines_so_nothing_is_set_over_them():
    """The readers' lines are monospaced and never wrapped: their block claimed at most the
    width it was given, and a slide's legend set beside them overlapped their ends."""
    from gpuviz.figures.metrics import text_width

    r = result_of()
    room = theme("print")
    for width in (30.0, 60.0, 200.0):
        block = swizzle_figure._readers(r, frozenset(), room, width)
        lines = [t for t in walk(block.items) if isinstance(t, Text) and t.font == "mono"]
        assert len(lines) == 8
        assert block.width >= max(t.x + text_width(t.text, t.size, "mono") for t in lines) - 1e-6
