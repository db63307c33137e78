"""The reduction tree's styles: each kind of cell (input, current partial, historic value, a
shared entry no warp stores to, an undefined value) and the lines of an add, in every theme;
in print each kind of cell on a gray step of its own, so that it survives a grayscale copy."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.display import Style
from gpuviz.figures.theme import RoleName, Theme, gray_of_lightness


def cell_style(theme: Theme, role: RoleName) -> Style:
    base = theme.fill(role)
    if theme.category_hatch(0) is not None and role in PRINT_GRAY:
        # A grayscale-safe theme (print): each meaning on its own gray step, keeping its hue
        # (the current partials take the hue of valid data).
        hue = theme.color("valid") if role == "active" else base.fill or theme.background
        return replace(base, fill=theme.at_gray(hue, PRINT_GRAY[role]))
    if role == "active":
        # Lighter than the input on a light page, brighter than it on a dark one.
        return theme.faded(base, 0.75 if _dark(theme) else 0.45)
    if role == "faded":
        # Dimmed: nearer the ground than the inputs and partials it stands for, in every theme.
        return theme.faded(base, HISTORIC_OPACITY)
    if role == "warn":
        # Hatched where the theme hatches warnings (print); the "?" marks it everywhere.
        return Style(fill=theme.mix(theme.color("warn"), 0.7), stroke=theme.outline,
                     stroke_width=theme.thin_mm, hatch=base.hatch, hatch_color=base.hatch_color)
    return base


#: Gray levels (0 black – 1 paper) of the tree's cells in a theme that must survive a grayscale
#: print, 13 L* apart as printed (the lint's ``lightness`` rule asks 12; at 0.12 gray apart
#: the inputs, historic values and the paper printed 10.8 apart): the current partials darkest,
#: the inputs lighter, historic values nearly paper, and shared entries no warp stores to the
#: paper itself. Values sit on them in black (in muted gray on historic cells), so they are flat
#: steps, not hatching.
PRINT_GRAY = {"active": gray_of_lightness(60.0), "owned": gray_of_lightness(73.0),
              "faded": gray_of_lightness(86.5), "absent": 1.0}


#: How much of the theme's faded fill a historic value keeps over the ground (screen: contrast
#: 1.31 with the page against the inputs' 1.46; dark: 1.41 against 1.70).
HISTORIC_OPACITY = 0.45


def _dark(theme: Theme) -> bool:
    return sum(int(theme.background[i:i + 2], 16) for i in (1, 3, 5)) < 3 * 0x80


def contributor_style(theme: Theme) -> Style:
    """The outline of a selected partial's contributors: dashed in the ink, unlike the
    selection's double outline."""
    return Style(stroke=theme.foreground, stroke_width=theme.line_mm, dash=(0.7, 0.45))


def own_style(theme: Theme) -> Style:
    """A lane's own value carried into its add: dotted, beside the shuffle's solid line."""
    return Style(stroke=theme.muted, stroke_width=theme.thin_mm, dash=(0.3, 0.4))
