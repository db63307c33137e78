"""The traversal figure's path part: one order's grid of C tiles, graded by visit order, the shown
step's tiles in ink, the visiting path and, where a cell holds one, each tile's visit number.

A grid whose cells would be under :data:`VECTOR_MIN_CELL` is drawn as an image, one cell per
tile (still pointable tile by tile). Its shading says the order; the path is drawn in cells of
at least :data:`PATH_MIN_CELL` and the visit numbers where every cell holds one: smaller, they
would hatch the grid or be unreadable, and the legend says what is left out. A grid too small
for its path draws it in a window (:func:`draw_window`): its first rows (the GROUP_M band) and
the columns that fit, framed on the grid and drawn again at a readable cell size.

Keys: ``tile:r,c`` (a tile), ``grid:<order>`` (a grid drawn as an image), ``path:<order>``."""

from __future__ import annotations

from dataclasses import dataclass

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
# A grid whose cells are under PATH_MIN_CELL draws its path in a window of its first rows and
# columns, at cells where the path reads as a path, not as hatching (2 mm cells did)
WINDOW_CELL = 4.0  # the least cell of a window
WINDOW_MAX_CELL = 5.0
WINDOW_MAX_ROWS = 8  # a GROUP_M band deeper than this is shown by its first rows
WINDOW_MAX_H = 32.0
WINDOW_ROWS = 4  # a window's rows where no order shown has a GROUP_M band
WINDOW_GAP = 1.5


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


def _visits(run, rows: int, cols: int, done: int, current_lo: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each tile's shade (by visit position), whether it is still pending, whether this step
    visits it; flat over the grid, row by row."""
    n_tiles = rows * cols
    position = np.empty(n_tiles, dtype=np.int64)  # visit position of each tile
    position[run.order[:, 0] * cols + run.order[:, 1]] = np.arange(n_tiles)
    shade_of = np.minimum(position * SHADES // max(n_tiles, 1), SHADES - 1)
    return shade_of, position >= done, (position >= current_lo) & (position < done)


def _cell_groups(theme: Theme, shade_of: np.ndarray, pending: np.ndarray,
                 current: np.ndarray, outline: bool) -> list[tuple[np.ndarray, Style]]:
    """The cells' styles, one batch each: pending, each visit shade, this step."""
    ramp = shades(theme)
    groups = [(pending, theme.fill("absent", outline=outline))]
    for s in range(SHADES):
        groups.append(((~pending) & (~current) & (shade_of == s),
                       Style(fill=ramp[s], stroke=theme.outline if outline else None,
                             stroke_width=theme.thin_mm if outline else 0.0)))
    groups.append((current, current_style(theme, outline)))
    return groups


def draw_grid(c: BlockCanvas, theme: Theme, run, done: int, current_lo: int, rows: int,
              cols: int, gx: float, gy: float, cell: float, size: float,
              path_selected: bool = False) -> None:
    """The grid of ``run`` at (gx, gy): ``done`` tiles visited, those from ``current_lo`` on in
    this step; ``path_selected`` draws the path with the selection's double line."""
    vector = cell >= VECTOR_MIN_CELL
    outline = cell >= 2.0
    n_tiles = rows * cols
    ramp = shades(theme)
    shade_of, pending, current = _visits(run, rows, cols, done, current_lo)
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
    for mask, style in _cell_groups(theme, shade_of, pending, current, outline):
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


@dataclass(frozen=True)
class PathWindow:
    """The corner of a grid too small for its path, drawn again at a readable cell size with
    the path through it: its first ``rows`` rows and ``cols`` columns, cells of ``cell`` mm."""

    rows: int
    cols: int
    cell: float

    @property
    def depth(self) -> float:
        """How deep the window is drawn, with the gap above it."""
        return WINDOW_GAP + self.rows * self.cell


def path_window(rows: int, cols: int, band: int, width: float,
                max_h: float = WINDOW_MAX_H) -> PathWindow | None:
    """The window of a grid's path that ``width`` mm hold: the grid's first ``band`` rows (the
    order's GROUP_M band, at most :data:`WINDOW_MAX_ROWS`) and as many of its first columns as
    fit at cells of :data:`WINDOW_CELL` mm, or less where the window may be only ``max_h`` mm
    deep, but never under :data:`PATH_MIN_CELL` (fewer rows, then, where the band is deeper
    than that holds); None where fewer than two rows or columns fit, or the grid has one
    tile."""
    wr = min(rows, band, WINDOW_MAX_ROWS, int(max_h // PATH_MIN_CELL))
    if wr < min(2, rows) or rows * cols < 2:
        return None
    most = max(PATH_MIN_CELL, min(WINDOW_MAX_CELL, max_h / wr))
    wc = min(cols, int(width // min(WINDOW_CELL, most)))
    if wc < 2:
        return None
    return PathWindow(wr, wc, min(most, width / wc))


def window_words(rows: int, cols: int, window: PathWindow) -> str:
    """What a window leaves out: "first 4 of 12 rows" (and "and 9 of 16 columns")."""
    words = f"first {format_number(window.rows)} of {format_number(rows)} rows"
    if window.cols < cols:
        words += f" and {format_number(window.cols)} of {format_number(cols)} columns"
    return words


def draw_window(c: BlockCanvas, theme: Theme, run, done: int, current_lo: int, rows: int,
                cols: int, window: PathWindow, x: float, y: float,
                path_selected: bool = False) -> None:
    """``window`` of the grid of ``run`` at (x, y), its cells shaded and marked as the grid's
    are, and the path through their centres in visit order: a dot where it starts, an arrow
    where it leaves the window last. Every stretch of visits inside the window is one line,
    its jumps (a group's next column) included; where the order leaves the window the line
    breaks. The line has a halo of the ground, so it shows on this step's ink tiles too."""
    wr, wc, cell = window.rows, window.cols, window.cell
    shade_of, pending, current = _visits(run, rows, cols, done, current_lo)
    rr, cc = np.divmod(np.arange(wr * wc), wc)
    flat = rr * cols + cc
    xywh = np.stack([x + cc * cell, y + rr * cell, np.full(len(flat), cell),
                     np.full(len(flat), cell)], axis=1)
    keys = [key("tile", r, k) for r, k in zip(rr.tolist(), cc.tolist(), strict=True)]
    # no outline a cell: the path is the window's one line work, its frame shows its extent
    for mask, style in _cell_groups(theme, shade_of[flat], pending[flat], current[flat], False):
        idx = np.flatnonzero(mask)
        if len(idx):
            c.rects(xywh[idx], style, [keys[i] for i in idx])
    c.rect(x, y, wc * cell, wr * cell, theme.stroke("outline", theme.thin_mm))
    inside = (run.order[:, 0] < wr) & (run.order[:, 1] < wc)
    centres = np.stack([x + (run.order[:, 1] + 0.5) * cell,
                        y + (run.order[:, 0] + 0.5) * cell], axis=1)
    # stretches of consecutive visits inside the window: [start, end) positions
    edges = np.diff(np.concatenate([[0], inside.astype(np.int8), [0]]))
    stretches = [(int(a), int(b)) for a, b in zip(np.flatnonzero(edges == 1),
                                                   np.flatnonzero(edges == -1), strict=True)
                 if b - a > 1]
    path_key = key("path", run.order_name)
    halo = Style(stroke=theme.background, stroke_width=theme.line_mm * 3)
    ink = theme.stroke("foreground", theme.line_mm)
    ahead = theme.stroke("muted", theme.line_mm, dash=(0.8, 0.6))
    last = len(stretches) - 1
    # as in the grid: where the order has been, solid; the path still ahead, dashed
    walked = [(a, min(b, done)) for a, b in stretches if min(b, done) - a > 1]
    still = [(max(a, done - 1), b, i == last) for i, (a, b) in enumerate(stretches)
             if b - max(a, done - 1) > 1]
    lines = ([(a, b, s, i == last) for s in theme.selection()
              for i, (a, b) in enumerate(stretches)] if path_selected else
             [(a, b, halo, False) for a, b in walked]
             + [(a, b, ink, b == stretches[-1][1]) for a, b in walked]
             + [(a, b, ahead, end) for a, b, end in still])
    for a, b, style, arrow in lines:
        c.polyline([tuple(p) for p in centres[a:b].tolist()], style, key=path_key,
                   arrow_end=arrow and style is not halo)
    if inside[0]:
        r0 = max(0.45, cell * 0.14)
        c.circle(float(centres[0, 0]), float(centres[0, 1]), r0,
                 Style(fill=theme.foreground, stroke=theme.background,
                       stroke_width=theme.thin_mm * 2), key=path_key)


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
