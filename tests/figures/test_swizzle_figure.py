"""The swizzle grid figure: chunks in both grids, readers' banks, selection and themes."""


import pytest

from gpuviz.figures import swizzle as swizzle_figure
from gpuviz.figures.display import Polyline, Rect, Rects, Text, walk
from gpuviz.figures.layout import SINGLE, SLIDE
from gpuviz.figures.theme import THEMES, theme
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


def test_selecting_a_chunk_draws_its_route_between_the_grids():
    t = theme("screen")
    plain = build()
    chosen = build(frozenset({"chunk:5,3"}))

    def routes(fig):
        return [i for i in walk(fig.items) if isinstance(i, Polyline) and i.arrow_end
                and i.style.stroke == t.accent]

    assert len(routes(chosen)) == len(routes(plain)) + 2  # the gap arrow lit, and the route


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
