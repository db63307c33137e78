"""The lint's ``contrast`` rule: every text reads against what it is drawn on, its ground
(:func:`gpuviz.figures.legible.grounds`): the WCAG 2 contrast ratio of their relative
luminances is at least 4.5 : 1 for body text, 3 : 1 for large text (18 pt, or 14 pt bold),
WCAG 2.1 success criterion 1.4.3. The scheduler's "16 warp slots" label in the print theme's
bad-state tint read 2.1 : 1 on white paper.

And the ``dimmed`` rule: a legend cell whose label says its value is dimmed (historic, faded,
dimmed, no longer current) has less contrast with the page than every other cell of the
legend that is neither the page itself nor a bad state: in every theme, dimmed means nearer
the ground (on white paper lighter, on the dark ground darker)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gpuviz.figures.legible import grounds, is_large, needed
from gpuviz.figures.theme import contrast_ratio

DIMMED_WORDS = re.compile(r"^(historic|faded|dimmed|no longer)\b", re.IGNORECASE)

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


def dimmed_findings(cells: list[tuple[str, str]], page: str,
                    bad: frozenset[str]) -> list[tuple[str, str]]:
    """``(label, sentence)`` for each dimmed legend cell of ``cells`` (label, fill) with at
    least the page contrast of a live one (``bad``: the theme's bad-state colours)."""
    live = [(label, fill) for label, fill in cells
            if not DIMMED_WORDS.match(label) and fill != page and fill not in bad]
    out = []
    for label, fill in cells:
        if not DIMMED_WORDS.match(label):
            continue
        mine = contrast_ratio(fill, page)
        for other, colour in live:
            theirs = contrast_ratio(colour, page)
            if mine >= theirs:
                out.append((label, f"{fill} has contrast {mine:.2f} with the page {page}, "
                                   f"the live {other!r} {colour} only {theirs:.2f}: dimmed "
                                   f"must sit nearer the ground"))
    return out
