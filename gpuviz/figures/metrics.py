"""Text measured with the fonts gpuviz ships: real advance widths, not per-character guesses.

The layout, the figure lint and the SVG writer's knockouts all measure text here, from the same
font files the painter registers with Qt and the SVG names first (Inter, Noto Sans Mono), read
with fontTools (no Qt). Widths ignore kerning, which only ever narrows these fonts' digits and
words slightly, so a measured box is never too small for what is painted.

A text's box is the ink a reader sees: from the baseline up to the cap height (digits and
capitals; lower-case ascenders reach a little above it) and down to the descender depth.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

PT_TO_MM = 25.4 / 72.0
FontKind = Literal["sans", "mono"]

_FILES = {
    ("sans", False): "Inter-Regular.otf",
    ("sans", True): "Inter-Bold.otf",
    ("mono", False): "NotoSansMono-Regular.ttf",
    ("mono", True): "NotoSansMono-Bold.ttf",
}


@dataclass(frozen=True)
class FontMetrics:
    """One face's horizontal metrics in em units (fractions of the type size)."""

    advances: dict[int, float]  # code point → advance, em
    fallback: float  # advance of a character the face lacks (its .notdef), em
    cap_height: float  # em
    x_height: float  # em
    ascender: float  # em, above the baseline (positive)
    descender: float  # em, below the baseline (positive)

    def width_em(self, text: str) -> float:
        get = self.advances.get
        fb = self.fallback
        return sum(get(ord(ch), fb) for ch in text)


@cache
def face(kind: FontKind = "sans", bold: bool = False) -> FontMetrics:
    """The metrics of a bundled face, read once."""
    from fontTools.ttLib import TTFont  # only when the first text is measured

    path = resources.files("gpuviz.resources") / "fonts" / _FILES[(kind, bold)]
    with resources.as_file(path) as real:
        font = TTFont(str(real), lazy=True)
        upm = float(font["head"].unitsPerEm)
        hmtx = font["hmtx"].metrics
        advances = {cp: hmtx[name][0] / upm for cp, name in font.getBestCmap().items()
                    if name in hmtx}
        os2 = font["OS/2"]
        hhea = font["hhea"]
        fallback = hmtx[".notdef"][0] / upm if ".notdef" in hmtx else 0.6
        metrics = FontMetrics(advances, fallback, os2.sCapHeight / upm, os2.sxHeight / upm,
                              hhea.ascent / upm, -hhea.descent / upm)
        font.close()
    return metrics


def has_glyphs(text: str, kind: FontKind = "sans") -> bool:
    """Whether the bundled face draws every character of ``text`` (no fallback font needed)."""
    adv = face(kind).advances
    return all(ord(ch) in adv for ch in text if not ch.isspace())


def text_width(text: str, size_pt: float, font: FontKind = "sans", bold: bool = False) -> float:
    """The advance width of ``text`` in mm at ``size_pt`` points."""
    return face(font, bold).width_em(text) * size_pt * PT_TO_MM


def cap_height(size_pt: float, font: FontKind = "sans") -> float:
    """The height of digits and capitals above the baseline, in mm."""
    return face(font).cap_height * size_pt * PT_TO_MM


def descent(size_pt: float, font: FontKind = "sans") -> float:
    """How far descenders (g, p, y, commas) reach below the baseline, in mm."""
    # The typographic descender is generous (room for accents below); ink rarely goes past 0.22 em.
    return min(face(font).descender, 0.22) * size_pt * PT_TO_MM


def ink_height(size_pt: float, font: FontKind = "sans") -> float:
    """Cap height plus descent: the height of a one-line text's box, in mm."""
    return cap_height(size_pt, font) + descent(size_pt, font)
