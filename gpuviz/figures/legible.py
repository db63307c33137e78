"""Text kept legible on whatever it is drawn on, in every theme.

A text's ground is its knockout's colour where it has one, else the fill of the last opaque
cell drawn before it that holds the text's centre, else the page. :func:`keep_legible` gives
each text that lacks the contrast its size needs (WCAG 2.1 success criterion 1.4.3: 4.5 : 1,
3 : 1 for large text) the least darker or lighter shade of its own hue that has it, so a
vermillion label stays vermillion and a muted one stays quieter than the ink; the composer
runs it once as it finishes a figure, so no figure has to remember it, and the lint's
``contrast`` rule (:mod:`gpuviz.figures.lint_contrast`) checks the result."""

from __future__ import annotations

import colorsys
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from gpuviz.figures.display import (
    BASELINE_SHIFT_EM,
    PT_TO_MM,
    Group,
    Item,
    Rect,
    Rects,
    Text,
    row_list,
    text_box,
)
from gpuviz.figures.metrics import cap_height, descent
from gpuviz.figures.metrics import text_width as measured_width
from gpuviz.figures.theme import Theme, contrast_ratio

if TYPE_CHECKING:
    from collections.abc import Iterator

MIN_TEXT = 4.5  # WCAG 2.1, 1.4.3: body text against its ground
MIN_LARGE = 3.0  # large text: 18 pt, or 14 pt in bold


def is_large(text: Text) -> bool:
    """Large text in WCAG's sense: 18 pt or more, or 14 pt or more in bold."""
    return text.size >= 18.0 or (text.bold and text.size >= 14.0)


def needed(text: Text) -> float:
    """The contrast ``text`` needs against its ground."""
    return MIN_LARGE if is_large(text) else MIN_TEXT


def _drawn(items: tuple[Item, ...]) -> Iterator[Item]:
    for item in items:
        if isinstance(item, Group):
            yield from _drawn(item.items)
        else:
            yield item


def grounds(items: tuple[Item, ...], page: str) -> list[tuple[Text, str]]:
    """Each non-blank text of ``items`` (in drawing order) with the colour it is read
    against, ``page`` where nothing opaque lies under it."""
    cells: list[tuple[float, float, float, float]] = []  # x0, y0, x1, y1 in drawing order
    fills: list[str] = []
    texts: list[tuple[Text, int]] = []  # a text and how many cells were drawn before it
    for item in _drawn(items):
        if isinstance(item, Text):
            if item.text.strip():
                texts.append((item, len(cells)))
        elif isinstance(item, (Rect, Rects)) and item.style.fill and item.style.opacity >= 1.0:
            rows = ([(item.x, item.y, item.w, item.h)] if isinstance(item, Rect)
                    else row_list(item.xywh))
            for x, y, w, h in rows:
                cells.append((x, y, x + w, y + h))
                fills.append(item.style.fill)
    # numpy where it is loaded already; not on the first frame's path, which does not load it
    centres = [(before, *_centre(text)) for text, before in texts if not text.knockout]
    found = iter(_under_numpy(cells, centres) if "numpy" in sys.modules
                 else [_last_under(cells, *c) for c in centres])
    out = []
    for text, _before in texts:
        if text.knockout:
            out.append((text, text.knockout))
            continue
        j = next(found)
        out.append((text, fills[j] if j >= 0 else page))
    return out


def _centre(t: Text) -> tuple[float, float]:
    """The centre of ``text_box(t)``: for a text not rotated, the same sums of the same terms
    (exactly the same floats), without building its corners."""
    if t.rotate:
        x0, y0, x1, y1 = text_box(t)
        return (x0 + x1) / 2, (y0 + y1) / 2
    w = measured_width(t.text, t.size, t.font, t.bold)
    base = BASELINE_SHIFT_EM[t.baseline] * t.size * PT_TO_MM
    x0 = 0.0 if t.anchor == "start" else -w / 2 if t.anchor == "middle" else -w
    top, bottom = base - cap_height(t.size, t.font), base + descent(t.size, t.font)
    return ((t.x + x0) + (t.x + (x0 + w))) / 2, ((t.y + top) + (t.y + bottom)) / 2


def _last_under(cells, before: int, cx: float, cy: float) -> int:
    """The last of the first ``before`` cells holding (cx, cy), or -1."""
    for j in range(before - 1, -1, -1):
        x0, y0, x1, y1 = cells[j]
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            return j
    return -1


def _under_numpy(cells, centres) -> list[int]:
    """``_last_under`` of every (before, cx, cy) of ``centres``, as arrays: the texts taken in
    order of their centre's x, 64 at a time, each batch against the cells that span its range
    of x (a redraw asked one text at a time against every cell, a few ms)."""
    import numpy as np

    a = np.asarray(cells, dtype=float).reshape(-1, 4)
    q = np.asarray(centres, dtype=float).reshape(-1, 3)
    out = np.full(len(q), -1, dtype=np.int64)
    if len(a) == 0 or len(q) == 0:
        return out.tolist()
    index = np.arange(len(a))
    order = np.argsort(q[:, 1], kind="stable")
    for s in range(0, len(order), 64):
        batch = order[s:s + 64]
        before, cx, cy = (q[batch, k:k + 1] for k in range(3))
        near = np.flatnonzero((a[:, 0] <= cx[-1, 0]) & (a[:, 2] >= cx[0, 0])
                              & (index < before.max()))
        if len(near) == 0:
            continue
        b = a[near]
        inside = ((b[:, 0] <= cx) & (b[:, 2] >= cx) & (b[:, 1] <= cy) & (b[:, 3] >= cy)
                  & (near < before))
        last = np.where(inside, near, -1).max(axis=1)
        out[batch] = last
    return out.tolist()


def legible_colour(color: str, ground: str, need: float, theme: Theme) -> str:
    """``color``, or the least darker or lighter shade of it, of the same hue and saturation,
    that has contrast ``need`` with ``ground``: toward the ink that reads best there (the
    theme's, else black or white). A text in one of the theme's inks takes the other ink whole
    (a value is never set in a mid gray)."""
    if contrast_ratio(color, ground) >= need:
        return color
    ink = theme.ink_on(ground)
    if contrast_ratio(ink, ground) < need:
        ink = max(("#000000", "#FFFFFF"), key=lambda c: contrast_ratio(c, ground))
    if color in (theme.foreground, theme.background):
        return ink
    h, lightness, sat = colorsys.rgb_to_hls(*_channels(color))
    end = colorsys.rgb_to_hls(*_channels(ink))[1]  # the ink's lightness: 0 or 1 at the far end
    end = 0.0 if end < lightness else 1.0
    lo, hi = 0.0, 1.0  # how far from the colour's lightness toward the end the shade lies
    for _ in range(16):
        mid = (lo + hi) / 2
        if contrast_ratio(_hex(h, lightness + (end - lightness) * mid, sat), ground) >= need:
            hi = mid
        else:
            lo = mid
    return _hex(h, lightness + (end - lightness) * hi, sat)


def _channels(color: str) -> tuple[float, float, float]:
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return r, g, b


def _hex(h: float, lightness: float, sat: float) -> str:
    return "#" + "".join(f"{round(v * 255):02X}" for v in colorsys.hls_to_rgb(h, lightness, sat))


def keep_legible(items: tuple[Item, ...], page: str, theme: Theme) -> tuple[Item, ...]:
    """``items`` with every text that lacks its contrast recoloured (:func:`legible_colour`);
    the same objects where nothing changes."""
    fixes = {id(t): c for t, g in grounds(items, page)
             if (c := legible_colour(t.color, g, needed(t), theme)) != t.color}
    return _recoloured(items, fixes) if fixes else items


def _recoloured(items: tuple[Item, ...], fixes: dict[int, str]) -> tuple[Item, ...]:
    out: list[Item] = []
    for item in items:
        if isinstance(item, Group):
            inner = _recoloured(item.items, fixes)
            out.append(item if all(a is b for a, b in zip(inner, item.items, strict=True))
                       else Group(inner, item.key, item.name))
        elif isinstance(item, Text) and id(item) in fixes:
            out.append(replace(item, color=fixes[id(item)]))
        else:
            out.append(item)
    return tuple(out)
