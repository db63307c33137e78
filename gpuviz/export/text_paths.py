"""Text as glyph outlines, for SVG that looks the same on a machine without Inter (LaTeX and
Inkscape users): each character becomes its outline from the bundled font files, read with
fontTools, placed with the same advance widths the layout measured with. Qt-free."""

from __future__ import annotations

from functools import cache
from importlib import resources

from gpuviz.figures.display import BASELINE_SHIFT_EM, PT_TO_MM, Text
from gpuviz.figures.metrics import FALLBACK_FILE, FONT_FILES, face, typeface_file


def _source(kind: str, bold: bool) -> tuple[str, str]:
    """``(font file, bundled face)`` of the face text of ``kind`` is set in: a paper's own
    typeface in use, else a bundled face (kind "math": the fallback face)."""
    paper = typeface_file(bold) if kind == "sans" else None
    if paper is not None:
        return paper[0], ""
    return "", FALLBACK_FILE if kind == "math" else FONT_FILES[(kind, bold)]


def _glyphs(kind: str, bold: bool):
    """The glyph set, cmap and units per em of that face."""
    return _glyph_file(*_source(kind, bold))


@cache
def _glyph_file(path: str, bundled: str):
    from fontTools.ttLib import TTFont

    if path:
        font = TTFont(path)
    else:
        source = resources.files("gpuviz.resources") / "fonts" / bundled
        with resources.as_file(source) as real:
            font = TTFont(str(real))
    return font.getGlyphSet(), font.getBestCmap(), float(font["head"].unitsPerEm)


def _outline(kind: str, bold: bool, char: str) -> str:
    """The SVG path data of one character's outline in font units (y up)."""
    return _outline_in(_source(kind, bold), char)


@cache
def _outline_in(source: tuple[str, str], char: str) -> str:
    from fontTools.pens.svgPathPen import SVGPathPen

    glyph_set, cmap, _ = _glyph_file(*source)
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
    lent = _glyphs("math", False)[2]
    for ch in t.text:
        o = ord(ch)
        if o in metrics.shipped:  # a paper's typeface lacks it: the shipped face's glyph
            source = ("", FONT_FILES[(t.font, t.bold)])
            d = _outline_in(source, ch)
            if d:
                parts.append(_shifted(d, pen_x, upm / _glyph_file(*source)[2]))
            pen_x += metrics.shipped[o] * upm
        elif o in metrics.advances or o not in metrics.borrowed:
            d = _outline(t.font, t.bold, ch)
            if d:
                parts.append(_shifted(d, pen_x))
            pen_x += metrics.advances.get(o, metrics.fallback) * upm
        else:  # the fallback face's glyph, in this face's units
            d = _outline("math", False, ch)
            if d:
                parts.append(_shifted(d, pen_x, upm / lent))
            pen_x += metrics.borrowed[o] * upm
    return " ".join(parts), x, y, scale


def _shifted(d: str, dx: float, k: float = 1.0) -> str:
    """Path data scaled by ``k``, then moved right by ``dx`` font units. SVGPathPen writes
    absolute commands only: M, L, C, Q with x y pairs, H with x values, V with y values, and
    Z."""
    if dx == 0 and k == 1.0:
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
        v = float(tok) * k
        if mode == "H" or (mode != "V" and is_x):
            v += dx
        out.append(f"{v:.4g}")
        is_x = not is_x
    return " ".join(out)
