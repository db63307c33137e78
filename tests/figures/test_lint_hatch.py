"""The ``hatch-glyph`` rule fires on a text over a hatch fill, knocked out or not, and not on one
beside it; the composer keeps every figure's hatch in bands clear of its texts
(:func:`~gpuviz.figures.bands.clear_glyphs`), so no bundled figure, part or size in print puts a
pattern under a glyph, and a hatched cell that prints a value keeps a band of its pattern."""

from __future__ import annotations

from gpuviz.figures.bands import GAP, MIN_BAND, bands, clear_glyphs
from gpuviz.figures.display import Figure, Rect, Rects, Style, Text, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import THEMES
from gpuviz.registry import panel
from gpuviz.scenario import bundled_scenarios, load_scenario
from gpuviz.scenario.compute import compute_all

HATCHED = Style(fill="#ffffff", hatch="cross", hatch_color="#000000")


def _figure(x: float, knockout: bool) -> Figure:
    cell = Rect(0, 0, 10, 10, HATCHED)
    digit = Text(x, 5, "8", 7, "#000000", baseline="middle",
                 knockout="#ffffff" if knockout else None)
    return Figure(40, 20, "#ffffff", (cell, digit))


def _glyph_findings(fig: Figure) -> list[str]:
    return [f.rule for f in lint(fig) if f.rule in ("hatch-glyph", "hatch-line")]


def test_a_digit_on_a_hatched_cell_is_found_with_or_without_a_knockout():
    assert _glyph_findings(_figure(5, False)) == ["hatch-glyph"]
    assert _glyph_findings(_figure(5, True)) == ["hatch-glyph"]
    assert _glyph_findings(_figure(30, True)) == []


def test_clearing_keeps_the_fill_under_the_digit_and_the_hatch_in_bands_above_and_below():
    fig = _figure(5, False)
    cleared = Figure(fig.width, fig.height, fig.background, clear_glyphs(fig.items))
    assert _glyph_findings(cleared) == []
    cell = cleared.items[0]
    assert isinstance(cell, Rect) and cell.style.fill == "#ffffff" and cell.style.hatch is None
    band_rows = [i for i in cleared.items[1:] if isinstance(i, Rect) and i.style.hatch]
    assert len(band_rows) == 2  # one above the digit, one below, each the cell's width
    assert all(b.w == 10 and b.h >= MIN_BAND and b.style.fill is None for b in band_rows)


def test_a_cell_just_taller_than_its_text_keeps_no_band_thinner_than_a_pattern():
    # no row above or below the text: the hatch keeps to the cell's left and right edges,
    # each band a pattern wide, none under the text
    side = bands(0, 0, 4, 3.0, [(1, 0.2, 3, 2.8)])
    assert side and all(b[2] >= MIN_BAND and b[3] == 3.0 for b in side)
    assert all(b[0] + b[2] <= 1 - GAP + 1e-9 or b[0] >= 3 + GAP - 1e-9 for b in side)
    assert bands(0, 0, 1.6, 3.0, [(0.2, 0.2, 1.4, 2.8)]) == []  # no room beside it either
    assert bands(0, 0, 4, 10, []) == [(0, 0, 4, 10)]


def _print_figures():
    theme = THEMES["print"]
    for path in bundled_scenarios():
        s = load_scenario(path)
        results = compute_all(s, s.panels)
        for pid in s.panels:
            for name, target in TARGETS.items():
                for part in (None, *panel(pid).parts):
                    t = target if part is None else target.showing([part])
                    yield (f"{path.stem} · {pid} · {part or 'whole'} · {name}",
                           build_figure(pid, results[pid], frozenset(), theme, t))


def test_no_bundled_print_figure_part_or_size_puts_a_pattern_under_a_glyph():
    """Before the composer cleared them: 3112 texts on hatching over these 1012 figures (banks
    queues "X0X", barrier hazards, swizzle's bank-12 cell, launch lanes, divergence, mma's
    ldmatrix groups)."""
    hit = {label for label, fig in _print_figures() if _glyph_findings(fig)}
    assert hit == set()


def test_banks_conflict_slots_keep_their_cross_hatch_in_bands_in_print():
    """The queue rows leave room for a band above and below the word, so the conflict keeps its
    second channel (a gray 0.07 from a broadcast's) instead of losing its hatch to the word."""
    s = load_scenario(next(p for p in bundled_scenarios() if p.stem == "banks-column32"))
    fig = build_figure("banks", compute_all(s, ("banks",))["banks"], frozenset(),
                       THEMES["print"], TARGETS["single"].showing(["rack"]))
    crossed = [r for i in walk(fig.items) if isinstance(i, Rects) and i.style.hatch == "cross"
               for r in i.xywh]
    assert len(crossed) >= 2 * 32  # a band above and below each of the 32 queued words


def test_a_line_hatch_kept_in_thin_bands_just_above_and_below_a_label_is_found():
    """Gemm's owner cells in print: "t0" on a horizontally hatched 6 mm cell, the hatch kept
    in bands 0.15 mm above and below it, read as "-t0-" (a strike-through); a band along the
    cell's edge a hatch pitch away is clear, and so is a diagonal hatch's band."""
    def owner_cell(hatch: str, y: float) -> Figure:
        cell = Rect(0, 0, 6, 6, Style(fill="#ffffff", hatch=hatch, hatch_color="#000000"))
        label = Text(3, y, "t0", 7, "#000000", anchor="middle", baseline="middle", font="mono")
        return Figure(10, 10, "#ffffff", clear_glyphs((cell, label)))

    assert _glyph_findings(owner_cell("horizontal", 3.0)) == ["hatch-line"]
    assert _glyph_findings(owner_cell("diagonal", 3.0)) == []
    edge = Figure(10, 10, "#ffffff", (
        Rect(0, 0, 6, 6, Style(fill="#ffffff")),
        Rect(0, 3.95, 6, 2.05, Style(hatch="horizontal", hatch_color="#000000")),
        Text(3, 1.5, "t0", 7, "#000000", anchor="middle", baseline="middle", font="mono")))
    assert _glyph_findings(edge) == []
