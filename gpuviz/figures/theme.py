"""Themes: every colour, type size, line width and spacing a figure uses comes from here.

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
from typing import TYPE_CHECKING, Literal, get_args, overload

from gpuviz.figures.display import Canvas, Hatch, Style
from gpuviz.figures.spacing import SPACINGS, Spacing

if TYPE_CHECKING:
    from gpuviz.figures.targets import Kind, Target

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

#: Vermillion is kept for bad states (see :data:`ROLE_TABLE`), so the categorical series cycle
#: through the other seven Okabe–Ito colours, in this order in every theme: blue, orange, bluish
#: green, sky blue, gray (Okabe–Ito's black, made a mid gray so that no category is the ink of
#: the selection), reddish purple, yellow. A theme may lighten or darken a hue for its ground
#: (dark, print), never swap it for another: category 0 is blue everywhere.
CATEGORY_HUES = ("blue", "orange", "bluish green", "sky blue", "gray", "reddish purple",
                 "yellow")
SCREEN_PALETTE = ("#0072B2", "#E69F00", "#009E73", "#56B4E9", "#6B6B6B", "#CC79A7", "#F0E442")
DARK_PALETTE = ("#3D94DB", "#E69F00", "#1DB389", "#9AD0F0", "#9A9A9A", "#E08FC0", "#F0E442")

#: The print theme's categories: the same hues moved to six gray levels 0.12 apart (gray =
#: 0.2126 R + 0.7152 G + 0.0722 B), in the order above, so that neighbours differ by at least one
#: step and the first five (the ones plot lines use) are dark enough to show as a line on paper;
#: the darkest takes white text (``ink_on``). The seventh (yellow) repeats the second's gray
#: (orange), so a figure with more than six categories adds ``category_hatch``.
PRINT_PALETTE = (
    "#005C90",  # blue, gray 0.30
    "#F0C564",  # orange, 0.78
    "#1FAA84",  # bluish green, 0.54
    "#5EB8EA",  # sky blue, 0.66
    "#6B6B6B",  # gray (for Okabe–Ito's black), 0.42
    "#F5D5E6",  # reddish purple, 0.87
    "#E0CF3A",  # yellow, 0.78
)

#: Hatches for categories whose fills are veiled toward the ground (their gray steps shrink): the
#: first two the most unlike, and the sparse dots (weak on a small swatch) between two line hatches.
PRINT_CATEGORY_HATCHES: tuple[Hatch, ...] = ("horizontal", "diagonal", "dots", "cross")


#: The name of every role of :data:`ROLE_TABLE` (a test checks the two agree), its old names
#: (:data:`ROLE_ALIASES`) and ``selected``: the names ``Theme.fill`` and ``Theme.color`` know
#: (a figure that annotates its role names with it has a misspelt one found by the type
#: checker, not at export time).
RoleName = Literal[
    "valid", "masked", "load", "compute", "read", "write", "hit", "resident",
    "conflict", "hazard", "miss", "wait", "wait_slot", "wait_ready", "wait_prefetch", "empty",
    "limiter", "undefined", "warn",
    "absent", "unused", "free", "faded", "broadcast", "linear", "swizzled", "a_operand",
    "b_operand", "c_output", "ok", "overhead", "detail",
    "active", "inactive", "used", "owned", "selected",
]
#: The structural colours of a theme, beside its roles.
Token = Literal["background", "surface", "foreground", "muted", "grid", "outline", "accent"]
ColourName = RoleName | Token
TOKENS: tuple[Token, ...] = get_args(Token)


@dataclass(frozen=True)
class Role:
    """One meaning and its swatch in every theme: the product's colour language in one row.

    ``bad`` roles (a conflict, a hazard, a miss, a wait, an empty issue slot, a limiter) are the
    only ones drawn in vermillion; ``terms`` are the words a legend uses for the meaning, which the
    lint reads to check that vermillion is used for bad states only and that a meaning keeps its
    swatch in every figure of a theme. The screen colours serve the presentation theme too."""

    name: RoleName
    meaning: str
    screen: str
    dark: str
    print: str
    print_hatch: Hatch | None = None
    bad: bool = False
    terms: tuple[str, ...] = ()


_V, _V_DARK, _V_PRINT = "#D55E00", "#F07F3C", "#E8A27A"  # vermillion: bad states only

#: Every role a figure may fill with, once. In print, lightness as printed (CIE L* of the gray,
#: paper 100): resident 97, faded 90, load 84, read 82, a_operand 76, hit 77, bad states 71 and
#: cross-hatched (the slot wait 77 and hatched diagonally, the loaded-tile wait 39 and hatched
#: horizontally), write 68.5, compute 67, b_operand 63.5, valid 62, c_output 47; masked is
#: paper, hatched diagonally. The flat ones a figure's legend shows together print at least
#: 12 apart (the lint's ``lightness`` rule): valid, write, a_operand, b_operand and resident
#: moved for it (from 67, 71, 80, 69 and 94).
ROLE_TABLE: tuple[Role, ...] = (
    # states, one swatch each in every panel
    Role("valid", "a valid (active) lane or thread", "#0072B2", "#56B4E9", "#759BBE",
         terms=("valid", "active lane", "active thread")),
    Role("masked", "a masked (inactive) lane or thread", "#D5D9DE", "#2C333B", "#FFFFFF",
         "diagonal", terms=("masked",)),
    Role("load", "a load from memory", "#56B4E9", "#3C88B8", "#AAD9F4", terms=("load", "loaded")),
    Role("compute", "compute (math) work", "#E69F00", "#C98A10", "#E6A002",
         terms=("compute", "math")),
    Role("read", "a read of a word or a slot", "#CC79A7", "#E08FC0", "#E9C3D9",
         terms=("read",)),
    Role("write", "a write of a word or a slot", "#F0E442", "#D8CC30", "#C1B000",
         terms=("write",)),
    Role("hit", "a cache hit", "#009E73", "#2BBF8F", "#8CCFB9", terms=("hit",)),
    Role("resident", "resident or owned: a tile in a cache, a slot owned by a tile",
         "#B9DAF2", "#24435A", "#F3F7FA", terms=("resident", "owned")),
    # bad states: vermillion and nothing else is
    Role("conflict", "a bank conflict", _V, _V_DARK, _V_PRINT, "cross", True, ("conflict",)),
    Role("hazard", "a read that sees a wrong value, or the write that caused it", _V, _V_DARK,
         _V_PRINT, "cross", True, ("hazard",)),
    Role("miss", "a cache miss", _V, _V_DARK, _V_PRINT, "cross", True, ("miss",)),
    Role("wait", "a wait: work stalled for data", _V, _V_DARK, _V_PRINT, "cross", True,
         ("wait", "waits", "waiting", "stall")),
    Role("wait_slot", "a load waiting for a free buffer slot", "#F2B68F", "#F6B48A", "#F0B48A",
         "diagonal", True, ("wait", "waits")),
    Role("wait_ready", "loaded data waiting for its consumer", "#8C3D00", "#A84A10", "#B34A00",
         "horizontal", True, ("wait", "waits")),
    Role("wait_prefetch", "a load held back by the prefetch limit", "#F8D9C4", "#5A2A10",
         "#F7DDCB", "dots", True, ("wait", "waits")),
    Role("empty", "an empty issue slot", _V, _V_DARK, _V_PRINT, "cross", True, ("empty issue",)),
    Role("limiter", "the limiting resource", _V, _V_DARK, _V_PRINT, "cross", True,
         ("limiting", "limiter", "cap", "limit")),
    Role("undefined", "an undefined (uninitialised) value", "#E28E4D", "#C8703A", "#E8A27A",
         "cross", True, ("undefined", "uninitialised", "uninitialized")),
    Role("warn", "an error or a broken contract", _V, _V_DARK, _V_PRINT, "cross", True,
         ("error", "broken", "breaks", "race")),
    # neutral grounds and the rest
    Role("absent", "nothing there", "#FFFFFF", "#16191D", "#FFFFFF"),
    Role("unused", "fetched but not used", "#FFFFFF", "#16191D", "#FFFFFF"),
    Role("free", "a free slot", "#FFFFFF", "#16191D", "#FFFFFF"),
    Role("faded", "a historic value, no longer current", "#B5BCC4", "#50555B", "#E3E3E3"),
    Role("broadcast", "one word read by several lanes at once", "#009E73", "#2BBF8F",
         "#8CCFB9"),
    Role("linear", "the linear layout", "#E69F00", "#E69F00", "#F2CF80"),
    Role("swizzled", "the swizzled layout", "#0072B2", "#56B4E9", "#759BBE"),
    Role("a_operand", "matrix A", "#E69F00", "#E69F00", "#E2B95E"),
    Role("b_operand", "matrix B (apart from load, which shares its figures)", "#CC79A7",
         "#E08FC0", "#C58BAC"),
    Role("c_output", "matrix C", "#009E73", "#2BBF8F", "#00926A"),
    Role("ok", "a good state", "#009E73", "#2BBF8F", "#8CCFB9"),
    # a loop's own instructions (address arithmetic, the counter, the branch) beside its math:
    # another hue and another lightness than compute in every theme (two browns read as one)
    Role("overhead", "an instruction of the loop itself, not its math", "#CC79A7", "#E08FC0",
         "#B0609A"),
    # what a figure draws in detail below (a block, a warp): the strong ink of a light ground,
    # a light fill on the dark one (a mid gray there reads as disabled)
    Role("detail", "the item the parts below draw in detail", "#5F6B7A", "#DDE4EC",
         "#4D4D4D"),
)

#: Old role names kept as aliases of the role that now carries their meaning.
ROLE_ALIASES: Mapping[str, RoleName] = MappingProxyType({
    "active": "valid", "inactive": "masked", "used": "read", "owned": "resident",
})

#: Every semantic role a figure may fill with. Each theme gives each role a colour.
ROLES = tuple(r.name for r in ROLE_TABLE) + tuple(ROLE_ALIASES)

ROLE: Mapping[str, Role] = MappingProxyType({r.name: r for r in ROLE_TABLE})


def role(name: str) -> Role:
    """The row of :data:`ROLE_TABLE` for ``name`` (an old name is read through its alias)."""
    return ROLE[ROLE_ALIASES.get(name, name)]


@dataclass(frozen=True)
class Theme:
    name: str
    background: str
    surface: str  # a panel's ground, slightly off the background
    foreground: str
    muted: str
    grid: str
    outline: str
    accent: str  # the ink of a selection and of a marked point (never a state colour)
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
    # the spacing of each kind of target (``figures.spacing``): :meth:`spacing`
    spacings: Mapping[Kind, Spacing] = field(default_factory=lambda: SPACINGS)

    def spacing(self, target: Target) -> Spacing:
        """The margins, gaps and paddings a figure for ``target`` is laid out with: the record
        of its kind."""
        return self.spacings[target.kind]

    def color(self, name: ColourName) -> str:
        """A named colour: a structural token (``foreground``, ``accent`` …) or a role
        (a :data:`ColourName`)."""
        if name in self.roles:
            return self.roles[name]
        value = getattr(self, name, None)
        if isinstance(value, str) and value.startswith("#"):
            return value
        raise KeyError(f"theme {self.name!r} has no colour {name!r}")

    def colours(self) -> set[str]:
        """The theme's own colours: structural tokens, the categorical palette and the roles,
        and black and white, the inks a text takes where neither of the theme's reads on its
        ground (:func:`gpuviz.figures.legible.legible_colour`)."""
        return {self.background, self.surface, self.foreground, self.muted, self.grid,
                self.outline, self.accent, *self.palette, *self.roles.values(),
                "#000000", "#FFFFFF"}

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

    def fill(self, role: ColourName, *, outline: bool = True) -> Style:
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

    def stroke(self, name: ColourName = "foreground", width: float | None = None,
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

    def role(self, name: str) -> Role:
        """The row of the role table behind ``name``."""
        return role(name)

    def bad_colours(self) -> frozenset[str]:
        """The colours of the bad-state roles in this theme: vermillion and its tints."""
        return frozenset(self.roles[r.name] for r in ROLE_TABLE if r.bad)

    def highlight(self) -> Style:
        """The selection's line: thick, in the ink colour, never a category or state colour;
        around a box it is the outer line of :meth:`select`'s double outline."""
        return Style(stroke=self.foreground, stroke_width=self.thick_mm * 1.5)

    def selection(self) -> tuple[Style, Style]:
        """The selection's style: a double outline, a thick line of ink split by a thin line of
        the ground, which shows on every fill (ink on a light fill, the ground's line on a dark
        one, vermillion included)."""
        return (self.highlight(), Style(stroke=self.background, stroke_width=self.thick_mm * 0.5))

    def select(self, c: Canvas, x: float, y: float, w: float, h: float, *,
               key: str | None = None, radius: float = 0.0) -> None:
        """Mark the box (x, y, w, h) as selected with the double outline of :meth:`selection`."""
        outer, inner = self.selection()
        c.rect(x, y, w, h, outer, key=key, radius=radius)
        c.rect(x, y, w, h, inner, radius=radius)

    def subject(self) -> Style:
        """The frame around what a step's caption talks about (the thing its selection names,
        where the drawing alone would not change): heavy, dashed, in the ink colour."""
        return Style(stroke=self.foreground, stroke_width=self.thick_mm * 1.5, dash=(1.6, 0.8))


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


def printed_lightness(color: str) -> float:
    """CIE L* (0 black – 100 paper) of the gray ``color`` prints as (:func:`gray_level` read
    as an sRGB gray): a grayscale copy's lightness, in steps a reader sees alike everywhere
    on the scale, unlike the gray level's own steps."""
    g = gray_level(color)
    y = g / 12.92 if g <= 0.04045 else ((g + 0.055) / 1.055) ** 2.4
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else 24389 / 27 * y


def gray_of_lightness(lightness: float) -> float:
    """The gray level whose printed lightness is ``lightness`` (the inverse of
    :func:`printed_lightness` on grays)."""
    f = (lightness + 16) / 116
    y = f ** 3 if f ** 3 > 216 / 24389 else lightness * 27 / 24389
    return 12.92 * y if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055


def contrast_ratio(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two #rrggbb colours, (L1 + 0.05) / (L2 + 0.05) of their
    relative luminances: 1 (alike) to 21 (black on white)."""
    lo, hi = sorted((_luminance(a), _luminance(b)))
    return (hi + 0.05) / (lo + 0.05)


def _roles(column: str, foreground: str) -> Mapping[str, str]:
    """A theme's colour for every role (and alias): the table's ``column``; ``selected`` is the
    ink, the colour of the selection's outline."""
    colours: dict[str, str] = {r.name: getattr(r, column) for r in ROLE_TABLE}
    colours.update({old: colours[new] for old, new in ROLE_ALIASES.items()})
    colours["selected"] = foreground
    return MappingProxyType(colours)


SCREEN = Theme(
    name="screen", background="#FFFFFF", surface="#F4F5F7", foreground="#1B1F24",
    muted="#5F6B7A", grid="#D5D9DF", outline="#8A94A3", accent="#1B1F24", palette=SCREEN_PALETTE,
    roles=_roles("screen", "#1B1F24"),
)

DARK = Theme(
    name="dark", background="#16191D", surface="#20252B", foreground="#E8ECF1",
    muted="#9AA5B4", grid="#39414B", outline="#6C7787", accent="#E8ECF1", palette=DARK_PALETTE,
    roles=_roles("dark", "#E8ECF1"),
)

# Print: white ground, black ink, and meaning carried by lightness steps plus hatching, so a
# grayscale copy keeps every distinction (the gray levels are listed with ROLE_TABLE).
PRINT = Theme(
    name="print", background="#FFFFFF", surface="#FFFFFF", foreground="#000000",
    muted="#4D4D4D", grid="#BFBFBF", outline="#000000", accent="#000000", palette=PRINT_PALETTE,
    roles=_roles("print", "#000000"),
    hatches=MappingProxyType({
        **{r.name: r.print_hatch for r in ROLE_TABLE if r.print_hatch},
        **{old: h for old, new in ROLE_ALIASES.items()
           if (h := next((r.print_hatch for r in ROLE_TABLE if r.name == new), None))},
    }),
    category_hatches=PRINT_CATEGORY_HATCHES,
    line_mm=0.25, thin_mm=0.12, thick_mm=0.5,
)

# Presentation: large type, thick lines, high contrast, for a projector at the back of a room.
PRESENTATION = Theme(
    name="presentation", background="#FFFFFF", surface="#F2F2F2", foreground="#000000",
    muted="#333333", grid="#B0B0B0", outline="#333333", accent="#000000", palette=SCREEN_PALETTE,
    roles=_roles("screen", "#000000"), text_pt=10.0, small_pt=9.0, title_pt=12.5,
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
