"""The lint's ``contrast`` rule: every text reads against what it is drawn on, its ground
(:func:`gpuviz.figures.legible.grounds`): the WCAG 2 contrast ratio of their relative
luminances is at least 4.5 : 1 for body text, 3 : 1 for large text (18 pt, or 14 pt bold),
WCAG 2.1 success criterion 1.4.3. The scheduler's "16 warp slots" label in the print theme's
bad-state tint read 2.1 : 1 on white paper."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuviz.figures.legible import grounds, is_large, needed
from gpuviz.figures.theme import contrast_ratio

if TYPE_CHECKING:
    from gpuviz.figures.display import Figure, Text


def contrast_findings(figure: Figure) -> list[tuple[Text, str]]:
    """``(text, sentence)`` for each text below the contrast its size needs on its ground."""
    out = []
    for text, ground in grounds(figure.items, figure.background):
        need = needed(text)
        ratio = contrast_ratio(text.color, ground)
        if ratio < need - 1e-9:
            out.append((text, f"{text.color} on {ground} is {ratio:.2f} : 1 (at least "
                              f"{need:g} : 1 for {'large' if is_large(text) else 'body'} "
                              f"text)"))
    return out
