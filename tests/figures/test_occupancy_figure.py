"""The occupancy figure: limit bars, warp slots, cliff plots, selection and themes."""


from itertools import pairwise

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
    assert "2 blocks × 16 warps = 32 of 64 warps (50 %)" in " ".join(fig.texts())
    assert "2 blocks (limiter)" in fig.texts()  # the register bar
    texts65 = " ".join(build(step=1).texts())
    assert "1 block × 16 warps = 16 of 64 warps (25 %)" in texts65
    assert "65 × 32 → 2,304 per warp" in texts65


def test_limiter_bar_is_drawn_in_the_warning_role():
    t = theme("screen")
    fig = build()
    groups = {g.key: g for g in walk(fig.items) if isinstance(g, Group) and g.key}
    fills = {r.style.fill for r in walk(groups["limit:registers"].items) if isinstance(r, Rect)}
    assert t.color("warn") in fills
    fills = {r.style.fill for r in walk(groups["limit:warps"].items) if isinstance(r, Rect)}
    assert t.color("warn") not in fills


def _outside_legend(items):
    for item in items:
        if isinstance(item, Group):
            if not (item.name or "").startswith("legend"):
                yield from _outside_legend(item.items)
        else:
            yield item


def test_current_point_is_marked_on_each_cliff():
    fig = build()
    marks = [c for c in _outside_legend(fig.items) if isinstance(c, Circle)]
    assert len(marks) == 3
    assert {"64 registers", "512 threads", "0 B dynamic"} <= set(fig.texts())
    # Bytes in one format: the 1 KiB reservation is not also written as 1,024 B.
    assert not any("KiB" in t and ".0 KiB" in t for t in fig.texts())


def _bar_widths(fig):
    groups = {g.key: g for g in walk(fig.items) if isinstance(g, Group) and g.key}
    return {name: max(r.w for r in walk(groups[f"limit:{name}"].items) if isinstance(r, Rect))
            for name in ("warps", "registers", "shared_memory", "blocks")}


def test_bars_are_as_long_as_their_own_limit():
    result = result_of("occupancy-register-cliff.json", 1)  # 65 registers: 1 block
    fig = occupancy_figure.build(result, frozenset(), theme("screen"))
    widths = _bar_widths(fig)
    limits = result.limits
    # One axis: lengths in proportion to the limits they show (4 and 32 blocks, 1 the limiter).
    assert limits["registers"] == 1 and limits["warps"] == 4 and limits["blocks"] == 32
    assert widths["warps"] / widths["registers"] == pytest.approx(4, rel=1e-6)
    assert widths["blocks"] / widths["registers"] == pytest.approx(32, rel=1e-6)
    # Shared memory allows 228 blocks, beyond the axis: drawn longest and marked as cut.
    assert widths["shared_memory"] > widths["blocks"]
    assert any(t.startswith("228 blocks") and "cut" in t for t in fig.texts())


def test_selection_is_outlined():
    t = theme("screen")
    fig = build(selection=frozenset({"limit:registers"}))
    outlines = [r for r in _outside_legend(fig.items)
                if isinstance(r, Rect) and r.style == t.highlight()]
    assert len(outlines) == 1


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_every_theme_builds(theme_name):
    fig = build("occupancy-shared-memory.json", 0, theme_name=theme_name)
    assert fig.background == THEMES[theme_name].background
    assert any(isinstance(i, Polyline) for i in walk(fig.items))
    assert not any(isinstance(i, Image) for i in walk(fig.items))


def test_a_carveout_preference_is_called_a_hint_with_the_residency_the_h200_measured():
    from gpuviz.figures import occupancy as occupancy_figure
    from gpuviz.figures.theme import SCREEN as screen
    from gpuviz.models.occupancy import OccupancyParams
    from gpuviz.models.occupancy import compute as occupancy

    hinted = occupancy(OccupancyParams(arch="h200", threads_per_block=32,
                                       registers_per_thread=16, shared_memory_carveout=0))
    assert hinted.active_blocks_per_sm == 8  # the occupancy API's answer, which the model is
    text = " ".join(occupancy_figure.build(hinted, frozenset(), screen).texts())
    assert "preference" in text and "hint" in text and "where the API reports 8" in text
    # both numbers: the API's (the bars) and what the SM keeps under the driver's choice
    assert hinted.resident_blocks_per_sm == 32
    assert "the SM keeps 32 blocks where the API reports 8" in text
    assert "Rely on the API's 8" in text and "the SM keeps 32 under the driver's" in text
    honoured = occupancy(OccupancyParams(arch="h200", threads_per_block=32,
                                         registers_per_thread=16, dynamic_shared_memory=1024,
                                         shared_memory_carveout=0))
    text = " ".join(occupancy_figure.build(honoured, frozenset(), screen).texts())
    assert "here the SM keeps the same 4 blocks" in text and "Rely on" not in text
    plain = occupancy(OccupancyParams(arch="h200", threads_per_block=32,
                                      registers_per_thread=16))
    assert "hint" not in " ".join(occupancy_figure.build(plain, frozenset(), screen).texts())


def test_the_cliffs_add_up_the_shared_memory_a_block_is_allocated():
    # the chart's x is the dynamic request (56 KiB); the text's 57 KiB adds the per-block
    # reservation, and the cliffs part says so on its own, without the figure's subtitle
    from gpuviz.figures.targets import SINGLE

    r = result_of("occupancy-shared-memory.json", 0)
    assert r.shared_memory_reserved_per_block == 1024
    alone = occupancy_figure.build(r, frozenset(), theme("print"),
                                   SINGLE.showing(["cliffs"], "none"))
    texts = alone.texts()
    assert "56 KiB dynamic" in texts  # the mark on the chart
    assert "56 KiB dynamic + 1 KiB reserved = 57 KiB" in " ".join(texts)


@pytest.mark.parametrize("part", ["limits", "slots", "cliffs"])
def test_each_part_meets_its_budget_in_a_column_and_on_a_slide(part):
    from gpuviz.figures.lint import lint
    from gpuviz.figures.targets import SINGLE, SLIDE

    r = result_of("occupancy-block-size.json", 0)
    for theme_name, target in (("print", SINGLE), ("presentation", SINGLE), ("print", SLIDE)):
        t = target.showing([part])
        fig = occupancy_figure.build(r, frozenset(), theme(theme_name), t)
        found = [f for f in lint(fig, t, theme=theme(theme_name), budget=True)
                 if f.rule in ("budget", "slide")]
        assert found == [], (theme_name, target.name, found)


def test_narrow_warp_slots_read_as_the_legends_tint_not_a_barcode():
    """64 slots in 85 mm are 1.3 mm each: a heavy edge and a gap around each drew 32 resident
    one-warp blocks as a dark barcode beside a pale legend swatch. They are one tint between
    thin block edges."""
    from gpuviz.figures.display import Rects
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.targets import SINGLE
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    th = theme("print")
    scenario = load_scenario(scenario_dir() / "occupancy-block-size.json")
    fig = figure_for(scenario, "occupancy", th, frozenset(), SINGLE.showing(["slots"]))
    owned = th.fill("owned")
    tint = [box for i in walk(fig.items) if isinstance(i, Rects) and i.style == owned
            for box in i.xywh]
    assert len(tint) == 32
    xs = sorted((float(x), float(w)) for x, _, w, _ in tint)
    assert all(abs(a[0] + a[1] - b[0]) < 1e-6 for a, b in pairwise(xs))
    edges = [i for g in walk(fig.items) if isinstance(g, Group) and g.key
             and g.key.startswith("block:") for i in g.items
             if isinstance(i, Rect) and i.style.fill is None]
    assert len(edges) == 32 and {e.style.stroke_width for e in edges} == {th.thin_mm}


def _x_ticks(fig, plot_key):
    """The x tick labels under the plot keyed ``plot_key`` (anchored middle, below its axis)."""
    from gpuviz.figures.display import Text

    [group] = [g for g in walk(fig.items) if isinstance(g, Group) and g.key == plot_key]
    texts = [t for t in walk(group.items) if isinstance(t, Text) and t.anchor == "middle"
             and t.text.replace(",", "").isdigit()]
    bottom = max(t.y for t in texts)
    return [t.text for t in sorted(texts, key=lambda t: t.x) if abs(t.y - bottom) < 1e-6]


@pytest.mark.parametrize("size", ["natural", "single", "slide"])
def test_cliff_axes_are_ticked_at_the_hardwares_values(size):
    """Registers per thread at 32, 64, 128, 255 and threads per block at multiples of 256 (the
    values a kernel is written with), never at round tens (50, 100, 150, 200, 250, which the
    plots read before); the last (255, 1,024) always kept."""
    from gpuviz.figures.targets import TARGETS

    r = result_of("occupancy-register-cliff.json", 0)
    fig = occupancy_figure.build(r, frozenset(), theme("print"), TARGETS[size])
    registers, threads = _x_ticks(fig, "plot:registers"), _x_ticks(fig, "plot:threads")
    assert set(registers) <= {"32", "64", "128", "255"} and registers[-1] == "255"
    assert set(threads) <= {"256", "512", "768", "1,024"} and threads[-1] == "1,024"
    assert len(registers) >= 3 and len(threads) >= 2


def test_the_limits_are_computed_in_a_table_with_the_blocks_in_a_column_of_their_own():
    """How each limit is computed: a table (the resource, its arithmetic, the blocks it
    allows, aligned right in one column), not monospaced lines whose "→ 2 blocks" wrapped
    under their row at one column; the limiter's row in the foreground."""
    from gpuviz.figures.display import Text
    from gpuviz.figures.targets import SINGLE

    PRINT = theme("print")
    r = result_of("occupancy-register-cliff.json", 0)
    figure = occupancy_figure.build(r, frozenset(), PRINT, SINGLE.showing(["limits"]))
    tables = [g for g in walk(figure.items) if isinstance(g, Group) and g.name == "limits-table"]
    assert len(tables) == 1
    texts = [t for t in walk(tables[0].items) if isinstance(t, Text)]
    assert all(t.font == "sans" for t in texts)
    counts = [t for t in texts if t.text.endswith(("block", "blocks", "no limit"))
              and t.anchor == "end"]
    assert len({round(t.x, 6) for t in counts}) == 1 and len(counts) == 4
    registers = next(t for t in counts if t.key == "limit:registers")
    assert registers.text == "2 blocks" and registers.color == PRINT.foreground
    assert all(t.color == PRINT.muted for t in counts if t is not registers)
