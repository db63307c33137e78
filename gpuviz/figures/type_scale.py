"""Laying a figure out once, at the base type size, and scaling it for larger-type themes.

A theme with larger type (``presentation``) then gets the same overlap-free arrangement with
exactly its own type sizes and line widths; the figure is physically larger, and exports fit it
to the chosen size preset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from gpuviz.figures.display import (
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
)
from gpuviz.figures.theme import Theme

BASE_TEXT_PT = 8.0  # the type size of the screen and print themes


def build_for_type_size(build_at_base: Callable[[Any, frozenset[str], Theme], Figure], result: Any,
                        selection: frozenset[str], theme: Theme) -> Figure:
    """Lay a figure out for the base type size, then scale all of it to the theme's type.

    A theme with larger type (``presentation``) thus gets the same, overlap-free arrangement,
    with exactly its own type sizes and line widths; the figure is physically larger."""
    u = theme.text_pt / BASE_TEXT_PT
    if u <= 1.0:
        return build_at_base(result, selection, theme)
    base = replace(theme, text_pt=theme.text_pt / u, small_pt=theme.small_pt / u,
                   title_pt=theme.title_pt / u, thin_mm=theme.thin_mm / u,
                   line_mm=theme.line_mm / u, thick_mm=theme.thick_mm / u)
    figure = build_at_base(result, selection, base)
    return replace(figure, width=figure.width * u, height=figure.height * u,
                   items=tuple(_scaled(item, u) for item in figure.items))


def _scaled_style(style: Style, u: float) -> Style:
    dash = tuple(d * u for d in style.dash) if style.dash else style.dash
    return replace(style, stroke_width=style.stroke_width * u, dash=dash)


def _scaled(item: Item, u: float) -> Item:
    if isinstance(item, Group):
        return replace(item, items=tuple(_scaled(i, u) for i in item.items))
    if isinstance(item, Rect):
        return replace(item, x=item.x * u, y=item.y * u, w=item.w * u, h=item.h * u,
                       radius=item.radius * u, style=_scaled_style(item.style, u))
    if isinstance(item, Rects):
        return replace(item, xywh=item.xywh * u, style=_scaled_style(item.style, u))
    if isinstance(item, Segments):
        return replace(item, xyxy=item.xyxy * u, style=_scaled_style(item.style, u))
    if isinstance(item, Circle):
        return replace(item, cx=item.cx * u, cy=item.cy * u, r=item.r * u,
                       style=_scaled_style(item.style, u))
    if isinstance(item, Polyline):
        return replace(item, points=tuple((x * u, y * u) for x, y in item.points),
                       style=_scaled_style(item.style, u))
    if isinstance(item, Text):
        return replace(item, x=item.x * u, y=item.y * u, size=item.size * u)
    if isinstance(item, Image):
        return replace(item, x=item.x * u, y=item.y * u, w=item.w * u, h=item.h * u)
    raise TypeError(f"cannot scale {type(item).__name__}")
