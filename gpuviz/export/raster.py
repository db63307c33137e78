"""PDF and PNG export through the Qt painter (the same one the screen uses)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from gpuviz.figures.display import Figure

MM_PER_INCH = 25.4


def ensure_gui_app() -> None:
    """A QGuiApplication for painting text; offscreen when there is no display."""
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        ensure_gui_app.app = QGuiApplication(sys.argv[:1])  # type: ignore[attr-defined]
    from gpuviz.export.qt_painter import register_fonts

    register_fonts()


def render_png_bytes(figure: Figure, width_mm: float | None = None, dpi: int = 200,
                     metadata: Mapping[str, str] | None = None) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure

    ensure_gui_app()
    scale = (width_mm / figure.width) if width_mm else 1.0
    px_per_mm = dpi / MM_PER_INCH
    w = max(1, round(figure.width * scale * px_per_mm))
    h = max(1, round(figure.height * scale * px_per_mm))
    img = QImage(w, h, QImage.Format.Format_RGB32)
    dots_per_meter = round(dpi / 0.0254)
    img.setDotsPerMeterX(dots_per_meter)
    img.setDotsPerMeterY(dots_per_meter)
    img.fill(0xFFFFFFFF)
    p = QPainter(img)
    paint_figure(p, figure, QRectF(0, 0, w, h))
    p.end()
    for key, value in sorted((metadata or {}).items()):  # PNG text chunks, in a fixed order
        img.setText(f"gpuviz-{key}", str(value))
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


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


def write_raster(figure: Figure, path: Path, fmt: str, width_mm: float | None = None,
                 dpi: int = 200, metadata: Mapping[str, str] | None = None) -> None:
    from gpuviz.scenario.io import write_atomic

    data = (render_pdf_bytes(figure, width_mm, metadata) if fmt == "pdf"
            else render_png_bytes(figure, width_mm, dpi, metadata))
    write_atomic(path, data)
