"""A lecture as a slide deck: ``gpuviz export SCENARIO --format pptx`` (python-pptx).

A 16:9 deck on the slide's title-safe grid (``figures.slide_grid``, the grid of every
``--size slide`` figure): a title slide from the scenario's title and description, then each
step as the room sees it: the step's title in the slide's title placeholder on the title band,
its figure laid out for the ``slide`` target (the slide title standing for the figure's own) and
its body box placed as a high-resolution picture on the grid's body box, so a drawing keeps its
place and scale from slide to slide, its caption on the caption band as text the lecturer can
edit, and its presenter notes as the slide's speaker notes. A figure too large for the slide's
budget is shown a page of parts a slide, the pages ``gpuviz export --all-steps --size slide``
writes (``files.budget_pages``). A question step first gets the question alone (the room
predicts), then the answer. Figures are painted by ``raster`` (Qt).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gpuviz import __version__
from gpuviz.export.files import budget_pages
from gpuviz.export.lecture import Clock, Page, check_lecture_size, first_step, lecture_pages
from gpuviz.export.svg import xml_safe
from gpuviz.figures.display import Figure
from gpuviz.figures.scene import figure_for
from gpuviz.figures.slide_grid import CAPTION_GAP_PX, CAPTION_PX, SLIDE_W_PX, TITLE_PX, slide_grid
from gpuviz.figures.targets import TARGETS, Chrome
from gpuviz.figures.theme import theme
from gpuviz.figures.transform import transform
from gpuviz.scenario.document import Scenario

SLIDE_W_IN, SLIDE_H_IN = 13.333, 7.5
PICTURE_DPI = 220
TITLE_LAYOUT, TITLE_ONLY_LAYOUT = 0, 5
# the slide's title-safe grid in inches: the same grid as a ``--size slide`` figure's
GRID = slide_grid(SLIDE_W_IN, SLIDE_H_IN)
PT_PER_PX = SLIDE_W_IN * 72.0 / SLIDE_W_PX  # a point of the deck's type, in pixels of 1280
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
    from pptx.util import Inches, Pt

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

    margin = Inches(GRID.margin)
    first = prs.slides.add_slide(prs.slide_layouts[TITLE_LAYOUT])
    title, subtitle = first.shapes.title, first.placeholders[1]
    _frame(title, margin, Inches(1.6), slide_w - 2 * margin, Inches(1.9), Pt(40))
    title.text = _xml(scenario.title)
    _frame(subtitle, margin, Inches(3.7), slide_w - 2 * margin, Inches(3.2), Pt(20))
    subtitle.text = _xml(pages[0].caption)
    _sized(title, Pt(40))
    _sized(subtitle, Pt(20))
    body, band = GRID.body, GRID.caption
    clock = Clock("A deck", items, first_step(pages))
    for n, page in enumerate(pages[1:], 2):
        clock.check(n - 1, len(pages))
        if page.question:
            ask = _titled(prs, page.title)
            _text(ask, f"Predict first: {page.question}", Inches(body.x), Inches(body.y),
                  Inches(body.w), Inches(body.h), Pt(28))
            _notes(ask, page.notes)
        for figure in step_figures(page, theme_name):
            slide = _titled(prs, page.title)
            # the figure's body box where the grid puts it: every slide's drawing at the
            # place and scale its ``--size slide`` file has
            x, y, w, h = picture_box(figure)
            png = render_png_bytes(body_of(figure), None, PICTURE_DPI)
            slide.shapes.add_picture(io.BytesIO(png), Inches(x), Inches(y), Inches(w),
                                     Inches(h))
            clear = y + h <= band.y - CAPTION_GAP_PX * GRID.unit + 1e-6
            if page.caption and clear:  # in the caption band, its last line on its foot
                gap = CAPTION_GAP_PX * GRID.unit
                _text(slide, page.caption, Inches(band.x), Inches(band.y - gap),
                      Inches(band.w), Inches(band.h + gap), Pt(CAPTION_PX * PT_PER_PX),
                      bottom=True)
            # a body that runs on over the caption band leaves the caption to the notes
            _notes(slide, page.notes if clear or not page.caption
                   else f"{page.caption}\n\n{page.notes}".strip())
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def picture_box(figure: Figure) -> tuple[float, float, float, float]:
    """Where on the deck's slide, in inches, the picture of ``figure`` (:func:`body_of`) goes:
    its body box where the grid puts it; a figure laid out off the grid (``Figure.body_box``
    None) fitted into the grid's body, at its top."""
    if figure.body_box is not None:
        k = SLIDE_W_IN / figure.width
        x0, y0, x1, y1 = (v * k for v in figure.body_box)
        return x0, y0, x1 - x0, y1 - y0
    box = GRID.body
    s = min(box.w / figure.width, box.h / figure.height)
    w, h = figure.width * s, figure.height * s
    return box.x + (box.w - w) / 2, box.y, w, h


def body_of(figure: Figure) -> Figure:
    """The body box of a slide figure on its grid (``Figure.body_box``), as a figure of its
    own: the picture the deck places in the slide's body, its title and caption set as
    text (a figure off the grid: itself)."""
    if figure.body_box is None:
        return figure
    x0, y0, x1, y1 = figure.body_box
    items = tuple(transform(item, 1.0, -x0, -y0) for item in figure.items)
    return replace(figure, width=x1 - x0, height=y1 - y0, items=items, body_box=None)


def step_figures(page: Page, theme_name: str = "screen") -> list[Figure]:
    """The figures of a step's slides, one a slide, for each panel it shows: the parts the
    step names (all, where it names none) laid out for the slide's grid; where they miss the
    slide's budget, the pages ``--all-steps --size slide`` writes."""
    t, slide = theme(theme_name), TARGETS["slide"]
    out: list[Figure] = []
    for pid in page.panels:
        selection, named = page.selection_for(pid), page.target(pid, "slide").parts
        # the figures budget_pages built to try the pages are these slides' own: the same
        # scenario, theme, selection and target (the slide's, with no heading or caption)
        built: dict[tuple[str, ...] | None, Figure] = {}
        paged = budget_pages(page.state, pid, theme_name, "slide", selection, CHROME, named,
                             built=built)
        out += [built.get(tuple(parts) if parts is not None else None)
                or figure_for(page.state, pid, t, selection, slide.showing(parts, CHROME))
                for parts in paged or (named,)]
    return out


def _titled(prs: Any, title: str) -> Any:
    from pptx.util import Inches, Pt

    slide = prs.slides.add_slide(prs.slide_layouts[TITLE_ONLY_LAYOUT])
    shape = slide.shapes.title
    band = GRID.title  # its first line at the band's top, the gap under it for a long title
    _frame(shape, Inches(band.x), Inches(band.y), Inches(band.w),
           Inches(GRID.body.y - band.y), Pt(TITLE_PX * PT_PER_PX))
    shape.text = _xml(title)
    _anchored(shape.text_frame, bottom=False)
    _sized(shape, Pt(TITLE_PX * PT_PER_PX))
    return slide


def _anchored(frame: Any, bottom: bool) -> None:
    """Text set flush with its box (no insets), at its top or its bottom: on the grid."""
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

    frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = 0
    frame.vertical_anchor = MSO_ANCHOR.BOTTOM if bottom else MSO_ANCHOR.TOP
    for paragraph in frame.paragraphs:
        paragraph.alignment = PP_ALIGN.LEFT


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


def _text(slide: Any, text: str, x: int, y: int, w: int, h: int, size: Any,
          bottom: bool = False) -> None:
    box = slide.shapes.add_textbox(x, y, w, h)
    frame = box.text_frame
    _fitted(frame)
    frame.text = _xml(text)
    _anchored(frame, bottom)
    _sized(box, size)


def _notes(slide: Any, notes: str) -> None:
    if notes:
        slide.notes_slide.notes_text_frame.text = _xml(notes)
