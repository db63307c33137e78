"""A lecture as a slide deck: ``gpuviz export SCENARIO --format pptx`` (python-pptx).

A 16:9 deck: a title slide from the scenario's title and description, then one slide per step
with the step's title in the slide's title placeholder, its figures as one high-resolution
picture laid out for a 16:9 slide, its caption as text the lecturer can edit, and its presenter
notes as the slide's speaker notes. A question step becomes two slides: the question alone
(the room predicts), then the answer. Figures are painted by ``raster`` (Qt).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from gpuviz import __version__
from gpuviz.export.lecture import Clock, Page, check_lecture_size, lecture_pages
from gpuviz.export.svg import xml_safe
from gpuviz.figures.display import Figure
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import Theme, theme
from gpuviz.scenario.document import Scenario

SLIDE_W_IN, SLIDE_H_IN = 13.333, 7.5
PICTURE_DPI = 220
TITLE_LAYOUT, TITLE_ONLY_LAYOUT = 0, 5
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
    pages = lecture_pages(scenario, steps, panels)
    check_lecture_size(pages, 1, "A deck")

    t = theme(theme_name)
    margin = Inches(0.45)
    first = prs.slides.add_slide(prs.slide_layouts[TITLE_LAYOUT])
    title, subtitle = first.shapes.title, first.placeholders[1]
    _frame(title, margin, Inches(1.6), slide_w - 2 * margin, Inches(1.9), Pt(40))
    title.text = _xml(scenario.title)
    _frame(subtitle, margin, Inches(3.7), slide_w - 2 * margin, Inches(3.2), Pt(20))
    subtitle.text = _xml(pages[0].caption)
    _sized(title, Pt(40))
    _sized(subtitle, Pt(20))
    top, caption_h = Inches(1.3), Inches(1.05)
    clock = Clock("A deck", items)
    for n, page in enumerate(pages[1:], 2):
        clock.check(n - 1, len(pages))
        if page.question:
            ask = _titled(prs, page.title)
            _text(ask, f"Predict first: {page.question}", margin, top,
                  slide_w - 2 * margin, Inches(2.5), Pt(28))
            _notes(ask, page.notes)
        slide = _titled(prs, page.title)
        png, aspect = _picture(page, t, render_png_bytes)
        box_w = slide_w - 2 * margin
        box_h = slide_h - top - caption_h - Inches(0.25)
        w = min(box_w, int(box_h * aspect))
        h = int(w / aspect)
        slide.shapes.add_picture(io.BytesIO(png), margin + (box_w - w) // 2, top, Emu(w), Emu(h))
        if page.caption:
            _text(slide, page.caption, margin, slide_h - caption_h - Inches(0.15),
                  box_w, caption_h, Pt(18))
        _notes(slide, page.notes)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def _picture(page: Page, t: Theme, render_png_bytes: Any) -> tuple[bytes, float]:
    """The step's figures side by side in one PNG, and its aspect (width / height)."""
    figures = [figure_for(page.state, pid, t, page.selection_for(pid), page.target(pid, "slide"))
               for pid in page.panels]
    figure = figures[0] if len(figures) == 1 else _side_by_side(figures, t)
    return render_png_bytes(figure, None, PICTURE_DPI), figure.width / figure.height


def _side_by_side(figures: Sequence[Figure], t: Theme) -> Figure:
    from gpuviz.figures.display import Canvas
    from gpuviz.figures.transform import transform

    gap = 6.0
    height = max(f.height for f in figures)
    c = Canvas()
    x = 0.0
    for f in figures:
        u = height / f.height
        for item in f.items:
            c.add(transform(item, u, x, 0.0))
        x += f.width * u + gap
    return c.figure(x - gap, height, t.background, " · ".join(f.title for f in figures))


def _titled(prs: Any, title: str) -> Any:
    from pptx.util import Inches, Pt

    slide = prs.slides.add_slide(prs.slide_layouts[TITLE_ONLY_LAYOUT])
    shape = slide.shapes.title
    _frame(shape, Inches(0.45), Inches(0.2), Inches(SLIDE_W_IN - 0.9), Inches(1.0), Pt(32))
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
