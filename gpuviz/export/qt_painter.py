"""The one Qt painter of figures: used by the docks on screen and by PDF/PNG export.

Coordinates are millimetres; the painter is scaled once. Pens and brushes are cached per
style, batched items become one ``drawRects``/``drawLines`` call, and dense grids are one image
drawn without smoothing (PLATFORM-NOTES.md: painting many cells).
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPagedPaintDevice,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QStaticText,
    QTransform,
)

from gpuviz.figures.display import (
    BASELINE_SHIFT_EM,
    HATCH_DOT,
    HATCH_LINE,
    HATCH_PITCH,
    KNOCKOUT_PAD,
    PT_TO_MM,
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
    arrow_head,
    arrow_head_width,
    row_list,
)
from gpuviz.figures.metrics import FALLBACK_FAMILY, cap_height, descent, typeface_file

if TYPE_CHECKING:  # named where an image is drawn (its enums cost the first frame nothing)
    from PySide6.QtGui import QImage

SANS_FAMILY = "Inter"
MONO_FAMILY = "Noto Sans Mono"
_registered = False
LONG_PATH = 24  # points
# dashes along one path up to which Qt's dash stroker is faster than laying them out ourselves
# (~90 us for 48 dashes against ~110 us of numpy overhead alone); past it the stroker's cost
# grows quickly (3.6 ms for 350 dashes, 15 ms for a 192-tile path)
QT_DASHES = 120


def register_fonts() -> None:
    """Register the bundled fonts with Qt (needs a QGuiApplication); idempotent."""
    global _registered
    if _registered:
        return
    folder = resources.files("gpuviz.resources") / "fonts"
    for entry in folder.iterdir():
        if entry.name.endswith((".otf", ".ttf")):
            if isinstance(entry, Path):  # a file on disk: Qt reads it itself (3 ms less)
                QFontDatabase.addApplicationFont(str(entry))
            else:  # inside an archive
                QFontDatabase.addApplicationFontFromData(entry.read_bytes())
    _registered = True


@lru_cache(maxsize=512)
def _pen(color: str | None, width: float, dash: tuple[float, ...] | None) -> QPen:
    if not color or width <= 0:
        return QPen(Qt.PenStyle.NoPen)
    pen = QPen(QColor(color))
    pen.setWidthF(width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    if dash:
        pen.setDashPattern([d / width for d in dash])
    return pen


@lru_cache(maxsize=512)
def _color(color: str) -> QColor:
    return QColor(color)


@lru_cache(maxsize=512)
def _brush(color: str | None) -> QBrush:
    return QBrush(QColor(color)) if color else QBrush(Qt.BrushStyle.NoBrush)


def paint_figure(p: QPainter, figure: Figure, target: QRectF) -> float:
    """Paint ``figure`` scaled uniformly into ``target`` (device units), centred. Returns the
    scale in device units per millimetre, so callers can map pointer positions back to mm."""
    scale = min(target.width() / figure.width, target.height() / figure.height)
    ox = target.x() + (target.width() - figure.width * scale) / 2
    oy = target.y() + (target.height() - figure.height * scale) / 2
    p.save()
    base = p.worldTransform()
    p.translate(ox, oy)
    p.scale(scale, scale)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    p.fillRect(QRectF(0, 0, figure.width, figure.height), QColor(figure.background))
    painter = _Painter(p, base, ox, oy, scale)
    for item in figure.items:
        painter.item(item)
    p.restore()
    return scale


def dash_segments(points: Sequence[tuple[float, float]],
                  dash: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """The drawn stretches of a dash pattern (mm, on/off, repeating) along a polyline; the
    pattern runs on across the vertices, as SVG's stroke-dasharray does. Every stretch between
    two breaks (a dash's end or a vertex) is one segment, drawn where the pattern is on."""
    import numpy as np  # a path this long comes from a figure that has numpy loaded

    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    period = float(sum(dash))
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))])
    total = float(along[-1])
    if len(pts) < 2 or total <= 0:
        return []
    if period <= 0:
        return [(*a, *b) for a, b in itertools.pairwise(points)]
    starts = np.concatenate([[0.0], np.cumsum(dash)[:-1]])  # of each dash within a period
    whole = np.arange(0.0, total, period)
    breaks = np.unique(np.concatenate([along, (whole[:, None] + starts[None, :]).ravel(),
                                       [total]]))
    breaks = breaks[breaks <= total]
    a, b = breaks[:-1], breaks[1:]
    phase = np.mod((a + b) / 2, period)
    on = (np.searchsorted(np.cumsum(dash), phase, side="right") % 2 == 0) & (b - a > 1e-12)
    a, b = a[on], b[on]
    xs = np.stack([np.interp(a, along, pts[:, 0]), np.interp(a, along, pts[:, 1]),
                   np.interp(b, along, pts[:, 0]), np.interp(b, along, pts[:, 1])], axis=1)
    return [tuple(row) for row in xs.tolist()]


def _dash_count(points: Sequence[tuple[float, float]], dash: Sequence[float]) -> float:
    """About how many dashes ``dash`` (on/off lengths) lays along the polyline ``points``."""
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(points))
    return length / max(sum(dash), 1e-9) * (len(dash) / 2)


class _Painter:
    def __init__(self, p: QPainter, base, ox: float, oy: float, scale: float) -> None:
        self.p = p
        # text is drawn in device units: Qt sets type in whole pixels (a tiny font under a large
        # world scale, or 8.4 px type, would be snapped and come out too wide or too narrow), so
        # each label gets the nearest whole size, scaled to its exact size (``_face``)
        self.base, self.world = base, p.worldTransform()
        self.ox, self.oy, self.scale = ox, oy, scale
        self._font: QFont | None = None
        self._text_color: str | None = None
        self._device = False  # the world transform is a label's (shapes set theirs again)
        # the scale of the world transform set for unrotated labels (None: a label's own frame):
        # labels of one size share it, each drawn at its device position divided by it
        self._label_k: float | None = None
        self._opacity = p.opacity()
        device = p.device()
        self.dpi_x = device.logicalDpiX() if device is not None else 96
        self.pad = KNOCKOUT_PAD * scale  # around a knockout
        # per type size: (device size, font key, font, cap height and descent in device units,
        # the factor from the font's whole pixels to the exact size)
        self._faces: dict[tuple[str, bool, float], tuple[float, FontKey, QFont, float,
                                                         float, float]] = {}
        self._shapes: dict[type, Callable[[Any], None]] = {
            Rect: self.rect, Rects: self.rects, Circle: self.circle, Polyline: self.polyline,
            Segments: self.segments, Image: self.image}
        # on a raster device (a view, a PNG) unrotated labels are drawn from laid-out
        # QStaticTexts kept across redraws, without shaping the string again. PDF keeps drawText
        # (and real text), and so does a painter on another thread (gallery thumbnails): the
        # kept texts belong to the GUI thread. (The device's class, not the paint engine's
        # type, tells them apart: naming QPaintEngine makes its enums, time before the first
        # frame.)
        self._static = (threading.current_thread() is threading.main_thread()
                        and not isinstance(p.device(), QPagedPaintDevice))

    def item(self, item: Item) -> None:
        if isinstance(item, Text):
            self.text(item)
        elif isinstance(item, Group):
            for child in item.items:
                self.item(child)
        else:
            self._text_color = None  # shapes set their own pens
            if self._device:
                self.p.setWorldTransform(self.world)
                self._device = False
            self._shapes[type(item)](item)

    def _apply(self, style: Style, closed: bool = True) -> None:
        p = self.p
        p.setPen(_pen(style.stroke, style.stroke_width, style.dash))
        p.setBrush(_brush(style.fill) if closed else _brush(None))
        if style.opacity != self._opacity:
            p.setOpacity(style.opacity)
            self._opacity = style.opacity

    def rect(self, item: Rect) -> None:
        self._apply(item.style)
        r = QRectF(item.x, item.y, item.w, item.h)
        if item.radius:
            self.p.drawRoundedRect(r, item.radius, item.radius)
        else:
            self.p.drawRect(r)
        self._hatch(item.style, [r])

    def rects(self, item: Rects) -> None:
        self._apply(item.style)
        rects = [QRectF(*row) for row in row_list(item.xywh)]
        self.p.drawRects(rects)
        self._hatch(item.style, rects)

    def circle(self, item: Circle) -> None:
        self._apply(item.style)
        self.p.drawEllipse(QPointF(item.cx, item.cy), item.r, item.r)

    def segments(self, item: Segments) -> None:
        self._apply(item.style, closed=False)
        self.p.drawLines([QLineF(*row) for row in row_list(item.xyxy)])

    def _hatch(self, style: Style, rects: list[QRectF]) -> None:
        """Hatching in millimetres (``HATCH_PITCH``, ``HATCH_LINE``), as the SVG pattern draws
        it, so that it keeps its size in PDF and PNG at any resolution."""
        if not style.hatch or not rects:
            return
        p = self.p
        clip = QPainterPath()
        for r in rects:
            clip.addRect(r)
        box = clip.boundingRect()
        p.save()
        p.setClipPath(clip, Qt.ClipOperation.IntersectClip)
        color = style.hatch_color or "#000000"
        pitch, half = HATCH_PITCH, HATCH_PITCH / 2
        x0, y0 = math.floor(box.left() / pitch) * pitch, math.floor(box.top() / pitch) * pitch
        x1, y1 = box.right(), box.bottom()
        if style.hatch == "dots":
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(_brush(color))
            y = y0 + half
            while y < y1:
                x = x0 + half
                while x < x1:
                    p.drawEllipse(QPointF(x, y), HATCH_DOT, HATCH_DOT)
                    x += pitch
                y += pitch
        else:
            p.setPen(_pen(color, HATCH_LINE, None))
            lines = []
            span = (x1 - x0) + (y1 - y0)
            if style.hatch in ("diagonal", "cross"):
                k = 0.0
                while k <= span + pitch:
                    lines.append(QLineF(x0 + k, y0, x0 + k - (y1 - y0) - pitch, y1 + pitch))
                    if style.hatch == "cross":
                        lines.append(QLineF(x0 + k - (y1 - y0) - pitch, y0, x0 + k, y1 + pitch))
                    k += pitch
            else:  # horizontal
                y = y0 + half
                while y < y1:
                    lines.append(QLineF(x0, y, x1, y))
                    y += pitch
            p.drawLines(lines)
        p.restore()

    def polyline(self, item: Polyline) -> None:
        p = self.p
        self._apply(item.style, closed=item.closed)
        pts = item.points
        if item.closed:
            p.drawPolygon(QPolygonF([QPointF(x, y) for x, y in pts]))
        elif len(pts) > LONG_PATH and not item.style.dash and item.style.opacity >= 1:
            # a long path that turns back on itself (a tile traversal) costs Qt's stroker ~10 ms
            # as one outline; stroked as segments with square caps it looks the same and costs <1 ms
            pen = QPen(_pen(item.style.stroke, item.style.stroke_width, None))
            pen.setCapStyle(Qt.PenCapStyle.SquareCap)
            p.setPen(pen)
            p.drawLines([QLineF(pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1])
                         for i in range(len(pts) - 1)])
        elif (item.style.dash and item.style.opacity >= 1
              and _dash_count(pts, item.style.dash) > QT_DASHES):
            # a path of many dashes: laid along the path as SVG lays them (continuing across
            # vertices), as plain segments
            p.setPen(_pen(item.style.stroke, item.style.stroke_width, None))
            p.drawLines([QLineF(*d) for d in dash_segments(pts, item.style.dash)])
        else:
            p.drawPolyline(QPolygonF([QPointF(x, y) for x, y in pts]))
        heads = []
        if item.arrow_end:
            heads.append(arrow_head(item.points, arrow_head_width(item.style.stroke_width)))
        if item.arrow_start:
            heads.append(arrow_head(item.points[::-1], arrow_head_width(item.style.stroke_width)))
        for head in heads:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(_brush(item.style.stroke))
            p.drawPolygon(QPolygonF([QPointF(x, y) for x, y in head]))

    def _face(self, t: Text) -> tuple[float, FontKey, QFont, float, float, float]:
        """A label face: its device size, the font (Qt sets text in whole pixels: the nearest
        whole size, and the factor ``k`` that scales it to the exact size, so that a label
        takes the width the layout measured), cap height and descent in device units."""
        face = self._faces.get((t.font, t.bold, t.size))
        if face is None:
            size = t.size * PT_TO_MM * self.scale  # device units
            px = max(1, round(size))
            key = (t.font, t.bold, px)
            face = (size, key, _font(*key), cap_height(t.size, t.font) * self.scale,
                    descent(t.size, t.font) * self.scale, size / px)
            self._faces[(t.font, t.bold, t.size)] = face
        return face

    def text(self, t: Text) -> None:
        p = self.p
        size, key, font, _cap, _desc, k = self._face(t)
        if font is not self._font:
            p.setFont(font)
            self._font = font
        if t.color != self._text_color:
            p.setPen(_pen(t.color, 0.1, None))
            self._text_color = t.color
        if self._opacity != 1.0:
            p.setOpacity(1.0)
            self._opacity = 1.0
        label = _labels.get((t.text, key, self.dpi_x))
        if label is None or (label[0] is None and self._static and not t.rotate):
            label = _label(t.text, key, p.device(), self._static and not t.rotate)
        laid, ascent, advance = label
        width = advance * k
        dx = 0.0 if t.anchor == "start" else -width / 2 if t.anchor == "middle" else -width
        dy = BASELINE_SHIFT_EM[t.baseline] * size
        if self._static and laid is not None and not t.rotate and not t.knockout:
            # one world transform for labels of a size (base, scaled by k): a label's frame
            # would be base · translate(x, y) · scale(k), the same place
            if not self._device or self._label_k != k:
                frame = QTransform(self.base)
                frame.scale(k, k)
                p.setWorldTransform(frame)
                self._device, self._label_k = True, k
            p.drawStaticText(QPointF((self.ox + t.x * self.scale + dx) / k,
                                     (self.oy + t.y * self.scale + dy) / k - ascent), laid)
            return
        # the label's frame: its anchor, turned by its rotation (device units)
        frame = QTransform(self.base)
        frame.translate(self.ox + t.x * self.scale, self.oy + t.y * self.scale)
        if t.rotate:
            frame.rotate(t.rotate)
        frame.translate(dx, dy)
        frame.scale(k, k)
        p.setWorldTransform(frame)
        if t.knockout:  # a halo of the knockout colour tight around the glyphs, so a label on
            # hatching keeps the hatch visible around it (a box erased it)
            brush = _brush(t.knockout)
            for piece in _halo(t.text, key, font, 2 * self.pad / k):
                p.fillPath(piece, brush)
        self._device = True  # the world transform is a label's: shapes set theirs again
        self._label_k = None
        if self._static and laid is not None and not t.rotate:
            p.drawStaticText(QPointF(0.0, -ascent), laid)
        else:
            p.drawText(QPointF(0.0, 0.0), t.text)

    def image(self, item: Image) -> None:
        import numpy as np  # only a dense figure draws an image

        rgb = np.ascontiguousarray(item.rgb, dtype=np.uint8)  # alive while drawn
        img = device_image(rgb, isinstance(self.p.device(), QPagedPaintDevice))
        self.p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        self.p.setOpacity(1.0)
        self._opacity = 1.0
        self.p.drawImage(QRectF(item.x, item.y, item.w, item.h), img)


def device_image(rgb: Any, paged: bool) -> QImage:
    """An image item's pixels (an H × W × 3 uint8 array, kept alive by the caller while drawn)
    as the device draws them fastest: a raster device (a view, a PNG) blends 24-bit pixels
    through a conversion of the whole image on every draw, so it gets them as 32-bit (a copy,
    0.05 ms for 512²; a 512² image then draws 4-6× faster, 0.9 -> 0.15 ms); PDF keeps them
    24-bit, as written into the file."""
    from PySide6.QtGui import QImage

    h, w, _ = rgb.shape
    img = QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888)
    return img if paged else img.convertToFormat(QImage.Format.Format_RGB32)


_metrics_by_device: dict[tuple[str, bool, int, int], QFontMetricsF] = {}
FontKey = tuple[str, bool, int]  # font kind, bold, size in whole device pixels
# per label (text, font, device dpi): its layout kept for the GUI thread (a QStaticText; None
# where it was first met on another thread or rotated), the font's ascent and the advance;
# a figure's labels repeat, and so do they from redraw to redraw
_labels: dict[tuple[str, FontKey, int], tuple[QStaticText | None, float, float]] = {}
MAX_LABELS = 8192


def _metrics(kind: str, bold: bool, pixels: int, device) -> QFontMetricsF:
    dpi = device.logicalDpiX() if device is not None else 96
    key = (kind, bold, pixels, dpi)
    metrics = _metrics_by_device.get(key)
    if metrics is None:
        metrics = QFontMetricsF(_font(kind, bold, pixels), device) if device is not None \
            else QFontMetricsF(_font(kind, bold, pixels))
        _metrics_by_device[key] = metrics
    return metrics


def _label(text: str, key: FontKey, device,
           static: bool) -> tuple[QStaticText | None, float, float]:
    """``text`` in the font ``key`` on ``device``: laid out once as a QStaticText if ``static``
    (placed by its top, where drawText places by the baseline: hence the ascent), and its
    advance."""
    metrics = _metrics(*key, device)
    laid = None
    if static:
        laid = QStaticText(text)
        laid.setTextFormat(Qt.TextFormat.PlainText)
        laid.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
    if len(_labels) >= MAX_LABELS:
        _labels.clear()
    label = _labels[(text, key, device.logicalDpiX())] = (laid, metrics.ascent(),
                                                          metrics.horizontalAdvance(text))
    return label


# per label (text, font, halo width): the outline of its glyphs stroked that wide, round joins,
# filled in the knockout colour under the label; stroking the glyphs' outline was most of a
# redraw of a figure of many knocked-out labels (192 in traversal-sweep: 11 of 25 ms a redraw).
# Simplified, the outline fills 3-8 times faster; but simplifying it grows faster than the label's
# length (a 485-character predicate at a halo wider than its glyphs: 2.5 s), and so does filling
# one stroke of it (0.28 s). A halo of more than MAX_SIMPLIFIED elements is stroked in pieces of
# a few words instead, filled one after another as they come (24 ms); every paint of a label
# fills the same outline, so a redraw gives the first paint's pixels.
_halos: dict[tuple[str, FontKey, float], tuple[QPainterPath, ...]] = {}
MAX_SIMPLIFIED = 4096  # a halo's elements (about 36 characters at a halo wider than the glyphs)
HALO_PIECE = 8  # characters at least in a piece of a long label's halo, cut at a space


def _halo(text: str, key: FontKey, font: QFont, width: float) -> tuple[QPainterPath, ...]:
    found = _halos.get((text, key, width))
    if found is None:
        from PySide6.QtGui import QPainterPathStroker

        stroker = QPainterPathStroker()
        stroker.setWidth(width)
        stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        stroker.setCapStyle(Qt.PenCapStyle.SquareCap)  # a QPen's, as strokePath drew it
        glyphs = QPainterPath()
        glyphs.addText(QPointF(0.0, 0.0), font, text)
        whole = stroker.createStroke(glyphs)
        if whole.elementCount() <= MAX_SIMPLIFIED:
            found = (whole.simplified(),)
        else:
            metrics = _metrics(*key, None)
            pieces = []
            for start, piece in _halo_pieces(text):
                glyphs = QPainterPath()
                glyphs.addText(QPointF(metrics.horizontalAdvance(text[:start]), 0.0), font,
                               piece)
                pieces.append(stroker.createStroke(glyphs))
            found = tuple(pieces)
        if len(_halos) >= MAX_LABELS:
            _halos.clear()
        _halos[(text, key, width)] = found
    return found


def _halo_pieces(text: str) -> list[tuple[int, str]]:
    """``text`` cut into pieces of at least HALO_PIECE characters, each with where it starts: at
    a space (no kerning pair spans one), or inside a word of more than 4 · HALO_PIECE."""
    pieces: list[tuple[int, str]] = []
    start = 0
    for at in range(HALO_PIECE, len(text) - HALO_PIECE // 2):
        if (text[at] == " " and at - start >= HALO_PIECE) or at - start >= 4 * HALO_PIECE:
            pieces.append((start, text[start:at]))
            start = at
    pieces.append((start, text[start:]))
    return pieces


def _font(kind: str, bold: bool, pixels: int) -> QFont:
    paper = typeface_file(bold) if kind == "sans" else None
    if paper is not None:
        return _font_of(_registered_family(paper), bold, pixels, SANS_FAMILY)
    return _font_of(MONO_FAMILY if kind == "mono" else SANS_FAMILY, bold, pixels)


@lru_cache(maxsize=8)
def _registered_family(paper: tuple[str, str]) -> str:
    """A paper's typeface registered with Qt; the family Qt knows it by."""
    found = QFontDatabase.applicationFontFamilies(QFontDatabase.addApplicationFont(paper[0]))
    return found[0] if found else paper[1]


@lru_cache(maxsize=64)
def _font_of(family: str, bold: bool, pixels: int, shipped: str = "") -> QFont:
    # the fallback face draws what the family lacks (⟨ ⟩ ⌈ ⌉), as the layout measured it; a
    # paper's typeface borrows what it lacks from the shipped face first (metrics.shipped)
    font = QFont()
    font.setFamilies([family, shipped, FALLBACK_FAMILY] if shipped else [family, FALLBACK_FAMILY])
    font.setPixelSize(max(pixels, 1))
    font.setBold(bold)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    # Inter's contextual alternates (calt: "=" "×" ":" "–" raised between figures) are glyphs
    # outside its character map: Qt's PDF writer gives them no Unicode mapping, so the text a
    # reader copies or searches loses them. The layout measured the characters' own glyphs.
    for tag in _NO_ALTERNATES:
        font.setFeature(QFont.Tag(tag), 0)
    return font


_NO_ALTERNATES = ("calt", "case")
