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
