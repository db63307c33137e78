"""A label on hatching is knocked out by a halo tight around its glyphs, not by a box: the hatch
stays visible around a short number in a hatched cell (print's conflict cells kept only "[ ]"
fragments of their hatching around two digits, and none around three), in the painter and in
the SVG alike."""

from __future__ import annotations

import io

import numpy as np

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.display import KNOCKOUT_PAD, Canvas, Style, text_box

HATCHED = Style(fill="#FFFFFF", stroke="#000000", stroke_width=0.12, hatch="cross",
                hatch_color="#000000")


def cell_with_number():
    c = Canvas()
    c.rect(1.0, 1.0, 6.0, 4.0, HATCHED)
    t = c.text(4.0, 3.0, "128", 7.0, "#000000", anchor="middle", baseline="middle",
               font="mono", knockout="#FFFFFF")
    return c.figure(8.0, 6.0, "#FFFFFF"), t


def test_the_hatch_shows_inside_a_knocked_out_labels_box(qapp):
    from PIL import Image

    from gpuviz.export.raster import render_png_bytes

    fig, t = cell_with_number()
    dpi = 600
    gray = np.asarray(Image.open(io.BytesIO(render_png_bytes(fig, dpi=dpi))).convert("L"),
                      dtype=float) / 255
    px = gray.shape[1] / fig.width
    x0, y0, x1, y1 = (round(v * px) for v in text_box(t, pad=KNOCKOUT_PAD))
    inside = gray[y0:y1, x0:x1]
    # a box would leave the knockout's white alone there besides the digits' ink; a halo leaves
    # the hatch's ink in the corners of the box, around the glyphs
    corners = np.concatenate([inside[:4, :4].ravel(), inside[:4, -4:].ravel(),
                              inside[-4:, :4].ravel(), inside[-4:, -4:].ravel()])
    assert (corners < 0.5).any()


def test_the_svg_draws_a_halo_not_a_box():
    fig, _ = cell_with_number()
    svg = figure_to_svg(fig)
    halo, label = [line.strip() for line in svg.splitlines() if line.strip().startswith("<text")]
    assert 'stroke="#FFFFFF"' in halo and 'stroke-linejoin="round"' in halo
    assert "stroke=" not in label
    # the page, the cell and its hatch: no box of the knockout's colour over the hatch
    assert svg.count("<rect") == 3
