"""The print theme survives a grayscale printer: in every bundled figure, the marks of any two
legend meanings differ in gray level, in hatching, in dash or in shape, never in hue alone.

Checked twice: on the display list (the styles the legend uses), and on the figure itself, drawn
to PNG and turned to gray, where each legend swatch is measured as printed."""

from __future__ import annotations

import io
import itertools
import math

import numpy as np
import pytest

from gpuviz.figures.display import Circle, Group, Polyline, Rect, Rects, walk
from gpuviz.figures.scene import build_figure
from gpuviz.figures.theme import PRINT
from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario

MIN_GRAY_STEP = 0.1  # of the 0–1 gray scale: a step a laser printer keeps apart
GRAY_WEIGHTS = (0.2126, 0.7152, 0.0722)  # the gray of #rrggbb, as ``gray`` below computes it
MIN_TEXTURE_STEP = 0.03  # of the gray scale: hatching that changes a swatch's spread this much
RENDER_DPI = 100  # a swatch (≥ 2.6 mm) is 10 pixels or more: enough to see 2 mm hatching


def gray(color: str | None) -> float:
    if not color:
        return 1.0  # unfilled: the paper
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def legend_marks(figure):
    marks = {}
    for item in walk(figure.items):
        if isinstance(item, Group) and item.name and item.name.startswith("legend:"):
            for child in item.items:
                style = getattr(child, "style", None)
                if style is not None and not isinstance(child, Group):
                    kind = "line" if isinstance(child, Polyline) else (
                        "cell" if isinstance(child, (Rect, Rects)) else "dot")
                    marks[item.name[7:]] = (kind, gray(style.fill if kind != "line"
                                                       else style.stroke),
                                            style.hatch, style.dash)
                    break
    return marks


def distinguishable(a, b) -> bool:
    return a[0] != b[0] or a[2] != b[2] or a[3] != b[3] or abs(a[1] - b[1]) >= MIN_GRAY_STEP


CASES = [(p, pid) for p in bundled_scenarios() for pid in load_scenario(p).panels]


@pytest.mark.parametrize(("path", "panel_id"), CASES, ids=[f"{p.stem}-{i}" for p, i in CASES])
def test_print_legend_meanings_stay_apart_in_gray(path, panel_id):
    scenario = load_scenario(path)
    states = [scenario] + [scenario.at_step(k) for k in range(len(scenario.steps))]
    for state in states:
        result = compute_all(state, (panel_id,))[panel_id]
        marks = legend_marks(build_figure(panel_id, result, frozenset(), PRINT))
        clashes = [(a, b) for (a, ma), (b, mb) in itertools.combinations(marks.items(), 2)
                   if not distinguishable(ma, mb)]
        assert not clashes, f"{path.stem}/{panel_id}: in gray these look alike: {clashes}"


def legend_swatches(figure):
    """Each legend meaning's mark: its shape and a box in mm (a cell's swatch, the square inside a
    dot). Marks of two shapes are told apart by shape, and lines by dash and weight, which the
    style check covers; the printed check compares marks of one shape."""
    boxes = {}
    for item in walk(figure.items):
        if isinstance(item, Group) and item.name and item.name.startswith("legend:"):
            for child in item.items:
                if isinstance(child, Rect):
                    boxes[item.name[7:]] = ("cell", (child.x, child.y, child.w, child.h))
                elif isinstance(child, Circle):
                    side = child.r * math.sqrt(2)
                    boxes[item.name[7:]] = ("dot", (child.cx - side / 2, child.cy - side / 2,
                                                    side, side))
                elif isinstance(child, Group) or getattr(child, "style", None) is None:
                    continue
                break
    return boxes


def measure(gray_image: np.ndarray, px_per_mm: float, box) -> tuple[float, ...]:
    """A swatch as printed: the mean gray and the texture of its inside (spread, and the mean
    step across, down and along both diagonals: hatching of one direction is smooth along it),
    and the mean gray and spread of its rim (where an outline's weight and dash show)."""
    x, y, w, h = (v * px_per_mm for v in box)
    x0, y0, x1, y1 = round(x), round(y), round(x + w), round(y + h)
    whole = gray_image[y0:y1, x0:x1]
    inset = 1 if min(whole.shape) >= 4 else 0
    inside = whole[inset:whole.shape[0] - inset, inset:whole.shape[1] - inset]
    ring = np.ones(whole.shape, dtype=bool)  # too small to inset: the whole swatch is its rim
    if inset:
        ring[1:-1, 1:-1] = False
    rim = whole[ring]

    def step(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.abs(a - b).mean()) if a.size else 0.0

    across = step(inside[:, 1:], inside[:, :-1])
    down = step(inside[1:, :], inside[:-1, :])
    falling = step(inside[1:, 1:], inside[:-1, :-1])  # along "\\"
    rising = step(inside[1:, :-1], inside[:-1, 1:])  # along "/"
    return (float(inside.mean()), float(rim.mean()), float(inside.std()), across, down, falling,
            rising, float(rim.std()))


def printed_apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return (abs(a[0] - b[0]) >= MIN_GRAY_STEP or abs(a[1] - b[1]) >= MIN_GRAY_STEP
            or max(abs(x - y) for x, y in zip(a[2:], b[2:], strict=True)) >= MIN_TEXTURE_STEP)


@pytest.mark.parametrize(("path", "panel_id"), CASES, ids=[f"{p.stem}-{i}" for p, i in CASES])
def test_print_legend_swatches_stay_apart_when_printed_gray(qapp, path, panel_id):
    from PIL import Image

    from gpuviz.export.raster import render_png_bytes

    scenario = load_scenario(path)
    result = compute_all(scenario, (panel_id,))[panel_id]
    figure = build_figure(panel_id, result, frozenset(), PRINT)
    png = Image.open(io.BytesIO(render_png_bytes(figure, dpi=RENDER_DPI))).convert("RGB")
    gray_image = np.asarray(png.convert("L", (*GRAY_WEIGHTS, 0)), dtype=float) / 255
    px_per_mm = gray_image.shape[1] / figure.width
    printed = {label: (kind, measure(gray_image, px_per_mm, box))
               for label, (kind, box) in legend_swatches(figure).items()}
    clashes = [(a, b) for (a, (ka, ma)), (b, (kb, mb))
               in itertools.combinations(printed.items(), 2)
               if ka == kb and not printed_apart(ma, mb)]
    assert not clashes, f"{path.stem}/{panel_id}: printed gray, these look alike: {clashes}"


def test_the_printed_check_tells_hatching_from_a_flat_fill():
    flat = np.full((8, 8), 0.8)
    horizontal = flat.copy()
    horizontal[::3, :] = 0.3
    rising, falling = flat.copy(), flat.copy()
    for y, x in itertools.product(range(8), range(8)):
        if (x + y) % 3 == 0:
            rising[y, x] = 0.3  # "/" lines
        if (x - y) % 3 == 0:
            falling[y, x] = 0.3  # "\\" lines
    cross = np.minimum(rising, falling)
    box = (0.0, 0.0, 8.0, 8.0)
    a, h, r, f, c = (measure(img, 1.0, box) for img in (flat, horizontal, rising, falling, cross))
    assert not printed_apart(a, measure(flat.copy(), 1.0, box))
    assert printed_apart(a, h) and printed_apart(h, r)  # texture, and its direction
    assert printed_apart(r, f) and printed_apart(r, c)
    solid, dashed = flat.copy(), flat.copy()
    solid[[0, -1], :] = solid[:, [0, -1]] = 0.0
    dashed[[0, -1], ::2] = dashed[::2, [0, -1]] = 0.0
    assert printed_apart(measure(solid, 1.0, box), measure(dashed, 1.0, box))  # the outline


def test_the_check_tells_hue_alone_from_gray_or_hatch():
    blue, orange = ("cell", gray("#7FA9CF"), None, None), ("cell", gray("#E8A27A"), None, None)
    assert not distinguishable(blue, orange)  # different hues, nearly one gray
    assert distinguishable(blue, ("cell", gray("#E8A27A"), "cross", None))
    assert distinguishable(("cell", gray("#FFFFFF"), None, None), blue)
