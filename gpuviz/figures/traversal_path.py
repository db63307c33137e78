"""The traversal figure's path part: one order's grid of C tiles, graded by visit order, the shown
step's tiles in ink, the visiting path and, where a cell holds one, each tile's visit number.

A grid whose cells would be under :data:`VECTOR_MIN_CELL` is drawn as an image, one cell per
tile (still pointable tile by tile). Its shading says the order; the path is drawn in cells of
at least :data:`PATH_MIN_CELL` and the visit numbers where every cell holds one: smaller, they
would hatch the grid or be unreadable, and the legend says what is left out.

Keys: ``tile:r,c`` (a tile), ``grid:<order>`` (a grid drawn as an image), ``path:<order>``."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import Style
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import Block, BlockCanvas, Target, format_number, line_step
from gpuviz.figures.metrics import cap_height, ink_height, room_width, text_width
from gpuviz.figures.theme import Theme
from gpuviz.figures.traversal_resident import rgb_of
from gpuviz.keys import key

SHADES = 6
VECTOR_MIN_CELL = 1.6  # below this a grid is drawn as an image
PATH_MIN_CELL = 3.0  # below this the path's lines would hatch the grid: the shade alone reads
MAX_NUMBERED = 128  # more visit numbers cost more to paint than they help to read


def shades(theme: Theme) -> list[str]:
    """Visit-order shades, first to last: the theme's 'valid' colour through a lifting veil of
    background (later tiles carry more of the colour: darker on a light ground, brighter on a
    dark one)."""
    return [theme.mix(theme.color("valid"), 0.2 + 0.55 * i / (SHADES - 1))
            for i in range(SHADES)]


def current_style(theme: Theme, outline: bool = True) -> Style:
    """The tiles of the shown step: ink, a mark no role and no visit shade uses (green stays
    for hits)."""
    return Style(fill=theme.foreground, stroke=theme.foreground if outline else None,
                 stroke_width=theme.line_mm if outline else 0.0)


def numbers_fit(n_tiles: int, cell: float, size: float) -> bool:
    """Whether every tile's visit number fits its cell's upper left, clear of the path through
    the cell's centre."""
    return (n_tiles <= MAX_NUMBERED and cell >= VECTOR_MIN_CELL
            and text_width(format_number(n_tiles - 1), size) + 0.9 <= cell
            and ink_height(size) + 0.9 <= cell * 0.62)


_PIXELS: Kept[np.ndarray] = Kept(8)


def draw_grid(c: BlockCanvas, theme: Theme, run, done: int, current_lo: int, rows: int,
              cols: int, gx: float, gy: float, cell: float, size: float,
              path_selected: bool = False) -> None:
    """The grid of ``run`` at (gx, gy): ``done`` tiles visited, those from ``current_lo`` on in
    this step; ``path_selected`` draws the path with the selection's double line."""
    vector = cell >= VECTOR_MIN_CELL
    outline = cell >= 2.0
    n_tiles = rows * cols
    position = np.empty(n_tiles, dtype=np.int64)  # visit position of each tile
    flat = run.order[:, 0] * cols + run.order[:, 1]
    position[flat] = np.arange(n_tiles)
    ramp = shades(theme)
    shade_of = np.minimum(position * SHADES // max(n_tiles, 1), SHADES - 1)
    pending = position >= done
    current = (position >= current_lo) & (position < done)
    name = run.order_name
    if not vector:
        def pixels() -> np.ndarray:
            rgb = np.empty((n_tiles, 3), dtype=float)
            rgb[:] = np.array([rgb_of(s) for s in ramp])[shade_of]
            rgb[pending] = rgb_of(theme.color("absent"))
            rgb[current] = rgb_of(theme.foreground)
            out = rgb.reshape(rows, cols, 3).round().astype(np.uint8)
            out.setflags(write=False)  # shared by the figures drawn with it
            return out

        # one raster per step and theme: a layout search draws the grid in every design
        c.image(gx, gy, cols * cell, rows * cell,
                _PIXELS.get((run, theme), (done, current_lo, rows, cols), pixels),
                key=key("grid", name), cells="tile")
        c.rect(gx, gy, cols * cell, rows * cell, theme.stroke("outline", theme.thin_mm))
        return
    rr, cc = np.divmod(np.arange(n_tiles), cols)
    xywh = np.stack([gx + cc * cell, gy + rr * cell, np.full(n_tiles, cell),
                     np.full(n_tiles, cell)], axis=1)
    keys = [key("tile", r, k) for r, k in zip(rr.tolist(), cc.tolist(), strict=True)]
    groups = [(pending, theme.fill("absent", outline=outline))]
    for s in range(SHADES):
        groups.append(((~pending) & (~current) & (shade_of == s),
                       Style(fill=ramp[s], stroke=theme.outline if outline else None,
                             stroke_width=theme.thin_mm if outline else 0.0)))
    groups.append((current, current_style(theme, outline)))
    for mask, style in groups:
        idx = np.flatnonzero(mask)
        if len(idx):
            c.rects(xywh[idx], style, [keys[i] for i in idx])
    if not outline:  # cells too small to outline each: the grid's edge still shows its extent
        c.rect(gx, gy, cols * cell, rows * cell, theme.stroke("outline", theme.thin_mm))
    numbered = numbers_fit(n_tiles, cell, size)
    path_key = key("path", name)
    if n_tiles > 1 and (cell >= PATH_MIN_CELL or path_selected):
        # The path steps between 4-neighbours; where the order jumps (row-major's return to the
        # next row, a group's next column) it breaks instead of crossing the grid and its
        # numbers.
        centres = np.stack([gx + (run.order[:, 1] + 0.5) * cell,
                            gy + (run.order[:, 0] + 0.5) * cell], axis=1)
        step_ok = np.abs(np.diff(run.order, axis=0)).sum(axis=1) == 1
        if path_selected:
            outer, inner = theme.selection()
            _path(c, centres, step_ok, 0, n_tiles, outer, path_key)
            _path(c, centres, step_ok, 0, n_tiles, inner, path_key)
        elif not numbered:
            # the path still ahead, dashed (where it has been, the solid line below runs)
            _path(c, centres, step_ok, max(0, done - 1), n_tiles,
                  theme.stroke("muted", theme.thin_mm, dash=(0.6, 0.6)), path_key)
        if done > 1 and not path_selected:
            # The path so far stays light; this step's stretch is drawn strongly.
            _path(c, centres, step_ok, 0, done, theme.stroke("muted", theme.thin_mm * 1.5),
                  path_key)
            _path(c, centres, step_ok, max(0, current_lo - 1), done,
                  theme.stroke("foreground", theme.line_mm), path_key, arrow=True)
    if numbered:
        # Visit numbers in each cell's upper left, on a knockout of the cell's own colour
        # where the path passes under them.
        for t, (r, k) in enumerate(run.order.tolist()):
            tile = r * cols + k
            ground = (theme.color("absent") if pending[tile] else theme.foreground
                      if current[tile] else ramp[shade_of[tile]])
            ink = theme.muted if pending[tile] else theme.ink_on(ground)
            c.label(gx + k * cell + 0.45, gy + r * cell + 0.45 + cap_height(size),
                    format_number(t), size, ink, knockout=ground, key=key("tile", r, k))


def _path(c: BlockCanvas, centres: np.ndarray, step_ok: np.ndarray, lo: int, hi: int,
          style: Style, path_key: str, arrow: bool = False) -> None:
    """The path through positions lo … hi − 1 as one batch of 4-neighbour steps (a jump is
    left out); ``arrow``: an arrowhead on its last step."""
    idx = np.arange(lo, max(lo, hi - 1))
    idx = idx[step_ok[idx]] if len(idx) else idx
    if not len(idx):
        return
    seg = np.concatenate([centres[idx], centres[idx + 1]], axis=1)
    if arrow:
        if len(seg) > 1:
            c.segments(seg[:-1], style, [path_key] * (len(seg) - 1))
        c.polyline([tuple(seg[-1, :2]), tuple(seg[-1, 2:])], style, key=path_key,
                   arrow_end=True)
    else:
        c.segments(seg, style, [path_key] * len(seg))


def ramp_block(theme: Theme, width: float, target: Target) -> Block:
    """The visit-order shading as a ramp from the first visited tiles to the last (its words on
    a line of their own where one line is wider than ``width``)."""
    c = BlockCanvas()
    small = max(theme.small_pt, target.min_pt)
    fg = theme.foreground
    sw = max(2.6, cap_height(small) * 1.25)
    lead, first, tail = "visited tiles,", "first", "last"
    # the words measured with room for a wider face, so that the swatches after them stay clear
    ramp_w = SHADES * sw + room_width(first, small) + room_width(tail, small) + 2.0
    apart = room_width(lead + " ", small) + ramp_w > width
    x, y = 0.0, 0.0
    if apart:
        c.text(0.0, cap_height(small), lead, small, fg)
        y = line_step(small, 1.2)
        c.text(0.0, y + sw / 2, first, small, fg, baseline="middle")
        x = room_width(first, small) + 1.0
    else:  # one text, so that a wider face set in its place cannot run the words together
        c.text(0.0, sw / 2, f"{lead} {first}", small, fg, baseline="middle")
        x = room_width(f"{lead} {first}", small) + 1.0
    used = room_width(lead, small)
    for s in shades(theme):
        c.rect(x, y, sw, sw, Style(fill=s, stroke=theme.outline, stroke_width=theme.thin_mm))
        x += sw
    x += 1.0
    c.text(x, y + sw / 2, tail, small, fg, baseline="middle")
    x += room_width(tail, small)
    return c.block(max(used, x), y + sw, "visit order")
