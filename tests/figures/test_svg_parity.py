"""The SVG writer and the Qt painter draw the same picture: render both to pixels and compare."""

from __future__ import annotations

import numpy as np
import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario


def _without_text(fig):
    from dataclasses import replace

    from gpuviz.figures.display import Group, Text

    def strip(items):
        out = []
        for i in items:
            if isinstance(i, Group):
                out.append(replace(i, items=strip(i.items)))
            elif not isinstance(i, Text):
                out.append(i)
        return tuple(out)

    return replace(fig, items=strip(fig.items))


def _blur(px: np.ndarray, k: int = 4) -> np.ndarray:
    """Mean over k×k blocks: thin hatch lines may land a sub-pixel apart in two rasterisers."""
    h, w, _ = px.shape
    px = px[: h - h % k, : w - w % k]
    return px.reshape(h // k, k, w // k, k, 3).mean(axis=(1, 3))


def _pixels(image) -> np.ndarray:
    image = image.convertToFormat(image.Format.Format_RGB888)
    w, h = image.width(), image.height()
    data = np.frombuffer(bytes(image.constBits()), dtype=np.uint8)
    return data.reshape(h, image.bytesPerLine())[:, : w * 3].reshape(h, w, 3).astype(int)


@pytest.mark.parametrize("theme_name", ["screen", "print"])
def test_svg_and_painter_agree_within_a_tolerance(qapp, scenario_path, theme_name):
    QtSvg = pytest.importorskip("PySide6.QtSvg")
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure, register_fonts

    register_fonts()
    scenario = load_scenario(scenario_path("launch-n130.json")).at_step(2)
    # QtSvg resolves neither CSS font lists nor our bundled faces the way the painter does, so
    # the comparison covers every shape and colour; text placement is checked in the SVG tests.
    fig = _without_text(figure_for(scenario, "launch", theme(theme_name)))
    w, h = 860, round(860 * fig.height / fig.width)

    painted = QImage(w, h, QImage.Format.Format_RGB32)
    painted.fill(0xFFFFFFFF)
    p = QPainter(painted)
    paint_figure(p, fig, QRectF(0, 0, w, h))
    p.end()

    from PySide6.QtCore import QByteArray

    renderer = QtSvg.QSvgRenderer(QByteArray(figure_to_svg(fig).encode("utf-8")))
    assert renderer.isValid()
    drawn = QImage(w, h, QImage.Format.Format_RGB32)
    drawn.fill(0xFFFFFFFF)
    p = QPainter(drawn)
    renderer.render(p, QRectF(0, 0, w, h))
    p.end()

    a, b = _blur(_pixels(painted)), _blur(_pixels(drawn))
    differs = np.abs(a - b).max(axis=2) > 40
    # text rasterises slightly differently; shapes and colours must agree almost everywhere
    assert differs.mean() < 0.01, f"{differs.mean():.3%} of pixels differ"
