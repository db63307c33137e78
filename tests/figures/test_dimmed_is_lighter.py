"""A dimmed or faded cell has less contrast with the page than the live cell it stands for, in
every theme (in the dark theme it sits nearer the dark ground): contrast is the WCAG 2 ratio of
relative luminances, (L1 + 0.05) / (L2 + 0.05)."""

import pytest

from gpuviz.figures import gemm as fig
from gpuviz.figures.display import walk
from gpuviz.figures.reduction_styles import cell_style
from gpuviz.figures.theme import THEMES, Theme
from gpuviz.models.gemm import GemmParams, compute


def luminance(color: str) -> float:
    """WCAG 2 relative luminance of a #rrggbb colour (sRGB)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    lo, hi = sorted((luminance(a), luminance(b)))
    return (hi + 0.05) / (lo + 0.05)


def assert_dimmer(theme: Theme, dimmed: str, live: str, what: str) -> None:
    d, v = contrast(dimmed, theme.background), contrast(live, theme.background)
    assert d < v, (f"{theme.name}: {what} {dimmed} has contrast {d:.2f} with the page "
                   f"{theme.background}, the live {live} only {v:.2f}")


@pytest.mark.parametrize("name", sorted(THEMES))
@pytest.mark.parametrize("live", ["owned", "active"])
def test_a_historic_reduction_value_is_dimmer_than_inputs_and_partials(name, live):
    """A historic value keeps an input (level 1) or a partial (later levels)."""
    theme = THEMES[name]
    assert_dimmer(theme, cell_style(theme, "faded").fill, cell_style(theme, live).fill,
                  f"historic value (beside {live})")


def _c_fills(theme: Theme) -> dict[str, str]:
    figure = fig.build(compute(GemmParams(k_revealed=2)), frozenset(), theme)
    fills = {}
    for item in walk(figure.items):
        for k in getattr(item, "keys", None) or ():
            if k.startswith("c:") and item.style.fill:
                fills[k] = item.style.fill
    return fills


@pytest.mark.parametrize("name", sorted(THEMES))
def test_gemm_other_output_tiles_are_dimmer_than_the_focus_tile(name):
    theme = THEMES[name]
    fills = _c_fills(theme)
    lit = {fills[f"c:{i},{j}"] for i in range(2) for j in range(2)}  # the focus tile
    others = {fills[f"c:{i},{j}"] for i in range(4) for j in range(4) if i > 1 or j > 1}
    for dimmed in others:
        for live in lit:
            assert_dimmer(theme, dimmed, live, "other output tile")


def _legend_figure(theme: Theme, *cells):
    from gpuviz.figures.display import Figure, Group, Rect, Style
    items = tuple(Group((Rect(2.0, 2.0 + 4 * i, 3.0, 3.0, Style(fill=c)),), name=f"legend:{n}")
                  for i, (n, c) in enumerate(cells))
    return Figure(40.0, 40.0, theme.background, items)


def _dimmed(figure, theme):
    from gpuviz.figures.lint import lint_colours
    return [f for f in lint_colours(figure, theme) if f.rule == "dimmed"]


def test_the_dimmed_rule_fires_on_the_presentation_historic_value_as_it_was():
    """The presentation theme drew a historic value in the faded role's #B5BCC4 beside the
    inputs' #B9DAF2: darker on white paper than the live value it dims."""
    theme = THEMES["presentation"]
    before = _legend_figure(theme, ("input", "#B9DAF2"), ("historic value", "#B5BCC4"))
    found = _dimmed(before, theme)
    assert contrast("#B5BCC4", "#FFFFFF") > contrast("#B9DAF2", "#FFFFFF")
    assert len(found) == 1 and f"{contrast('#B5BCC4', '#FFFFFF'):.2f}" in found[0].message
    dark = THEMES["dark"]  # on the dark ground, dimmed is darker
    assert not _dimmed(_legend_figure(dark, ("input", "#24435A"), ("historic value",
                                                                   "#202429")), dark)
    assert _dimmed(_legend_figure(dark, ("input", "#24435A"), ("historic value",
                                                               "#50555B")), dark)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_bundled_dimmed_legend_cell_sits_nearer_the_ground(name):
    from gpuviz.figures.scene import build_figure
    from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario

    theme = THEMES[name]
    seen = 0
    for path in bundled_scenarios():
        if not path.stem.startswith("reduction-"):
            continue
        scenario = load_scenario(path)
        for k in range(-1, len(scenario.steps)):
            state = scenario if k < 0 else scenario.at_step(k)
            results = compute_all(state, state.panels)
            for pid in state.panels:
                figure = build_figure(pid, results[pid], frozenset(), theme)
                seen += any(g.name == "legend:historic value" for g in walk(figure.items)
                            if hasattr(g, "name"))
                assert not _dimmed(figure, theme), (path.stem, k + 1, pid)
    assert seen
