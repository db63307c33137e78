"""The faces an SVG's text uses, embedded as subsets (``@font-face`` with data URLs), so that a
viewer that honours them (a web browser) sets the text in the faces the layout measured, even
where Inter is not installed: a wider fallback face cannot make labels collide. Qt-free; read
with fontTools, subset to the characters the figure prints."""

from __future__ import annotations

import base64
import io
from collections import defaultdict
from functools import lru_cache
from importlib import resources

from gpuviz.figures.display import Figure, Text, walk
from gpuviz.figures.metrics import FALLBACK_FAMILY, FALLBACK_FILE, FONT_FILES, face, typeface_file

FAMILIES = {"sans": "Inter", "mono": "Noto Sans Mono"}


def font_face_css(figure: Figure) -> list[str]:
    """``@font-face`` rules for each face ``figure``'s text uses, subset to its characters."""
    chars: dict[tuple[str, bool], set[int]] = defaultdict(set)
    for item in walk(figure.items):
        if not isinstance(item, Text):
            continue
        own = face(item.font, item.bold)
        # a paper's typeface (``--font``) draws its own characters, the shipped face what it
        # lacks (metrics.shipped), as the layout measured them
        kind: str = "paper" if item.font == "sans" and typeface_file(item.bold) else item.font
        for o in map(ord, item.text):
            if o in own.advances:
                chars[(kind, item.bold)].add(o)
            elif o in own.shipped:
                chars[(item.font, item.bold)].add(o)
            elif o in own.borrowed:
                chars[("math", False)].add(o)
    rules = []
    for (kind, bold), used in sorted(chars.items()):
        if kind == "paper":
            path, family = typeface_file(bold)  # type: ignore[misc]
            data, mime = subset_face(path, frozenset(used), own_file=True)
        else:
            name = FALLBACK_FILE if kind == "math" else FONT_FILES[(kind, bold)]
            family = FALLBACK_FAMILY if kind == "math" else FAMILIES[kind]
            data, mime = subset_face(name, frozenset(used))
        # ``family``: a paper's family name as read (metrics.family_name: no quote can close
        # the string)
        rules.append(f"@font-face {{ font-family: '{family}'; font-weight: "
                     f"{'bold' if bold else 'normal'}; src: url(data:{mime};base64,{data}); }}")
    return rules


@lru_cache(maxsize=64)  # a lecture's figures share their faces and most of their characters
def subset_face(name: str, used: frozenset[int], own_file: bool = False) -> tuple[str, str]:
    """The bundled face ``name`` (``own_file``: the font file at that path, a paper's
    typeface) cut to the code points ``used``: (base64 data, MIME type)."""
    data = subset_bytes(name, used, own_file=own_file)
    mime = "font/otf" if data[:4] == b"OTTO" else "font/ttf"  # CFF outlines, or TrueType
    return base64.b64encode(data).decode("ascii"), mime


def subset_bytes(name: str, used: frozenset[int], *, flavor: str | None = None,
                 features: tuple[str, ...] = ("kern",), own_file: bool = False) -> bytes:
    """The one subsetter of the bundled faces (an SVG's embedded faces, the web lecture's
    WOFF) and of a paper's typeface (``own_file``: ``name`` is its file, read with
    ``metrics.read_typeface`` before): ``name`` cut to the code points ``used``, with its names
    and copyright (the licence travels) and its timestamps kept, so the same characters give
    the same bytes."""
    from fontTools.ttLib import TTFont

    # lazy: a layout subtable is read when the subsetter reaches it, not the whole GPOS and
    # GSUB first (Inter's kerning: 0.23 s a subset read eagerly, 0.06 s lazily; the same bytes)
    if own_file:
        with TTFont(name, recalcTimestamp=False, lazy=True) as font:
            return _subset(font, used, flavor, features)
    path = resources.files("gpuviz.resources") / "fonts" / name
    with resources.as_file(path) as real, \
            TTFont(str(real), recalcTimestamp=False, lazy=True) as font:  # the same bytes each time
        return _subset(font, used, flavor, features)


def _subset(font, used: frozenset[int], flavor: str | None, features: tuple[str, ...]) -> bytes:
    from fontTools import subset

    options = subset.Options()
    options.layout_features = list(features)
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # the copyright and the names: the licence travels
    options.notdef_outline = True
    options.flavor = flavor
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(used))
    sub.subset(font)
    font.flavor = flavor
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()
