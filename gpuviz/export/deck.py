"""A lecture as a slide deck: ``gpuviz export SCENARIO --format pptx`` (python-pptx).

A 16:9 deck: a title slide from the scenario's title and description, then each step as the
room sees it: the step's title in the slide's title placeholder, its figure laid out for the
slide's body (the ``slide`` size target in the body's shape, the slide title standing for the
figure's own) as a high-resolution picture filling the body, its caption as text the lecturer
can edit, and its presenter notes as the slide's speaker notes. A figure too large for the
slide's budget is shown a page of parts a slide, the pages ``gpuviz export --all-steps --size
slide`` writes (``files.budget_pages``), a page split further where its body type would stay
under the budget's 20 px at its placed size. A question step first gets the question alone (the
room predicts), then the answer. Figures are painted by ``raster`` (Qt).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gpuviz import __version__
from gpuviz.export.files import budget_pages
from gpuviz.export.lecture import Clock, Page, check_lecture_size, lecture_pages
from gpuviz.export.svg import xml_safe
from gpuviz.figures.budget import over_budget
from gpuviz.figures.display import Figure
from gpuviz.figures.scene import drawn_parts, figure_for
from gpuviz.figures.targets import TARGETS, Chrome, Target
from gpuviz.figures.theme import theme
from gpuviz.scenario.document import Scenario

SLIDE_W_IN, SLIDE_H_IN = 13.333, 7.5
PICTURE_DPI = 220
TITLE_LAYOUT, TITLE_ONLY_LAYOUT = 0, 5
MARGIN_IN = 0.45
TITLE_TOP_IN, TITLE_H_IN = 0.12, 0.72  # one 32 pt line; a longer title shrinks to its box
BODY_TOP_IN = 0.88  # the figure fills the body: from under the title ...
CAPTION_H_IN, CAPTION_FOOT_IN = 0.7, 0.1  # ... to over the caption (two 18 pt lines)
BODY_W_IN = SLIDE_W_IN - 2 * MARGIN_IN
BODY_H_IN = SLIDE_H_IN - BODY_TOP_IN - CAPTION_H_IN - CAPTION_FOOT_IN - 0.05
# the slide's title names the step, so the figure drops its own title and notes, keeping the
# legend: the drawing takes their room (``Target.chrome``)
CHROME: Chrome = "legend"
# Office's core properties hold at most 255 characters (ECMA-376 Part 2, python-pptx refuses more);
# a scenario's title may have 300.
CORE_PROPERTY_CHARS = 255


def _xml(text: str) -> str:
    """``text`` as XML 1.0 can hold it: a character it cannot (a C0 control, U+FFFE, U+FFFF)
    shows as U+FFFD, as in the SVG. https://www.w3.org/TR/xml/#charsets"""
    return xml_safe(text)


def _property(text: str) -> str:
    text = _xml(text)
    return text if len(text) <= CORE_PROPERTY_CHARS else text[:CORE_PROPERTY_CHARS - 1] + "…"


def lecture_deck(scenario: Scenario, scenario_sha256: str, *, theme_name: str = "screen",
                 steps: Sequence[int] | None = None,
                 panels: Sequence[str] | None = None, items: int | None = None) -> bytes:
    """The deck's .pptx bytes; ``items``: the work budget in drawn figure items."""
    from pptx import Presentation
    from pptx.util import Emu, Inches, Pt

    from gpuviz.export.raster import render_png_bytes

    prs = Presentation()
    slide_w, slide_h = Inches(SLIDE_W_IN), Inches(SLIDE_H_IN)
    prs.slide_width, prs.slide_height = slide_w, slide_h
    props = prs.core_properties
    props.title = _property(scenario.title)
    props.subject = _property(scenario.description)
    props.comments = f"gpuviz {__version__}; scenario SHA-256 {scenario_sha256}"
    # The default template's own author and revision are not the lecture's.
    props.author = props.last_modified_by = "gpuviz"
    props.revision = 1
    props.keywords = "gpuviz"
    pages = lecture_pages(scenario, steps, panels, "deck")
    check_lecture_size(pages, 1, "A deck")

    margin = Inches(MARGIN_IN)
    first = prs.slides.add_slide(prs.slide_layouts[TITLE_LAYOUT])
    title, subtitle = first.shapes.title, first.placeholders[1]
    _frame(title, margin, Inches(1.6), slide_w - 2 * margin, Inches(1.9), Pt(40))
    title.text = _xml(scenario.title)
    _frame(subtitle, margin, Inches(3.7), slide_w - 2 * margin, Inches(3.2), Pt(20))
    subtitle.text = _xml(pages[0].caption)
    _sized(title, Pt(40))
    _sized(subtitle, Pt(20))
    top, box_w, box_h = Inches(BODY_TOP_IN), Inches(BODY_W_IN), Inches(BODY_H_IN)
    caption_h = Inches(CAPTION_H_IN)
    clock = Clock("A deck", items)
    for n, page in enumerate(pages[1:], 2):
        clock.check(n - 1, len(pages))
        if page.question:
            ask = _titled(prs, page.title)
            _text(ask, f"Predict first: {page.question}", margin, top,
                  slide_w - 2 * margin, Inches(2.5), Pt(28))
            _notes(ask, page.notes)
        for figure in step_figures(page, theme_name):
            slide = _titled(prs, page.title)
            png = render_png_bytes(figure, None, PICTURE_DPI)
            aspect = figure.width / figure.height
            w = min(box_w, int(box_h * aspect))
            h = min(box_h, int(w / aspect))
            slide.shapes.add_picture(io.BytesIO(png), margin + (box_w - w) // 2,
                                     top + (box_h - h) // 2, Emu(w), Emu(h))
            if page.caption:
                _text(slide, page.caption, margin,
                      slide_h - caption_h - Inches(CAPTION_FOOT_IN), box_w, caption_h, Pt(18))
            _notes(slide, page.notes)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def body_target() -> Target:
    """The ``slide`` target in the shape of the slide's body, at the share of the slide's
    width the body takes: a figure laid out for it and placed in the body has the type sizes
    the same figure would have on a slide of its own."""
    slide = TARGETS["slide"]
    assert slide.width is not None
    return replace(slide, width=slide.width * BODY_W_IN / SLIDE_W_IN,
                   aspect=BODY_W_IN / BODY_H_IN)


def placed_over_budget(figure: Figure, share: float) -> list[str]:
    """What the slide budget (``figures.budget``) finds wrong with the type of ``figure``
    shown ``share`` of a slide's width: the budget's own measure, of the figure as wide as
    a slide of which it takes that share (a figure shown 1280 × ``share`` pixels wide)."""
    whole = replace(figure, width=figure.width / share)
    return [s for rule, s in over_budget(whole, TARGETS["slide"])
            if rule == "slide" and (s.startswith("body type") or s.startswith("title"))]


def step_figures(page: Page, theme_name: str = "screen") -> list[Figure]:
    """The figures of a step's slides, one a slide, for each panel it shows: the parts the
    step names (all, where it names none) laid out for the body (:func:`body_target`); where
    they miss the slide's budget, the pages ``--all-steps --size slide`` writes; a page whose
    type placed in the body would miss it still, a slide for each of its parts."""
    t, body = theme(theme_name), body_target()
    share = BODY_W_IN / SLIDE_W_IN
    out: list[Figure] = []
    for pid in page.panels:
        selection, named = page.selection_for(pid), page.target(pid, "slide").parts
        paged = budget_pages(page.state, pid, theme_name, "slide", selection, CHROME, named)
        for parts in paged or (named,):
            figure = figure_for(page.state, pid, t, selection, body.showing(parts, CHROME))
            split = parts or drawn_parts(page.state, pid, selection)
            if len(split) > 1 and placed_over_budget(figure, share):
                out += [figure_for(page.state, pid, t, selection, body.showing((p,), CHROME))
                        for p in split]
            else:
                out.append(figure)
    return out


def _titled(prs: Any, title: str) -> Any:
    from pptx.util import Inches, Pt

    slide = prs.slides.add_slide(prs.slide_layouts[TITLE_ONLY_LAYOUT])
    shape = slide.shapes.title
    _frame(shape, Inches(MARGIN_IN), Inches(TITLE_TOP_IN), Inches(SLIDE_W_IN - 2 * MARGIN_IN),
           Inches(TITLE_H_IN), Pt(32))
    shape.text = _xml(title)
    _sized(shape, Pt(32))
    return slide


def _frame(shape: Any, x: int, y: int, w: int, h: int, size: Any) -> None:
    """Place a layout's placeholder for the 16:9 slide (the default layouts are 4:3)."""
    shape.left, shape.top, shape.width, shape.height = x, y, w, h
    _fitted(shape.text_frame)


def _fitted(frame: Any) -> None:
    """Wrapped, and shrunk to its box where it would overflow (``normAutofit``, ECMA-376
    21.1.2.1.3): a 300-character title stays on its slide."""
    from pptx.enum.text import MSO_AUTO_SIZE

    frame.word_wrap = True
    frame.auto_size = MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE


def _sized(shape: Any, size: Any) -> None:
    for paragraph in shape.text_frame.paragraphs:
        for run in paragraph.runs:
            run.font.size = size


def _text(slide: Any, text: str, x: int, y: int, w: int, h: int, size: Any) -> None:
    box = slide.shapes.add_textbox(x, y, w, h)
    frame = box.text_frame
    _fitted(frame)
    frame.text = _xml(text)
    _sized(box, size)


def _notes(slide: Any, notes: str) -> None:
    if notes:
        slide.notes_slide.notes_text_frame.text = _xml(notes)
