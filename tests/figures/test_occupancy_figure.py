"""The occupancy figure: limit bars, warp slots, cliff plots, selection and themes."""


import pytest

from gpuviz.figures import occupancy as occupancy_figure
from gpuviz.figures.display import Circle, Group, Image, Polyline, Rect, walk
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(name, step):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("occupancy",))["occupancy"]


def build(name="occupancy-register-cliff.json", step=0, selection=frozenset(), theme_name="screen"):
    return occupancy_figure.build(result_of(name, step), selection, theme(theme_name))


def test_limits_blocks_slots_and_plots_are_pointable():
    keys = set(build().keys())
    assert {"limit:warps", "limit:registers", "limit:shared_memory", "limit:blocks"} <= keys
    assert {"block:0", "block:1"} <= keys
    assert {f"slot:{s}" for s in range(32, 64)} <= keys
    assert {"plot:registers", "plot:threads", "plot:shared_memory"} <= keys


def test_title_and_bars_carry_the_seed_numbers():
    fig = build()
    assert "2 blocks × 16 warps = 32 of 64 warps (50%)" in " ".join(fig.texts())
    assert "2 blocks" in fig.texts()  # the register bar
    texts65 = " ".join(build(step=1).texts())
    assert "1 block × 16 warps = 16 of 64 warps (25%)" in texts65
    assert "65 × 32 → 2,304 per warp" in texts65


def test_limiter_bar_is_drawn_in_the_warning_role():
    t = theme("screen")
    fig = build()
    groups = {g.key: g for g in walk(fig.items) if isinstance(g, Group) and g.key}
    fills = {r.style.fill for r in walk(groups["limit:registers"].items) if isinstance(r, Rect)}
    assert t.color("warn") in fills
    fills = {r.style.fill for r in walk(groups["limit:warps"].items) if isinstance(r, Rect)}
    assert t.color("warn") not in fills


def test_current_point_is_marked_on_each_cliff():
    fig = build()
    marks = [c for c in walk(fig.items) if isinstance(c, Circle)]
    assert len(marks) == 3
    assert {"64 regs", "512 threads", "0.0 KiB"} <= set(fig.texts())


def test_selection_is_outlined():
    t = theme("screen")
    fig = build(selection=frozenset({"limit:registers"}))
    outlines = [r for r in walk(fig.items) if isinstance(r, Rect) and r.style == t.highlight()]
    assert len(outlines) == 1


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_every_theme_builds(theme_name):
    fig = build("occupancy-shared-memory.json", 0, theme_name=theme_name)
    assert fig.background == THEMES[theme_name].background
    assert any(isinstance(i, Polyline) for i in walk(fig.items))
    assert not any(isinstance(i, Image) for i in walk(fig.items))
