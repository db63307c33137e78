"""The sector map figure: keys, the receipt's numbers, selection, themes and timing budget."""


import itertools

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import sectors as sectors_figure
from gpuviz.figures.display import Rect, Rects, Segments, Text, text_box, walk
from gpuviz.figures.targets import SINGLE
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(name, step=-1):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("sectors",))["sectors"]


def build(name="sectors-aligned.json", selection=frozenset(), theme_name="screen", step=-1):
    return sectors_figure.build(result_of(name, step), selection, theme(theme_name))


def receipt(fig, label):
    [row] = [t for t in fig.texts() if t.startswith(label + "  ")]
    return row[len(label):].strip()


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
    fig = build("sectors-shifted.json")
    assert "touches 5 sectors" in fig.texts()[0]
    assert receipt(fig, "sectors (32 B)") == "5"
    assert receipt(fig, "lines (128 B)") == "2"
    assert receipt(fig, "requested") == "128 B"
    assert receipt(fig, "fetched") == "160 B"
    assert receipt(fig, "efficiency") == "80 %"


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

    outer = t.selection()[0]

    def selected(fig):
        return [i for i in walk(fig.items) if isinstance(i, Rect) and i.style == outer]

    extra = len(selected(chosen)) - len(selected(plain))
    assert extra == 3  # the lane box, sector 1 and the element lane 9 reads, as selected
    hi = [i for i in walk(chosen.items) if isinstance(i, Segments) and i.style == t.highlight()]
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


def test_a_64_lane_wavefront_draws_and_keys_all_64_lanes():
    fig = build("linked-launch-sectors-wave64.json", step=0)
    keys = set(fig.keys())
    assert {f"lane:{i}" for i in range(64)} <= keys
    assert {f"sector:{s}" for s in range(8)} <= keys and {"line:0", "line:1"} <= keys
    texts = fig.texts()
    assert all(str(i) in texts for i in range(64))
    assert "touches 8 sectors" in texts[0]
    links = [i for i in walk(fig.items) if isinstance(i, Segments) and i.keys
             and all(k.startswith("lane:") for k in i.keys)]
    assert len(links[0].keys) == 64


def test_64_lane_cells_fit_the_figure_and_their_numbers_fit_the_cells():
    fig = build("linked-launch-sectors-wave64.json", step=1, theme_name="print")
    cells = {k: xywh for i in walk(fig.items) if isinstance(i, Rects) and i.keys
             for k, xywh in zip(i.keys, i.xywh, strict=True) if k and k.startswith("lane:")}
    assert len(cells) == 64
    assert all(x >= 0 and x + w <= fig.width for x, _, w, _ in cells.values())
    numbers = [i for i in walk(fig.items) if isinstance(i, Text) and i.font == "mono"
               and i.text.isdigit() and i.rotate == -90]
    assert len(numbers) == 64
    for t in numbers:  # each sideways number lies inside its own cell, at 7 pt at least
        x, y, w, h = cells[t.key]
        x0, y0, x1, y1 = text_box(t)
        assert x <= x0 and x1 <= x + w and y <= y0 and y1 <= y + h
        assert t.size >= 7.0
    assert "2 active lanes (wavefront 0 of block 2, from launch)" in " ".join(fig.texts()[:3])


@pytest.mark.parametrize("name", ["sectors-shifted.json", "sectors-stride8.json"])
def test_a_line_box_is_always_four_sectors_wide(name):
    for step in (-1, 0, 1, 2):
        try:
            r = result_of(name, step)
        except IndexError:
            continue
        fig = sectors_figure.build(r, frozenset(), theme("screen"))
        lines = [i for i in walk(fig.items) if isinstance(i, Rect) and (i.key or "").startswith(
            "line:")]
        sectors = [row for i in walk(fig.items) if isinstance(i, Rects) and i.keys
                   and all(k.startswith("sector:") for k in i.keys) for row in i.xywh]
        sw = float(sectors[0][2])
        assert len(lines) == r.line_count
        assert all(abs(b.w - 4 * sw) < 1e-6 for b in lines)


def test_touching_lines_touch_and_a_gap_means_untouched_lines():
    touching = sectors_figure.build(result_of("sectors-shifted.json"), frozenset(),
                                    theme("screen"))  # lines 0 and 1
    boxes = sorted((i for i in walk(touching.items) if isinstance(i, Rect)
                    and (i.key or "").startswith("line:")), key=lambda b: b.x)
    assert abs(boxes[0].x + boxes[0].w - boxes[1].x) < 1e-6
    assert not any("A gap between two lines" in t for t in touching.texts())
    r = result_of("sectors-stride8.json", 2)  # lines 0 … 31, all touching
    assert r.lines == tuple(range(32))
    apart = sectors_figure.build(r, frozenset(), theme("screen"))
    boxes = sorted((i for i in walk(apart.items) if isinstance(i, Rect)
                    and (i.key or "").startswith("line:")), key=lambda b: b.x)
    assert all(abs(a.x + a.w - b.x) < 1e-6 for a, b in itertools.pairwise(boxes))


def test_lines_apart_in_memory_are_drawn_apart_and_the_legend_says_why():
    from gpuviz.models.sectors import SectorPattern, SectorsParams, compute

    r = compute(SectorsParams(pattern=SectorPattern(kind="stride", stride=64),
                              follow_launch=False))
    assert r.lines[:3] == (0, 2, 4)
    fig = sectors_figure.build(r, frozenset(), theme("screen"))
    boxes = sorted((i for i in walk(fig.items) if isinstance(i, Rect)
                    and (i.key or "").startswith("line:")), key=lambda b: b.x)
    assert all(b.x - (a.x + a.w) > 1.0 for a, b in itertools.pairwise(boxes))
    assert any("A gap between two lines" in t for t in fig.texts())


def _links(fig):
    return [k for i in walk(fig.items) if isinstance(i, Segments) and i.keys
            and all(k.startswith("lane:") for k in i.keys) for k in i.keys]


def test_the_reversed_map_draws_guide_lanes_not_a_knot_of_32_crossings():
    fig = build("sectors-reversed.json", theme_name="print")
    assert _links(fig) == ["lane:0", "lane:8", "lane:16", "lane:24", "lane:31"]
    assert any(t.startswith("Every line would cross every other: only lanes 0, 8, 16, 24 and 31")
               for t in fig.texts())
    # each element read names its reader, under the memory row and inside its element's width
    memory = next(i for i in walk(fig.items) if isinstance(i, Rect) and i.key == "line:0")
    readers = [i for i in walk(fig.items) if isinstance(i, Text) and (i.key or "")
               .startswith("reader:")]
    assert sorted(int(t.text) for t in readers) == list(range(32))
    cell = memory.w / 32
    for t in readers:
        x0, y0, x1, _ = text_box(t)
        assert y0 >= memory.y + memory.h
        element = 31 - int(t.text)
        assert memory.x + element * cell <= x0 and x1 <= memory.x + (element + 1) * cell


def test_an_element_read_is_more_than_a_sliver_at_single_column():
    fig = sectors_figure.build(result_of("sectors-stride8.json"), frozenset(), theme("print"),
                               SINGLE.showing(["map"]))
    t = theme("print")
    read = [i for i in walk(fig.items) if isinstance(i, Rects)
            and i.style.fill == t.fill("read").fill]
    widths = [w for r in read for _, _, w, _ in r.xywh]
    assert len(widths) == 32 and min(widths) >= 0.9  # an 8-byte stride of 4-byte cells: 0.27 mm


def test_the_sweep_marks_the_ceiling_of_one_sector_per_active_lane():
    fig = sectors_figure.build(result_of("linked-launch-sectors-wave64.json"), frozenset(),
                               theme("print"), SINGLE.showing(["sweep"]))
    assert "ceiling: 64 active lanes, one sector each" in fig.texts()


def test_the_ceiling_label_stands_clear_of_the_sweeps_points():
    """Under the plateau, the label's capitals touched its markers (0.4 mm apart): above the
    ceiling, where no point of the sweep can be, it keeps a millimetre clear."""
    from gpuviz.figures.display import Circle, Text, text_box, walk
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.targets import SINGLE
    from gpuviz.figures.theme import theme
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    scenario = load_scenario(scenario_dir() / "linked-launch-sectors-wave64.json")
    fig = figure_for(scenario, "sectors", theme("print"), frozenset(), SINGLE.showing(["sweep"]))
    label = next(i for i in walk(fig.items) if isinstance(i, Text)
                 and i.text.startswith("ceiling"))
    x0, y0, x1, y1 = text_box(label)
    points = [i for i in walk(fig.items) if isinstance(i, Circle)]
    assert len(points) == 32
    assert min(max(x0 - (p.cx + p.r), p.cx - p.r - x1, y0 - (p.cy + p.r), p.cy - p.r - y1)
               for p in points) >= 1.0



def test_a_warp_with_no_active_lane_keeps_its_sentence_beside_the_memory_label():
    """A map too narrow for "no active lane: nothing is requested" on one line wraps it beside
    the row's "memory" label; centred, it ran left over the label (a slide's narrow design)."""
    from gpuviz.figures.blocks import BlockCanvas, place
    from gpuviz.figures.lint import lint

    scenario = load_scenario(scenario_dir() / "linked-launch-sectors.json")
    state = scenario.at_step(2)  # warp 1 of block 2: every lane masked
    result = compute_all(state, ("sectors",))["sectors"]
    th = theme("screen")
    for width in (50.0, 60.0, 120.0):
        block = sectors_figure._map(result, frozenset(), th, width, th.small_pt)
        c = BlockCanvas()
        place(c, block, 0.0, 0.0)
        figure = c.figure(width, block.height, th.background, "map", "")
        texts = [t.text for t in walk(figure.items) if isinstance(t, Text)]
        assert "memory" in texts and any("nothing" in t for t in texts), texts
        assert [f for f in lint(figure) if f.rule == "overlap"] == [], width
