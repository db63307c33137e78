"""The figure lint: what a reviewer would reject, checked over the display list.

Rules (each finding names the rule, the item and its key):

- ``overlap``: two texts overlap.
- ``crossing``: a text without a knockout is crossed by a line, or straddles the edge of an
  outlined box (it spills out of its cell).
- ``hatch-glyph``: a text, knocked out or not, whose box meets a hatch fill: a knockout clears
  the pattern around each glyph but leaves its fragments beside it, and in a table of integers
  they read as characters (dots as decimal points, line hatches as minus signs, cross-hatches as
  "X"). The composer keeps a figure's hatch in bands clear of its texts
  (:func:`gpuviz.figures.bands.clear_glyphs`); a class is told by lightness, an edge band or
  the text, never by a pattern under a glyph.
- ``hatch-line``: a text with a horizontal line hatch within :data:`RULE_CLEAR` above or below
  it (the hatch kept in thin bands hugging a label): its lines run along the glyphs as a
  strike-through or an over- or underline ("-t0-"); keep it to a band along the cell's edge.
- ``off-page``: something lies outside the page.
- ``missing-value``: a value the figure promises (a value cell's key) is not printed, or a grid
  of cells that print their values leaves some out.
- ``type-size``: type smaller than the target allows (7 pt).
- ``legend``: one meaning with two marks, or two meanings with one mark.
- ``glyph``: a character that no face gpuviz ships has (it would be an empty box).
- ``hex-face``, ``code-start``: a hexadecimal value in the sans face; a sentence starting with
  a lower-case code word read as another ("ldmatrix" as "Idmatrix")
  (:mod:`gpuviz.figures.lint_type`).
- ``budget`` (with ``budget=True``): a part figure over its size's budget: more than one part
  or taller than 120 mm in a single column, taller than 200 mm in a double one
  (:mod:`gpuviz.figures.budget`).
- ``slide`` (with ``budget=True``): a slide whose body type is under 20 px or title under
  28 px at 1280 × 720, whose content does not fill the frame between balanced margins, or whose
  subtitle ends in an orphan word.
- ``same-step``: two consecutive steps of a scenario whose figures are identical (a deck would
  repeat a slide; :func:`gpuviz.figures.lint_sweep.same_steps`, run by its ``sweep`` over
  every bundled scenario).
- ``swatch`` (given the theme): two legend entries of one figure that share a swatch colour and
  differ only by hatch where the theme does not hatch (one magenta for three kinds of wait).
- ``vermillion`` (given the theme): a legend entry drawn in a bad-state colour (vermillion and its
  tints, the theme's ``bad_colours``) whose label names no bad state (its role table ``terms``).
- ``contrast``: a text with less contrast against its ground (its knockout, the cell under
  it, or the page) than 4.5 : 1, or 3 : 1 for large text (WCAG 2.1, 1.4.3;
  :mod:`gpuviz.figures.lint_contrast`); the composer keeps every text legible
  (:func:`gpuviz.figures.legible.keep_legible`).
- ``distinct`` (given the theme): two legend swatches of one figure of the same kind, dash and
  (in a theme that hatches) hatch whose colours a reader cannot tell apart: closer than
  :data:`~gpuviz.figures.lint_distinct.MIN_DELTA_E` (CIE 1976 ΔE) on a screen, or than
  ``MIN_GRAY_STEP`` in gray level in a theme that must survive a grayscale print.
- ``dimmed`` (given the theme): a legend cell named dimmed (historic, faded …) with as much
  contrast against the page as a live cell of the legend
  (:func:`gpuviz.figures.lint_contrast.dimmed_findings`).
- ``lightness`` (given a theme that hatches: print): two legend cells of one figure and hatch
  whose grays print closer than :data:`~gpuviz.figures.lint_distinct.MIN_LIGHTNESS_STEP`
  (CIE L*) apart.
- ``cramped-column``: a slide on its title-safe grid 35–60 % empty while a column of text beside
  its drawing wraps a value (:mod:`gpuviz.figures.lint_slide_room`); the slide composer gives
  such a column the room (``composition._gridded``).

Across the figures of one theme, :func:`lint_across` checks ``meaning``: a legend label drawn
with two swatches in two figures, or a state the role table names (valid, masked, load, compute,
read, write, hit, resident) drawn in a colour other than its role's.

Qt-free and fast enough to run over every bundled scenario, step, theme and size in the tests.
"""

from __future__ import annotations

import colorsys
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from gpuviz.figures.budget import over_budget
from gpuviz.figures.display import (
    HATCH_PITCH,
    Circle,
    Figure,
    Group,
    Image,
    Item,
    Polyline,
    Rect,
    Rects,
    Segments,
    Style,
    Text,
    text_box,
)
from gpuviz.figures.geometry import EPS, segment_hits_box
from gpuviz.figures.lint_contrast import contrast_findings, dimmed_findings
from gpuviz.figures.lint_distinct import close_pairs, lightness_pairs
from gpuviz.figures.lint_slide_room import cramped_column
from gpuviz.figures.lint_type import type_findings
from gpuviz.figures.metrics import missing_glyphs
from gpuviz.figures.targets import NATURAL, Target
from gpuviz.figures.theme import ROLE_TABLE, RoleName, Theme

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True)
class Finding:
    rule: str
    item: str
    key: str | None
    message: str

    def __str__(self) -> str:
        where = f" [{self.key}]" if self.key else ""
        return f"{self.rule}: {self.item}{where}: {self.message}"


def flat_items(items: tuple[Item, ...], group: str | None = None, gid: int = 0):
    """Every drawn item with the name of the named group it is in and that group's identity."""
    for item in items:
        if isinstance(item, Group):
            yield from flat_items(item.items, item.name or group, id(item) if item.name else gid)
        else:
            yield item, group, gid


def legend_marks(figure: Figure) -> dict[str, list[tuple]]:
    """Each legend label's marks, one per legend group drawn: its first item with a style (a
    selection's double outline is one mark, its outer line)."""
    legend: dict[str, list[tuple]] = defaultdict(list)
    seen: set[int] = set()
    for item, group, gid in flat_items(figure.items):
        if group and group.startswith("legend:") and gid not in seen:
            mark = _mark(item)
            if mark:
                seen.add(gid)
                legend[group[7:]].append(mark)
    return legend


def describe_text(t: Text) -> str:
    """A text as a finding names it: its words, place and size."""
    return f"text {t.text!r} at ({t.x:.1f}, {t.y:.1f}) mm, {t.size:.1f} pt"


def lint(figure: Figure, target: Target = NATURAL, scale: float = 1.0,
         theme: Theme | None = None, *, budget: bool = False) -> list[Finding]:
    """Every finding for ``figure`` as laid out for ``target``; ``scale`` is the factor an
    export applies to a figure that is scaled rather than laid out (1 for laid-out figures).
    Given the ``theme`` it was drawn in, the colour rules run too. ``budget``: also the size
    budget of ``target`` (for figures of parts, which must meet it; a whole figure over its
    budget is refused by the export instead)."""
    texts: list[Text] = []
    boxes: list[tuple[float, float, float, float]] = []
    segs: list[np.ndarray] = []
    hatched: list[np.ndarray] = []
    ruled: list[np.ndarray] = []  # of them, the horizontal line hatches
    outlined: list[np.ndarray] = []
    cells: dict[str, list[tuple[float, float, float, float]]] = defaultdict(list)
    out: list[Finding] = []
    W, H = figure.width, figure.height

    def page(x0: float, y0: float, x1: float, y1: float, what: str, key: str | None) -> None:
        if x0 < -EPS or y0 < -EPS or x1 > W + EPS or y1 > H + EPS:
            out.append(Finding("off-page", what, key,
                               f"box ({x0:.1f}, {y0:.1f})–({x1:.1f}, {y1:.1f}) leaves the "
                               f"{W:.1f} × {H:.1f} mm page"))

    for item, _group, _gid in flat_items(figure.items):
        if isinstance(item, Text):
            box = text_box(item)
            texts.append(item)
            boxes.append(box)
            page(*box, describe_text(item), item.key)
            if item.size * scale < target.min_pt - 1e-6:
                out.append(Finding("type-size", describe_text(item), item.key,
                                   f"{item.size * scale:.2f} pt is below the {target.min_pt:g} pt "
                                   f"this size needs"))
            out += [Finding(rule, describe_text(item), item.key, message)
                    for rule, message in type_findings(item)]
            lacking = missing_glyphs(item.text, item.font, item.bold)
            if lacking:
                out.append(Finding("glyph", describe_text(item), item.key,
                                   f"no shipped face has {', '.join(map(repr, lacking))}"))
        elif isinstance(item, (Rect, Image)):
            page(item.x, item.y, item.x + item.w, item.y + item.h, type(item).__name__, item.key)
            if isinstance(item, Rect):
                _cell(item.style, np.array([[item.x, item.y, item.w, item.h]]), hatched, outlined,
                      ruled)
                if item.key:
                    cells[item.key].append((item.x, item.y, item.w, item.h))
        elif isinstance(item, Rects):
            a = np.asarray(item.xywh, dtype=float).reshape(-1, 4)
            if len(a):
                page(a[:, 0].min(), a[:, 1].min(), (a[:, 0] + a[:, 2]).max(),
                     (a[:, 1] + a[:, 3]).max(), "Rects", None)
                _cell(item.style, a, hatched, outlined, ruled)
                if item.keys:
                    for k, row in zip(item.keys, a, strict=True):
                        if k:
                            cells[k].append(tuple(row))
        elif isinstance(item, Segments):
            if len(item.xyxy):
                a = np.asarray(item.xyxy, dtype=float).reshape(-1, 4)
                segs.append(a)
                page(min(a[:, 0].min(), a[:, 2].min()), min(a[:, 1].min(), a[:, 3].min()),
                     max(a[:, 0].max(), a[:, 2].max()), max(a[:, 1].max(), a[:, 3].max()),
                     "Segments", None)
        elif isinstance(item, Polyline):
            pts = np.asarray(item.points, dtype=float)
            if len(pts) >= 2:
                page(pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max(),
                     "Polyline", item.key)
                if item.style.stroke and item.style.stroke_width > 0:
                    ring = np.vstack([pts, pts[:1]]) if item.closed else pts
                    segs.append(np.hstack([ring[:-1], ring[1:]]))
                if item.closed and item.style.hatch:
                    lo, hi = pts.min(axis=0), pts.max(axis=0)
                    _cell(replace(item.style, stroke=None),
                          np.array([[lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1]]]), hatched,
                          outlined, ruled)
        elif isinstance(item, Circle):
            page(item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r,
                 "Circle", item.key)

    bx = np.array(boxes, dtype=float).reshape(-1, 4)
    out += text_overlaps(texts, bx)
    out += _crossings(texts, bx, segs, outlined)
    out += _hatch_glyphs(texts, bx, hatched, ruled)
    out += _missing_values(figure, texts, bx, cells)
    out += [Finding("contrast", describe_text(t), t.key, message)
            for t, message in contrast_findings(figure)]
    legend = legend_marks(figure)
    out += _legend(legend)
    if theme is not None:
        out += _swatches(legend, theme) + _vermillion(legend, theme) + _distinct(legend, theme)
    if budget:
        out += [Finding(rule, f"{target.name} figure", None, message)
                for rule, message in over_budget(figure, target)]
    out += [Finding("cramped-column", "slide body", None, message)
            for message in cramped_column(figure)]
    return out


def lint_colours(figure: Figure, theme: Theme) -> list[Finding]:
    """The colour rules alone (``legend``, ``swatch``, ``vermillion``, ``distinct``,
    ``lightness``) for
    ``figure`` drawn in ``theme``: what its legend says against how it draws it."""
    legend = legend_marks(figure)
    return (_legend(legend) + _swatches(legend, theme) + _vermillion(legend, theme)
            + _distinct(legend, theme))


def _cell(style: Style, xywh: np.ndarray, hatched: list, outlined: list,
          ruled: list | None = None) -> None:
    if style.hatch:
        hatched.append(xywh)
        if style.hatch == "horizontal" and ruled is not None:
            ruled.append(xywh)
    if style.stroke and style.stroke_width > 0:
        outlined.append(xywh)


def _mark(item: Item) -> tuple:
    style = getattr(item, "style", None)
    if isinstance(item, Text) or style is None:
        return ()
    return (type(item).__name__, style.fill, style.stroke, style.hatch, style.dash)


def text_overlaps(texts: list[Text], bx: np.ndarray) -> list[Finding]:
    """``overlap`` findings for the texts whose boxes ``bx`` overlap (a sweep along x)."""
    out = []
    order = np.argsort(bx[:, 0]) if len(bx) else np.array([], dtype=int)
    active: list[int] = []
    for i in order:
        x0, y0, _, y1 = bx[i]
        active = [j for j in active if bx[j, 2] > x0 + EPS]
        for j in active:
            if bx[j, 1] < y1 - EPS and y0 < bx[j, 3] - EPS:
                a, b = texts[j], texts[i]
                if a.text == b.text and abs(a.x - b.x) < 1e-6 and abs(a.y - b.y) < 1e-6:
                    msg = "drawn twice at the same place"
                else:
                    msg = f"overlaps {describe_text(a)}"
                out.append(Finding("overlap", describe_text(b), b.key or a.key, msg))
        active.append(int(i))
    return out


def _crossings(texts: list[Text], bx: np.ndarray, segs: list[np.ndarray],
               outlined: list[np.ndarray]) -> list[Finding]:
    """``crossing`` findings: a text (without a knockout) that a line passes through, or that
    straddles the edge of an outlined box; one finding a text, in that order of precedence.
    Each test runs over all texts at once, a block of texts at a time."""
    s = np.vstack(segs) if segs else np.zeros((0, 4))
    o = np.vstack(outlined) if outlined else np.zeros((0, 4))
    live = np.array([not t.knockout for t in texts], dtype=bool)
    found: dict[int, Finding] = {}
    for lo, hi in _blocks(len(texts), max(len(s), len(o))):
        _crossings_block(texts, bx, lo, hi, live, s, o, found)
    return [found[i] for i in sorted(found)]


#: How far above and below a text's box a horizontal line hatch reads as part of it (mm): a
#: line along the glyphs' rows within half a hatch pitch reads as a strike-through or an over-
#: or underline ("-t0-" in print, the hatch kept in thin bands just above and below a label).
RULE_CLEAR = HATCH_PITCH / 2


def _hatch_glyphs(texts: list[Text], bx: np.ndarray, hatched: list[np.ndarray],
                  ruled: list[np.ndarray] | None = None) -> list[Finding]:
    """``hatch-glyph`` findings: each text (with a knockout or not, blank ones aside) whose box
    meets a hatch fill (a closed polyline by its bounds); ``hatch-line``: one whose box grown by
    :data:`RULE_CLEAR` above and below meets a horizontal line hatch (its lines run along the
    text)."""
    h = np.vstack(hatched) if hatched else np.zeros((0, 4))
    rl = np.vstack(ruled) if ruled else np.zeros((0, 4))
    out: list[Finding] = []
    if not len(h):
        return out
    for lo, hi in _blocks(len(texts), len(h)):
        b = bx[lo:hi]
        x0, y0, x1, y1 = (b[:, i, None] for i in range(4))
        on = np.asarray(((h[:, 0] < x1 - EPS) & (h[:, 0] + h[:, 2] > x0 + EPS)
                         & (h[:, 1] < y1 - EPS) & (h[:, 1] + h[:, 3] > y0 + EPS)).any(axis=1))
        along = np.asarray(((rl[:, 0] < x1 - EPS) & (rl[:, 0] + rl[:, 2] > x0 + EPS)
                            & (rl[:, 1] < y1 + RULE_CLEAR - EPS)
                            & (rl[:, 1] + rl[:, 3] > y0 - RULE_CLEAR + EPS)).any(axis=1))
        for r in map(int, np.flatnonzero(on | along)):
            t = texts[lo + r]
            if not t.text.strip():
                continue
            if on[r]:
                out.append(Finding("hatch-glyph", describe_text(t), t.key,
                                   "lies on a hatch fill: its fragments read as characters; "
                                   "encode the class by lightness, an edge band or the text"))
            else:
                out.append(Finding("hatch-line", describe_text(t), t.key,
                                   f"a line hatch runs along it within {RULE_CLEAR:g} mm: it "
                                   "reads as a strike-through or an over- or underline; keep "
                                   "the pattern to a band along the cell's edge, clear of the "
                                   "text"))
    return out


def _blocks(n: int, m: int, cells: int = 1 << 20):
    """``(lo, hi)`` ranges over ``n`` rows, each block's ``rows × m`` comparisons bounded."""
    step = max(1, cells // max(m, 1))
    return ((lo, min(n, lo + step)) for lo in range(0, n, step))


def _crossings_block(texts: list[Text], bx: np.ndarray, lo: int, hi: int, live: np.ndarray,
                     s: np.ndarray, o: np.ndarray, found: dict[int, Finding]) -> None:
    b = bx[lo:hi]
    x0, y0, x1, y1 = (b[:, i, None] for i in range(4))
    todo = live[lo:hi].copy()
    if len(s):
        sx0, sx1 = np.minimum(s[:, 0], s[:, 2]), np.maximum(s[:, 0], s[:, 2])
        sy0, sy1 = np.minimum(s[:, 1], s[:, 3]), np.maximum(s[:, 1], s[:, 3])
        near = (sx1 > x0) & (sx0 < x1) & (sy1 > y0) & (sy0 < y1)
        for r in map(int, np.flatnonzero(todo & near.any(axis=1))):
            hits = segment_hits_box(s[near[r]], tuple(b[r]))
            if hits.any():
                a = s[near[r]][hits][0]
                t = texts[lo + r]
                found[lo + r] = Finding(
                    "crossing", describe_text(t), t.key,
                    f"a line ({a[0]:.1f}, {a[1]:.1f})–({a[2]:.1f}, {a[3]:.1f}) "
                    f"crosses it; move it or give it a knockout")
                todo[r] = False
    if len(o):
        rx0, ry0 = o[:, 0], o[:, 1]
        rx1, ry1 = o[:, 0] + o[:, 2], o[:, 1] + o[:, 3]
        meets = (rx0 < x1 - EPS) & (rx1 > x0 + EPS) & (ry0 < y1 - EPS) & (ry1 > y0 + EPS)
        inside = (rx0 <= x0 + EPS) & (rx1 >= x1 - EPS) & (ry0 <= y0 + EPS) & (ry1 >= y1 - EPS)
        around = (x0 <= rx0 + EPS) & (x1 >= rx1 - EPS) & (y0 <= ry0 + EPS) & (y1 >= ry1 - EPS)
        straddle = meets & ~inside & ~around
        for r in map(int, np.flatnonzero(todo & straddle.any(axis=1))):
            box = o[np.argmax(straddle[r])]
            t = texts[lo + r]
            found[lo + r] = Finding(
                "crossing", describe_text(t), t.key,
                f"straddles the edge of the box at ({box[0]:.1f}, {box[1]:.1f}) "
                f"{box[2]:.1f} × {box[3]:.1f} mm (it does not fit its cell)")


def _missing_values(figure: Figure, texts: list[Text], bx: np.ndarray,
                    cells: dict[str, list]) -> list[Finding]:
    out = []
    printed = {t.key for t in texts if t.key}
    for key in figure.promises:
        if key not in printed:
            out.append(Finding("missing-value", "value cell", key, "its value is not printed"))
    # A grid whose cells mostly print their value must print every one of them.
    by_kind: dict[str, list[str]] = defaultdict(list)
    for key in cells:
        by_kind[key.split(":", 1)[0]].append(key)
    boxes_of: dict[str, list] = defaultdict(list)  # one pass over the texts, not one per cell
    for t, box in zip(texts, bx, strict=True):
        if t.key:
            boxes_of[t.key].append(box)
    for kind, keys in by_kind.items():
        inside = [k for k in keys if k in printed and _text_in_cell(cells[k], boxes_of[k])]
        if len(inside) >= 4 and len(inside) * 2 >= len(keys) and len(inside) < len(keys):
            for k in sorted(set(keys) - set(inside))[:20]:
                if k not in figure.promises:
                    out.append(Finding("missing-value", f"{kind} cell", k,
                                       f"{len(inside)} of {len(keys)} {kind} cells print a value; "
                                       f"this one does not"))
    return out


def _text_in_cell(rects: list, boxes: list) -> bool:
    """Whether the centre of one of the cell's texts (their boxes) lies in one of its rects."""
    for box in boxes:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for x, y, w, h in rects:
            if x <= cx <= x + w and y <= cy <= y + h:
                return True
    return False


def _legend(entries: dict[str, list[tuple]]) -> list[Finding]:
    out = []
    marks: dict[tuple, str] = {}
    for label, found in entries.items():
        distinct = {m for m in found if m}
        if len(distinct) > 1:
            out.append(Finding("legend", f"legend entry {label!r}", None,
                               "one meaning drawn with two different marks"))
        for m in distinct:
            if m in marks and marks[m] != label:
                out.append(Finding("legend", f"legend entry {label!r}", None,
                                   f"shares its mark with {marks[m]!r}"))
            marks.setdefault(m, label)
    return out


def _colour(mark: tuple) -> str | None:
    """The colour a legend mark shows its meaning in: a line's stroke, a cell's or dot's fill
    (an unfilled outline: its stroke)."""
    kind, fill, stroke = mark[0], mark[1], mark[2]
    if kind in ("Polyline", "Segments"):
        return stroke
    return fill if fill is not None else stroke


def _swatches(entries: dict[str, list[tuple]], theme: Theme) -> list[Finding]:
    if theme.hatches:
        return []  # a theme that hatches (print) tells meanings apart by hatch on purpose
    out = []
    seen: dict[tuple, str] = {}
    for label, found in entries.items():
        for m in {m for m in found if m}:
            swatch = (m[0], _colour(m), m[4])
            other = seen.setdefault(swatch, label)
            if other != label:
                out.append(Finding("swatch", f"legend entry {label!r}", None,
                                   f"shares its swatch {_colour(m)} with {other!r}"
                                   + (" (they differ only by hatch)" if m[3] else "")))
    return out


def _distinct(entries: dict[str, list[tuple]], theme: Theme) -> list[Finding]:
    """``distinct``: legend swatches of one kind, dash and (where the theme hatches) hatch whose
    colours are too close to tell apart (:func:`gpuviz.figures.lint_distinct.close_pairs`);
    in print also ``lightness``: cells whose grays print too close (``lightness_pairs``)."""
    swatches = []
    for label, found in entries.items():
        mark = next((m for m in found if m), None)
        if mark is None or (mark[0] in ("Rect", "Rects", "Circle") and mark[1] is None):
            continue  # an outline alone (the selection, a frame) is told apart by its line
        colour = _colour(mark)
        if colour is not None:  # a line, a dot and a cell are told apart by their shape
            shape = {"Polyline": "line", "Segments": "line", "Circle": "dot"}.get(mark[0], "cell")
            swatches.append((label, colour, (shape, mark[4], mark[3] if theme.hatches else None)))
    out = [Finding("distinct", f"legend entry {b!r}", None, message)
           for b, message in close_pairs(swatches, bool(theme.hatches))]
    cells = [(label, colour) for label, colour, kind in swatches if kind[0] == "cell"]
    out += [Finding("dimmed", f"legend entry {label!r}", None, message)
            for label, message in dimmed_findings(cells, theme.background, theme.bad_colours())]
    if theme.hatches:
        out += [Finding("lightness", f"legend entry {b!r}", None, message)
                for b, message in lightness_pairs(swatches)]
    return out


_BAD_TERMS = tuple(sorted({t for r in ROLE_TABLE if r.bad for t in r.terms}))
_STATE_ROLES: tuple[RoleName, ...] = ("valid", "masked", "load", "compute", "read", "write",
                                      "hit", "resident")


def _words(label: str) -> list[str]:
    return re.findall(r"[a-z_]+", label.lower())


def names_bad_state(label: str) -> bool:
    """Whether a legend label names a bad state (one of the bad roles' terms, as words)."""
    text = " ".join(_words(label))
    return any(re.search(rf"\b{re.escape(t)}", text) for t in _BAD_TERMS)


def _vermillion(entries: dict[str, list[tuple]], theme: Theme) -> list[Finding]:
    bad = theme.bad_colours()
    out = []
    for label, found in entries.items():
        colours = {c for m in found if m for c in (m[1], m[2]) if c}
        if colours & bad and not names_bad_state(label):
            out.append(Finding("vermillion", f"legend entry {label!r}", None,
                               f"drawn in {sorted(colours & bad)[0]}, the colour of bad states, "
                               f"but names none ({', '.join(_BAD_TERMS)})"))
    return out


def state_role(label: str) -> RoleName | None:
    """The state role a legend label names by its leading words (``masked lane``, ``issued:
    load``, ``W: write own slot``), or None; a label that names a bad state is that state."""
    if names_bad_state(label):
        return None
    words = _words(label.split(": ", 1)[1] if re.match(r"^[\w ]{1,8}: ", label) else label)
    lead = " ".join(words[:2])
    for name in _STATE_ROLES:
        for term in next(r for r in ROLE_TABLE if r.name == name).terms:
            if lead == term or lead.startswith(term + " "):
                return name
    return None


def _hue(color: str) -> float | None:
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    if max(r, g, b) - min(r, g, b) < 0.08:
        return None  # a gray has no hue
    return colorsys.rgb_to_hls(r, g, b)[0]


def _same_state_colour(drawn: str | None, role: str, theme: Theme) -> bool:
    """Whether ``drawn`` is the role's colour: exactly, or, in a theme that must survive a
    grayscale print, the role's hue moved to another gray (a pixel image cannot be hatched, so
    its states are told apart by gray steps, as ``Theme.at_gray`` makes them)."""
    if drawn == role:
        return True
    if not theme.hatches or drawn is None:
        return False
    a, b = _hue(drawn), _hue(role)
    return a is not None and b is not None and min(abs(a - b), 1 - abs(a - b)) < 0.03


def lint_across(entries: Iterable[tuple[str, str, tuple]], theme: Theme) -> list[Finding]:
    """``meaning`` findings over ``(figure, label, mark)`` legend entries of many figures drawn in
    ``theme``: a label with two swatches, a named state off its role's colour."""
    by_label: dict[str, dict[tuple, str]] = defaultdict(dict)
    out = []
    for figure, label, mark in entries:
        outline = mark[2] if mark[0] in ("Rect", "Rects") and mark[1] is not None else None
        swatch = (mark[0], _colour(mark), outline, mark[3] if theme.hatches else None)
        by_label[label].setdefault(swatch, figure)
        name = state_role(label) if mark[0] in ("Rect", "Rects", "Circle") else None
        if name is not None and not _same_state_colour(_colour(mark), theme.color(name), theme):
            out.append(Finding("meaning", f"legend entry {label!r}", figure,
                               f"names the state {name!r} but is drawn in {_colour(mark)}, not "
                               f"its role's {theme.color(name)}"))
    for label, swatches in by_label.items():
        if len(swatches) > 1:
            where = "; ".join(f"{s[1]}{' outlined' if s[2] else ''}"
                              f"{f' hatched {s[3]}' if s[3] else ''} in {f}"
                              for s, f in swatches.items())
            out.append(Finding("meaning", f"legend entry {label!r}", None,
                               f"drawn with {len(swatches)} swatches across figures: {where}"))
    return out
