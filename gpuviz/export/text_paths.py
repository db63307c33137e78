"""Text as glyph outlines, for SVG that looks the same on a machine without Inter (LaTeX and
Inkscape users): each character becomes its outline from the bundled font files, read with
fontTools, placed with the same advance widths the layout measured with. Qt-free."""

from __future__ import annotations

from functools import cache
from importlib import resources

from gpuviz.figures.display import BASELINE_SHIFT_EM, PT_TO_MM, Text
from gpuviz.figures.metrics import _FILES, face


@cache
def _glyphs(kind: str, bold: bool):
    from fontTools.ttLib import TTFont

    path = resources.files("gpuviz.resources") / "fonts" / _FILES[(kind, bold)]
    with resources.as_file(path) as real:
        font = TTFont(str(real))
    return font.getGlyphSet(), font.getBestCmap(), float(font["head"].unitsPerEm)


@cache
def _outline(kind: str, bold: bool, char: str) -> str:
    """The SVG path data of one character's outline in font units (y up)."""
    from fontTools.pens.svgPathPen import SVGPathPen

    glyph_set, cmap, _ = _glyphs(kind, bold)
    name = cmap.get(ord(char), ".notdef")
    if name not in glyph_set:
        return ""
    pen = SVGPathPen(glyph_set, ntos=lambda v: f"{v:.4g}")
    glyph_set[name].draw(pen)
    return pen.getCommands()


def text_path_data(t: Text) -> tuple[str, float, float, float]:
    """``(d, x, y, scale)``: the outlines of ``t`` in font units, to be drawn with
    ``transform="translate(x y) scale(scale -scale)"`` (mm; y flipped to the page's y-down)."""
    _, _, upm = _glyphs(t.font, t.bold)
    metrics = face(t.font, t.bold)
    size = t.size * PT_TO_MM
    scale = size / upm
    width = metrics.width_em(t.text) * size
    x = t.x - {"start": 0.0, "middle": width / 2, "end": width}[t.anchor]
    y = t.y + BASELINE_SHIFT_EM[t.baseline] * size
    parts = []
    pen_x = 0.0
    for ch in t.text:
        d = _outline(t.font, t.bold, ch)
        if d:
            parts.append(_shifted(d, pen_x))
        pen_x += metrics.advances.get(ord(ch), metrics.fallback) * upm
    return " ".join(parts), x, y, scale


def _shifted(d: str, dx: float) -> str:
    """Path data moved right by ``dx`` font units. SVGPathPen writes absolute commands only:
    M, L, C, Q with x y pairs, H with x values, V with y values, and Z."""
    if dx == 0:
        return d
    out = []
    for letter in "MLCQHVZ":
        d = d.replace(letter, f" {letter} ")
    mode, is_x = "M", True
    for tok in d.split():
        if tok.isalpha():
            out.append(tok)
            mode, is_x = tok, True
            continue
        v = float(tok)
        if mode == "H" or (mode != "V" and is_x):
            v += dx
        out.append(f"{v:.4g}")
        is_x = not is_x
    return " ".join(out)
