"""Structure of the traversal figure: keys, playback frames, resident tiles, plots, themes."""

import numpy as np
import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import traversal as fig
from gpuviz.figures.display import Image, Rect, Rects, Text, text_width, walk
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import PRESENTATION, SCREEN, THEMES
from gpuviz.models.traversal import TraversalParams, compute, state_after

SMALL = compute(TraversalParams(rows=4, cols=6, compare_order="hilbert", capacity=4))


def keys_with_fill(figure, color):
    return {k for item in walk(figure.items)
            if isinstance(item, Rects) and item.keys and item.style.fill == color
            for k in item.keys}


def test_tiles_and_a_b_panels_are_pointable():
    keys = set(fig.build(SMALL, frozenset(), SCREEN).keys())
    assert {f"tile:{r},{c}" for r in range(4) for c in range(6)} <= keys
    assert {f"atile:{r},0" for r in range(4)} <= keys
    assert {f"btile:0,{c}" for c in range(6)} <= keys
    assert {"run:row-major", "run:hilbert", "path:row-major", "plot:sweep", "plot:loads"} <= keys
    assert {"series:row-major", "series:hilbert", "series:grouped"} <= keys


def test_frame_count_is_one_more_than_the_steps():
    assert fig.frame_count(SMALL) == SMALL.steps + 1 == 25


def test_a_frame_shows_the_tiles_resident_after_that_step():
    for frame in (0, 1, 7, SMALL.steps):
        figure = fig.build(SMALL, frozenset({f"frame:{frame}"}), SCREEN)
        state = state_after(SMALL.main, 4, 6, 1, 1, 4, frame)
        lit_a = {k for k in keys_with_fill(figure, SCREEN.color("a_operand"))}
        lit_b = {k for k in keys_with_fill(figure, SCREEN.color("b_operand"))}
        # both runs draw their own strips: the main run's resident tiles are among the lit ones
        assert {f"atile:{r},0" for r in np.flatnonzero(state.a_resident[:, 0])} <= lit_a
        assert {f"btile:0,{c}" for c in np.flatnonzero(state.b_resident[0])} <= lit_b
        texts = figure.texts()  # the status table: "after step", then the step's counts
        assert texts[texts.index("after step") + 1].startswith(f"{frame} of {SMALL.steps}:")


def test_the_current_steps_tiles_are_marked_and_the_rest_pending():
    figure = fig.build(SMALL, frozenset({"frame:3"}), SCREEN)
    current = keys_with_fill(figure, SCREEN.foreground)
    # row-major and Hilbert each mark their own third tile
    assert "tile:0,2" in current
    pending = keys_with_fill(figure, SCREEN.color("absent"))
    assert "tile:3,5" in pending


def test_selected_tile_outlines_its_a_and_b_tiles():
    figure = fig.build(SMALL, frozenset({"tile:2,3"}), SCREEN)
    outlines = [i for i in walk(figure.items) if isinstance(i, Rect)
                and i.style == SCREEN.highlight()]
    assert len(outlines) == 3 * 2  # tile, A row tile, B column tile, in each of the two runs


def test_receipt_and_sweep_carry_the_numbers():
    texts = " ".join(fig.build(SMALL, frozenset(), SCREEN).texts())
    # the status table: the whole "order", then its loads and hits
    assert f"order {SMALL.misses} loads (A {SMALL.a_loads}, B {SMALL.b_loads})" in texts
    assert f"order {SMALL.compare.misses} loads" in texts
    assert "LRU cache of 4 tiles" in texts
    assert "K folded away" in texts


def test_a_dense_grid_becomes_an_image():
    big = compute(TraversalParams(rows=128, cols=128, in_flight=132, sweep=False))
    figure = fig.build(big, frozenset({"frame:5"}), SCREEN)
    images = [i for i in walk(figure.items) if isinstance(i, Image)]
    assert images and images[0].rgb.shape == (128, 128, 3)
    assert "grid:row-major" in set(figure.keys())
    assert "(sweep not computed: turn on 'sweep')" in figure.texts()


def test_dense_grids_and_strips_are_images_pointable_tile_by_tile():
    from gpuviz.figures.display import key_at

    big = compute(TraversalParams(rows=64, cols=48, k_tiles=16, in_flight=8, capacity=200,
                                  sweep=False))
    frame = 40
    figure = fig.build(big, frozenset({f"frame:{frame}"}), SCREEN)
    images = {i.cells: i for i in walk(figure.items) if isinstance(i, Image)}
    assert set(images) == {"tile", "atile", "btile"}
    assert not [i for i in walk(figure.items) if isinstance(i, Rects) and len(i.xywh) > 100]
    state = state_after(big.main, 64, 48, 16, 8, 200, frame)
    a, b = images["atile"], images["btile"]
    assert a.rgb.shape == (64, 16, 3) and b.rgb.shape == (16, 48, 3)
    for (r, k), resident in np.ndenumerate(state.a_resident):
        if (r * 16 + k) % 37:
            continue  # a sample of cells
        x = a.x + (k + 0.5) * a.w / 16
        y = a.y + (r + 0.5) * a.h / 64
        assert key_at(figure, x, y) == f"atile:{r},{k}"
        lit = tuple(a.rgb[r, k]) != tuple(int(SCREEN.color("absent")[i:i + 2], 16)
                                          for i in (1, 3, 5))
        assert lit == bool(resident or state.a_loaded[r, k] or state.a_hit[r, k])
    grid = images["tile"]
    assert key_at(figure, grid.x + 3.5 * grid.w / 48, grid.y + 10.5 * grid.h / 64) == "tile:10,3"


def test_a_dense_strip_is_rastered_once_for_every_design_a_layout_search_tries(monkeypatch):
    # a 1024-row A strip costs about 4 ms to raster, and the view search builds the figure in
    # every design it tries (1024×64 tiles: 100 strips for one view, 0.4 s)
    from dataclasses import replace

    from gpuviz.figures.targets import DESIGN_FACTORS, view_target

    big = compute(TraversalParams(rows=64, cols=48, k_tiles=16, in_flight=8, capacity=200,
                                  sweep=False))
    base = view_target(300, 1.6)
    figures = [fig.build(big, frozenset({"frame:40"}), SCREEN, replace(base, design=(kind, f)))
               for f in DESIGN_FACTORS for kind in ("stacked", "beside")]
    strips = [i for f in figures for i in walk(f.items)
              if isinstance(i, Image) and i.cells in ("atile", "btile")]
    assert len(strips) >= 2 * len(figures)  # every design draws both strips of each order
    # one raster per order's A and B strip (the main and the compared run), shared by all
    assert len({id(i.rgb) for i in strips}) <= 4
    assert not any(i.rgb.flags.writeable for i in strips)  # shared, so never written to


def test_dense_strips_carry_the_legends_hatch_for_loads_where_the_theme_hatches_them():
    """In print, "loaded in this step" is hatched in the legend; a dense strip (an image) has its
    loaded tiles hatched too, as runs over exactly those tiles; the screen theme hatches none."""
    from gpuviz.figures.theme import THEMES as ALL

    big = compute(TraversalParams(rows=64, cols=48, k_tiles=16, in_flight=8, capacity=200,
                                  sweep=False))
    frame = 7  # a step that loads both A and B tiles
    state = state_after(big.main, 64, 48, 16, 8, 200, frame)
    printed = ALL["print"]
    figure = fig.build(big, frozenset({f"frame:{frame}"}), printed)
    images = {i.cells: i for i in walk(figure.items) if isinstance(i, Image)}
    hatched = [i for i in walk(figure.items) if isinstance(i, Rects)
               and i.style.hatch == printed.hatches["miss"] and i.style.fill is None]
    for cells, loaded in (("atile", state.a_loaded), ("btile", state.b_loaded)):
        image = images[cells]
        rows, cols = loaded.shape
        cw, ch = image.w / cols, image.h / rows
        covered = np.zeros_like(loaded)
        for batch in hatched:
            for x, y, w, h in batch.xywh:
                if image.x - 1e-6 <= x < image.x + image.w and image.y - 1e-6 <= y < image.y + image.h:
                    c0, r0 = round((x - image.x) / cw), round((y - image.y) / ch)
                    covered[r0:r0 + round(h / ch), c0:c0 + round(w / cw)] = True
        assert loaded.any() and (covered == loaded).all(), cells
    on_screen = fig.build(big, frozenset({f"frame:{frame}"}), SCREEN)
    assert not [i for i in walk(on_screen.items) if isinstance(i, Rects) and i.style.hatch]


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_builds_within_its_width(name):
    theme = THEMES[name]
    figure = fig.build(SMALL, frozenset({"frame:5", "tile:1,1"}), theme)
    # larger type gets a wider natural page (compose grows it with the type size)
    scale = max(1.0, theme.text_pt / 8.0)
    assert 120 * scale <= figure.width <= 180 * scale
    for item in walk(figure.items):
        if isinstance(item, Text) and not item.rotate:
            w = text_width(item.text, item.size, item.font)
            x0 = {"start": item.x, "middle": item.x - w / 2, "end": item.x - w}[item.anchor]
            assert x0 >= 0 and x0 + w <= figure.width, item.text
    assert figure_to_svg(figure).startswith("<?xml")


def test_the_earliest_of_several_frames_is_shown():
    texts = " ".join(fig.build(SMALL, frozenset({"frame:12", "frame:7"}), SCREEN).texts())
    assert f"after step 7 of {SMALL.steps}: " in texts


def test_presentation_type_is_laid_out_anew_with_its_own_sizes():
    screen = fig.build(SMALL, frozenset({"frame:5", "tile:1,1"}), SCREEN)
    large = fig.build(SMALL, frozenset({"frame:5", "tile:1,1"}), PRESENTATION)
    assert large.width > screen.width
    # the same words (wrapped differently) and the same pointable things
    assert " ".join(large.texts()) == " ".join(screen.texts())
    assert set(large.keys()) == set(screen.keys())
    sizes = {round(t.size, 9) for t in walk(large.items) if isinstance(t, Text)}
    assert {PRESENTATION.title_pt, PRESENTATION.text_pt, PRESENTATION.small_pt} <= sizes


@pytest.mark.parametrize("target", [SINGLE, SLIDE])
def test_a_column_and_a_slide_show_everything_at_legible_sizes(target):
    figure = fig.build(SMALL, frozenset({"frame:5"}), SCREEN, target)
    assert figure.width == target.width
    keys = set(figure.keys())
    assert {f"tile:{r},{c}" for r in range(4) for c in range(6)} <= keys
    assert {"plot:sweep", "plot:loads", "run:row-major", "run:hilbert"} <= keys
    assert min(t.size for t in walk(figure.items) if isinstance(t, Text)) >= target.min_pt


def test_plots_carry_units_and_the_legend_lies_outside_them():
    figure = fig.build(SMALL, frozenset(), SCREEN)
    texts = figure.texts()
    assert {"loads so far (tiles)", "step (1 tile each)", "cache capacity (tiles)",
            "misses (tile loads)"} <= set(texts)
    plots = [i for i in figure.items if getattr(i, "name", None) in ("loads plot",
                                                                     "sweep plot")]
    legend = [i for i in figure.items if getattr(i, "name", None) == "legend"]
    assert len(plots) == 2 and len(legend) == 1
    def box(group):
        pts = [(t.x, t.y) for t in walk(group.items) if isinstance(t, Text)]
        return min(y for _, y in pts), max(y for _, y in pts)
    assert box(legend[0])[0] > max(box(p)[1] for p in plots)  # below both plots


def test_hit_share_is_a_bounded_percentage():
    texts = " ".join(fig.build(SMALL, frozenset(), SCREEN).texts())
    share = SMALL.hits / (SMALL.hits + SMALL.misses) * 100
    assert f"({share:.1f} % of requests)" in texts or f"({share:.0f} % of requests)" in texts


def test_a_partial_last_step_marks_only_its_own_tiles():
    r = compute(TraversalParams(rows=2, cols=5, in_flight=4, sweep=False))  # steps of 4, 4, 2
    figure = fig.build(r, frozenset({"frame:3"}), SCREEN)
    current = keys_with_fill(figure, SCREEN.foreground)
    assert current == {"tile:1,3", "tile:1,4"}


@pytest.mark.parametrize("name", sorted(THEMES))
def test_this_step_and_a_hit_are_two_marks_in_every_theme(name):
    """The tiles of the shown step are ink; green stays for hits alone (in the screen theme
    the output colour and the hit colour are one green)."""
    theme = THEMES[name]
    figure = fig.build(SMALL, frozenset({"frame:3"}), theme)
    entries = {e.label: e.style for e in fig.legend_entries(SMALL, theme)}
    assert entries["tiles of this step"].fill != entries["hit this step"].fill
    assert not keys_with_fill(figure, theme.color("hit")) & {"tile:0,2", "tile:0,0"}


def test_the_path_steps_between_neighbours_and_breaks_where_the_order_jumps():
    """Row-major's return to the next row is no diagonal across the grid (and its visit
    numbers): every drawn step of a path joins two 4-neighbours."""
    from gpuviz.figures.display import Polyline, Segments

    figure = fig.build(SMALL, frozenset({"frame:20"}), SCREEN)
    cell = None
    steps = []
    for item in walk(figure.items):
        if isinstance(item, Segments) and item.keys and str(item.keys[0]).startswith("path:"):
            steps += [tuple(r) for r in item.xyxy]
        elif isinstance(item, Polyline) and str(item.key).startswith("path:"):
            steps += [(*a, *b) for a, b in zip(item.points, item.points[1:], strict=False)]
    tiles = [i for i in walk(figure.items) if isinstance(i, Rects) and i.keys
             and str(i.keys[0]).startswith("tile:")]
    cell = float(tiles[0].xywh[0][2])
    assert steps
    for x0, y0, x1, y1 in steps:
        assert abs(abs(x1 - x0) + abs(y1 - y0) - cell) < 1e-6


def test_a_real_k_depth_is_binned_so_the_grid_keeps_most_of_the_area():
    """16384² with 128 × 128 tiles and K in 512 tiles of 32: the A and B strips take a quarter
    of the grid's side (K in bins of 16), are named A and B, and the receipt says so."""
    big = compute(TraversalParams(rows=128, cols=128, k_tiles=512, in_flight=132,
                                  cache="l2-partition", arch="h200", tile_bytes=8192,
                                  sweep=False))
    figure = fig.build(big, frozenset({"frame:40"}), SCREEN)
    images = {i.cells: i for i in walk(figure.items) if isinstance(i, Image)}
    grid, a, b = images["tile"], images["atile"], images["btile"]
    assert a.rgb.shape == (128, 32, 3) and b.rgb.shape == (32, 128, 3)
    assert a.w <= grid.w / 4 + 1e-6 and b.h <= grid.h / 4 + 1e-6
    texts = figure.texts()
    assert {"A", "B"} <= set(texts)
    at = texts.index("A, B")  # the status table's first row
    assert texts[at + 1] == "16 K tiles a cell, paler if fewer resident"


def test_a_sweep_over_the_real_capacity_range_reads_on_a_log_axis():
    r = compute(TraversalParams(rows=32, cols=32, k_tiles=128, in_flight=132,
                                cache="l2-partition", arch="h200", tile_bytes=8192))
    assert r.capacities[0] == 1 and r.capacities[-1] == 8192 and 3840 in r.capacities
    texts = set(fig.build(r, frozenset(), SCREEN).texts())
    assert "cache capacity (tiles, log scale)" in texts
    assert {"1", "10", "100", "1,000"} <= texts
    small = set(fig.build(SMALL, frozenset(), SCREEN).texts())
    assert "cache capacity (tiles)" in small


def test_a_measured_case_shows_the_h200_beside_the_model_and_why_they_differ():
    base = dict(in_flight=132, cache="l2-partition", arch="h200", tile_bytes=8192, sweep=False)
    agrees = compute(TraversalParams(rows=64, cols=64, k_tiles=256, order="grouped",
                                     group_m=8, **base))
    note = fig.measured_note(agrees)
    assert note.startswith("H200 measured (Nsight Compute, DRAM bytes read): 6.57 × the bytes "
                           "of A and B; this model 6.51 × (1 % under).")
    differs = compute(TraversalParams(rows=32, cols=32, k_tiles=128, order="hilbert", **base))
    note = fig.measured_note(differs)
    assert "2.21 × the bytes of A and B; this model 1.69 × (24 % under)." in note
    assert "least like the real L2" in note
    assert "An LRU of 27.9–28 MiB gives it, not 30 MiB" in note
    # GROUP_M 4: only an LRU far from the partition's size would match, so the note says the
    # reuse distances alone do not decide it (gpuviz.models.traversal_fit)
    grouped4 = compute(TraversalParams(rows=32, cols=32, k_tiles=128, order="grouped",
                                       group_m=4, **base))
    note = fig.measured_note(grouped4)
    assert "3.57 × the bytes of A and B; this model 4.79 × (34 % over)." in note
    assert "Only an LRU of 40 MiB, 33 % larger than this cache's 30 MiB" in note
    assert "which SMs read which tiles across the two L2 partitions" in note
    assert "least like the real L2" not in note
    assert fig.measured_note(SMALL) == ""


def selection_marks(figure, theme=SCREEN):
    """Lines drawn in the selection's ink at least as heavy as its outer line: the double
    outline's outer rectangle, a selected path's outer line, a selected plot line's halo."""
    heavy = theme.highlight().stroke_width - 1e-9
    return sorted(_where(item) for item in walk(figure.items)
               if getattr(item, "style", None) is not None and item.style.fill is None
               and item.style.stroke == theme.foreground
               and (item.style.stroke_width or 0.0) >= heavy)


DENSE = compute(TraversalParams(rows=128, cols=128, in_flight=132, sweep=False))


@pytest.mark.parametrize("selected", [
    "tile:1,2", "atile:2,0", "btile:0,3", "path:row-major", "run:hilbert", "plot:sweep",
    "plot:loads", "series:grouped", "grid:row-major"])
def test_every_key_the_figure_emits_is_drawn_when_selected(selected):
    """A click selects what it points at; whatever kind of key that is, the figure draws it with
    the selection's mark (a tile and the A and B tiles it needs, an A or B tile, a path, an
    order's grid, a plot, a plot's line, a dense grid drawn as an image)."""
    result = DENSE if selected.startswith("grid:") else SMALL
    for target in (fig.NATURAL, SLIDE, SINGLE.showing(["path"]), SINGLE.showing(["resident"])):
        plain = fig.build(result, frozenset({"frame:5"}), SCREEN, target)
        if selected not in set(plain.keys()):
            continue  # a part that does not draw this key
        chosen = fig.build(result, frozenset({"frame:5", selected}), SCREEN, target)
        before, after = selection_marks(plain), selection_marks(chosen)
        assert after != before and len(after) >= len(before), (selected, target.parts)
    assert selected in set(fig.build(result, frozenset(), SCREEN).keys())


def test_a_large_grid_in_a_column_states_what_it_leaves_out():
    """A 32 × 32 grid at 85 mm has cells too small for numbers or a path: one cell a tile, and
    the figure says so; both orders side by side keep the part within 120 mm."""
    r = compute(TraversalParams(rows=32, cols=32, k_tiles=64, in_flight=132, order="grouped",
                                group_m=8, compare_order="row-major", cache="l2-partition",
                                arch="h200", sweep=False))
    figure = fig.build(r, frozenset(), SCREEN, SINGLE.showing(["path"]))
    assert figure.height <= 120.0
    assert any("one cell each: the shade gives the visit order" in t for t in figure.texts())
    small = fig.build(SMALL, frozenset(), SCREEN, SINGLE.showing(["path"]))
    assert not any("one cell each" in t for t in small.texts())


def _where(item):
    """Where a mark is drawn: its box, or its points."""
    if hasattr(item, "points"):
        return tuple(round(v, 6) for pt in item.points for v in pt)
    if hasattr(item, "xyxy"):
        return tuple(round(float(v), 6) for v in item.xyxy.reshape(-1)[:8])
    return tuple(round(getattr(item, a), 6) for a in ("x", "y", "w", "h"))


def test_the_a_and_b_strips_are_named_at_every_size():
    """Strips one K tile deep leave no room for "A" and "B" in the corner between them at a
    column's width; the names then go on a line above the strips instead of being left out."""
    wide = compute(TraversalParams(rows=6, cols=40, compare_order="hilbert", sweep=False))
    for target in (fig.NATURAL, SINGLE, SINGLE.showing(["resident"]), SLIDE):
        texts = fig.build(wide, frozenset({"frame:3"}), SCREEN, target).texts()
        assert texts.count("A") >= 2 and texts.count("B") >= 2, target  # both orders' strips


@pytest.mark.parametrize("cell", [1.7, 1.95])
def test_a_grid_too_small_to_outline_cell_by_cell_still_shows_its_extent(cell):
    """Cells drawn as vectors but without outlines (a slide's body laid out narrow, as the
    deck's traversal-grouped step 1 was): the grid's frame still shows where the 12 × 16 tiles
    are, the empty ones included, instead of white cells on a white page."""
    from gpuviz.figures.blocks import BlockCanvas
    from gpuviz.figures.traversal_path import VECTOR_MIN_CELL, draw_grid

    assert cell >= VECTOR_MIN_CELL
    result = compute(TraversalParams(rows=12, cols=16, order="grouped", in_flight=8))
    c = BlockCanvas()
    draw_grid(c, SCREEN, result.main, 8, 0, 12, 16, 1.0, 2.0, cell, 7.0)
    frames = [i for i in walk(c.drawn()) if isinstance(i, Rect) and i.style.stroke
              and abs(i.w - 16 * cell) < 1e-9 and abs(i.h - 12 * cell) < 1e-9]
    assert frames, "no frame around the grid"


@pytest.mark.parametrize("target", [SINGLE.showing(["path"]), SLIDE.showing(["path"])])
@pytest.mark.parametrize("theme_name", ["print", "screen"])
def test_a_grid_too_small_for_its_path_draws_a_window_of_it_and_says_what_is_left_out(
        target, theme_name):
    """The bundled 12 × 16 GROUP_M = 4 lecture at one column and on a slide: the grid's cells are
    under the path's floor, so the path is drawn in a window of the first band (all 4 rows, as
    many columns as fit at readable cells): one line through the band's centres, jumps to the
    next column included, for grouped; a note names what the window leaves out."""
    import itertools
    import re

    from gpuviz.figures.display import Circle, Polyline
    from gpuviz.figures.traversal_path import PATH_MIN_CELL
    from gpuviz.scenario import compute_all, load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    scenario = load_scenario(scenario_dir() / "traversal-grouped.json")
    r = compute_all(scenario, ("traversal",))["traversal"]
    figure = fig.build(r, frozenset(), THEMES[theme_name], target)  # after the last step
    lines = [i for i in walk(figure.items) if isinstance(i, Polyline)
             and i.key == "path:grouped" and i.style.stroke == THEMES[theme_name].foreground]
    assert lines, "no path drawn"
    points = [p for line in lines for p in line.points]
    cell = min(abs(b[1] - a[1]) for a, b in itertools.pairwise(points)
               if abs(b[1] - a[1]) > 1e-9)
    assert cell >= PATH_MIN_CELL - 1e-9
    rows = {round((y - points[0][1]) / cell) for _, y in points}
    assert rows == {0, 1, 2, 3}  # the whole first band
    segments = sum(len(line.points) - 1 for line in lines)
    text = " ".join(figure.texts())
    shown = re.search(r"framed first 4 of 12 rows and (\d+) of 16 columns", text)
    assert shown, text
    cols = int(shown.group(1))
    assert cols >= 8
    assert segments == 4 * cols - 1  # every visit of the window joined, in order
    assert "the rest follows the same order" in text
    assert any(isinstance(i, Circle) and i.key == "path:grouped" for i in walk(figure.items))
    assert any(line.arrow_end for line in walk(figure.items) if isinstance(line, Polyline)
               and line.key == "path:grouped")


def test_a_slide_of_the_path_and_its_tiles_draws_the_12_by_16_path_whole():
    """The slide page ``gpuviz export --size slide`` writes for the bundled GROUP_M = 4 lecture's
    path and resident tiles: its width bounds the grids, not its height, so a grid and its
    path's window share the depth the page gives the grids rather than the depth the grid
    alone took; the 12 × 16 path then fits the grid itself at readable cells (it was a
    1.4 mm grid over a window of its first band, with a third of the slide empty)."""
    from gpuviz.figures.traversal_path import PATH_MIN_CELL
    from gpuviz.scenario import compute_all, load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    scenario = load_scenario(scenario_dir() / "traversal-grouped.json")
    r = compute_all(scenario, ("traversal",))["traversal"]
    figure = fig.build(r, frozenset(), PRESENTATION, SLIDE.showing(["path", "resident"]))
    assert "framed first" not in " ".join(figure.texts())  # no window: the whole path
    cells = [i for i in walk(figure.items) if isinstance(i, Rects) and i.keys
             and "tile:0,0" in i.keys]
    assert cells
    xywh = np.asarray(cells[0].xywh, dtype=float).reshape(-1, 4)
    assert xywh[:, 2].min() >= PATH_MIN_CELL - 1e-9  # cells large enough for the path's lines
