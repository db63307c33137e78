"""The sector map figure: keys, the receipt's numbers, selection, themes and timing budget."""

from pathlib import Path

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import sectors as sectors_figure
from gpuviz.figures.display import Rect, Segments, Text, walk
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import compute_all, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "gpuviz" / "scenarios"


def result_of(name, step=-1):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("sectors",))["sectors"]


def build(name="sectors-aligned.json", selection=frozenset(), theme_name="screen", step=-1):
    return sectors_figure.build(result_of(name, step), selection, theme(theme_name))


def theme_colours(t):
    return {t.background, t.surface, t.foreground, t.muted, t.grid, t.outline, t.accent,
            *t.palette, *t.roles.values()}


def test_every_lane_and_every_touched_sector_and_line_is_pointable():
    fig = build("sectors-shifted.json")
    keys = set(fig.keys())
    assert {f"lane:{i}" for i in range(32)} <= keys
    assert {f"sector:{s}" for s in range(5)} <= keys
    assert {"line:0", "line:1", "plot"} <= keys


def test_receipt_states_sectors_lines_bytes_and_efficiency():
    texts = build("sectors-shifted.json").texts()
    assert "touches 5 sectors" in texts[0]
    assert texts[texts.index("sectors (32 B)"):][:2] == ["sectors (32 B)", "5"]
    assert "160" in texts and "128" in texts
    assert "80.0 %" in texts


def test_stride_8_figure_draws_32_sectors_and_marks_the_stride_on_the_sweep():
    fig = build("sectors-stride8.json")
    keys = fig.keys()
    sector_keys = [k for k in keys if k.startswith("sector:")]
    assert len(set(sector_keys)) == 32
    assert "stride 8: 32" in fig.texts()


def test_one_connection_per_active_lane():
    fig = build("linked-launch-sectors.json", step=1)
    links = [i for i in walk(fig.items) if isinstance(i, Segments) and i.keys
             and all(k.startswith("lane:") for k in i.keys)]
    assert links[0].keys == ("lane:0", "lane:1")
    assert any("from launch" in t for t in fig.texts())


def test_selecting_a_lane_highlights_its_lane_and_its_sector():
    t = theme("screen")
    plain = build()
    chosen = build(selection=frozenset({"lane:9"}))

    def accented(fig):
        return [i for i in walk(fig.items) if isinstance(i, Rect) and i.style.stroke == t.accent]

    extra = len(accented(chosen)) - len(accented(plain))
    assert extra == 2  # the lane box and sector 1
    hi = [i for i in walk(chosen.items) if isinstance(i, Segments) and i.style.stroke == t.accent]
    assert len(hi) == 1 and len(hi[0].xyxy) == 1


def test_an_empty_warp_says_nothing_is_requested():
    fig = build("linked-launch-sectors.json", step=2)
    assert "no active lane: nothing is requested" in fig.texts()


@pytest.mark.parametrize("name", list(THEMES))
def test_every_theme_builds_from_theme_colours_only(name):
    t = theme(name)
    fig = build("sectors-reversed.json", frozenset({"lane:3", "sector:2", "line:0"}), name)
    used = set()
    for item in walk(fig.items):
        style = getattr(item, "style", None)
        if style is not None:
            used |= {c for c in (style.fill, style.stroke, style.hatch_color) if c}
        if isinstance(item, Text):
            used.add(item.color)
    assert used <= theme_colours(t), used - theme_colours(t)


def test_svg_is_deterministic_and_keyed():
    svg = figure_to_svg(build())
    assert svg == figure_to_svg(build())
    assert "data-key='lane:0'" in svg or 'data-key="lane:0"' in svg
