"""Figure -> SVG text, without Qt.

Text stays text (in the bundled Inter / Noto Sans Mono, named first), shapes stay vectors, the
document has a physical size in millimetres, and every keyed shape becomes an element with an
``id`` and a ``data-key`` an author can find in Inkscape. Numbers are printed with a fixed
format and nothing depends on time or randomness, so the same figure gives the same bytes.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from dataclasses import replace
from urllib.parse import unquote
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

from gpuviz.export.png import encode_png
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
from gpuviz.figures.metrics import FALLBACK_FAMILY, borrows, typeface_file

METADATA_NS = "urn:gpuviz:export"
SANS = "Inter, 'Helvetica Neue', Arial, sans-serif"
MONO = "'Noto Sans Mono', 'DejaVu Sans Mono', monospace"


# Characters XML 1.0 cannot hold at all (C0 controls other than tab, newline and return; lone
# surrogates; U+FFFE and U+FFFF): a name from a scenario file shows U+FFFD there instead of making
# the document not well-formed. https://www.w3.org/TR/xml/#charsets
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """The text with every character XML cannot hold shown as U+FFFD (the deck's and the web
    page's text too)."""
    return _NOT_XML.sub("\ufffd", text)


def escape(text: str) -> str:
    return _escape(xml_safe(text))


def quoteattr(text: str) -> str:
    return _quoteattr(xml_safe(text))


def n(v: float) -> str:
    """A coordinate in a fixed format: three decimals at most, no trailing zeros, no -0."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class _Writer:
    def __init__(self, text_as_paths: bool = False) -> None:
        self.text_as_paths = text_as_paths
        self.out: list[str] = []
        self.ids: dict[str, int] = {}
        self.patterns: dict[tuple[str, str], str] = {}

    def ident(self, key: str | None) -> str:
        if not key:
            return ""
        # the id reads the key's names as given (a series' label, not its %XX escapes)
        base = re.sub(r"[^A-Za-z0-9_-]", "-", unquote(key))
        if not base[0].isalpha():
            base = "k-" + base
        count = self.ids.get(base, 0) + 1
        self.ids[base] = count
        ident = base if count == 1 else f"{base}--{count}"
        return f" id={quoteattr(ident)} data-key={quoteattr(key)}"

    def paint(self, style: Style, closed: bool = True) -> str:
        parts = []
        if closed and style.fill:
            parts.append(f'fill="{style.fill}"')
        else:
            parts.append('fill="none"')
        if style.stroke and style.stroke_width > 0:
            parts.append(f'stroke="{style.stroke}" stroke-width="{n(style.stroke_width)}"')
            if style.dash:
                parts.append(f'stroke-dasharray="{" ".join(n(d) for d in style.dash)}"')
        if style.opacity < 1:
            parts.append(f'opacity="{n(style.opacity)}"')
        return " ".join(parts)

    def hatch_fill(self, style: Style) -> str | None:
        if not style.hatch:
            return None
        key = (style.hatch, style.hatch_color or "#000000")
        if key not in self.patterns:
            self.patterns[key] = f"hatch-{key[0]}-{key[1].lstrip('#').lower()}"
        return f'fill="url(#{self.patterns[key]})"'

    def item(self, item: Item, indent: str) -> None:
        o = self.out
        if isinstance(item, Group):
            name = f" inkscape:label={quoteattr(item.name)}" if item.name else ""
            o.append(f"{indent}<g{self.ident(item.key)}{name}>")
            for child in item.items:
                self.item(child, indent + "  ")
            o.append(f"{indent}</g>")
        elif isinstance(item, Rect):
            r = f' rx="{n(item.radius)}"' if item.radius else ""
            geom = f'x="{n(item.x)}" y="{n(item.y)}" width="{n(item.w)}" height="{n(item.h)}"{r}'
            o.append(f"{indent}<rect{self.ident(item.key)} {geom} {self.paint(item.style)}/>")
            hatch = self.hatch_fill(item.style)
            if hatch:
                o.append(f'{indent}<rect {geom} {hatch} stroke="none"/>')
        elif isinstance(item, Rects):
            self.rects(item, indent)
        elif isinstance(item, Circle):
            o.append(f'{indent}<circle{self.ident(item.key)} cx="{n(item.cx)}" cy="{n(item.cy)}" '
                     f'r="{n(item.r)}" {self.paint(item.style)}/>')
        elif isinstance(item, Polyline):
            self.polyline(item, indent)
        elif isinstance(item, Segments):
            self.segments(item, indent)
        elif isinstance(item, Text):
            self.text(item, indent)
        elif isinstance(item, Image):
            png = base64.b64encode(encode_png(item.rgb)).decode("ascii")
            o.append(f'{indent}<image{self.ident(item.key)} x="{n(item.x)}" y="{n(item.y)}" '
                     f'width="{n(item.w)}" height="{n(item.h)}" preserveAspectRatio="none" '
                     f'style="image-rendering:pixelated" href="data:image/png;base64,{png}"/>')
        else:  # pragma: no cover - the display list is closed
            raise TypeError(type(item).__name__)

    def rects(self, item: Rects, indent: str) -> None:
        hatch = self.hatch_fill(item.style)
        if item.keys is None:
            d = "".join(f"M{n(x)} {n(y)}h{n(w)}v{n(h)}h{n(-w)}z" for x, y, w, h in row_list(item.xywh))
            self.out.append(f'{indent}<path d="{d}" {self.paint(item.style)}/>')
            if hatch:
                self.out.append(f'{indent}<path d="{d}" {hatch} stroke="none"/>')
            return
        for (x, y, w, h), key in zip(row_list(item.xywh), item.keys, strict=True):
            geom = f'x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}"'
            self.out.append(f"{indent}<rect{self.ident(key)} {geom} {self.paint(item.style)}/>")
            if hatch:
                self.out.append(f'{indent}<rect {geom} {hatch} stroke="none"/>')

    def polyline(self, item: Polyline, indent: str) -> None:
        pts = " ".join(f"{n(x)},{n(y)}" for x, y in item.points)
        tag = "polygon" if item.closed else "polyline"
        self.out.append(f'{indent}<{tag}{self.ident(item.key)} points="{pts}" '
                        f'{self.paint(item.style, closed=item.closed)}/>')
        if item.closed:
            hatch = self.hatch_fill(item.style)
            if hatch:
                self.out.append(f'{indent}<polygon points="{pts}" {hatch} stroke="none"/>')
        heads = []
        if item.arrow_end:
            heads.append(arrow_head(item.points, arrow_head_width(item.style.stroke_width)))
        if item.arrow_start:
            heads.append(arrow_head(item.points[::-1], arrow_head_width(item.style.stroke_width)))
        for head in heads:
            hp = " ".join(f"{n(x)},{n(y)}" for x, y in head)
            self.out.append(f'{indent}<polygon points="{hp}" fill="{item.style.stroke}"/>')

    def segments(self, item: Segments, indent: str) -> None:
        if item.keys is None:
            d = "".join(f"M{n(a)} {n(b)}L{n(c)} {n(e)}" for a, b, c, e in row_list(item.xyxy))
            self.out.append(f'{indent}<path d="{d}" {self.paint(item.style, closed=False)}/>')
            return
        for (a, b, c, e), key in zip(row_list(item.xyxy), item.keys, strict=True):
            self.out.append(f'{indent}<line{self.ident(key)} x1="{n(a)}" y1="{n(b)}" x2="{n(c)}" '
                            f'y2="{n(e)}" {self.paint(item.style, closed=False)}/>')

    def text(self, t: Text, indent: str) -> None:
        size = t.size * PT_TO_MM
        shift = BASELINE_SHIFT_EM[t.baseline] * size
        if t.rotate:
            x, y = t.x, t.y
            rot = f' transform="rotate({n(t.rotate)} {n(t.x)} {n(t.y)})"'
            y += shift  # shift along the rotated text's own vertical
        else:
            x, y, rot = t.x, t.y + shift, ""
        family = SANS if t.font == "sans" else MONO
        paper = typeface_file(t.bold) if t.font == "sans" else None
        if paper is not None:  # a paper's own typeface, which the layout measured
            family = f"'{paper[1]}', {family}"
        if borrows(t.text, t.font, t.bold):  # characters only the fallback face has
            family = family.replace(", ", f", '{FALLBACK_FAMILY}', ", 1)
        attrs = [f'x="{n(x)}" y="{n(y)}"', f'font-size="{n(size)}"',
                 f'font-family={quoteattr(family)}', f'fill="{t.color}"']
        if t.anchor != "start":
            attrs.append(f'text-anchor="{t.anchor}"')
        if t.bold:
            attrs.append('font-weight="bold"')
        if "  " in t.text or t.text != t.text.strip():
            attrs.append('xml:space="preserve"')  # aligned receipts keep their runs of spaces
        if t.knockout:  # a halo tight around the glyphs: hatching stays visible around it
            halo = (f'stroke="{t.knockout}" stroke-width="{n(2 * KNOCKOUT_PAD)}" '
                    'stroke-linejoin="round"')
            if self.text_as_paths:
                self.text_outline(replace(t, color=t.knockout), indent, halo)
            else:
                under = [a if not a.startswith("fill=") else f'fill="{t.knockout}"' for a in attrs]
                self.out.append(f"{indent}<text {' '.join(under)} {halo}{rot}>"
                                f"{escape(t.text)}</text>")
        if self.text_as_paths:
            self.text_outline(t, indent)
            return
        self.out.append(f"{indent}<text{self.ident(t.key)} {' '.join(attrs)}{rot}>"
                        f"{escape(t.text)}</text>")

    def text_outline(self, t: Text, indent: str, halo: str = "") -> None:
        """The text as glyph outlines from the bundled fonts; the words stay in aria-label.
        With ``halo`` (stroke attributes in mm), the outlines of a knockout's halo instead."""
        from gpuviz.export.text_paths import text_path_data

        d, x, y, s = text_path_data(t)
        rot = f"rotate({n(t.rotate)} {n(t.x)} {n(t.y)}) " if t.rotate else ""
        if halo:  # the stroke is drawn in the path's own (scaled) units: mm / s
            width = float(halo.split('stroke-width="')[1].split('"')[0]) / s
            halo = halo.replace(halo.split('stroke-width="')[1].split('"')[0], f"{width:.6g}")
            self.out.append(f'{indent}<path aria-hidden="true" d="{d}" fill="{t.color}" {halo} '
                            f'transform="{rot}translate({n(x)} {n(y)}) scale({s:.6g} {-s:.6g})"/>')
            return
        self.out.append(f'{indent}<path{self.ident(t.key)} aria-label={quoteattr(t.text)} '
                        f'd="{d}" fill="{t.color}" '
                        f'transform="{rot}translate({n(x)} {n(y)}) scale({s:.6g} {-s:.6g})"/>')

    def defs(self) -> list[str]:
        out = []
        for (kind, color), ident in sorted(self.patterns.items(), key=lambda kv: kv[1]):
            p, q, h = HATCH_PITCH, HATCH_PITCH / 4, HATCH_PITCH / 2
            lines = {
                "diagonal": f'<path d="M{-q:g},{q:g} l{h:g},{-h:g} M0,{p:g} l{p:g},{-p:g} '
                            f'M{p - q:g},{p + q:g} l{h:g},{-h:g}"',
                "cross": f'<path d="M0,0 l{p:g},{p:g} M{p:g},0 l{-p:g},{p:g}"',
                "horizontal": f'<path d="M0,{h:g} h{p:g}"',
                "dots": f'<circle cx="{h:g}" cy="{h:g}" r="{HATCH_DOT:g}"',
            }[kind]
            paint = (f'fill="{color}"' if kind == "dots" else
                     f'stroke="{color}" stroke-width="{HATCH_LINE:g}" fill="none"')
            out.append(f'    <pattern id="{ident}" width="{p:g}" height="{p:g}" '
                       f'patternUnits="userSpaceOnUse">{lines} {paint}/></pattern>')
        return out


def figure_to_svg(figure: Figure, width_mm: float | None = None, *, text_as_paths: bool = False,
                  metadata: Mapping[str, str] | None = None, embed_fonts: bool = False) -> str:
    """SVG text for ``figure``; ``width_mm`` scales it uniformly to a physical width.

    ``text_as_paths``: text becomes glyph outlines (identical without the fonts installed);
    ``embed_fonts``: text stays text, with the faces it uses embedded as subsets (for web
    pages: browsers set it in those faces even where they are not installed);
    ``metadata``: ``name → value`` pairs (the gpuviz version, the scenario's hash …) written in
    the SVG's ``<metadata>``, in sorted order."""
    scale = (width_mm / figure.width) if width_mm else 1.0
    w = _Writer(text_as_paths)
    for item in figure.items:
        w.item(item, "  ")
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" version="1.1" '
        f'width="{n(figure.width * scale)}mm" height="{n(figure.height * scale)}mm" '
        f'viewBox="0 0 {n(figure.width)} {n(figure.height)}">',
    ]
    if figure.title:
        head.append(f"  <title>{escape(figure.title)}</title>")
    if figure.description:
        head.append(f"  <desc>{escape(figure.description)}</desc>")
    if metadata:
        fields = " ".join(f"{k}={quoteattr(str(v))}" for k, v in sorted(metadata.items()))
        head.append(f'  <metadata><gpuviz:export xmlns:gpuviz="{METADATA_NS}" {fields}/>'
                    "</metadata>")
    defs = w.defs()
    if embed_fonts and not text_as_paths:
        from gpuviz.export.svg_fonts import font_face_css

        css = font_face_css(figure)
        if css:
            defs = ["    <style>", *(f"      {rule}" for rule in css), "    </style>", *defs]
    if defs:
        head += ["  <defs>", *defs, "  </defs>"]
    head.append(f'  <rect width="{n(figure.width)}" height="{n(figure.height)}" fill="{figure.background}"/>')
    return "\n".join([*head, *w.out, "</svg>", ""])
