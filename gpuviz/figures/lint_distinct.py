"""The lint's ``distinct`` and ``lightness`` rules: two legend swatches of one figure must look
like two colours. On a screen their CIE 1976 ΔE (CIELAB, D65) is at least :data:`MIN_DELTA_E`;
in a theme that must survive a grayscale print (it hatches), their gray levels differ by at
least :data:`MIN_GRAY_STEP` unless their hatching differs, and two flat cells (of one hatch)
print at least :data:`MIN_LIGHTNESS_STEP` apart in lightness (CIE L* of their grays): gray
levels 0.105 apart print 9.6 to 11 L* apart, which the scheduler's timeline states, at that
spacing, showed to read as one gray in thin slivers."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from gpuviz.figures.theme import gray_level, printed_lightness

MIN_DELTA_E = 10.0  # CIE 1976 ΔE: two small swatches side by side read as two colours
MIN_GRAY_STEP = 0.1  # of the 0–1 gray scale: a step a laser printer keeps apart
MIN_LIGHTNESS_STEP = 12.0  # CIE L* of the printed gray: two flat cells read as two grays


def close_pairs(swatches: Sequence[tuple[str, str, Hashable]],
                gray: bool) -> list[tuple[str, str]]:
    """``(label, sentence)`` for each later swatch too close to an earlier one of the same
    ``kind`` (shape, dash, hatch); ``swatches`` are ``(label, #rrggbb, kind)``; ``gray``: in
    gray level (a print theme), else in ΔE. Two equal colours are left to the ``swatch`` rule."""
    out = []
    for i, (a, ca, ka) in enumerate(swatches):
        for b, cb, kb in swatches[i + 1:]:
            if ka != kb or ca == cb:
                continue
            if gray:
                step = abs(gray_level(ca) - gray_level(cb))
                if step < MIN_GRAY_STEP:
                    out.append((b, f"{cb} is {step:.2f} in gray from {ca} of {a!r} (at least "
                                   f"{MIN_GRAY_STEP:g} prints apart)"))
            elif (d := delta_e(ca, cb)) < MIN_DELTA_E:
                out.append((b, f"{cb} is ΔE {d:.1f} from {ca} of {a!r} (at least "
                               f"{MIN_DELTA_E:g} reads as another colour)"))
    return out


def lightness_pairs(swatches: Sequence[tuple[str, str, Hashable]]) -> list[tuple[str, str]]:
    """``(label, sentence)`` for each later cell swatch (kind ``cell``, shape first in its
    ``kind``) whose printed lightness is within :data:`MIN_LIGHTNESS_STEP` of an earlier one of
    the same kind (the ``lightness`` rule of a print theme)."""
    cells = [s for s in swatches if isinstance(s[2], tuple) and s[2][0] == "cell"]
    out = []
    for i, (a, ca, ka) in enumerate(cells):
        for b, cb, kb in cells[i + 1:]:
            if ka != kb or ca == cb:
                continue
            step = abs(printed_lightness(ca) - printed_lightness(cb))
            if step < MIN_LIGHTNESS_STEP:
                out.append((b, f"{cb} prints {step:.1f} L* from {ca} of {a!r} (at least "
                               f"{MIN_LIGHTNESS_STEP:g} reads as another gray)"))
    return out


def delta_e(a: str, b: str) -> float:
    """CIE 1976 ΔE between two ``#rrggbb`` colours (sRGB, D65 white)."""
    return math.dist(lab(a), lab(b))


def lab(color: str) -> tuple[float, float, float]:
    """CIELAB (L*, a*, b*) of a ``#rrggbb`` sRGB colour (IEC 61966-2-1; CIE 15, D65)."""
    rgb = [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (((v + 0.055) / 1.055) ** 2.4 if v > 0.04045 else v / 12.92 for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)
