"""The painter places anchored text where the display list says, at any output resolution
(fonts are measured for the device being painted, not for the screen)."""

from __future__ import annotations

import numpy as np
import pytest

from gpuviz.figures.display import Canvas


@pytest.mark.parametrize("dpi", [96, 200, 600])
@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
def test_anchored_text_lands_on_its_anchor(qapp, dpi, anchor):
    from PySide6.QtGui import QImage

    from gpuviz.export.raster import render_png_bytes

    c = Canvas()
    c.text(50, 10, "MMMMMMMM", 12, "#000000", anchor=anchor, baseline="middle")
    fig = c.figure(100, 20, "#FFFFFF")
    image = QImage.fromData(render_png_bytes(fig, dpi=dpi)).convertToFormat(QImage.Format.Format_Grayscale8)
    w, h = image.width(), image.height()
    px = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())[:, :w]
    cols = np.flatnonzero((px < 128).any(axis=0))
    rows = np.flatnonzero((px < 128).any(axis=1))
    mm = 100 / w
    left, right = cols[0] * mm, (cols[-1] + 1) * mm
    centre_y = (rows[0] + rows[-1] + 1) / 2 * mm
    target = {"start": left, "middle": (left + right) / 2, "end": right}[anchor]
    assert abs(target - 50) < 0.8, f"{anchor} text is off its anchor by {target - 50:.2f} mm"
    assert abs(centre_y - 10) < 0.8, f"middle baseline is off by {centre_y - 10:.2f} mm"


@pytest.mark.parametrize("dpi", [100, 200, 600])
@pytest.mark.parametrize("size", [6.0, 7.2, 9.5])
def test_type_keeps_its_size_at_any_resolution(qapp, dpi, size):
    """Ten monospace characters span ten advances of 0.6 em, whatever the output resolution
    (small type under a large scale must not snap to whole pixels and grow)."""
    from PySide6.QtGui import QImage

    from gpuviz.export.raster import render_png_bytes
    from gpuviz.figures.display import PT_TO_MM

    c = Canvas()
    c.text(5, 10, "H" * 10, size, "#000000", font="mono", baseline="middle")
    fig = c.figure(40, 20, "#FFFFFF")
    image = QImage.fromData(render_png_bytes(fig, dpi=dpi)).convertToFormat(QImage.Format.Format_Grayscale8)
    w, h = image.width(), image.height()
    px = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())[:, :w]
    cols = np.flatnonzero((px < 128).any(axis=0))
    ink = (cols[-1] + 1 - cols[0]) * 40 / w
    nominal = 10 * 0.6 * size * PT_TO_MM  # ten advances; the ink is a little less (side bearings)
    assert 0.85 * nominal < ink < 1.02 * nominal, f"{ink:.2f} mm of ink for {nominal:.2f} mm nominal"


def test_labels_from_kept_layouts_paint_as_drawn_text_does(qapp):
    """On the GUI thread labels are drawn from laid-out texts kept across redraws; painted on
    another thread (as gallery thumbnails are) the same figure is drawn with plain drawText.
    Both give the same pixels: placed by baseline, every anchor, both fonts, bold, knockouts."""
    import threading
    from dataclasses import replace

    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export import qt_painter

    c = Canvas()
    y = 6.0
    for font in ("sans", "mono"):
        for bold in (False, True):
            for anchor in ("start", "middle", "end"):
                x = {"start": 4.0, "middle": 40.0, "end": 76.0}[anchor]
                c.text(x, y, "warp 12 · 0x1F80 P/I = 16", 7.3, "#1B1F24", anchor=anchor,
                       font=font, bold=bold, baseline="middle" if bold else "alphabetic")
                y += 4.1
    c.text(40, y, "89.5 %", 9, "#000000", anchor="middle")
    c.replace_last(replace(c.last(), knockout="#FFE08A"))
    fig = c.figure(80, y + 4, "#FFFFFF")

    def paint() -> QImage:
        image = QImage(997, 651, QImage.Format.Format_RGB32)  # an odd scale: fractional positions
        image.fill(0xFF808080)  # the margins the figure leaves
        p = QPainter(image)
        qt_painter.paint_figure(p, fig, QRectF(0, 0, image.width(), image.height()))
        p.end()
        return image

    def layouts() -> int:
        return sum(1 for laid, _ascent, _width in qt_painter._labels.values() if laid is not None)

    def on_a_worker() -> QImage:
        painted: list[QImage] = []
        worker = threading.Thread(target=lambda: painted.append(paint()))
        worker.start()
        worker.join()
        return painted[0]

    def ink(image: QImage) -> np.ndarray:
        px = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(image.height(), -1)
        return px.astype(int)

    def bounds(image: QImage) -> tuple[int, int, int, int]:
        """Where the ink is (rows and columns darker than the paper), to a pixel."""
        px = ink(image)
        rows = np.flatnonzero((px < 0xC0).any(axis=1))
        cols = np.flatnonzero((px < 0xC0).any(axis=0))
        return int(rows[0]), int(rows[-1]), int(cols[0]) // 4, int(cols[-1]) // 4

    def same_pixels(a: QImage, b: QImage) -> bool:
        """The same text in the same places: Qt rasterises a laid-out text under a scaling
        transform a shade differently from drawText (anti-aliasing only, well under 1 %)."""
        ia, ib = ink(a), ink(b)
        return bool(np.abs(ia - ib).sum() < 0.01 * np.abs(ia - 0x80).sum())

    qt_painter._labels.clear()
    on_gui_thread = paint()
    assert layouts() == 5, "one kept layout per string and face"
    assert same_pixels(on_a_worker(), on_gui_thread)
    assert layouts() == 5, "another thread keeps no layouts"
    qt_painter._labels.clear()  # the other way round: measured on a worker first
    assert same_pixels(on_a_worker(), on_gui_thread)
    assert layouts() == 0
    assert paint() == on_gui_thread
    assert layouts() == 5
    # glyphs from the fallback face (⌈ ⌉, which Inter lacks) are placed a sub-pixel apart by
    # the two paths, so the ink is compared by where it lies, to the pixel
    c = Canvas()
    c.text(40, 8, "⌈P/I⌉ = 16 ⟨3, 4⟩", 9, "#1B1F24", anchor="middle")
    fig = c.figure(80, 12, "#FFFFFF")
    qt_painter._labels.clear()
    assert bounds(on_a_worker()) == bounds(paint())


@pytest.mark.parametrize("pixels", [8.3, 8.6, 10.4, 10.6, 13.5, 21.4])
@pytest.mark.parametrize("font", ["sans", "mono"])
def test_a_label_takes_the_width_the_layout_measured_at_any_fractional_size(qapp, pixels, font):
    """Qt sets text in whole pixels (8.4 px type comes out as 8 px, 8.6 px as 9 px: up to 6 %
    narrower or wider than measured, enough to run a subtitle off its page). The painter sets
    the nearest whole size and scales it to the exact one."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure
    from gpuviz.figures.display import PT_TO_MM
    from gpuviz.figures.metrics import text_width

    text = "lane i reads element lane % 8 · 32 banks × 4 bytes, bank = word mod 32"
    px_per_mm = 4.0
    size = pixels / (PT_TO_MM * px_per_mm)  # points that make ``pixels`` device pixels
    measured = text_width(text, size, font)
    c = Canvas()
    c.text(2, 10, text, size, "#000000", font=font, baseline="middle")
    fig = c.figure(measured + 4, 20, "#FFFFFF")
    w, h = round(fig.width * px_per_mm), round(fig.height * px_per_mm)
    image = QImage(w, h, QImage.Format.Format_Grayscale8)
    p = QPainter(image)
    paint_figure(p, fig, QRectF(0, 0, w, h))
    p.end()
    px = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())[:, :w]
    cols = np.flatnonzero((px < 160).any(axis=0))
    ink = (cols[-1] + 1 - cols[0]) / px_per_mm
    # the ink spans the advance less the side bearings of the first and last glyphs
    assert 0.975 * measured < ink <= 1.005 * measured, f"{ink:.2f} mm of ink for {measured:.2f} mm"
