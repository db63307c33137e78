"""Structure of the gemm figure: keys, focus and owner highlights, numbers shown, themes."""

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import gemm as fig
from gpuviz.figures.display import Rect, Rects, Text, text_width, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import PRESENTATION, SCREEN, THEMES
from gpuviz.keys import key
from gpuviz.models.gemm import STRATEGIES, GemmParams, compute
from gpuviz.scenario import bundled_scenarios, load_scenario

FULL = compute(GemmParams())
HALF = compute(GemmParams(k_revealed=2))


def highlighted_keys(figure, theme=SCREEN):
    """Keys of the cells under a highlight outline (matched by position)."""
    outlines = [(i.x, i.y) for i in walk(figure.items)
                if isinstance(i, Rect) and i.style == theme.highlight()]
    keys = set()
    for item in walk(figure.items):
        if getattr(item, "xywh", None) is not None and item.keys:
            for (x, y, _, _), key in zip(item.xywh, item.keys, strict=True):
                if (x, y) in outlines:
                    keys.add(key)
    return keys


def test_operands_outputs_and_threads_are_pointable():
    keys = set(fig.build(FULL, frozenset(), SCREEN).keys())
    cells = {(i, j) for i in range(4) for j in range(4)}
    assert {f"a:{i},{j}" for i, j in cells} <= keys
    assert {f"b:{i},{j}" for i, j in cells} <= keys
    assert {f"c:{i},{j}" for i, j in cells} <= keys
    for name in STRATEGIES:
        s = FULL.strategies[name]
        assert {f"thread:{name},{t}" for t in range(s.threads)} <= keys
        assert f"strategy:{name}" in keys


def test_c00_reads_1_after_two_k_positions_and_11_after_four():
    half = fig.build(HALF, frozenset(), SCREEN).texts()
    assert "C[0,0] = 1·1 + 2·0" in half and "       = 1" in half
    full = fig.build(FULL, frozenset(), SCREEN).texts()
    assert "C[0,0] = 1·1 + 2·0 + 3·2 + 4·1" in full and "       = 11" in full


def test_every_strategy_shows_its_counts():
    texts = fig.build(FULL, frozenset(), SCREEN).texts()
    for name in STRATEGIES:
        s = FULL.strategies[name]
        for value in (str(s.global_loads), str(s.shared_reads), str(s.register_reuse),
                      f"{s.flops_per_byte:.2f}"):
            assert value in texts
    assert texts.count("64") >= 3  # the same 64 MACs, once per strategy
    assert "large K: T/4 = 4 FLOPs/byte" in texts


def test_focus_output_and_its_owners_are_highlighted():
    default = highlighted_keys(fig.build(FULL, frozenset(), SCREEN))
    assert "c:0,0" in default
    assert {"thread:naive,0", "thread:shared,0", "thread:register,0"} <= default
    moved = highlighted_keys(fig.build(FULL, frozenset({"c:3,2"}), SCREEN))
    assert "c:3,2" in moved and "c:0,0" not in moved
    owners = {f"thread:{n},{FULL.strategies[n].owner[3, 2]}" for n in STRATEGIES}
    assert owners <= moved


def test_selecting_a_thread_shows_that_threads_loads():
    texts = fig.build(FULL, frozenset({"thread:register,3"}), SCREEN).texts()
    assert "thread t3" in texts
    assert "thread:register,3" in highlighted_keys(
        fig.build(FULL, frozenset({"thread:register,3"}), SCREEN))


def test_the_focus_tile_is_lit_and_other_output_tiles_are_dimmed():
    figure = fig.build(HALF, frozenset(), SCREEN)
    fills = {k: item.style.fill for item in walk(figure.items)
             if getattr(item, "keys", None) for k in item.keys if k.startswith("c:")}
    lit = {k for k, f in fills.items() if f == fig.tile_style(SCREEN).fill}
    dimmed = {k for k, f in fills.items() if f == SCREEN.background}
    assert lit == {"c:0,1", "c:1,0", "c:1,1"}  # c:0,0 is the focus output itself
    assert dimmed == {f"c:{i},{j}" for i in range(4) for j in range(4) if i > 1 or j > 1}


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_builds_within_its_width(name):
    theme = THEMES[name]
    figure = fig.build(HALF, frozenset({"c:1,1"}), theme)
    # larger type gets a wider natural page (compose grows it with the type size)
    scale = max(1.0, theme.text_pt / 8.0)
    assert 120 * scale <= figure.width <= 205 * scale
    for item in walk(figure.items):
        if isinstance(item, Text) and not item.rotate:
            w = text_width(item.text, item.size, item.font)
            x0 = {"start": item.x, "middle": item.x - w / 2, "end": item.x - w}[item.anchor]
            assert x0 >= 0 and x0 + w <= figure.width, item.text
    assert figure_to_svg(figure).startswith("<?xml")


def test_presentation_type_is_laid_out_anew_with_its_own_sizes():
    screen = fig.build(HALF, frozenset({"c:1,1"}), SCREEN)
    large = fig.build(HALF, frozenset({"c:1,1"}), PRESENTATION)
    assert large.width > screen.width
    # the same words, wrapped and arranged for the larger type
    assert sorted(" ".join(large.texts()).split()) == sorted(" ".join(screen.texts()).split())
    assert set(large.keys()) == set(screen.keys())
    sizes = {round(t.size, 9) for t in walk(large.items) if isinstance(t, Text)}
    assert {PRESENTATION.title_pt, PRESENTATION.text_pt, PRESENTATION.small_pt} <= sizes


@pytest.mark.parametrize("target", [SINGLE, SLIDE])
def test_a_column_and_a_slide_show_every_value_at_legible_sizes(target):
    figure = fig.build(FULL, frozenset(), SCREEN, target)
    assert figure.width == target.width
    texts = figure.texts()
    printed = {t.key: t.text for t in walk(figure.items)
               if isinstance(t, Text) and (t.key or "").startswith("c:")}
    assert printed == {f"c:{i},{j}": str(FULL.c[i, j]) for i in range(4) for j in range(4)}
    assert "C[0,0] = 1·1 + 2·0 + 3·2 + 4·1" in texts
    assert min(t.size for t in walk(figure.items) if isinstance(t, Text)) >= target.min_pt
    keys = set(figure.keys())
    assert {f"c:{i},{j}" for i in range(4) for j in range(4)} <= keys


def test_the_plot_has_units_and_its_legend_is_outside_it():
    figure = fig.build(FULL, frozenset(), SCREEN)
    texts = figure.texts()
    assert "tile side T (elements, log scale)" in texts and "FLOPs/byte" in texts
    plot = next(i for i in walk_groups(figure.items) if i.name == "calculator plot")
    inside = [t.text for t in walk(plot.items) if isinstance(t, Text)]
    naive = "naive FP32, K = 4,096"
    assert naive not in inside and naive in texts


def test_one_mark_per_legend_meaning_in_every_theme():
    from gpuviz.figures.lint import lint

    for theme in THEMES.values():
        assert not [f for f in lint(fig.build(FULL, frozenset(), theme)) if f.rule == "legend"]


def walk_groups(items):
    for item in items:
        if hasattr(item, "items"):
            yield item
            yield from walk_groups(item.items)


def selection_marks(figure, theme=SCREEN):
    """Lines drawn in the selection's ink at least as heavy as its outer line: the double
    outline's outer rectangle, a selected plot line's halo."""
    heavy = theme.highlight().stroke_width - 1e-9
    return sorted(_where(item) for item in walk(figure.items)
               if getattr(item, "style", None) is not None and item.style.fill is None
               and item.style.stroke == theme.foreground and not item.style.dash
               and (item.style.stroke_width or 0.0) >= heavy)


@pytest.mark.parametrize("selected", [
    "a:0,3", "b:2,1", "c:3,3", "thread:register,2", "strategy:shared", "plot:flops_per_byte",
    key("series", "naive FP32, K = 4,096")])
def test_every_key_the_figure_emits_is_drawn_when_selected(selected):
    """Whatever a click selects (an A or B cell, an output, a thread, a strategy, the plot or
    one of its lines), the figure draws it with the selection's mark, in the whole figure and
    in the part that draws the key."""
    from gpuviz.figures.targets import NATURAL

    for target in (NATURAL, *(SINGLE.showing([p]) for p in
                              ("walkthrough", "owners", "counts", "intensity"))):
        plain = fig.build(FULL, frozenset(), SCREEN, target)
        if selected not in set(plain.keys()):
            continue
        chosen = fig.build(FULL, frozenset({selected}), SCREEN, target)
        before, after = selection_marks(plain), selection_marks(chosen)
        assert after != before and len(after) >= len(before), (selected, target.parts)
    assert selected in set(fig.build(FULL, frozenset(), SCREEN).keys())


def _where(item):
    """Where a mark is drawn: its box, or its points."""
    if hasattr(item, "points"):
        return tuple(round(v, 6) for pt in item.points for v in pt)
    if hasattr(item, "xyxy"):
        return tuple(round(float(v), 6) for v in item.xyxy.reshape(-1)[:8])
    return tuple(round(getattr(item, a), 6) for a in ("x", "y", "w", "h"))


def test_the_intensity_part_relates_the_tables_naive_value_to_the_plots():
    """The counts table gives naive FP32 at the walkthrough's K = 4, the plot at the
    calculator's K: one rule, 2K FLOPs over 8K + 4 bytes per output, so 8 / 36 at K = 4 and
    about 1/4 at K = 4,096, both named on the intensity part with their K."""
    figure = fig.build(FULL, frozenset(), SCREEN, SINGLE.showing(["intensity"]))
    k = FULL.k_dim
    table, plot = 2 * 4 / (8 * 4 + 4), 2 * k / (8 * k + 4)
    assert f"{table:.2f} at K = 4 (the table), {plot:.2f} at K = {k:,} (the plot)" in \
        " ".join(figure.texts())
    counts = fig.build(FULL, frozenset(), SCREEN, SINGLE.showing(["counts"])).texts()
    assert f"{table:.2f}" in counts and "FLOPs per requested byte, K = 4" in counts


def test_a_strategys_subtitle_never_splits_two_by_two():
    """With room for a wider face in the largest type, "4 threads, a 2" ended a line and
    "× 2 region each" began the next."""
    from gpuviz.figures.metrics import fallback_room
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.targets import SINGLE
    from gpuviz.figures.theme import theme
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    scenario = load_scenario(scenario_dir() / "gemm-walkthrough.json")
    with fallback_room(True):
        fig = figure_for(scenario, "gemm", theme("presentation"), frozenset(),
                         SINGLE.showing(["owners"]))
    texts = fig.texts()
    assert any("2 × 2" in t for t in texts)
    assert not [t for t in texts if t.startswith("×") or t.endswith(" 2")]


def test_the_intensity_subtitle_says_about_t_over_4_only_where_k_dwarfs_t():
    """At K = 16 a 16 × 16 tile gets 16 / (4 + 2) = 2.67 FLOPs per byte, but the intensity
    part's subtitle still read "about T/4 FLOPs per byte at K = 16" (T/4 = 4)."""
    short = compute(GemmParams(tile=16, k_dim=16))
    text = fig.subtitle(short, SLIDE.showing(["intensity"]))
    assert "about T/4" not in text and "2.67 at T = 16 and K = 16" in text
    assert "T / (4 + 2T/K)" in text
    long = fig.subtitle(compute(GemmParams(tile=16, k_dim=4096)), SLIDE.showing(["intensity"]))
    assert "about T/4 FLOPs per byte at K = 4,096" in long


def test_print_owner_cells_keep_their_block_pattern_in_a_band_along_the_bottom_edge():
    """In print the block's hatch under and beside "t0" read as "-t0-": the label stands on
    the cell's flat tint, the pattern in a band along the cell's bottom edge, a line hatch
    kept clear of it (the lint's hatch-glyph and hatch-line rules)."""
    from gpuviz.figures.gemm_owners import edge_band

    th = THEMES["print"]
    target = SINGLE.showing(["owners"])
    path = next(p for p in bundled_scenarios() if p.stem == "gemm-walkthrough")
    fig = figure_for(load_scenario(path), "gemm", th, frozenset(), target)
    assert not [f for f in lint(fig, target, 1.0, th) if f.rule in ("hatch-glyph", "hatch-line")]
    cells = [i for i in walk(fig.items) if isinstance(i, Rects) and i.keys
             and all(k.startswith("thread:") for k in i.keys)]
    assert cells and all(c.style.hatch is None for c in cells)
    band = edge_band(th, th.small_pt)
    bands = [r for i in walk(fig.items) if isinstance(i, Rects) and i.style.hatch
             for r in i.xywh]
    bottoms = {round(y + h, 6) for c in cells for _x, y, _w, h in c.xywh}
    assert bands and all(abs(h - band) < 1e-6 and round(y + h, 6) in bottoms
                         for _x, y, _w, h in bands)
