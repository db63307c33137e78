"""The typography rules: a hexadecimal value in the sans face (Inter sets "0x4000" as "0×4000")
and a sentence starting with a lower-case code word ("ldmatrix" reads "Idmatrix") are found, in
the mma figure's titles as they were, and not in the mono face or in ordinary words."""

from __future__ import annotations

from gpuviz.figures import mma as mma_figure
from gpuviz.figures.display import Canvas
from gpuviz.figures.lint import lint
from gpuviz.figures.targets import NATURAL
from gpuviz.figures.theme import THEMES
from gpuviz.models import mma


def _rules(text: str, font: str = "sans") -> list[str]:
    c = Canvas()
    c.text(2, 6, text, 8, "#000000", font=font)  # type: ignore[arg-type]
    return [f.rule for f in lint(c.figure(200, 10, "#FFFFFF"))
            if f.rule in ("hex-face", "code-start")]


def test_the_descriptor_title_as_it_was_sets_its_hex_value_in_the_sans_face():
    assert _rules("wgmma descriptor 0x4000004000010000: B's core matrices") == ["hex-face"]
    assert _rules("0x4000004000010000", font="mono") == []
    assert _rules("box 0 × 64 elements") == []


def test_the_feed_title_as_it_was_starts_with_ldmatrix():
    assert _rules("ldmatrix.x4 of A from a row-major tile: 32 wavefronts") == ["code-start"]
    assert _rules("Wavefronts. ldmatrix.x2 reads B") == ["code-start"]
    assert _rules("Loading A with ldmatrix.x4 from a row-major tile") == []
    assert _rules("lane i reads [i][0]; lanes 0–31") == []  # an ordinary word
    assert _rules("ldmatrix", font="mono") == []


def test_the_feed_heading_beside_other_parts_opens_with_its_operand_not_ldmatrix():
    """No bundled lecture shows the feed beside another part, so no sweep drew its heading
    ("Feed: ldmatrix.x4 of A …")."""
    r = mma.compute(mma.MmaParams(show=("fragment-a", "feed")))
    fig = mma_figure.build(r, frozenset(), THEMES["print"], NATURAL)
    assert any(t.startswith("Feed: A loaded with ldmatrix.x4") for t in fig.texts())
    assert not [f for f in lint(fig) if f.rule in ("hex-face", "code-start")]
