"""Structure of the reduction figure: keys, contributor outline, levels by frame, themes."""

from dataclasses import replace

import pytest

from gpuviz.figures import reduction as fig
from gpuviz.figures.display import Rect, Rects, Text, walk
from gpuviz.figures.targets import DOUBLE, NATURAL, SINGLE, SLIDE
from gpuviz.figures.theme import SCREEN, THEMES
from gpuviz.models.reduction import ReductionParams, compute

WARP = compute(ReductionParams())
BLOCK_BAD = compute(replace(ReductionParams(), values=tuple(float(v) for v in range(1, 101)),
                            scope="block", final_read="fixed_32"))


def test_lanes_and_every_partial_have_keys():
    keys = set(fig.build(WARP, frozenset(), SCREEN).keys())
    assert {f"lane:{lane}" for lane in range(32)} <= keys
    assert {f"partial:{k},{lane}" for k in range(6) for lane in range(32)} <= keys


def test_texts_carry_528():
    texts = fig.build(WARP, frozenset(), SCREEN).texts()
    assert any(t.startswith("lane 0 holds") and t.endswith(" 528") for t in texts)
    assert "528" in texts


def _values(figure):
    return {i.key: i.text for i in walk(figure.items) if isinstance(i, Text) and i.key}


BLOCK_OK = compute(replace(ReductionParams(), values=tuple(float(v) for v in range(1, 101)),
                           scope="block"))
FLOAT32 = compute(replace(ReductionParams(), values=(16777216.0,) + (1.0,) * 31,
                          arithmetic="float32"))


@pytest.mark.parametrize("target", [NATURAL, SINGLE, DOUBLE, SLIDE], ids=lambda t: t.name)
def test_block_partials_and_result_are_printed_at_every_size(target):
    figure = fig.build(BLOCK_OK, frozenset(), SCREEN, target)
    values = _values(figure)
    shortened = dict(figure.shortened)

    def exact(shown: str) -> str:  # a value, or the exact value its listed short form stands for
        return shortened.get(shown, shown)

    partials = [int(v) for v in BLOCK_OK.warp_partials]
    assert partials[1:3] == [1552, 2576]
    assert exact(values["shared:1"]) == exact(values["partial:0,1"]) == "1,552"
    assert exact(values["shared:2"]) == "2,576"
    assert exact(values["partial:5,0"]) == "5,050" == f"{int(BLOCK_OK.result):,}"
    drawn = [(k, lane) for k in range(6) for lane in range(32) if f"partial:{k},{lane}" in values]
    assert all(values[f"partial:{k},{lane}"] for k, lane in drawn)
    if len(drawn) < 6 * 32:  # a folded grid: what it leaves out, it states, and it is all 0
        assert "shared entries 4–31 hold 0" in " ".join(figure.texts())
        assert all(BLOCK_OK.levels[k][lane] == 0.0 for k in range(6) for lane in range(32)
                   if (k, lane) not in drawn)


@pytest.mark.parametrize("target", [NATURAL, SINGLE, DOUBLE, SLIDE], ids=lambda t: t.name)
def test_float32_values_are_exact_or_shortened_exactly(target):
    figure = fig.build(FLOAT32, frozenset(), SCREEN, target)
    values = _values(figure)
    shortened = dict(figure.shortened)
    for k, lane in ((0, 0), (5, 0)):
        exact = f"{int(FLOAT32.levels[k][lane]):,}"
        shown = values[f"partial:{k},{lane}"]
        # Either the exact value, or an exact short form (a power of two plus remainder, or
        # the digits without grouping) listed with it.
        assert shown == exact or (shortened[shown] == exact
                                  and (shown.startswith("2²⁴") or shown == exact.replace(",", "")))
    assert values["partial:0,0"] in ("16,777,216", "2²⁴", "16777216")
    note = " ".join(figure.texts())
    for short, exact in figure.shortened:
        assert f"{short} = {exact}" in note


def test_selected_partial_outlines_its_contributors():
    figure = fig.build(WARP, frozenset({"partial:2,1"}), SCREEN)
    # a table row: the partial named, then its value and contributors
    texts = figure.texts()
    row = texts.index("partial at level 2, lane 1")
    assert texts[row + 1] == "56: 4 inputs {1, 9, 17, 25}"
    selected = [i for i in walk(figure.items)
                if isinstance(i, Rect) and i.key == "partial:2,1"
                and i.style == SCREEN.highlight()]
    assert selected
    outlines = [i for i in walk(figure.items) if isinstance(i, Rects) and i.keys is None
                and i.style.stroke == SCREEN.accent]
    # 4 inputs, 2 partials at level 1, and the selected cell itself.
    assert len(outlines[0].xywh) == 4 + 2 + 1


def test_frames_reveal_one_level_at_a_time():
    """A frame prints the levels computed so far; a level still to come keeps its faded cell
    (the layout holds from frame to frame) but no value, and the receipt names lane 0's sum
    only at the last level. Before, frame 0 of a warp's shuffle printed every level down to
    528 and the receipt said "lane 0 holds 528" beside "each lane owns one input value"."""
    from gpuviz.figures.display import Text

    assert fig.frame_count(WARP) == 6

    def drawn(frame):
        figure = fig.build(WARP, frozenset({f"frame:{frame}"}), SCREEN)
        keyed = {key for item in walk(figure.items) if isinstance(item, Rects) and item.keys
                 for key in item.keys if key and key.startswith("partial:")}
        printed = {item.key for item in walk(figure.items)
                   if isinstance(item, Text) and item.key and item.key.startswith("partial:")}
        cells = sum(len(item.xywh) for item in walk(figure.items) if isinstance(item, Rects))
        return keyed, printed, cells, " ".join(figure.texts()), figure.width, figure.height

    levels = {k: {f"partial:{k},{lane}" for lane in range(32)} for k in range(6)}
    first, last = drawn(0), drawn(5)
    assert first[0] == first[1] == levels[0]
    two = drawn(2)
    assert two[0] == two[1] == levels[0] | levels[1] | levels[2]
    assert last[0] == last[1] == set().union(*levels.values())
    assert first[2] == last[2] and first[4:] == last[4:]  # the same cells, the same layout
    assert "528" not in first[3].split("exact sum")[0] and "after the last level" in first[3]
    assert " ".join(last[3].split()).find("lane 0 holds 528") >= 0


def test_block_figure_flags_uninitialised_entries():
    figure = fig.build(BLOCK_BAD, frozenset({"shared:5"}), SCREEN)
    keys = set(figure.keys())
    assert {f"warp:{w}" for w in range(4)} <= keys and "shared:31" in keys
    texts = " ".join(figure.texts())
    assert "undefined" in texts and "entries 4–31 are uninitialised" in texts
    assert fig.frame_count(BLOCK_BAD) == 8


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_builds(name):
    figure = fig.build(BLOCK_BAD, frozenset({"partial:1,0", "frame:3"}), THEMES[name])
    assert 120 <= figure.width <= 260
    for target in (SINGLE, DOUBLE):
        laid_out = fig.build(BLOCK_BAD, frozenset({"partial:1,0"}), THEMES[name], target)
        assert laid_out.width == target.width


def test_the_legend_names_faded_values_only_where_the_tree_has_some():
    """shfl_down leaves a faded suffix of historic values; the xor butterfly keeps every lane
    active, so its legend has no entry for a mark the figure never draws."""
    xor = compute(replace(ReductionParams(), pattern="xor"))
    down_texts = fig.build(WARP, frozenset(), SCREEN).texts()
    xor_texts = fig.build(xor, frozenset(), SCREEN).texts()
    assert "historic value" in down_texts
    assert "historic value" not in xor_texts
    assert "current partial" in xor_texts and "current partial" in down_texts
    assert not any("active prefix" in t for t in xor_texts)  # every lane of a butterfly


XOR = compute(replace(ReductionParams(), pattern="xor"))


def _pluses(result) -> int:
    return sum(1 for i in walk(fig.build(result, frozenset(), SCREEN).items)
               if isinstance(i, Text) and i.text == "+")


def test_every_add_is_drawn_with_a_plus_where_its_two_operands_meet():
    """A shuffle down adds in 16 + 8 + 4 + 2 + 1 lanes, a butterfly in all 32 at each of its
    5 levels: each add is a "+", not a move."""
    assert _pluses(WARP) == 31
    assert _pluses(XOR) == 5 * 32


def test_butterfly_contributors_are_the_xor_partners_of_each_row():
    figure = fig.build(XOR, frozenset({"partial:2,0"}), SCREEN)
    assert any("{0, 8, 16, 24}" in t for t in figure.texts())
    outlines = [i for i in walk(figure.items) if isinstance(i, Rects) and i.keys is None
                and i.style.stroke == SCREEN.accent]
    # lanes 0, 8, 16, 24 of the input, 0 and 8 after offset 16, and the selected cell
    assert len(outlines[0].xywh) == 4 + 2 + 1


@pytest.mark.parametrize("result", [WARP, XOR, FLOAT32, BLOCK_OK],
                         ids=["down", "xor", "float32", "block"])
def test_the_tree_part_fits_a_journal_column_folded_with_its_elision_stated(result):
    figure = fig.build(result, frozenset(), THEMES["print"], SINGLE.showing(["tree"]))
    assert figure.height <= 120
    assert min(t.size for t in walk(figure.items) if isinstance(t, Text)) >= 7.0 - 1e-9
    words = " ".join(figure.texts())
    assert "inputs only" in words or "hold 0 (no warp's partial)" in words


def test_a_folded_block_tree_says_zeros_only_where_the_upper_entries_hold_zeros():
    """A fixed 32-entry read leaves entries 4–31 undefined: they are drawn (folded beside
    0–15), and the note does not claim they hold 0."""
    figure = fig.build(BLOCK_BAD, frozenset(), THEMES["print"], SINGLE.showing(["tree"]))
    words = " ".join(figure.texts())
    assert "hold 0" not in words and "drawn as inputs only" in words
    assert {f"shared:{i}" for i in range(32)} <= set(figure.keys())
    # every entry but the first four is undefined: no entry is "one no warp stores to"
    assert "entry no warp stores to" not in figure.texts() and "undefined value (?)" in words


def test_the_receipt_alone_lists_no_cell_it_does_not_draw():
    """The result receipt draws no cell: its legend had "current partial" all the same."""
    from gpuviz.figures.lint import legend_marks
    from gpuviz.figures.scene import figure_for
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    scenario = load_scenario(scenario_dir() / "reduction-block.json")
    alone = figure_for(scenario, "reduction", SCREEN, frozenset(), SLIDE.showing(["receipt"]))
    assert alone.parts == ("receipt",) and not legend_marks(alone)
    block = figure_for(scenario, "reduction", SCREEN, frozenset(), SLIDE.showing(["block"]))
    assert list(legend_marks(block)) == ["current partial"]


@pytest.mark.parametrize("target", [NATURAL, SINGLE])
def test_a_block_of_one_warp_is_singular(target):
    params = ReductionParams(values=(1.0, 2.0, 3.0), pattern="xor", scope="block")
    figure = fig.build(compute(params), frozenset(), SCREEN, target)
    texts = [i.text for i in walk(figure.items) if isinstance(i, Text)]
    assert any("1 warp" in t for t in texts)
    assert not any("1 warps" in t for t in texts)


def test_tracks_too_wide_for_a_column_wrap_into_bands_and_a_lane_is_outlined_in_each():
    """A float32 sum of values near 1e29 at block scope in a journal column: seven columns of
    their shortest spelling (-5e29) are wider than 85 mm, so the tracks wrap into two bands,
    the second repeating (without keys) the track its first adds read. Every value stays in its
    cell, and a selected lane is outlined along its row in each band (one outline ran down the
    read column from band to band)."""
    r = compute(ReductionParams(values=(-4.806900534924139e+16, -5.0976135272457356e+29,
                                        -8.548518913491224e-06, -6.175069359137574e+16),
                                pattern="xor", scope="block", partial_warp="neutral_zeros",
                                final_read="initialised_only", arithmetic="float32"))
    figure = fig.build(r, frozenset({"lane:2"}), THEMES["print"], SINGLE)
    assert figure.width <= SINGLE.width_mm + 1e-6
    texts = [i for i in walk(figure.items) if isinstance(i, Text)]
    assert any(t.text.endswith("(again)") for t in texts)
    keyed = [t.key for t in texts if t.key and t.key.startswith("partial:")]
    assert len(keyed) == len(set(keyed)), "a repeated track's values carry no keys"
    outlines = [i for i in walk(figure.items) if isinstance(i, Rect)
                and i.style == THEMES["print"].highlight() and i.w > 1.5 * i.h]  # not a swatch
    assert len(outlines) == 2 and all(o.h < 6.0 for o in outlines), "one row in each band"
    assert outlines[0].y < outlines[1].y
