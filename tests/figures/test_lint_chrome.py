"""The chrome rules of the lint (``figures/lint_chrome.py``): each shown firing on a figure as
it was drawn before, then finding nothing over every bundled scenario's parts. The bundled
sweep (``tests/figures/test_figure_lint.py``) runs ``prose`` and ``end-label`` over every part
of every bundled step at every size; the headings are checked here, with their share."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from gpuviz.figures.lint_chrome import (
    MAX_HEADING_SHARE,
    chrome_findings,
    heading_lines,
    heading_share,
    part_heading_findings,
)
from gpuviz.figures.part_titles import part_title
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import NATURAL, SINGLE
from gpuviz.figures.theme import THEMES
from gpuviz.registry import PANELS, panel
from gpuviz.scenario.compute import compute_all
from gpuviz.scenario.io import load_scenario

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios").glob("*.json"))
CASES = [("single", SINGLE, "print"), ("natural", NATURAL, "screen")]


@cache
def _results(path: Path):
    scenario = load_scenario(path)
    return scenario, compute_all(scenario, scenario.panels)


def _parts(size):
    """(label, panel id, result, whole figure) of every bundled scenario's panels."""
    target, theme = size[1], THEMES[size[2]]
    for path in SCENARIOS:
        scenario, results = _results(path)
        for pid in scenario.panels:
            whole = build_figure(pid, results[pid], frozenset(), theme, target)
            yield path.stem, pid, results[pid], whole


def _title(figure) -> str:
    return " ".join(t.text for t in heading_lines(figure))


def test_part_heading_fires_on_the_whole_title_and_subtitle_again():
    # a part built as before its heading was its name: the whole figure's title and subtitle
    _, results = _results(SCENARIOS[[p.stem for p in SCENARIOS].index("barrier-missing-first")])
    theme = THEMES["print"]
    whole = build_figure("barrier", results["barrier"], frozenset(), theme, SINGLE)
    before = panel("barrier").figure.build(results["barrier"], frozenset(), theme,
                                           SINGLE.showing(["slots"]))
    rules = {f.message.split(":")[0] for f in part_heading_findings(before, _title(whole))}
    assert len(heading_lines(before)) > 1
    assert any("lines" in m for m in rules) and any("repeats" in m for m in rules)
    after = build_figure("barrier", results["barrier"], frozenset(), theme,
                         SINGLE.showing(["slots"]))
    assert _title(after) == "Barrier slots" == part_title("barrier", ["slots"])
    assert part_heading_findings(after, _title(whole)) == []


def test_every_part_has_a_name_that_is_not_the_whole_title():
    for p in PANELS:
        names = [part_title(p.id, [part]) for part in p.parts]
        assert len(set(names)) == len(names), p.id
        assert all(name and name != p.title for name in names), p.id


@pytest.mark.parametrize("size", CASES, ids=lambda c: f"{c[0]}-{c[2]}")
def test_every_bundled_part_alone_is_headed_with_its_name_in_one_line(size):
    theme, shares = THEMES[size[2]], []
    for label, pid, result, whole in _parts(size):
        for part in whole.parts:
            fig = build_figure(pid, result, frozenset(), theme, size[1].showing([part]))
            found = chrome_findings(fig, "full", whole_title=_title(whole), parts=[part])
            assert not found, (label, part, [str(f) for f in found])
            shares.append(heading_share(fig))
    # the heading is a small share of nearly every part (a part of a line or two aside)
    assert sum(s >= MAX_HEADING_SHARE for s in shares) <= 2, sorted(shares)[-5:]


def _two_series_plot(chrome: str):
    from gpuviz.figures.display import Figure
    from gpuviz.figures.plot import Series, plot_block

    theme = THEMES["print"]
    series = [Series("row-major", [0, 1, 2, 3], [0, 4, 8, 12], 0),
              Series("grouped", [0, 1, 2, 3], [0, 2, 3, 4], 1),
              Series("hilbert", [0, 1, 2, 3], [0, 2, 3, 4.2], 2)]
    block = plot_block(series, theme, 80.0, 50.0, x_label="step", y_label="loads",
                       target=SINGLE.showing(["loads"], chrome))  # type: ignore[arg-type]
    return Figure(block.width, block.height, theme.background, block.items)


def test_end_label_fires_on_a_plot_named_only_by_its_legend():
    # as drawn before: the lines named only in the legend, which chrome "none" leaves out
    found = chrome_findings(_two_series_plot("full"), "none")
    assert {f.key for f in found if f.rule == "end-label"} == {
        "series:row-major", "series:grouped", "series:hilbert"}
    assert chrome_findings(_two_series_plot("none"), "none") == []


def test_two_ends_close_together_get_labels_that_do_not_overlap():
    from gpuviz.figures.display import Text, text_box, walk

    fig = _two_series_plot("none")
    labels = [text_box(t) for t in walk(fig.items) if isinstance(t, Text)
              and t.key in ("series:grouped", "series:hilbert")]
    assert len(labels) == 2
    (a, b) = labels
    assert a[3] <= b[1] + 1e-6 or b[3] <= a[1] + 1e-6  # one above the other


# derivations and receipts the issue names: gemm intensity's derivation, the divergence
# efficiency receipt, the barrier hazards; each a drawing without prose under chrome "none"
NAMED = [("gemm-walkthrough", "gemm", "intensity"), ("gemm-requested-bytes", "gemm", "intensity"),
         ("divergence-nested", "divergence", "efficiency"),
         ("divergence-if-else", "divergence", "efficiency"),
         ("barrier-missing-first", "barrier", "hazards")]


@pytest.mark.parametrize("case", NAMED, ids=lambda c: f"{c[0]}-{c[2]}")
@pytest.mark.parametrize("size", CASES, ids=lambda c: f"{c[0]}-{c[2]}")
def test_named_derivations_are_not_prose_without_chrome(case, size):
    stem, pid, part = case
    _, results = _results(SCENARIOS[[p.stem for p in SCENARIOS].index(stem)])
    fig = build_figure(pid, results[pid], frozenset(), THEMES[size[2]],
                       size[1].showing([part], "none"))
    found = [str(f) for f in chrome_findings(fig, "none") if f.rule == "prose"]
    assert not found
    assert fig.parts == (part,)  # the part is still drawn


def test_prose_fires_on_a_derivation_written_as_sentences():
    from gpuviz.figures.display import Figure
    from gpuviz.figures.text_blocks import text_block

    theme = THEMES["print"]
    block = text_block("A panel T × K and a panel K × T are loaded once: 8TK bytes, and the "
                       "tile's T² stores write 4T² bytes for 2T²K FLOPs.", theme, 80.0)
    found = chrome_findings(Figure(80.0, 20.0, theme.background, block.items), "none")
    assert [f.rule for f in found] == ["prose"]


def _texts_figure(*texts):
    from gpuviz.figures.display import Canvas

    c = Canvas()
    for x, y, text, size in texts:
        c.text(x, y, text, size, "#000000")
    return c.figure(254.0, 140.0, "#FFFFFF")


def test_a_slides_table_in_large_type_is_not_prose():
    # a slide's table: its values 70 mm (under 24 ems of 20 pt type) right of their labels
    rows = [("issued", "12 instructions"), ("lane-instructions", "96 of 384 lane slots"),
            ("region outer → join", "12 issued, 25 % of the 32 lanes active at the branch"),
            ("region x → x_join", "6 issued, 50 % of the 16 lanes active at the branch")]
    fig = _texts_figure(*[t for i, (a, b) in enumerate(rows)
                          for t in ((2.0, 20.0 + 9.0 * i, a, 20.0), (72.0, 20.0 + 9.0 * i, b,
                                                                      20.0))])
    assert chrome_findings(fig, "none") == []
    # the same values in 7 pt type 70 mm apart: not one row, and the values read as prose
    small = _texts_figure(*[t for i, (a, b) in enumerate(rows)
                            for t in ((2.0, 20.0 + 3.2 * i, a, 7.0),
                                      (72.0, 20.0 + 3.2 * i, b, 7.0))])
    assert [f.rule for f in chrome_findings(small, "none")] == ["prose"]


def test_a_column_of_row_names_is_not_prose():
    names = ["issue slot"] + [f"warp {w}" for w in range(0, 16, 2)]
    assert chrome_findings(_texts_figure(*[(2.0, 10.0 + 3.0 * i, n, 7.0)
                                            for i, n in enumerate(names)]), "none") == []
