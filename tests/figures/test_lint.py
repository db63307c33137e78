"""The figure lint itself: each rule fires on a small figure with the defect that bundled
figures had (a value dropped from its cell, a label on hatching or under a line, a swatch for
two meanings …) and stays quiet once the defect is mended the way the layout layer mends it."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.blocks import BlockCanvas, place
from gpuviz.figures.display import Canvas, Style
from gpuviz.figures.legend import LegendEntry, legend_block
from gpuviz.figures.lint import legend_marks, lint, lint_across
from gpuviz.figures.targets import NATURAL, SINGLE
from gpuviz.figures.theme import PRINT, SCREEN, THEMES

CELL = Style(fill="#CFE3F3", stroke="#8A94A3", stroke_width=0.15)


def rules(fig, target=NATURAL):
    return sorted({f.rule for f in lint(fig, target)})


def value_row(values, drop_wide: bool):
    """A reduction row as it used to be drawn: a value that did not fit was left out."""
    c = Canvas()
    keys = [f"partial:1,{i}" for i in range(len(values))]
    c.rects([(2 + 5 * i, 2, 5, 4) for i in range(len(values))], CELL, keys)
    for i, v in enumerate(values):
        if drop_wide and len(v) > 3:
            continue
        c.text(4.5 + 5 * i, 4, v, 7, "#000000", anchor="middle", baseline="middle",
               font="mono", key=keys[i])
    return c.figure(4 + 5 * len(values), 8, "#FFFFFF")


def test_a_value_left_out_of_its_cell_is_missing():
    fig = value_row(["1", "5", "9", "13", "17", "21", "1552", "2576"], drop_wide=True)
    findings = [f for f in lint(fig) if f.rule == "missing-value"]
    assert {f.key for f in findings} == {"partial:1,6", "partial:1,7"}
    assert "6 of 8 partial cells" in findings[0].message


def test_a_value_cell_shrinks_then_shortens_but_never_drops():
    c = BlockCanvas()
    c.rect(0, 0, 5, 4, CELL, key="partial:0,0")
    t = c.value(0, 0, 5, 4, "16,777,216", 7, "#000000", floor=7, key="partial:0,0")
    assert t.text == "2²⁴" and t.size >= 7
    block = c.block(5, 4)
    assert block.shortened == (("partial:0,0", "2²⁴", "16,777,216"),)
    assert block.promises == ("partial:0,0",)


def test_values_shortened_alike_are_each_stated():
    """Keyed by the shortened text, four sums shortened to "17M" were one, and the note stated
    the last of them only: keyed by their places, the note says four values share the form."""
    from gpuviz.figures.numbers import shortened_note

    c = BlockCanvas()
    sums = ["16,999,998", "17,000,001", "17,000,002", "17,000,003"]
    for i, text in enumerate(sums):
        c.value(6 * i, 0, 5, 4, text, 7, "#000000", floor=7, key=f"partial:5,{i}")
    block = c.block(24, 4)
    assert [(s, e) for _, s, e in block.shortened] == [("17M", e) for e in sums]
    outer = BlockCanvas()
    place(outer, block, 0, 0)
    assert len(outer.block(24, 4).shortened) == 4
    assert shortened_note(block.shortened) == (
        "Shortened to fit: 17M = 4 values, 16,999,998 to 17,000,003.")
    # values whose only shortening is their grouping comma: one rule where that is shorter
    # than "1552 = 1,552; 1946 = 1,946; …"
    ungrouped = [(f"partial:{k},0", f"{v}".replace(",", ""), v)
                 for k, v in enumerate(["1,552", "1,946", "2,576", "3,104", "5,050"])]
    assert shortened_note(ungrouped) == "Shortened to fit: thousands without their comma " \
                                        "(1552 = 1,552)."
    assert shortened_note(ungrouped[:2]) == "Shortened to fit: 1552 = 1,552; 1946 = 1,946."


def test_a_label_on_hatching_is_found_knocked_out_or_not():
    """A knockout leaves the pattern's fragments beside the glyphs (they read as characters)."""
    for knockout in (None, "#FFFFFF"):
        c = Canvas()
        c.rect(2, 2, 20, 6, PRINT.fill("masked"))
        c.text(4, 6, "block 0", 8, "#000000", knockout=knockout)
        assert rules(c.figure(30, 10, "#FFFFFF")) == ["hatch-glyph"]


def test_an_edge_label_lying_on_its_edge_is_crossed():
    c = Canvas()
    c.line(5, 2, 5, 20, Style(stroke="#000000", stroke_width=0.3))
    c.text(5, 11, "taken", 7, "#000000", anchor="middle", baseline="middle")
    assert rules(c.figure(20, 24, "#FFFFFF")) == ["crossing"]


def test_text_spilling_out_of_its_cell_straddles_the_edge():
    c = Canvas()
    c.rect(2, 2, 4, 4, CELL)
    c.text(4, 4, "1023", 7, "#000000", anchor="middle", baseline="middle", font="mono")
    assert rules(c.figure(10, 8, "#FFFFFF")) == ["crossing"]


def test_overlapping_texts_and_text_off_the_page():
    c = Canvas()
    c.text(1, 5, "step 2 of 4", 8, "#000000")
    c.text(12, 5, "The tail block", 8, "#000000")
    c.text(25, 9.5, "cut", 8, "#000000")
    assert rules(c.figure(30, 8, "#FFFFFF")) == ["off-page", "overlap"]


def test_type_size_floor_is_7_pt_at_every_target_measured_after_scaling():
    def figure(pt: float):
        c = Canvas()
        c.text(1, 5, "lane", pt, "#000000")
        return c.figure(30, 8, "#FFFFFF")

    # 7 pt, a journal's least, in a single column as everywhere else
    assert rules(figure(6.0), NATURAL) == rules(figure(6.0), SINGLE) == ["type-size"]
    assert rules(figure(7.0), NATURAL) == rules(figure(7.0), SINGLE) == []
    # a figure scaled down into a column, as exports used to do, is measured after scaling
    assert [f.rule for f in lint(figure(7.0), SINGLE, scale=0.45)] == ["type-size"]


def test_one_meaning_one_mark():
    entries = [LegendEntry("valid lane", SCREEN.fill("valid")),
               LegendEntry("active lane", SCREEN.fill("valid"))]
    c = BlockCanvas()
    block = legend_block(entries, SCREEN, 100)
    for item in block.items:
        c.add(item)
    assert rules(c.figure(110, 20, "#FFFFFF")) == ["legend"]
    entries[1] = LegendEntry("active lane", SCREEN.fill("active").with_opacity(1.0), "dot")
    c = BlockCanvas()
    for item in legend_block(entries, SCREEN, 100).items:
        c.add(item)
    assert rules(c.figure(110, 20, "#FFFFFF")) == []


def test_a_legend_label_longer_than_its_column_wraps_inside_the_page():
    long = ("a legend label that describes one meaning in so many words that it cannot fit "
            "on one line of a narrow side column")
    block = legend_block([LegendEntry("short", SCREEN.fill("valid")),
                          LegendEntry(long, SCREEN.fill("miss")),
                          LegendEntry("after", SCREEN.fill("hit"))], SCREEN, 50)
    assert block.width <= 50
    c = BlockCanvas()
    for item in block.items:
        c.add(item)
    assert rules(c.figure(52, block.height + 2, "#FFFFFF")) == []
    lines = [t for t in c.figure(52, block.height + 2, "#FFFFFF").texts() if t != "short"]
    assert len(lines) >= 3 and " ".join(lines[:-1]) == long  # wrapped, every word kept


def _legend_figure(entries, theme=SCREEN):
    c = BlockCanvas()
    for item in legend_block(entries, theme, 150).items:
        c.add(item)
    return c.figure(160, 30, theme.background)


def test_vermillion_for_anything_but_a_bad_state_is_reported():
    """As the legends had it: vermillion meant "selected" and "naive FP32" beside "conflict"."""
    vermillion = Style(stroke="#D55E00", stroke_width=0.6)
    fig = _legend_figure([LegendEntry("selected", vermillion),
                          LegendEntry("naive FP32", vermillion, "line"),
                          LegendEntry("several words in one bank (conflict)",
                                      SCREEN.fill("conflict"))])
    found = [f for f in lint(fig, theme=SCREEN) if f.rule == "vermillion"]
    assert sorted(f.item for f in found) == ["legend entry 'naive FP32'",
                                             "legend entry 'selected'"]
    assert not [f for f in lint(fig) if f.rule == "vermillion"]  # no theme, no colour rules


def test_two_kinds_of_wait_differing_only_by_hatch_share_a_swatch():
    """As pipeline had it: three kinds of wait in one magenta, told apart by hatch alone."""
    magenta = Style(fill="#CC79A7", stroke="#8A94A3", stroke_width=0.15)
    fig = _legend_figure([LegendEntry("compute waits for data", replace(magenta, hatch="diagonal")),
                          LegendEntry("load waits for slot", replace(magenta, hatch="cross"))])
    assert [f.rule for f in lint(fig, theme=SCREEN) if f.rule in ("swatch", "legend")] == ["swatch"]
    fig = _legend_figure([LegendEntry("compute waits for data", SCREEN.fill("wait")),
                          LegendEntry("load waits for slot", SCREEN.fill("wait_slot"))])
    assert not [f for f in lint(fig, theme=SCREEN) if f.rule == "swatch"]


def test_a_meaning_drawn_two_ways_across_figures_is_reported():
    """As banks and divergence had it: "active lane" outlined in one, bare in the other, and
    barrier's reads in the compute colour."""
    outlined = SCREEN.fill("valid")
    bare = SCREEN.fill("valid", outline=False)
    entries = [("banks", "active lane", legend_marks(_legend_figure(
                   [LegendEntry("active lane", outlined)]))["active lane"][0]),
               ("divergence", "active lane", legend_marks(_legend_figure(
                   [LegendEntry("active lane", bare)]))["active lane"][0]),
               ("barrier", "R: read neighbour's slot", legend_marks(_legend_figure(
                   [LegendEntry("R: read neighbour's slot", SCREEN.fill("compute"))]))[
                   "R: read neighbour's slot"][0])]
    found = lint_across(entries, SCREEN)
    assert sorted(f.item for f in found) == ['legend entry "R: read neighbour\'s slot"',
                                             "legend entry 'active lane'"]
    assert lint_across(entries[:1], SCREEN) == []


def test_two_swatches_a_reader_cannot_tell_apart_are_reported():
    """As the dark scheduler had them: "waiting on memory" (#213A4C) and "waiting on math"
    (#3A4450), ΔE 8.0 apart; in print, two hues of one gray and no hatch between them."""
    dark = THEMES["dark"]
    old = [LegendEntry("waiting on memory", Style(fill="#213A4C")),
           LegendEntry("waiting on math", Style(fill="#3A4450"))]
    found = [f for f in lint(_legend_figure(old), theme=dark) if f.rule == "distinct"]
    assert [f.item for f in found] == ["legend entry 'waiting on math'"]
    assert "ΔE 8.0" in found[0].message
    mended = [old[0], LegendEntry("waiting on math", Style(fill=dark.color("faded")))]
    assert not [f for f in lint(_legend_figure(mended), theme=dark) if f.rule == "distinct"]
    # a dot beside a cell is another shape: told apart whatever its colour
    shapes = [old[0], LegendEntry("waiting on math", Style(fill="#3A4450"), "dot")]
    assert not [f for f in lint(_legend_figure(shapes), theme=dark) if f.rule == "distinct"]
    same_gray = [LegendEntry("A tile", Style(fill=PRINT.at_gray("#E69F00", 0.8))),
                 LegendEntry("B tile", Style(fill=PRINT.at_gray("#0072B2", 0.75)))]
    found = [f for f in lint(_legend_figure(same_gray), theme=PRINT) if f.rule == "distinct"]
    assert [f.item for f in found] == ["legend entry 'B tile'"]
    hatched = [same_gray[0], LegendEntry("B tile", replace(same_gray[1].style, hatch="cross"))]
    assert not [f for f in lint(_legend_figure(hatched), theme=PRINT) if f.rule == "distinct"]
