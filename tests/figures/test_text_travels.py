"""Text that travels: the fallback face draws what the shipped faces lack (as text, as outlines,
and in the measurements), SVG can embed the faces it uses, and a paper's own typeface is laid
out with its own metrics."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

from fontTools.ttLib import TTFont

from gpuviz.export.svg import figure_to_svg
from gpuviz.export.text_paths import text_path_data
from gpuviz.figures.display import PT_TO_MM, Text
from gpuviz.figures.layout import SINGLE
from gpuviz.figures.lint import lint
from gpuviz.figures.metrics import face, text_width, use_typeface
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SWIZZLE = load_scenario(scenario_dir() / "swizzle-column3.json")


def test_a_bracket_inter_lacks_is_measured_and_outlined_from_the_fallback_face():
    assert ord("⟨") not in face("sans").advances
    lent = face("sans").borrowed
    assert text_width("⟨⟩", 10.0) == (lent[ord("⟨")] + lent[ord("⟩")]) * 10.0 * PT_TO_MM
    bare, _, _, _ = text_path_data(Text(0.0, 0.0, "ab", 9.0, "#000000"))
    framed, _, _, _ = text_path_data(Text(0.0, 0.0, "⟨ab⟩", 9.0, "#000000"))
    assert framed.count("M") > bare.count("M")  # the brackets are drawn, not empty boxes


def test_svg_names_the_fallback_face_only_where_it_is_needed():
    svg = figure_to_svg(figure_for(SWIZZLE, "swizzle", theme("print")))
    families = re.findall(r'font-family="([^"]*)"[^>]*>([^<]*)<', svg)
    assert all(("Noto Sans Math" in fam) == ("⟨" in text) for fam, text in families)


def test_embedded_faces_are_subsets_that_cover_every_character_printed():
    fig = figure_for(SWIZZLE, "swizzle", theme("print"), frozenset(), SINGLE.showing(["logical"]))
    svg = figure_to_svg(fig, embed_fonts=True)
    assert svg == figure_to_svg(fig, embed_fonts=True)  # the same bytes every time
    faces = re.findall(r"font-family: '([^']+)'; font-weight: (\w+); src: "
                       r"url\(data:font/\w+;base64,([A-Za-z0-9+/=]+)\)", svg)
    covered: dict[tuple[str, bool], set[int]] = {}
    for family, weight, data in faces:
        font = TTFont(io.BytesIO(base64.b64decode(data)))
        covered[(family, weight == "bold")] = set(font.getBestCmap())
    assert ("Noto Sans Math", False) in covered
    for t in fig.texts():
        assert "⟨" not in t or {ord("⟨"), ord("⟩")} <= covered[("Noto Sans Math", False)]


def test_a_papers_typeface_is_measured_and_laid_out_not_scaled():
    fonts = Path(__file__).resolve().parents[2] / "resources" / "fonts"
    wide = str(fonts / "NotoSansMono-Regular.ttf")  # a wider face than Inter
    before = figure_for(SWIZZLE, "swizzle", theme("print"), frozenset(), SINGLE.showing(["banks"]))
    inter = text_width("swizzled layout", 8.0)
    use_typeface(wide)
    try:
        assert text_width("swizzled layout", 8.0) > 1.1 * inter
        after = figure_for(SWIZZLE, "swizzle", theme("print"), frozenset(),
                           SINGLE.showing(["banks"]))
        svg = figure_to_svg(after)
        assert lint(after, SINGLE) == []
    finally:
        use_typeface(None)
    assert after.width == before.width == 85.0  # laid out again for the column, not scaled
    assert after.height > before.height  # wider text wraps onto more lines
    assert "font-family=\"'Noto Sans Mono', Inter" in svg
