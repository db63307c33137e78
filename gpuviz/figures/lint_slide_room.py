"""The ``cramped-column`` rule: a slide that leaves much of its body empty while a column of
text beside its drawing breaks a value over two lines.

On a slide laid out on the title-safe grid (``figures.slide_grid``) the body box is the room
the drawing and its words share. Where the placed blocks' ink leaves :data:`EMPTY_LEAST` to
:data:`EMPTY_MOST` of that box empty and a column of text placed beside a drawing wraps a line
inside a value (a number from its unit, an expression with a bracket open), the layout chose
a narrow column where the room was there: the back of the room reads "17,892" on one line and
"instructions" on the next beside blank space.
Emptier bodies are a strip of a drawing (the fill rule of ``figures.budget`` speaks for them);
fuller ones have no room to give.
"""

from __future__ import annotations

import itertools
import re

from gpuviz.figures.budget import content_box
from gpuviz.figures.display import Figure, Group, Text, text_width, walk
from gpuviz.figures.text_blocks import line_step

EMPTY_LEAST = 0.35  # of the body box's area, left empty by the blocks' ink
EMPTY_MOST = 0.60
BAND_NAMES = ("step-title", "step-caption", "title")
_ROW = re.compile(r"^\S+:")  # a row of its own: "key: value"
_NUMBER = re.compile(r"[-+−]?\d(?:[\d,.]*\d)?")  # "1,048", not the "4," of a list


def _area(box: tuple[float, float, float, float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _text_only(group: Group) -> bool:
    return all(isinstance(i, (Text, Group)) for i in walk(group.items))


def _wrapped_value(group: Group) -> str | None:
    """A line of ``group`` that wraps a value on to the next: the two lines joined, else None. The next line continues this one where it is set in the same
    face, size and left edge one line step below, starts no row of its own (a ``key:`` or a
    table row of aligned columns, the same first word as this one) and its first word would
    not have fitted on this line (the column is as wide as its widest line)."""
    texts = [t for t in walk(group.items) if isinstance(t, Text) and t.anchor == "start"]
    widest = max((text_width(t.text, t.size, t.font, t.bold) for t in texts), default=0.0)
    for a, b in itertools.pairwise(texts):
        words_a, words_b = a.text.split(), b.text.split()
        if not (words_a and words_b) or abs(a.x - b.x) > 1e-6 or a.size != b.size \
                or a.font != b.font or abs((b.y - a.y) - line_step(a.size)) > 1e-3:
            continue
        row = _ROW.match(b.text) or "  " in a.text + b.text or words_a[0] == words_b[0]
        overflows = text_width(f"{a.text} {words_b[0]}", a.size, a.font, a.bold) > widest + 1e-6
        # the break falls inside a value: a number left without its unit, or an expression
        # left with a bracket open ("min(1," / "N·I/P)")
        split = (_NUMBER.fullmatch(words_a[-1]) is not None and words_b[0][:1].isalpha()) \
            or a.text.count("(") > a.text.count(")")
        if not row and overflows and split:
            return f"{a.text} / {b.text}"
    return None


def cramped_column(figure: Figure) -> list[str]:
    """The rule's sentence for ``figure``, if it breaks it (none off the grid)."""
    if figure.body_box is None:
        return []
    bx0, by0, bx1, by1 = figure.body_box
    body = [g for g in figure.items if isinstance(g, Group) and g.name not in BAND_NAMES]
    boxes: list[tuple[Group, tuple[float, float, float, float]]] = []
    for g in body:
        box = content_box((g,))
        if box is not None:
            boxes.append((g, (max(box[0], bx0), max(box[1], by0), min(box[2], bx1),
                              min(box[3], by1))))
    empty = 1.0 - sum(_area(b) for _, b in boxes) / _area(figure.body_box)
    if not EMPTY_LEAST <= empty <= EMPTY_MOST:
        return []
    drawings = [(g, b) for g, b in boxes if not _text_only(g)]
    for g, b in boxes:  # a column of words (a receipt, notes, a legend) beside a drawing
        beside = any(d is not g and min(b[3], e[3]) - max(b[1], e[1]) > 0
                     and (b[0] >= e[2] - 1e-6 or b[2] <= e[0] + 1e-6) for d, e in drawings)
        wrapped = _wrapped_value(g) if beside else None
        if wrapped:
            return [f"the body is {100 * empty:.0f} % empty while the column "
                    f"{g.name or 'of text'} beside the drawing wraps a value "
                    f"({wrapped!r}): the drawing or the column can take the room"]
    return []


