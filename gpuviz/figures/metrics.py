"""Text measured with the fonts gpuviz ships: real advance widths, not per-character guesses.

The layout, the figure lint and the SVG writer's knockouts all measure text here, with the metrics
of the font files the painter registers with Qt and the SVG names first (Inter, Noto Sans Mono).
The metrics come from a small table, resources/font_metrics.json, that tools/font_metrics.py reads
out of those files with fontTools (a test checks it still matches), so that laying out a figure
never parses a font. Widths ignore kerning, which only ever narrows these fonts' digits and
words slightly, so a measured box is never too small for what is painted.

A text's box is the ink a reader sees: from the baseline up to the cap height (digits and
capitals; lower-case ascenders reach a little above it) and down to the descender depth.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

PT_TO_MM = 25.4 / 72.0
MAX_MEASURED = 65536  # remembered widths per face
FontKind = Literal["sans", "mono"]

_FILES = {  # the font files these metrics describe (resources/fonts)
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
    # widths already measured: a figure's labels repeat, and a layout for a slide or a view
    # builds its blocks at several widths before it keeps one
    _widths: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def width_em(self, text: str) -> float:
        known = self._widths.get(text)
        if known is not None:
            return known
        get = self.advances.get
        fb = self.fallback
        width = sum(get(ord(ch), fb) for ch in text)
        if len(self._widths) >= MAX_MEASURED:
            self._widths.clear()
        self._widths[text] = width
        return width


@cache
def _table() -> dict[str, Any]:
    text = (resources.files("gpuviz.resources") / "font_metrics.json").read_text(encoding="utf-8")
    faces: dict[str, Any] = json.loads(text)["faces"]
    return faces


@cache
def face(kind: FontKind = "sans", bold: bool = False) -> FontMetrics:
    """The metrics of a bundled face, read once."""
    raw = _table()[f"{kind}-bold" if bold else kind]
    upm = float(raw["units_per_em"])
    advances = {first + i: adv / upm
                for first, *run in raw["advances"] for i, adv in enumerate(run)}
    fallback = raw["notdef"] / upm if raw["notdef"] is not None else 0.6
    return FontMetrics(advances, fallback, raw["cap_height"] / upm, raw["x_height"] / upm,
                       raw["ascent"] / upm, -raw["descent"] / upm)


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
