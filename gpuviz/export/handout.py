"""A lecture as a printed handout: a title page, then each step on an A4 page (or two steps a
page) with its title, question, figures and caption. ``gpuviz export SCENARIO --format pdf
--all-steps``; the pages are Qt-free figures, painted into one PDF by ``raster``.

Figures are laid out for the double-column width (178 mm, the page's text width), so their type
keeps its printed size; a figure taller than its share of the page is scaled down to fit, and
only then.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuviz import __version__
from gpuviz.export.lecture import Clock, Page, check_lecture_size, first_step, lecture_pages, plural
from gpuviz.figures.blocks import Block, BlockCanvas, place
from gpuviz.figures.display import Figure
from gpuviz.figures.metrics import cap_height
from gpuviz.figures.scene import figure_for
from gpuviz.figures.text_blocks import text_block
from gpuviz.figures.theme import Theme, theme
from gpuviz.figures.transform import transform
from gpuviz.scenario.document import Scenario

PAGE_W, PAGE_H = 210.0, 297.0  # A4, mm
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 16.0, 16.0, 14.0
TEXT_W = PAGE_W - 2 * MARGIN_X  # 178 mm: the double-column preset
GAP = 4.0
SLOT_GAP = 8.0  # between two steps on one page
TITLE_PT, HEADING_PT, BODY_PT, SMALL_PT = 22.0, 15.0, 10.5, 8.0


def handout_pages(scenario: Scenario, scenario_sha256: str, *, per_page: int = 1,
                  theme_name: str = "print", steps: Sequence[int] | None = None,
                  panels: Sequence[str] | None = None, clock: Clock | None = None
                  ) -> list[Figure]:
    """The handout as page figures: the title page, then the steps, ``per_page`` (1 or 2) a
    page."""
    if per_page not in (1, 2):
        raise ValueError("a handout has one or two steps a page")
    t = theme(theme_name)
    pages = lecture_pages(scenario, steps, panels, "handout")
    check_lecture_size(pages, 1, "A handout")
    out = [_title_page(scenario, pages, scenario_sha256, t)]
    steps_only = pages[1:]
    total = len(scenario.steps)
    clock = clock or Clock("A handout")
    clock.first = first_step(pages)
    for i in range(0, len(steps_only), per_page):
        group = steps_only[i:i + per_page]
        out.append(_step_page(group, total, scenario.title, len(out) + 1, t, per_page))
        done = i + len(group) + 1  # building, then painting
        clock.check(done, 2 * len(pages), pages=(done, len(pages)))
    return out


def write_handout(scenario: Scenario, scenario_sha256: str, metadata: dict[str, str], *,
                  per_page: int = 1, theme_name: str = "print",
                  steps: Sequence[int] | None = None,
                  panels: Sequence[str] | None = None) -> bytes:
    """The handout's PDF bytes, within the lecture budget (built, then painted)."""
    from gpuviz.export.raster import render_pdf_document

    clock = Clock("A handout")
    pages = handout_pages(scenario, scenario_sha256, per_page=per_page, theme_name=theme_name,
                          steps=steps, panels=panels, clock=clock)
    return render_pdf_document(
        pages, metadata, scenario.title,
        progress=lambda done, total, size: clock.check(total + done, 2 * total, size,
                                                       (done, total)))


def _title_page(scenario: Scenario, pages: Sequence[Page], sha: str, t: Theme) -> Figure:
    c = BlockCanvas()
    y = MARGIN_TOP + 30.0
    y = _put(c, text_block(scenario.title, t, TEXT_W, size=TITLE_PT, bold=True, name="title"),
             y) + 6.0
    if pages[0].caption:
        y = _put(c, text_block(pages[0].caption, t, TEXT_W, size=BODY_PT + 1, name="description"),
                 y) + 8.0
    y = _put(c, text_block(plural(len(pages) - 1, "step"), t, TEXT_W, size=HEADING_PT,
                           bold=True, name="steps"), y) + 3.0
    for p in pages[1:]:
        line = f"{p.number}.  {p.title}" + ("  (a question)" if p.question else "")
        y = _put(c, text_block(line, t, TEXT_W, size=BODY_PT, name="step"), y) + 1.6
    _footer(c, t, f"gpuviz {__version__} · scenario SHA-256 {sha[:16]}…", 1)
    return _figure(c, t, scenario.title, f"Handout of {scenario.title}: title page")


def _step_page(group: Sequence[Page], total: int, lecture: str, number: int, t: Theme,
               per_page: int) -> Figure:
    c = BlockCanvas()
    share = (PAGE_H - MARGIN_TOP - MARGIN_BOTTOM - 8.0 + SLOT_GAP) / per_page
    for slot, page in enumerate(group):
        top = MARGIN_TOP + slot * share
        y = _put(c, text_block(f"Step {page.number} of {total}", t, TEXT_W, size=SMALL_PT + 1,
                               color=t.color("muted"), name="step-number"), top) + 1.5
        y = _put(c, text_block(page.title, t, TEXT_W, size=HEADING_PT, bold=True,
                               name="step-title"), y) + 3.0
        if page.question:
            y = _put(c, text_block(f"Predict first: {page.question}", t, TEXT_W, size=BODY_PT,
                                   bold=True, name="question"), y) + 3.0
        caption = (text_block(page.caption, t, TEXT_W, size=BODY_PT, name="caption")
                   if page.caption else None)
        room = top + share - SLOT_GAP - y - (caption.height + GAP if caption else 0.0)
        figures = [figure_for(page.state, pid, t, page.selection_for(pid),
                              page.target(pid, "double"))
                   for pid in page.panels]
        heights = sum(f.height for f in figures) + GAP * (len(figures) - 1)
        u = min(1.0, room / heights) if heights > 0 else 1.0
        for f in figures:
            x = MARGIN_X + (TEXT_W - f.width * u) / 2
            with c.group(name="figure"):
                for item in f.items:
                    c.add(transform(item, u, x, y))
            y += f.height * u + GAP
        if caption:
            _put(c, caption, y)
    _footer(c, t, lecture, number)
    titles = "; ".join(p.title for p in group)
    return _figure(c, t, lecture, f"Handout page {number} of {lecture}: {titles}")


def _put(c: BlockCanvas, block: Block, y: float) -> float:
    place(c, block, MARGIN_X, y)
    return float(y + block.height)


def _footer(c: BlockCanvas, t: Theme, text: str, number: int) -> None:
    y = PAGE_H - MARGIN_BOTTOM + 4.0 + cap_height(SMALL_PT, "sans")
    c.text(MARGIN_X, y, text, SMALL_PT, t.color("muted"))
    c.text(PAGE_W - MARGIN_X, y, str(number), SMALL_PT, t.color("muted"), anchor="end")


def _figure(c: BlockCanvas, t: Theme, title: str, description: str) -> Figure:
    return c.figure(PAGE_W, PAGE_H, t.background, title, description)
