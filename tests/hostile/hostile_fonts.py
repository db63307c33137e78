"""Crafted font files for the hostile cases: a small TrueType face built with fontTools, with
the family name, characters and tables a case asks for, and broken variants of it."""

from __future__ import annotations

import io
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

ASCII = "".join(chr(c) for c in range(0x20, 0x7F))


def _box(glyph_set=None):
    pen = TTGlyphPen(glyph_set)
    pen.moveTo((50, 0))
    pen.lineTo((50, 700))
    pen.lineTo((450, 700))
    pen.lineTo((450, 0))
    pen.closePath()
    return pen.glyph()


def font_bytes(family: str = "Crafted", chars: str = ASCII, upm: int = 1000,
               name_table: bool = True, cmap: bool = True, ps_name: str | None = None) -> bytes:
    """A TrueType face named ``family`` (``ps_name``: its PostScript name, which a PDF names
    it by) with a box glyph for each character of ``chars``."""
    names = [".notdef"] + [f"u{ord(c):04X}" for c in chars]
    fb = FontBuilder(max(upm, 16), isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"u{ord(c):04X}" for c in chars} if cmap else {})
    fb.setupGlyf({g: _box() for g in names})
    fb.setupHorizontalMetrics({g: (500, 50) for g in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular",
                       **({"psName": ps_name} if ps_name else {})})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200, sCapHeight=700,
                sxHeight=500)
    fb.setupPost()
    font = fb.font
    if upm != max(upm, 16):
        font["head"].unitsPerEm = upm
    if not name_table:
        del font["name"]
    if not cmap:
        font["cmap"].tables = []
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def write_font(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path
