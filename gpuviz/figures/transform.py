"""Moving and scaling display items: a block placed into a figure, a figure scaled to its page."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gpuviz.figures.display import (
    Circle,
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


def _style(style: Style, u: float) -> Style:
    if u == 1.0:
        return style
    return _scaled_style(style, u)


@lru_cache(maxsize=4096)
def _scaled_style(style: Style, u: float) -> Style:
    """``style`` with its stroke and dashes scaled by ``u`` (a figure has few styles and one
    scale, and every item passes through here)."""
    dash = tuple(d * u for d in style.dash) if style.dash else style.dash
    return Style(style.fill, style.stroke, style.stroke_width * u, dash, style.opacity,
                 style.hatch, style.hatch_color)


def moved(item: Item, changes: dict[str, Any]) -> Item:
    """A copy of the frozen ``item`` with ``changes``: its fields were checked when it was
    made, so they are copied rather than passed through ``__init__`` again (a frozen
    dataclass sets each field with ``object.__setattr__``; this is 2-3× faster, and every item
    of a figure is moved once per build)."""
    new = object.__new__(type(item))
    fields = new.__dict__
    fields.update(item.__dict__)
    fields.update(changes)
    return new


def transform(item: Item, u: float, dx: float, dy: float) -> Item:
    """``item`` scaled by ``u`` about the origin, then moved by (dx, dy) mm."""
    if u == 1.0 and dx == 0.0 and dy == 0.0:
        return item  # items are immutable: unmoved, the same item
    if isinstance(item, Text):
        return moved(item, {"x": item.x * u + dx, "y": item.y * u + dy, "size": item.size * u})
    if isinstance(item, Group):
        return Group(tuple([transform(i, u, dx, dy) for i in item.items]), item.key, item.name)
    if isinstance(item, Rect):
        return moved(item, {"x": item.x * u + dx, "y": item.y * u + dy, "w": item.w * u,
                             "h": item.h * u, "style": _style(item.style, u),
                             "radius": item.radius * u})
    if isinstance(item, Rects):
        if isinstance(item.xywh, tuple):
            xywh: Any = tuple([(x * u + dx, y * u + dy, w * u, h * u) for x, y, w, h in item.xywh])
        else:  # an array: moved in one vectorised step
            xywh = item.xywh * u
            xywh[:, 0] += dx
            xywh[:, 1] += dy
        return moved(item, {"xywh": xywh, "style": _style(item.style, u)})
    if isinstance(item, Segments):
        if isinstance(item.xyxy, tuple):
            xyxy: Any = tuple([(a * u + dx, b * u + dy, c * u + dx, d * u + dy)
                               for a, b, c, d in item.xyxy])
        else:
            xyxy = item.xyxy * u
            xyxy[:, [0, 2]] += dx
            xyxy[:, [1, 3]] += dy
        return moved(item, {"xyxy": xyxy, "style": _style(item.style, u)})
    if isinstance(item, Circle):
        return moved(item, {"cx": item.cx * u + dx, "cy": item.cy * u + dy, "r": item.r * u,
                             "style": _style(item.style, u)})
    if isinstance(item, Polyline):
        return moved(item, {"points": tuple([(x * u + dx, y * u + dy) for x, y in item.points]),
                             "style": _style(item.style, u)})
    if isinstance(item, Image):
        return moved(item, {"x": item.x * u + dx, "y": item.y * u + dy, "w": item.w * u,
                             "h": item.h * u})
    raise TypeError(f"cannot move {type(item).__name__}")
