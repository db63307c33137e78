"""Text measured with the fonts gpuviz ships: real advance widths, not per-character guesses.

The layout, the figure lint and the SVG writer's knockouts all measure text here, with the metrics
of the font files the painter registers with Qt and the SVG names first (Inter, Noto Sans Mono).
The metrics come from a small table, resources/font_metrics.json, that tools/font_metrics.py reads
out of those files with fontTools (a test checks it still matches), so that laying out a figure
never parses a font. Widths ignore kerning, which only ever narrows these fonts' digits and
words slightly, so a measured box is never too small for what is painted.

A text's box is the ink a reader sees: from the baseline up to the cap height (digits and
capitals; lower-case ascenders reach a little above it) and down to the descender depth.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

PT_TO_MM = 25.4 / 72.0
MAX_MEASURED = 65536  # remembered widths per face
FontKind = Literal["sans", "mono"]

FONT_FILES: dict[tuple[str, bool], str] = {  # the font files these metrics describe (resources/fonts)
    ("sans", False): "Inter-Regular.otf",
    ("sans", True): "Inter-Bold.otf",
    ("mono", False): "NotoSansMono-Regular.ttf",
    ("mono", True): "NotoSansMono-Bold.ttf",
}
# the face for the characters those lack (⟨ ⟩ in swizzle titles, ⌈ ⌉ in scheduler subtitles):
# a subset of Noto Sans Math (arrows, mathematical operators and technical symbols, brackets)
FALLBACK_FILE = "NotoSansMath-Regular.ttf"
FALLBACK_FAMILY = "Noto Sans Math"



@dataclass(frozen=True)
class FontMetrics:
    """One face's horizontal metrics in em units (fractions of the type size)."""

    advances: dict[int, float]  # code point → advance, em
    fallback: float  # advance of a character the face lacks (its .notdef), em
    cap_height: float  # em
    x_height: float  # em
    ascender: float  # em, above the baseline (positive)
    descender: float  # em, below the baseline (positive)
    # advances of the characters this face lacks and the fallback face has, em
    borrowed: dict[int, float] = field(default_factory=dict)
    # a paper's typeface: advances of the characters it lacks that the shipped face of its kind
    # (Inter) has, which draws them, em
    shipped: dict[int, float] = field(default_factory=dict)
    # widths already measured: a figure's labels repeat, and a layout for a slide or a view
    # builds its blocks at several widths before it keeps one
    _widths: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def width_em(self, text: str) -> float:
        known = self._widths.get(text)
        if known is not None:
            return known
        own, lent, fb, ship = self.advances, self.borrowed, self.fallback, self.shipped
        width = sum(own[o] if o in own else ship[o] if o in ship else lent.get(o, fb)
                    for o in map(ord, text))
        if len(self._widths) >= MAX_MEASURED:
            self._widths.clear()
        self._widths[text] = width
        return width


@cache
def _table() -> dict[str, Any]:
    text = (resources.files("gpuviz.resources") / "font_metrics.json").read_text(encoding="utf-8")
    faces: dict[str, Any] = json.loads(text)["faces"]
    return faces


def face(kind: FontKind = "sans", bold: bool = False) -> FontMetrics:
    """The metrics of the face text of ``kind`` is set in: a paper's own typeface for sans
    text while one is in use (:func:`use_typeface`), else the bundled face."""
    if kind == "sans" and _typeface:
        return _typeface[bold][2]
    return _bundled(kind, bold)


@cache
def _bundled(kind: FontKind = "sans", bold: bool = False) -> FontMetrics:
    """The metrics of a bundled face, read once."""
    raw = _table()[f"{kind}-bold" if bold else kind]
    advances = _advances(raw)
    upm = float(raw["units_per_em"])
    fallback = raw["notdef"] / upm if raw["notdef"] is not None else 0.6
    lent = {cp: adv for cp, adv in _advances(_table()["math"]).items() if cp not in advances}
    return FontMetrics(advances, fallback, raw["cap_height"] / upm, raw["x_height"] / upm,
                       raw["ascent"] / upm, -raw["descent"] / upm, lent)


def _advances(raw: dict[str, Any]) -> dict[int, float]:
    upm = float(raw["units_per_em"])
    return {first + i: adv / upm for first, *run in raw["advances"] for i, adv in enumerate(run)}


# A paper's own typeface for sans text: bold → (font file, family name, metrics)
_typeface: dict[bool, tuple[str, str, FontMetrics]] = {}
_on_typeface: list[Callable[[], None]] = []  # caches of measured text to clear on a change


def on_typeface_change(clear: Callable[[], None]) -> None:
    """Call ``clear`` whenever the typeface changes (a cache of text measured with its widths)."""
    _on_typeface.append(clear)


def use_typeface(regular: str | None, bold: str | None = None) -> None:
    """Set sans text in the typeface of the font file ``regular`` (an OTF or TTF; ``bold``
    for bold text, else the regular face's metrics): measured with its own metrics, read with
    fontTools, so that figures are laid out for it, never scaled. None: the bundled faces."""
    _typeface.clear()
    if regular is not None:
        for is_bold, path in ((False, regular), (True, bold or regular)):
            _typeface[is_bold] = read_typeface(path)
    for clear in _on_typeface:
        clear()


def typeface_file(bold: bool = False) -> tuple[str, str] | None:
    """``(font file, family name)`` of the paper's typeface in use, or None."""
    if not _typeface:
        return None
    path, family, _ = _typeface[bold]
    return path, family


MAX_TYPEFACE_BYTES = 64 * 1024**2  # a font file larger than any face a paper is set in
_SAFE_FAMILY = re.compile(r"[^\w .+-]")  # what a family name keeps in CSS, SVG and HTML


class TypefaceError(ValueError):
    """A font file that cannot set a figure; the message says why."""


def family_name(raw: str | None) -> str:
    """A font's family name as gpuviz writes it into CSS, SVG and HTML: letters, digits,
    spaces, ``. + - _`` only (a name is data from a file the user did not write: quotes,
    angle brackets and control characters could break out of an attribute or a style)."""
    return " ".join(_SAFE_FAMILY.sub(" ", raw or "").split())[:64]


def read_typeface(path: str) -> tuple[str, str, FontMetrics]:
    """A font file's family name and its metrics (the shipped face, then the fallback face, for
    what it lacks). Raises :class:`TypefaceError` saying why a file cannot be used: not a regular
    file of a sane size (a FIFO, a device, a huge sparse file are never opened), not an OTF or
    TTF, a table missing or broken, no Unicode character map, units per em outside 16–16384
    (the OpenType ``head`` table's range)."""
    import hashlib
    import os
    import stat

    from fontTools.pens.basePen import NullPen
    from fontTools.ttLib import TTFont

    try:  # never blocks: a FIFO or a device is looked at, not read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise TypefaceError("no such file") from None
    except OSError as e:
        raise TypefaceError(f"cannot be read ({e.strerror})") from None
    st = os.fstat(fd)
    problem = ("not a regular file (a font is read from a file)" if not stat.S_ISREG(st.st_mode)
               else None if 12 <= st.st_size <= MAX_TYPEFACE_BYTES
               else f"{st.st_size:,} bytes: a font file has 12 bytes to "
                    f"{MAX_TYPEFACE_BYTES // 1024**2} MiB")
    if problem:
        os.close(fd)
        raise TypefaceError(problem)
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(MAX_TYPEFACE_BYTES + 1)
        except OSError as e:
            raise TypefaceError(f"cannot be read ({e.strerror})") from None
    # parsed once for the same bytes: reading every table takes 1.1 s for Inter, and an export
    # of many figures sets the typeface for each
    identity = (path, hashlib.sha256(data).digest())
    if identity in _read:
        return _read[identity]
    if data[:4] in (b"wOFF", b"wOF2"):
        raise TypefaceError("a WOFF web font; give the OTF or TTF file it was made from")
    try:
        font = TTFont(io.BytesIO(data), lazy=False)
        missing = [t for t in ("cmap", "hmtx", "head", "hhea", "OS/2", "name") if t not in font]
        if missing:
            raise TypefaceError("a font without the tables a layout measures with "
                                f"({', '.join(missing)})")
        for tag in font.keys():  # noqa: SIM118 (a TTFont is not iterable)
            font[tag]  # every table read now: a truncated one fails here, not mid-export
        upm = float(font["head"].unitsPerEm)
        if not 16 <= upm <= 16384:
            raise TypefaceError(f"units per em is {upm:g}; OpenType allows 16 to 16384")
        cmap = font.getBestCmap()
        if not cmap:
            raise TypefaceError("no Unicode character map (cmap), so no character can be set")
        hmtx = font["hmtx"].metrics
        glyphs = font.getGlyphSet()
        for name in {cmap[o] for o in map(ord, "0123456789 Aa") if o in cmap}:
            glyphs[name].draw(NullPen())  # a broken outline table fails here, not mid-export
        advances = {cp: hmtx[name][0] / upm for cp, name in cmap.items() if name in hmtx}
        os2, hhea = font["OS/2"], font["hhea"]
        family = family_name(font["name"].getBestFamilyName()) or "sans-serif"
        cap = getattr(os2, "sCapHeight", 0) or 0.7 * upm
        x_height = getattr(os2, "sxHeight", 0) or 0.5 * upm
        notdef = hmtx[".notdef"][0] / upm if ".notdef" in hmtx else 0.6
        ascent, desc = hhea.ascent / upm, -hhea.descent / upm
    except TypefaceError:
        raise
    except Exception as e:  # fontTools raises whatever its parsers meet: struct, assert, key …
        raise TypefaceError(f"not an OpenType or TrueType font ({type(e).__name__}: "
                            f"{str(e)[:120]})") from None
    finally:
        if "font" in locals():
            font.close()
    shipped = {cp: adv for cp, adv in _bundled("sans", False).advances.items()
               if cp not in advances}
    lent = {cp: adv for cp, adv in _advances(_table()["math"]).items()
            if cp not in advances and cp not in shipped}
    metrics = FontMetrics(advances, notdef, cap / upm, x_height / upm, ascent, desc, lent,
                          shipped)
    if len(_read) >= 8:
        _read.clear()
    _read[identity] = (path, family, metrics)
    return path, family, metrics


# read_typeface's answers by the file's path and the SHA-256 of its bytes
_read: dict[tuple[str, bytes], tuple[str, str, FontMetrics]] = {}


def borrows(text: str, font: FontKind = "sans", bold: bool = False) -> bool:
    """Whether ``text`` has characters its face lacks and the fallback face draws."""
    lent = face(font, bold).borrowed
    return any(ord(ch) in lent for ch in text)


def text_width(text: str, size_pt: float, font: FontKind = "sans", bold: bool = False) -> float:
    """The advance width of ``text`` in mm at ``size_pt`` points."""
    return face(font, bold).width_em(text) * size_pt * PT_TO_MM


# An SVG with text as text, opened where its face is not installed, is set in the viewer's
# fallback face. The widest common one is DejaVu Sans, fontconfig's default sans face on Linux
# (what rsvg-convert, GNOME's viewers and LibreOffice use without Inter): measured with fontTools
# over figure labels, it sets them up to 7.6 % wider than Inter, bold up to 17.3 %; DejaVu Sans
# Mono is within 0.3 % of Noto Sans Mono, and Helvetica and Arial (macOS, Windows) are narrower
# than Inter. A figure written as such an SVG is laid out with that much room after its prose
# and labels (:func:`fallback_room`, :func:`room_width`), so that a wider fallback face cannot
# run one text into another or off the page. Every other output (the screen, PDF and PNG, SVG
# with text as paths) is set in the shipped faces and needs none.
FALLBACK_ROOM: dict[tuple[str, bool], float] = {
    ("sans", False): 1.08, ("sans", True): 1.18, ("mono", False): 1.0, ("mono", True): 1.0,
}


# whether the layout leaves that room now (see fallback_room): per thread (a context variable),
# so that an SVG export on one thread never widens a layout another thread makes meanwhile
_room: ContextVar[bool] = ContextVar("fallback_room", default=False)


def leaves_room() -> bool:
    """Whether the layout leaves room for a wider fallback face now (in this thread)."""
    return _room.get()


def room_width(text: str, size_pt: float, font: FontKind = "sans", bold: bool = False) -> float:
    """The width in mm that ``text`` may take where its face is missing (:data:`FALLBACK_ROOM`):
    what the layout leaves for it after wrapping, in a legend row and beside a block, while it
    leaves that room (:func:`fallback_room`); its measured width otherwise."""
    width = text_width(text, size_pt, font, bold)
    return width * FALLBACK_ROOM[(font, bold)] if _room.get() else width


@contextmanager
def fallback_room(leave: bool) -> Iterator[None]:
    """Lay out with (or without) room for a wider fallback face while inside: an SVG with text
    as text is laid out with it (``export_figure``), except a slide's or a view's figure, which
    is for a screen."""
    token = _room.set(leave)
    try:
        yield
    finally:
        _room.reset(token)


def cap_height(size_pt: float, font: FontKind = "sans") -> float:
    """The height of digits and capitals above the baseline, in mm."""
    return face(font).cap_height * size_pt * PT_TO_MM


def descent(size_pt: float, font: FontKind = "sans") -> float:
    """How far descenders (g, p, y, commas) reach below the baseline, in mm."""
    # The typographic descender is generous (room for accents below); ink rarely goes past 0.22 em.
    return min(face(font).descender, 0.22) * size_pt * PT_TO_MM


def ink_height(size_pt: float, font: FontKind = "sans") -> float:
    """Cap height plus descent: the height of a one-line text's box, in mm."""
    return cap_height(size_pt, font) + descent(size_pt, font)


def missing_glyphs(text: str, font: FontKind = "sans", bold: bool = False) -> list[str]:
    """The characters of ``text`` that the face lacks (spaces and line breaks aside)."""
    m = face(font, bold)
    return sorted({ch for ch in text if ord(ch) not in m.advances and ord(ch) not in m.borrowed
                   and ord(ch) not in m.shipped and not ch.isspace()})
