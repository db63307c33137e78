"""PDF and PNG export through the Qt painter (the same one the screen uses)."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gpuviz.figures.display import Figure

if TYPE_CHECKING:
    from PySide6.QtGui import QImage

MM_PER_INCH = 25.4
# PNG and animation resolution. Print needs 300–600 dpi and 1200 covers line art; small
# animations for the web go down to about 60 dpi.
MIN_DPI, MAX_DPI = 36, 1200
# Pixels of one PNG: a full page (170 × 230 mm) at 900 dpi, a 150-mm square at 1200. The image
# is 4 bytes a pixel before compression, and its time goes to touching that memory and to
# compressing it: 80 million pixels took 2.4 CPU s and 381 MB, over the 2-s budget of any
# accepted input, and 50 million about 1.5 s (benchmarks/bench_limits.py, "export" row).
MAX_PIXELS = 50_000_000


class ExportLimitError(OSError):
    """An export larger than gpuviz writes (too many pixels or frames); nothing is written.

    An OSError (EFBIG, "file too large") so that whoever reports a file that cannot be written
    reports this one the same way."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EFBIG, message)

    def __str__(self) -> str:
        return str(self.strerror)


def check_dpi(dpi: int) -> None:
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise ExportLimitError(f"the PNG resolution must be from {MIN_DPI} to {MAX_DPI} dpi, "
                               f"got {dpi}")


def dpi_argument(text: str) -> int:
    """``--dpi``: a whole number in the accepted range (argparse reports anything else)."""
    try:
        dpi = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of dots per inch, got {text!r}") from None
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"must be from {MIN_DPI} to {MAX_DPI}, got {dpi}")
    return dpi


def png_size(figure: Figure, width_mm: float | None, dpi: int) -> tuple[int, int]:
    """Width and height in pixels of the figure drawn ``width_mm`` wide at ``dpi``."""
    scale = (width_mm / figure.width) if width_mm else 1.0
    px_per_mm = dpi / MM_PER_INCH
    return (max(1, round(figure.width * scale * px_per_mm)),
            max(1, round(figure.height * scale * px_per_mm)))


def check_png_size(figure: Figure, width_mm: float | None, dpi: int) -> None:
    """Refuse a resolution out of range, or an image of more than MAX_PIXELS pixels."""
    check_dpi(dpi)
    w, h = png_size(figure, width_mm, dpi)
    if w * h > MAX_PIXELS:
        fitting = int(dpi * (MAX_PIXELS / (w * h)) ** 0.5)
        raise ExportLimitError(
            f"a {w} × {h} pixel PNG ({w * h / 1e6:.0f} million pixels) is larger than the "
            f"{MAX_PIXELS // 1_000_000} million gpuviz writes; at this size use at most "
            f"{fitting} dpi, or export PDF or SVG")


def ensure_gui_app() -> None:
    """A QGuiApplication for painting text; offscreen when there is no display."""
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        ensure_gui_app.app = QGuiApplication(sys.argv[:1])  # type: ignore[attr-defined]
    from gpuviz.export.qt_painter import register_fonts

    register_fonts()


def _painted(figure: Figure, width_mm: float | None, dpi: int) -> QImage:
    """The figure painted on a white QImage (RGB32) at ``dpi``, after the size checks."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure

    check_png_size(figure, width_mm, dpi)
    ensure_gui_app()
    w, h = png_size(figure, width_mm, dpi)
    img = QImage(w, h, QImage.Format.Format_RGB32)
    dots_per_meter = round(dpi / 0.0254)
    img.setDotsPerMeterX(dots_per_meter)
    img.setDotsPerMeterY(dots_per_meter)
    img.fill(0xFFFFFFFF)
    p = QPainter(img)
    paint_figure(p, figure, QRectF(0, 0, w, h))
    p.end()
    return img


def render_png_bytes(figure: Figure, width_mm: float | None = None, dpi: int = 200,
                     metadata: Mapping[str, str] | None = None) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    img = _painted(figure, width_mm, dpi)
    for key, value in sorted((metadata or {}).items()):  # PNG text chunks, in a fixed order
        img.setText(f"gpuviz-{key}", str(value))
    if figure.description:  # the alt text, under PNG's own keywords
        img.setText("Title", figure.title)
        img.setText("Description", figure.description)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    # The stubs type the format as bytes, but PySide6 takes only a str here (bytes raise).
    img.save(buf, "PNG")  # type: ignore[call-overload]
    buf.close()
    return bytes(data.data())


def render_rgb(figure: Figure, width_mm: float | None = None,
               dpi: int = 200) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per row, RGB rows) of the figure painted as for PNG, without
    encoding a PNG (an animation's frames go straight to its encoder)."""
    from PySide6.QtGui import QImage

    img = _painted(figure, width_mm, dpi).convertToFormat(QImage.Format.Format_RGB888)
    return img.width(), img.height(), img.bytesPerLine(), bytes(img.constBits())


def render_pdf_bytes(figure: Figure, width_mm: float | None = None,
                     metadata: Mapping[str, str] | None = None) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from gpuviz.export.qt_painter import paint_figure

    ensure_gui_app()
    scale = (width_mm / figure.width) if width_mm else 1.0
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(600)
    meta = metadata or {}
    writer.setCreator(" ".join(["gpuviz", *(f"{k}={v}" for k, v in sorted(meta.items()))]))
    writer.setTitle(figure.title)
    if figure.description:  # the alt text: what the figure shows, in one sentence
        writer.setDocumentXmpMetadata(QByteArray(_xmp(figure.title,
                                                      figure.description).encode("utf-8")))
    size = QPageSize(QSizeF(figure.width * scale, figure.height * scale), QPageSize.Unit.Millimeter,
                     "figure", QPageSize.SizeMatchPolicy.ExactMatch)
    writer.setPageLayout(QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0),
                                     QPageLayout.Unit.Millimeter))
    p = QPainter(writer)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    paint_figure(p, figure, QRectF(rect))
    p.end()
    buf.close()
    return bytes(data.data())


def render_pdf_document(pages: Sequence[Figure], metadata: Mapping[str, str] | None = None,
                        title: str = "",
                        progress: Callable[[int, int, int], None] | None = None) -> bytes:
    """One PDF of ``pages``, each figure on a page of its own size (a handout); ``progress``
    is told (pages painted, pages, bytes so far) after each page and may raise to stop."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from gpuviz.export.qt_painter import paint_figure

    ensure_gui_app()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(600)
    meta = metadata or {}
    writer.setCreator(" ".join(["gpuviz", *(f"{k}={v}" for k, v in sorted(meta.items()))]))
    writer.setTitle(title or (pages[0].title if pages else ""))

    def layout(f: Figure) -> QPageLayout:
        size = QPageSize(QSizeF(f.width, f.height), QPageSize.Unit.Millimeter, "page",
                         QPageSize.SizeMatchPolicy.ExactMatch)
        return QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0),
                           QPageLayout.Unit.Millimeter)

    if pages:
        writer.setPageLayout(layout(pages[0]))
    p = QPainter(writer)
    for i, f in enumerate(pages):
        if i:
            writer.setPageLayout(layout(f))
            writer.newPage()
        paint_figure(p, f, QRectF(writer.pageLayout().paintRectPixels(writer.resolution())))
        if progress is not None:
            try:
                progress(i + 1, len(pages), int(data.size()))
            except BaseException:
                p.end()
                raise
    p.end()
    buf.close()
    return bytes(data.data())


def _xmp(title: str, description: str) -> str:
    """XMP naming the figure's title and its alt text (dc:title, dc:description)."""
    from xml.sax.saxutils import escape

    def alt(text: str) -> str:
        return f'<rdf:Alt><rdf:li xml:lang="x-default">{escape(text)}</rdf:li></rdf:Alt>'

    return ('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
            'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f"<dc:title>{alt(title)}</dc:title><dc:description>{alt(description)}"
            "</dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
            '<?xpacket end="w"?>')


def write_raster(figure: Figure, path: Path, fmt: str, width_mm: float | None = None,
                 dpi: int = 200, metadata: Mapping[str, str] | None = None) -> None:
    from gpuviz.atomic import write_atomic
    from gpuviz.export.formats import RASTER_FORMATS, check_format

    check_format(fmt, RASTER_FORMATS)  # an unknown format is refused, not written as PNG
    data = (render_pdf_bytes(figure, width_mm, metadata) if fmt == "pdf"
            else render_png_bytes(figure, width_mm, dpi, metadata))
    write_atomic(path, data)
