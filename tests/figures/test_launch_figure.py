"""The launch figure: what it shows, its keys, themes, and deterministic SVG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import launch as launch_figure
from gpuviz.figures.display import Group, Polyline, Rect, Rects, Text, key_at, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import THEMES, theme
from gpuviz.models.launch import LaunchParams, QuantizationParams, compute


def build(selection=frozenset(), name="screen", **params):
    return launch_figure.build(compute(LaunchParams(**params)), selection, theme(name))


def group(fig, key):
    return next(i for i in walk(fig.items) if isinstance(i, Group) and i.key == key)


def test_lanes_warps_and_blocks_are_pointable():
    fig = build(selected_block=2)
    keys = set(fig.keys())
    assert {f"lane:{i}" for i in range(32)} <= keys
    assert {"warp:2,0", "warp:2,1", "block:0", "block:1", "block:2", "sm:0", "sm:1"} <= keys
    assert "wave:0" in keys
    # the matrix quantization, where the scenario's problem is that matrix
    tiles = set(build(n=1089, block=(1024,)).keys())
    assert {"tile:0,0", "tile:1,1", "wave:0"} <= tiles


def test_the_figure_states_the_seed_numbers():
    texts = " ".join(build(selected_block=2).texts())
    assert "192 threads for 130 valid outputs" in texts
    assert "Warp 0 of block 2: 2 lanes valid, 30 masked" in texts
    assert "4,096 output slots" not in texts  # a 33 × 33 matrix is not this launch
    # the matrix output's table: its tiles' slots, then its valid outputs in their own row
    matrix = list(build(n=1089, block=(1024,)).texts())
    assert "2 × 2 = 4 tiles, 4,096 output slots" in matrix and "1,089 (26.6 %)" in matrix
    assert "not a CUDA scheduling guarantee" in texts


def test_masked_lane_shows_no_global_index_and_valid_lane_shows_its_index():
    fig = build(selected_block=2)
    lane0 = group(fig, "lane:0")
    lane5 = group(fig, "lane:5")
    assert "128" in [t.text for t in walk(lane0.items) if isinstance(t, Text)]
    assert "–" in [t.text for t in walk(lane5.items) if isinstance(t, Text)]


def _drawing(items):
    for item in items:
        if isinstance(item, Group):
            if not (item.name or "").startswith("legend"):
                yield from _drawing(item.items)
        else:
            yield item


def test_selected_key_is_highlighted_with_the_accent():
    t = theme("screen")
    plain = build(frozenset(), selected_block=2)
    chosen = build(frozenset({"lane:7"}), selected_block=2)
    outline = t.highlight()
    assert len([i for i in _drawing(chosen.items) if isinstance(i, Rect) and i.style == outline]) \
        == len([i for i in _drawing(plain.items) if isinstance(i, Rect) and i.style == outline]) + 1


def test_a_selection_and_the_block_drawn_in_detail_do_not_look_alike():
    # a step's select (or a click) on block 0 while the section draws block 2 in detail: one
    # double outline (the selection) and one ink-filled cell (the block below), not two outlines
    t = theme("print")
    fig = launch_figure.build(compute(LaunchParams(selected_block=2)),
                              frozenset({"block:0"}), t)
    outline = t.highlight()
    cells = {k: next(i for i in walk(group(fig, k).items) if isinstance(i, Rect))
             for k in ("block:0", "block:2")}
    outlines = [i for i in _drawing(fig.items) if isinstance(i, Rect) and i.style == outline]
    assert len(outlines) == 1
    assert abs(outlines[0].x - (cells["block:0"].x - 0.3)) < 1e-9
    assert cells["block:2"].style.fill == t.muted != cells["block:0"].style.fill
    assert "block and warp shown in detail" in fig.texts()


def test_hit_testing_finds_the_lane_under_the_pointer():
    fig = build(selected_block=2)
    lane3 = group(fig, "lane:3")
    cell = next(i for i in walk(lane3.items) if isinstance(i, Rect))
    assert key_at(fig, cell.x + cell.w / 2, cell.y + cell.h / 2) == "lane:3"


@pytest.mark.parametrize("name", list(THEMES))
def test_every_theme_builds_and_uses_only_theme_colours(name):
    t = theme(name)
    fig = build(frozenset({"lane:1"}), name, selected_block=2)
    allowed = t.colours()
    used = fig.colours()
    assert used <= allowed, used - allowed


def test_print_theme_hatches_masked_cells_for_grayscale():
    fig = build(name="print", selected_block=2)
    hatched = [i for i in walk(fig.items) if getattr(getattr(i, "style", None), "hatch", None)]
    assert hatched


def test_svg_is_well_formed_keeps_text_as_text_and_names_the_bundled_font():
    svg = figure_to_svg(build(selected_block=2))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "Warp 0 of block 2: 2 lanes valid, 30 masked" in texts
    assert root.get("width").endswith("mm")
    fonts = {t.get("font-family") for t in root.iter(f"{ns}text")}
    assert all(f.startswith(("Inter", "'Noto Sans Mono'")) for f in fonts)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    assert root.find(f".//{ns}g[@data-key='lane:0']") is not None


def test_svg_is_byte_identical_for_the_same_input():
    assert figure_to_svg(build(selected_block=2)) == figure_to_svg(build(selected_block=2))


def test_a_65536_block_grid_is_one_image_not_65536_shapes():
    fig = build(n=65536 * 256, block=(256,))
    assert len(list(walk(fig.items))) < 1500
    svg = figure_to_svg(fig)
    assert svg.count("<rect") < 1000
    assert "<image" in svg


def test_one_warp_is_singular():
    texts = build(n=130, block=(64,)).texts()
    assert any("· 2 warps of 32 lanes per block ·" in t for t in texts)
    texts = build(n=130, block=(32,)).texts()
    assert any("· 1 warp of 32 lanes per block ·" in t for t in texts)
    assert not any("1 warps" in t for t in texts)


def test_a_64_lane_warp_is_called_a_wavefront_as_in_the_sector_map():
    """launch-wavefront64 (AMD CDNA, 64 lanes) titled its lanes "Warp 0 of block 2" and
    counted "1 warp of 64 lanes per block", where linked-launch-sectors-wave64's sector map
    says "wavefront"; one word for one thing across the panels."""
    texts = build(n=130, block=(64,), warp_size=64, selected_block=2).texts()
    assert any("· 1 wavefront of 64 lanes per block ·" in t for t in texts)
    alone = launch_figure.build(compute(LaunchParams(n=130, block=(64,), warp_size=64,
                                                     selected_block=2)),
                                frozenset(), theme("screen"), SLIDE.showing(["lanes"]))
    assert alone.texts()[0] == "Wavefront 0 of block 2: 2 lanes valid, 62 masked"
    assert not any("warp" in t.lower() and "wavefront" not in t.lower()
                   for t in texts if "lanes per block" in t or t.startswith("Wavefront"))


def test_a_single_tile_is_one_tile_not_one_tiles():
    q = QuantizationParams(matrix_m=20, matrix_n=20, tile_m=32, tile_n=32)
    texts = " ".join(launch_figure.build(compute(LaunchParams(quantization=q)), frozenset(),
                                         theme("screen")).texts())
    assert "= 1 tile," in texts and "1 tile on 132 slots" in texts and "1 tiles" not in texts


def test_a_partly_valid_block_shows_its_valid_share_not_masked():
    t = theme("screen")
    fig = build(selected_block=0)  # n = 130 in blocks of 64: block 2 has 2 valid threads
    bars = [i for i in walk(group(fig, "block:2").items)
            if isinstance(i, Rect) and i.style.fill == t.color("valid")]
    [whole] = [i for i in walk(group(fig, "block:0").items)
               if isinstance(i, Rect) and i.style.fill == t.color("valid")]
    assert len(bars) == 1 and bars[0].w == pytest.approx(whole.w * 2 / 64)


def test_a_partly_valid_blocks_sliver_comes_with_its_count():
    texts = build(selected_block=0).texts()  # block 2's 2 valid threads are a 0.2 mm bar
    assert "block 2" in texts and "2 of 64 threads valid" in texts  # a table's row


def test_lane_cells_name_their_three_numbers():
    texts = build(selected_block=0).texts()
    assert {"lane", "tid", "index"} <= set(texts)


def test_no_two_warps_of_a_block_share_a_colour():
    fig = build(extent=(32, 16), n=None, block=(32, 16))  # 16 warps, 6 palette colours
    fills: dict[str, set[str]] = {}
    for i in walk(fig.items):
        if isinstance(i, Rects) and i.keys and i.style.fill != theme("screen").color("masked"):
            for k in set(i.keys):
                fills.setdefault(i.style.fill, set()).add(k)
    warps = [ks for ks in fills.values() if all(k.startswith("warp:") for k in ks)]
    assert len(warps) == 16 and all(len(ks) == 1 for ks in warps)


def test_tile_slots_are_explained_as_sms_times_tiles():
    texts = " ".join(build(n=1089, block=(1024,)).texts())  # the 33 × 33 output, 32 × 32 tiles
    assert "132 slots (132 SMs × 1 tile at a time)" in texts
    assert "valid 33\u00a0×\u00a033 of 64\u00a0×\u00a064" in texts  # a row of the edge's table


def test_waves_are_named_rows_not_unexplained_colours():
    fig = build(extent=(40, 40), n=None, block=(16, 16))  # 9 blocks on 4 slots: 3 waves
    waves = [i for i in walk(fig.items) if isinstance(i, Text) and (i.key or "").startswith("wave:")]
    assert [w.text for w in waves] == ["wave 0", "wave 1", "wave 2"]


def test_quantization_shows_the_scenarios_own_problem_size():
    texts = " ".join(build(extent=(40, 40), n=None, block=(16, 16)).texts())
    assert "blocks 3 × 3 = 9 of 16 × 16 threads for 40 × 40 outputs" in texts
    assert "33" not in texts


@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=lambda t: t.name)
def test_masked_lanes_in_print_keep_their_text_readable(target):
    fig = launch_figure.build(compute(LaunchParams(selected_block=2)), frozenset(),
                              theme("print"), target)
    assert lint(fig, target) == []
    lane5 = group(fig, "lane:5")
    assert all(t.knockout for t in walk(lane5.items) if isinstance(t, Text))


@pytest.mark.parametrize(("params", "part"), [
    ({"n": 130, "block": (64,), "warp_size": 64, "selected_block": 2}, "lanes"),
    ({"n": 1600, "block": (16, 16), "grid": (3, 3)}, "warps"),
    ({"selected_block": 2}, "grid"),
])
def test_each_part_meets_its_budget_in_a_column_and_on_a_slide(params, part):
    r = compute(LaunchParams(**params))
    for theme_name, target in (("print", SINGLE), ("presentation", SINGLE), ("print", SLIDE)):
        t = target.showing([part])
        fig = launch_figure.build(r, frozenset(), theme(theme_name), t)
        found = [f for f in lint(fig, t, theme=theme(theme_name), budget=True)
                 if f.rule in ("budget", "slide")]
        assert found == [], (theme_name, target.name, found)


def test_the_block_drawn_in_detail_is_filled_on_its_sm_too_and_no_sm_is_invented():
    t = theme("print")
    fig = launch_figure.build(compute(LaunchParams(selected_block=2)), frozenset(), t)
    texts = fig.texts()
    assert "B2" in texts and not any(s.endswith("more SMs") for s in texts)  # 2 SMs, both drawn
    slot = next(i for i in walk(fig.items) if isinstance(i, Rect) and i.key == "block:2"
                and i.style.fill == t.muted)
    assert slot.w > 0


@pytest.mark.parametrize("name", sorted(THEMES))
def test_no_two_warps_of_a_drawn_block_share_a_colour(name):
    # a 16 × 16 block inside a 40 × 40 problem: 8 warps, each its own fill (past the palette's
    # seven hues, the same hues lighter)
    fig = build(name=name, n=None, extent=(40, 40), block=(16, 16))
    fills: dict[str, set] = {}
    for item in walk(fig.items):
        if isinstance(item, Rects) and item.keys and item.style.hatch is None:
            for key in set(item.keys):
                fills.setdefault(item.style.fill, set()).add(key)
    warps = {k for ks in fills.values() for k in ks if k.startswith("warp:")}
    assert len(warps) == 8
    assert all(len({k for k in ks if k.startswith("warp:")}) <= 1 for ks in fills.values())


def test_a_one_row_spill_is_drawn_an_element_a_cell():
    # 33 × 33 in 32 × 32 tiles: at the tiles' scale the spilled row and column are a sliver;
    # the first tile's corner is drawn again with each element a cell, the spill valid
    t = theme("print")
    fig = launch_figure.build(compute(LaunchParams(n=1089, block=(1024,))), frozenset(), t)
    assert any(s.startswith("rows and columns 28–35") for s in fig.texts())
    cells = [i for i in walk(fig.items) if isinstance(i, Rects)
             and i.style.fill == t.color("valid") and len(i.xywh) > 1]
    corner = cells[-1]
    assert len(corner.xywh) == 5 * 5  # rows and columns 28–32 of 28–35 are inside 33 × 33
    widths = {round(w, 6) for _, _, w, _ in corner.xywh}
    assert widths == {2.2}  # an element a cell: the spilled row is as wide as any other


def test_the_2d_block_frames_the_warp_shown_apart_from_a_selected_warp():
    t = theme("print")
    r = compute(LaunchParams(n=None, extent=(40, 40), block=(16, 16)))  # warp 0 shown
    plain = launch_figure.build(r, frozenset(), t, SINGLE.showing(["warps"]))
    chosen = launch_figure.build(r, frozenset({"warp:0,3"}), t, SINGLE.showing(["warps"]))
    outline = t.highlight()

    def outlines(fig):
        return [i for i in _drawing(fig.items) if isinstance(i, Rect) and i.style == outline]

    assert outlines(plain) == []  # the warp shown in detail is not drawn as selected
    assert len(outlines(chosen)) == 2  # warp 3's cell and its rows in the drawing


def test_five_partly_valid_blocks_are_listed_whole_not_four_and_one_more():
    """A 40 × 40 problem in 16 × 16 blocks leaves blocks 2, 5, 6, 7 and 8 partly valid:
    "… 1 more" took the room the fifth block's count takes."""
    r = compute(LaunchParams(n=None, extent=(40, 40), block=(16, 16)))
    partial = [b for b in range(r.blocks)
               if 0 < r.block_valid(b) < r.threads_per_block]
    assert partial == [2, 5, 6, 7, 8]
    texts = launch_figure.build(r, frozenset(), theme("print"), SINGLE).texts()
    at = texts.index("partly valid block")  # a table: the blocks over their valid threads
    assert texts[at:at + 6] == ["partly valid block", "2", "5", "6", "7", "8"]
    assert texts[at + 6:at + 12] == ["valid of 256", "128", "128", "128", "128", "64"]
    assert not any(t.startswith("+") for t in texts)


def _tiles(m, n, tile=128):
    """The launch of the tile-quantization scenario with an m × n matrix output in tile × tile
    tiles (steps 3 and 4: 1,536 and 1,537 × 2,816 in 128 × 128)."""
    return compute(LaunchParams(n=1089, block=(1024,), quantization=QuantizationParams(
        matrix_m=m, matrix_n=n, tile_m=tile, tile_n=tile)))


def _tile_cells(fig):
    """The tile grid's cells by key: tile (i, j) -> (x, y, w, h)."""
    [grid] = [i for i in walk(fig.items) if isinstance(i, Rects) and i.keys
              and i.keys[0].startswith("tile:")]
    return {tuple(int(v) for v in k[5:].split(",")): tuple(row)
            for k, row in zip(grid.keys, grid.xywh, strict=True)}


def test_a_wide_matrix_draws_a_wide_grid_of_square_tiles():
    """A 1,537 × 2,816 output in 128 × 128 tiles is 13 × 22 tiles: a grid wider than tall
    whose tiles are square. The grid was a 30 mm square whatever the shape, each tile
    30/22 = 1.36 mm wide and 30/13 = 2.31 mm tall."""
    cells = _tile_cells(build(name="print", n=1089, block=(1024,), quantization=QuantizationParams(
        matrix_m=1537, matrix_n=2816, tile_m=128, tile_n=128)))
    assert len(cells) == 13 * 22
    assert all(w == pytest.approx(h) for _, _, w, h in cells.values())
    x0, y0, _, _ = cells[0, 0]
    x1, y1, w, h = cells[12, 21]
    assert (x1 + w - x0) / (y1 + h - y0) == pytest.approx(22 / 13)


def _ink_bands(fig, ink):
    """The y intervals that horizontal strokes in the ink colour cover: rect edges and
    polyline runs."""
    for item in walk(fig.items):
        style = getattr(item, "style", None)
        if style is None or style.stroke != ink or not style.stroke_width:
            continue
        half = style.stroke_width / 2
        if isinstance(item, Rect):
            yield from ((y - half, y + half) for y in (item.y, item.y + item.h))
        elif isinstance(item, Polyline):
            yield from ((a[1] - half, a[1] + half)
                        for a, b in itertools.pairwise(item.points) if a[1] == b[1])


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_last_row_of_tiles_is_a_whole_row_of_tiles(name):
    """The 13th row of tiles of a 1,537-row output holds 1 valid row of 128: it is still a
    row of tiles, as tall as the others, with only its valid share small. The valid region's
    thick edge (centred 0.018 mm below the row's top) and the frame (centred on its bottom)
    covered 30 % of it in the presentation theme (1.62 of 2.31 mm left), so it read as a row
    half as tall; now the ink leaves at least 85 %."""
    t = theme(name)
    fig = launch_figure.build(_tiles(1537, 2816), frozenset(), t)
    cells = _tile_cells(fig)
    heights = {round(h, 9) for (i, _), (_, _, _, h) in cells.items()}
    assert len(heights) == 1
    _, top, _, h = cells[12, 0]
    covered = sum(max(0.0, min(b, top + h) - max(a, top)) for a, b in _ink_bands(fig, t.foreground))
    assert (h - covered) / h >= 0.85


def _corner_note(fig):
    return next((s for s in fig.texts() if "an element a cell" in s), None)


def test_the_zoomed_corner_shows_where_valid_turns_masked():
    """1,537 rows in 128-row tiles: row 1,536 is the last valid one, alone in the 13th row of
    tiles. The zoomed corner showed rows and columns 124–131, the first tile's inner corner,
    where every element is valid; it shows rows 1,532–1,539 (5 valid, 3 masked) at the last
    columns, 2,808–2,815 (2,816 fills its 22 tiles across)."""
    t = theme("print")
    fig = launch_figure.build(_tiles(1537, 2816), frozenset(), t)
    assert _corner_note(fig).startswith("rows 1,532–1,539, columns 2,808–2,815")
    corner = [i for i in walk(fig.items) if isinstance(i, Rects) and not i.keys
              and len(i.xywh) in (24, 40)]
    assert sorted(len(c.xywh) for c in corner) == [24, 40]  # 3 × 8 masked, 5 × 8 valid
    assert "1,536" in fig.texts()


def test_a_matrix_that_fits_its_tiles_says_so_and_zooms_into_no_edge():
    """1,536 × 2,816 in 128 × 128 tiles fills all 12 × 22 tiles: no ragged edge to zoom into,
    which the edge note now says (it stated only the extents)."""
    fig = launch_figure.build(_tiles(1536, 2816), frozenset(), theme("print"))
    assert _corner_note(fig) is None
    texts = fig.texts()
    assert texts[texts.index("masked") + 1] == "none"  # the edge's table: no slot masked


def test_a_spill_of_four_rows_still_shows_a_masked_row():
    """36 × 36 in 32 × 32 tiles spills 4 rows and columns: the corner showed 28–35, all of
    them valid; it now shows 29–36, the last row and column masked."""
    r = compute(LaunchParams(n=1296, block=(1024,), quantization=QuantizationParams(
        matrix_m=36, matrix_n=36, tile_m=32, tile_n=32)))
    fig = launch_figure.build(r, frozenset(), theme("print"))
    assert _corner_note(fig).startswith("rows and columns 29–36")


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_the_quantization_part_meets_its_budgets_in_every_step(step):
    """The tile-quantization scenario's four states, on a slide and in a column."""
    import json
    from pathlib import Path

    scenario = json.loads((Path(__file__).parents[2] / "scenarios"
                           / "launch-tile-quantization.json").read_text())
    q = dict(scenario["launch"]["quantization"])
    for s in scenario["steps"][:step]:
        q.update(s.get("changes", {}).get("launch", {}).get("quantization", {}))
    r = compute(LaunchParams(n=1089, block=(1024,), quantization=QuantizationParams(**q)))
    for theme_name, target in (("presentation", SLIDE), ("print", SINGLE),
                               ("presentation", SINGLE), ("print", SLIDE)):
        t = target.showing(["quantization"])
        fig = launch_figure.build(r, frozenset(), theme(theme_name), t)
        found = [f for f in lint(fig, t, theme=theme(theme_name), budget=True)
                 if f.rule in ("budget", "slide")]
        assert found == [], (theme_name, target.name, found)


@pytest.mark.parametrize("name", ["screen", "print"])
def test_the_launch_and_matrix_tables_share_their_value_column(name):
    # two tables stacked one under the other: each value starts on one vertical line, not
    # after its own table's longest label ("thread slots" against "matrix output")
    fig = build(name=name, n=1089, block=(1024,))
    texts = [i for i in walk(fig.items) if isinstance(i, Text)]
    labels = ("blocks", "thread slots", "waves", "matrix output", "tiles", "valid")
    rows: dict[str, float] = {}
    for t in sorted(texts, key=lambda t: t.y):  # the first of each: the tables at the top
        if t.text in labels and t.x < 5.0:
            rows.setdefault(t.text, t.y)
    assert set(rows) == set(labels)
    starts = {round(t.x, 2) for t in texts
              for label, y in rows.items() if abs(t.y - y) < 1e-6 and t.text != label
              and t.x < 60.0}
    assert len(starts) == 1, starts


def test_sm_slots_too_many_for_a_column_wrap_and_keep_their_labels_inside():
    # 21 block slots an SM in a journal column were 2.4 mm each: "B0" and "idle" ran over their
    # slots into each other; the slots now wrap onto lines inside the SM's frame
    from gpuviz.figures.scene import build_figure
    figure = build_figure("launch", compute(LaunchParams(sm_count=11, slots_per_sm=21)),
                          frozenset(), theme("print"), SINGLE)
    found = [f for f in lint(figure, SINGLE, 1.0, theme("print"))
             if f.rule in ("crossing", "overlap", "off-page")]
    assert not found, "\n".join(map(str, found[:6]))
