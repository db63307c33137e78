"""The ``hatch-glyph`` rule fires on a text over a hatch fill, knocked out or not, and not on one
beside it; and it finds today's print figures that put a pattern under their numbers (gemm,
mma, banks, barrier, swizzle), the class issue 37 names."""

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


def test_todays_print_figures_put_patterns_under_numbers():
    hit = set()
    for path in bundled_scenarios():
        s = load_scenario(path)
        results = compute_all(s, s.panels)
        for pid in {"gemm", "mma"} & set(s.panels):
            fig = build_figure(pid, results[pid], frozenset(), THEMES["print"], TARGETS["single"])
            if hatch_under_glyph(fig):
                hit.add(pid)
    assert hit == {"gemm", "mma"}
