"""The ``hatch-glyph`` rule fires on a text over a hatch fill, knocked out or not, and not on one
beside it; it finds today's print banks queues, which put a pattern under their numbers;
gemm's owner grid keeps its hatch in bands along the cells' edges, mma's registers are grays."""

from __future__ import annotations

from gpuviz.figures.display import Figure, Rect, Style, Text
from gpuviz.figures.lint_hatch import hatch_under_glyph
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import THEMES
from gpuviz.scenario import bundled_scenarios, load_scenario
from gpuviz.scenario.compute import compute_all


def _figure(x: float, knockout: bool) -> Figure:
    cell = Rect(0, 0, 10, 10, Style(fill="#ffffff", hatch="dots", hatch_color="#000000"))
    digit = Text(x, 5, "8", 7, "#000000", knockout="#ffffff" if knockout else None)
    return Figure(40, 20, "#ffffff", (cell, digit))


def test_a_glyph_on_hatching_is_found_even_with_a_knockout():
    assert [f.rule for f in hatch_under_glyph(_figure(5, True))] == ["hatch-glyph"]
    assert [f.rule for f in hatch_under_glyph(_figure(5, False))] == ["hatch-glyph"]
    assert hatch_under_glyph(_figure(30, True)) == []


def _hit(panels: set[str], targets, skip: tuple[str, ...] = ()) -> set[str]:
    hit = set()
    for path in bundled_scenarios():
        if path.stem in skip:
            continue
        s = load_scenario(path)
        results = compute_all(s, s.panels)
        for pid in panels & set(s.panels):
            for target in targets:
                fig = build_figure(pid, results[pid], frozenset(), THEMES["print"], target)
                if hatch_under_glyph(fig):
                    hit.add(pid)
    return hit


def test_todays_print_banks_queues_put_patterns_under_numbers():
    assert _hit({"banks"}, [TARGETS["single"]]) == {"banks"}


def test_mma_registers_are_told_apart_by_lightness_not_a_pattern_under_the_lane():
    """In print the fragments' lane numbers sat on the register's hatch (dots read as decimal
    points: ".8", "9."); the registers are now four gray levels 0.11 apart. (ldmatrix's bank
    group counts on a conflict's hatch are the banks class, not yet fixed.)"""
    assert _hit({"mma"}, list(TARGETS.values()), skip=("mma-ldmatrix-swizzle",)) == set()


def test_gemm_owners_keep_their_hatch_in_edge_bands_at_every_size():
    """Owner labels ("t5") on a block's hatch read "-t5-" in print; the hatch now runs in bands
    along the cell's edges, clear of the label."""
    assert _hit({"gemm"}, list(TARGETS.values())) == set()
