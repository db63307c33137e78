"""The scheduler figure: timeline image, warp rows, utilisation plot, selection and themes."""


import numpy as np
import pytest

from gpuviz.figures import scheduler as scheduler_figure
from gpuviz.figures.display import Group, Image, Rect, walk
from gpuviz.figures.layout import DOUBLE, NATURAL, SINGLE, SLIDE, format_percent
from gpuviz.figures.theme import THEMES, theme
from gpuviz.models.scheduler import SchedulerParams, compute
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(name, step):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("scheduler",))["scheduler"]


def build(name="scheduler-try-round-robin.json", step=0, selection=frozenset(),
          theme_name="screen"):
    return scheduler_figure.build(result_of(name, step), selection, theme(theme_name))


def images(fig):
    return {i.key: i for i in walk(fig.items) if isinstance(i, Image)}


def test_warps_slots_and_plot_are_pointable():
    keys = set(build().keys())
    assert {f"warp:{w}" for w in range(16)} <= keys
    assert {"slots", "warps", "plot:utilization", "plot:sweep"} <= keys


def test_sweep_marks_the_resident_warps_and_the_register_cap():
    r = result_of("scheduler-try-registers.json", 3)
    texts = scheduler_figure.build(r, frozenset(), theme("screen")).texts()
    here = r.sweep_utilization[r.sweep_warps.index(8)]
    assert f"N = 8: {format_percent(here)}" in texts
    assert "register cap 8" in texts


def test_timeline_is_one_pixel_per_cycle_and_warp():
    r = result_of("scheduler-try-round-robin.json", 0)
    fig = scheduler_figure.build(r, frozenset(), theme("screen"))
    start, end = scheduler_figure.visible_cycles(r, frozenset(), 1_000_000)
    win = end - start
    title = next(t for t in fig.texts() if t.startswith("Issue timeline, cycles "))
    shown = int(title.split("–")[1].split(" ")[0].replace(",", "")) + 1
    win = min(win, shown)
    warps = images(fig)["warps"]
    assert warps.rgb.shape == (16, win, 3)
    slots = images(fig)["slots"]
    assert slots.rgb.shape == (1, win, 3)
    # empty issue slots are painted in the warning colour
    empty = np.array([int(theme("screen").color("warn")[i:i + 2], 16) for i in (1, 3, 5)])
    painted_empty = (slots.rgb[0] == empty).all(axis=1)
    assert np.array_equal(painted_empty, r._issued_kind[:win] == 0)


def test_texts_carry_the_seed_numbers():
    texts = " ".join(build().texts())
    assert "P = 264 cycles, I = 17 instructions" in texts
    assert "⌈P/I⌉ = 16 warps needed" in texts
    lrr = " ".join(build(step=1).texts())
    assert "loose round-robin" in lrr
    r = result_of("scheduler-try-round-robin.json", 1)
    assert f"{format_percent(r.issue_utilization)} of issue slots used" in lrr


def test_register_cap_is_named():
    texts = " ".join(build("scheduler-try-registers.json", 3).texts())
    assert "registers cap residency at 8" in texts


def test_selected_warp_is_outlined():
    t = theme("screen")
    fig = build(selection=frozenset({"warp:3"}))
    outlines = [r for r in _outside_legend(fig.items)
                if isinstance(r, Rect) and r.style == t.highlight()]
    assert len(outlines) == 1


def _outside_legend(items):
    for item in items:
        if isinstance(item, Group):
            if not (item.name or "").startswith("legend"):
                yield from _outside_legend(item.items)
        else:
            yield item


@pytest.mark.parametrize("target", [NATURAL, SINGLE, DOUBLE, SLIDE], ids=lambda t: t.name)
def test_timeline_cycles_are_readable_at_every_size(target):
    r = result_of("scheduler-memory-parallelism.json", 0)
    assert r.cycles >= 20_000
    fig = scheduler_figure.build(r, frozenset(), theme("screen"), target)
    strip = images(fig)["slots"]
    per_cycle = strip.w / strip.rgb.shape[1]
    assert per_cycle >= scheduler_figure.MIN_CYCLE_MM - 1e-9


def test_a_cycle_window_in_the_selection_is_shown():
    r = result_of("scheduler-memory-parallelism.json", 0)
    fig = scheduler_figure.build(r, frozenset({"cycles:500-799"}), theme("screen"))
    assert images(fig)["slots"].rgb.shape == (1, 300, 3)
    assert f"Issue timeline, cycles 500–799 of {r.cycles:,}" in fig.texts()
    assert scheduler_figure.visible_cycles(r, frozenset({"cycles:9-3"})) == \
        scheduler_figure.visible_cycles(r, frozenset())


def test_utilisation_axes_are_bounded_to_100_percent():
    fig = build("scheduler-try-divergence.json", 1)
    percents = [t for t in fig.texts() if t.endswith(" %") and t[:-2].isdigit()]
    assert "100 %" in percents and all(int(t[:-2]) <= 100 for t in percents)


def test_many_warps_still_build_as_one_image():
    r = compute(SchedulerParams(warps=64, warp_slots=64, registers_per_thread=8, cycles=5000))
    fig = scheduler_figure.build(r, frozenset(), theme("screen"))
    assert images(fig)["warps"].rgb.shape[0] == 64


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_every_theme_builds(theme_name):
    fig = build("scheduler-try-divergence.json", 1, theme_name=theme_name)
    assert fig.background == THEMES[theme_name].background
    assert "useful lane work" in " ".join(fig.texts())
