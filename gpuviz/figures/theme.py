"""Themes: every colour, type size and line width a figure uses comes from here.

Figures ask for *roles* (``theme.fill("masked")``, ``theme.color("accent")``), never literal
colours. Categorical colours are the Okabe–Ito palette, which stays distinguishable with the
common colour-vision deficiencies. The ``print`` theme adds hatching to the roles that carry
meaning, so a grayscale print still tells valid from masked and hit from miss: the roles that
appear together sit at least 0.1 apart in gray, and its categorical palette is a sequence of gray
steps (in hue as well, for colour print), with hatches for where the steps run out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from types import MappingProxyType
from typing import overload

from gpuviz.figures.display import Hatch, Style

OKABE_ITO = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#56B4E9",  # sky blue
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow
    "#000000",  # black
)

#: The print theme's categories: Okabe–Ito hues moved to six gray levels 0.12 apart (gray =
#: 0.2126 R + 0.7152 G + 0.0722 B), ordered so that neighbours differ by at least two steps where
#: they can; the lightest still shows on white and the darkest takes white text (``ink_on``). The
#: seventh and eighth (neutral gray, yellow) keep eight categories apart in colour; in gray they
#: repeat the fourth and the fifth, so a figure with more than six categories adds
#: ``category_hatch`` (neighbours, wrapping round, stay two steps apart).
PRINT_PALETTE = (
    "#005C90",  # blue, gray 0.30
    "#F0C564",  # orange, 0.78
    "#1FAA84",  # bluish green, 0.54
    "#CB5900",  # vermillion, 0.42
    "#D0EAF9",  # sky blue, 0.90
    "#D898BC",  # reddish purple, 0.66
    "#6B6B6B",  # gray (for Okabe–Ito's black), 0.42
    "#F4EC7A",  # yellow, 0.90
)

#: Hatches for categories whose fills are veiled toward the ground (their gray steps shrink): the
#: first two the most unlike, and the sparse dots (weak on a small swatch) between two line hatches.
PRINT_CATEGORY_HATCHES: tuple[Hatch, ...] = ("horizontal", "diagonal", "dots", "cross")

#: Every semantic role a figure may fill with. Each theme gives each role a colour.
ROLES = (
    "valid", "masked", "absent", "selected", "used", "unused",
    "hit", "miss", "load", "compute", "wait", "owned", "free",
    "conflict", "broadcast", "linear", "swizzled", "active", "inactive", "faded",
    "a_operand", "b_operand", "c_output", "warn", "ok",
)


@dataclass(frozen=True)
class Theme:
    name: str
    background: str
    surface: str  # a panel's ground, slightly off the background
    foreground: str
    muted: str
    grid: str
    outline: str
    accent: str  # selection and highlight
    palette: tuple[str, ...]
    roles: Mapping[str, str]
    hatches: Mapping[str, Hatch] = field(default_factory=lambda: MappingProxyType({}))
    category_hatches: tuple[Hatch, ...] = ()  # a second channel for categories (print)
    # type sizes in points and line widths in mm; nothing is smaller than 7 pt at a figure's
    # natural size (journals ask for 6–8 pt at the printed size)
    text_pt: float = 8.0
    small_pt: float = 7.0
    title_pt: float = 9.5
    thin_mm: float = 0.15
    line_mm: float = 0.3
    thick_mm: float = 0.6

    def color(self, name: str) -> str:
        """A named colour: a structural token (``foreground``, ``accent`` …) or a role."""
        if name in self.roles:
            return self.roles[name]
        value = getattr(self, name, None)
        if isinstance(value, str) and value.startswith("#"):
            return value
        raise KeyError(f"theme {self.name!r} has no colour {name!r}")

    def colours(self) -> set[str]:
        """The theme's own colours: structural tokens, the categorical palette and the roles."""
        return {self.background, self.surface, self.foreground, self.muted, self.grid,
                self.outline, self.accent, *self.palette, *self.roles.values()}

    def ink_on(self, fill: str) -> str:
        """The text colour (foreground or background) that reads best on ``fill``, a colour or a
        role name."""
        return _ink_on(self.roles.get(fill, fill), self.foreground, self.background)

    def category(self, index: int) -> str:
        return self.palette[index % len(self.palette)]

    def category_hatch(self, index: int) -> Hatch | None:
        """The hatch that tells category ``index`` apart where its fill alone may not (a tint of
        a category in a grayscale print); None in themes that tell categories by colour."""
        if not self.category_hatches:
            return None
        return self.category_hatches[index % len(self.category_hatches)]

    def fill(self, role: str, *, outline: bool = True) -> Style:
        """The style of a cell that shows ``role``: fill, hatch where the theme hatches it,
        and a thin outline."""
        hatch = self.hatches.get(role)
        return Style(
            fill=self.color(role),
            stroke=self.outline if outline else None,
            stroke_width=self.thin_mm if outline else 0.0,
            hatch=hatch,
            hatch_color=self.foreground if hatch else None,
        )

    def stroke(self, name: str = "foreground", width: float | None = None,
               dash: tuple[float, ...] | None = None) -> Style:
        return Style(stroke=self.color(name), stroke_width=self.line_mm if width is None else width,
                     dash=dash)

    def at_gray(self, color: str, level: float) -> str:
        """``color``'s hue moved to gray ``level`` (0 black – 1 paper, luminance weights): veiled
        toward the background to lighten it, mixed with the foreground to darken it (gray is
        linear in the channels, so the mix is exact). For figures that must survive a grayscale
        print where a pixel image or a value cell cannot be hatched."""
        g = gray_level(color)
        lo, hi = sorted((self.foreground, self.background), key=gray_level)
        if abs(level - g) < 1e-9:
            return color
        toward = hi if level > g else lo
        amount = (level - gray_level(toward)) / (g - gray_level(toward))
        a = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
        b = [int(toward[i:i + 2], 16) for i in (1, 3, 5)]
        return "#" + "".join(f"{round(x * amount + y * (1 - amount)):02X}"
                             for x, y in zip(a, b, strict=True))

    @overload
    def mix(self, color: str, amount: float) -> str: ...
    @overload
    def mix(self, color: None, amount: float) -> None: ...
    @overload
    def mix(self, color: str | None, amount: float) -> str | None: ...

    def mix(self, color: str | None, amount: float) -> str | None:
        """``color`` seen through a veil of the background, keeping ``amount`` of the colour."""
        if color is None:
            return None
        return _mix(color, self.background, amount)

    def faded(self, style: Style, amount: float) -> Style:
        """``style`` faded toward the background, opaque (painting alpha costs far more)."""
        return Style(self.mix(style.fill, amount), self.mix(style.stroke, amount),
                     style.stroke_width, style.dash, 1.0, style.hatch,
                     self.mix(style.hatch_color, amount))

    def highlight(self) -> Style:
        """The outline drawn around a selected thing."""
        return Style(stroke=self.accent, stroke_width=self.thick_mm)


def gray_level(color: str) -> float:
    """The gray a ``#rrggbb`` colour prints as (0 black – 1 paper; Rec. 709 luminance weights of
    the channel values, as the print theme's grayscale check uses)."""
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@cache
def _mix(color: str, background: str, amount: float) -> str:
    """``color`` with ``1 - amount`` of ``background`` mixed in (both #rrggbb)."""
    a = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(background[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * amount + y * (1 - amount)):02X}"
                         for x, y in zip(a, b, strict=True))


@cache
def _luminance(color: str) -> float:
    """Relative luminance (WCAG) of a #rrggbb colour."""
    h = color.lstrip("#")
    channels = []
    for i in (0, 2, 4):
        c = int(h[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _roles(**kw: str) -> Mapping[str, str]:
    missing = set(ROLES) - set(kw)
    if missing:
        raise ValueError(f"roles without a colour: {sorted(missing)}")
    return MappingProxyType(dict(kw))


SCREEN = Theme(
    name="screen", background="#FFFFFF", surface="#F4F5F7", foreground="#1B1F24",
    muted="#5F6B7A", grid="#D5D9DF", outline="#8A94A3", accent="#D55E00", palette=OKABE_ITO,
    roles=_roles(
        valid="#0072B2", masked="#E4E7EB", absent="#FFFFFF", selected="#D55E00",
        used="#0072B2", unused="#FFFFFF", hit="#009E73", miss="#D55E00", load="#56B4E9",
        compute="#E69F00", wait="#CC79A7", owned="#CFE3F3", free="#FFFFFF", conflict="#D55E00",
        broadcast="#009E73", linear="#E69F00", swizzled="#0072B2", active="#0072B2",
        inactive="#E4E7EB", faded="#C9D3DE", a_operand="#E69F00", b_operand="#56B4E9",
        c_output="#009E73", warn="#D55E00", ok="#009E73",
    ),
)

DARK = Theme(
    name="dark", background="#16191D", surface="#20252B", foreground="#E8ECF1",
    muted="#9AA5B4", grid="#39414B", outline="#6C7787", accent="#F0A050",
    palette=("#56B4E9", "#E69F00", "#009E73", "#F07F3C", "#9AD0F0", "#E08FC0", "#F0E442", "#FFFFFF"),
    roles=_roles(
        valid="#56B4E9", masked="#2C333B", absent="#16191D", selected="#F0A050",
        used="#56B4E9", unused="#16191D", hit="#2BBF8F", miss="#F07F3C", load="#3C88B8",
        compute="#C98A10", wait="#B06A94", owned="#24435A", free="#16191D", conflict="#F07F3C",
        broadcast="#2BBF8F", linear="#E69F00", swizzled="#56B4E9", active="#56B4E9",
        inactive="#2C333B", faded="#3A4450", a_operand="#E69F00", b_operand="#56B4E9",
        c_output="#2BBF8F", warn="#F07F3C", ok="#2BBF8F",
    ),
)

# Print: white ground, black ink, and meaning carried by lightness steps plus hatching, so a
# grayscale copy keeps every distinction. Gray levels of the roles that share a figure: paper 1.0
# (absent, free; hatched: masked, wait, inactive), owned 0.93, faded 0.89, load and linear 0.82,
# a_operand 0.78, hit 0.75, b_operand 0.66, compute 0.64, valid 0.64, miss 0.68 (cross-hatched),
# c_output 0.44.
PRINT = Theme(
    name="print", background="#FFFFFF", surface="#FFFFFF", foreground="#000000",
    muted="#4D4D4D", grid="#BFBFBF", outline="#000000", accent="#000000", palette=PRINT_PALETTE,
    roles=_roles(
        valid="#7FA9CF", masked="#FFFFFF", absent="#FFFFFF", selected="#000000",
        used="#7FA9CF", unused="#FFFFFF", hit="#8CCFB9", miss="#E8A27A", load="#AAD9F4",
        compute="#E6A002", wait="#FFFFFF", owned="#E6EEF5", free="#FFFFFF", conflict="#E8A27A",
        broadcast="#8CCFB9", linear="#F2CF80", swizzled="#7FA9CF", active="#7FA9CF",
        inactive="#FFFFFF", faded="#E3E3E3", a_operand="#F0C564", b_operand="#5EB8EA",
        c_output="#00926A", warn="#E8A27A", ok="#8CCFB9",
    ),
    hatches=MappingProxyType({
        "masked": "diagonal", "miss": "cross", "wait": "diagonal", "conflict": "cross",
        "inactive": "diagonal", "warn": "cross",
    }),
    category_hatches=PRINT_CATEGORY_HATCHES,
    line_mm=0.25, thin_mm=0.12, thick_mm=0.5,
)

# Presentation: large type, thick lines, high contrast, for a projector at the back of a room.
PRESENTATION = Theme(
    name="presentation", background="#FFFFFF", surface="#F2F2F2", foreground="#000000",
    muted="#333333", grid="#B0B0B0", outline="#333333", accent="#D55E00", palette=OKABE_ITO,
    roles=SCREEN.roles, text_pt=10.0, small_pt=9.0, title_pt=12.5,
    thin_mm=0.25, line_mm=0.45, thick_mm=0.9,
)

THEMES: Mapping[str, Theme] = MappingProxyType(
    {t.name: t for t in (SCREEN, PRINT, DARK, PRESENTATION)}
)


def theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise KeyError(f"unknown theme {name!r}; choose one of {', '.join(THEMES)}") from None


@lru_cache(maxsize=1024)
def _ink_on(fill: str, foreground: str, background: str) -> str:
    """Of ``foreground`` and ``background``, the colour of higher contrast on ``fill``."""
    lum = _luminance(fill)

    def contrast(other: str) -> float:
        a, b = sorted((lum, _luminance(other)))
        return (b + 0.05) / (a + 0.05)

    return foreground if contrast(foreground) >= contrast(background) else background
