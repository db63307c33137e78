"""A question step's figure as the room sees it before the reveal: the page of the revealed
figure (its size and background, so the two can follow each other on slides) holding only the
question. Everything that would give the answer is left out: the drawing, the title and
subtitle that state the result, the figure's alt text. Qt-free."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpuviz.figures.display import Figure
from gpuviz.figures.layout import GAP, MARGIN, Block, BlockCanvas, place, text_block, wrap
from gpuviz.figures.theme import Theme

if TYPE_CHECKING:
    from gpuviz.scenario.document import Scenario

VEIL_LEAD = "Predict first."
VEIL_NOTE = "The picture appears when it is revealed."


def veiled_description(question: str) -> str:
    """The veiled figure's alt text: the question, never the answer."""
    return f"A question for the room, before its answer is shown: {question}"


def veiled_figure(revealed: Figure, question: str, theme: Theme, title: str,
                  fill_page: bool = False) -> Figure:
    """The veiled stand-in for ``revealed``: its page, the lead, the question and a note,
    centred; the type grows with the page (at most 3×). ``fill_page`` (a slide): the question
    across nine tenths of the page's width, its type smaller only where a long question
    would not fit the height. ``title`` names the figure without its result (the panel's
    title)."""
    largest = max(1.0, min(3.0, revealed.width / 120.0))
    if fill_page:
        width = revealed.width * FILL
        for tenths in range(round(largest * 10), 9, -1):  # the largest type that leaves a
            scale = tenths / 10                            # sixth of the page's height free
            blocks = _blocks(question, theme, width, scale)
            if _height(blocks, scale) <= revealed.height * 0.85:
                break
    else:
        scale = largest
        width = max(20.0, min(revealed.width * 0.8, revealed.width - 4 * MARGIN * scale))
        blocks = _blocks(question, theme, width, scale)
    content_h = _height(blocks, scale)
    height = max(revealed.height, content_h + 2 * MARGIN)
    c = BlockCanvas()
    y = (height - content_h) / 2
    for block in blocks:
        place(c, block, (revealed.width - block.width) / 2, y)
        y += block.height + GAP * scale
    figure = c.figure(revealed.width, height, revealed.background, title,
                      veiled_description(question))
    return replace(figure, parts=())


FILL = 0.92  # of a slide's width, the question's column (a slide's content fills 90 %)


def _blocks(question: str, theme: Theme, width: float, scale: float) -> list[Block]:
    fg, muted = theme.color("foreground"), theme.color("muted")
    return [text_block(VEIL_LEAD, theme, width, size=theme.title_pt * scale, color=fg,
                       bold=True, name="veil-lead"),
            text_block(question, theme, _unorphaned(question, theme.text_pt * scale, width),
                       size=theme.text_pt * scale, color=fg, name="question"),
            text_block(VEIL_NOTE, theme, width, size=theme.small_pt * scale, color=muted,
                       name="veil-note")]


def _unorphaned(text: str, size: float, width: float) -> float:
    """The widest column up to ``width`` in which ``text`` does not end in one word alone
    (the lines that ``layout.without_orphan`` sets), else ``width``."""
    lines = wrap(text, size, width)
    if len(lines) < 2 or " " in lines[-1].strip():
        return width
    for k in range(1, 11):
        narrower = width * (1.0 - 0.025 * k)
        rewrapped = wrap(text, size, narrower)
        if len(rewrapped) == len(lines) and " " in rewrapped[-1].strip():
            return narrower
    return width


def _height(blocks: list[Block], scale: float) -> float:
    return sum(b.height for b in blocks) + GAP * scale * (len(blocks) - 1)


def step_question(scenario: Scenario, k: int) -> str:
    """Step ``k``'s question (0-based; its live fields filled in), or "" for a step that asks
    none and for the overview."""
    from gpuviz.lecture import Lecture, shown_question

    if not 0 <= k < len(scenario.steps):
        return ""
    return shown_question(Lecture(scenario), k)


def question_steps(scenario: Scenario) -> list[int]:
    """The 1-based numbers of the steps that ask a question."""
    return [k + 1 for k, s in enumerate(scenario.steps) if s.predict]
