"""The traversal figure's resident part: the A row tiles and B column tiles held by the LRU after
the shown step, shaded by the share resident where K is drawn in bins, with this step's loads
(misses, a square) and hits (a dot) drawn on them.

Keys: ``atile:r,kk`` and ``btile:kk,c`` (a bin is keyed by its first K tile)."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import Style
from gpuviz.figures.layout import BlockCanvas
from gpuviz.figures.theme import RoleName, Theme
from gpuviz.keys import key

SHARE_LEVELS = 5  # shades of a strip bin: none, a quarter … all of its K tiles resident


def rgb_of(color: str) -> np.ndarray:
    return np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def hit_style(theme: Theme) -> Style:
    return Style(fill=theme.color("hit"), stroke=theme.foreground, stroke_width=theme.thin_mm)


def k_per_bin(rows: int, cols: int, k_tiles: int) -> int:
    """K tiles per strip bin: the strips stay within a quarter of the grid's longer side (at
    least 4 bins deep) so the grid keeps most of the area."""
    most = max(4, -(-max(rows, cols) // 4))
    return 1 if k_tiles <= most else -(-k_tiles // most)


def strip_keys(prefix: str, nr: int, nc: int, per: int) -> list[str]:
    """The keys of a strip's cells, row by row; a bin is keyed by its first K tile."""
    base = np.stack(np.divmod(np.arange(nr * nc), nc), axis=1).tolist()
    if prefix == "atile":
        return [key(prefix, i, j * per) for i, j in base]
    return [key(prefix, i * per, j) for i, j in base]


def _tints(theme: Theme, role: RoleName) -> list[str]:
    return [theme.color("absent")] + [theme.mix(theme.color(role), (i + 1) / (SHARE_LEVELS - 1))
                                      for i in range(SHARE_LEVELS - 1)]


_RASTERS: dict[tuple, tuple] = {}


def strip_raster(theme: Theme, share: np.ndarray, loads: np.ndarray, hits: np.ndarray,
                 role: RoleName) -> np.ndarray:
    """A strip drawn as one pixel per tile (or bin): its tint by the share resident, this
    step's loads and hits in their colours. Kept for the strips last drawn (a layout search
    draws the same strips in every design it tries: a 1024-row A strip costs 4 ms a time)."""
    cache_key = (id(share), id(loads), id(hits), id(theme), role)
    kept = _RASTERS.get(cache_key)
    if kept is not None and kept[0] is share and kept[1] is loads and kept[2] is hits \
            and kept[3] is theme:
        return kept[4]
    nr, nc = share.shape
    levels = np.round(share * (SHARE_LEVELS - 1)).astype(np.int64)
    rgb = np.array([rgb_of(s) for s in _tints(theme, role)]).astype(np.uint8)[levels.reshape(-1)]
    for mask, colour in ((loads > 0, theme.color("miss")), (hits > 0, theme.color("hit"))):
        rgb[mask.reshape(-1)] = rgb_of(colour)
    rgb = rgb.reshape(nr, nc, 3)
    rgb.setflags(write=False)  # shared by every figure drawn from it
    if len(_RASTERS) > 8:
        _RASTERS.clear()
    _RASTERS[cache_key] = (share, loads, hits, theme, rgb)  # kept alive: their ids not reused
    return rgb


def draw_strip(c: BlockCanvas, theme: Theme, share: np.ndarray, loads: np.ndarray,
               hits: np.ndarray, role: RoleName, prefix: str, x: float, y: float, cell: float,
               per: int, vector: bool, outline: bool) -> None:
    """One strip (``prefix`` "atile" or "btile") of ``share``'s shape at (x, y): tints by the
    share resident, this step's loads and hits (``loads``/``hits`` above 0; a bin's share)
    marked by shape as well as colour, so grayscale keeps them apart."""
    nr, nc = share.shape
    if not vector:
        # as dense as the grid: one pixel per tile (or bin), still pointable
        rgb = strip_raster(theme, share, loads, hits, role)
        mask_load = loads > 0
        c.image(x, y, nc * cell, nr * cell, rgb, key=prefix, cells=prefix)
        hatch = theme.hatches.get("miss")
        if hatch:
            # where the theme hatches loads (print), the loaded tiles' runs carry the legend's
            # hatch too: a cell under a millimetre is too small for it alone
            runs = [(x + j * cell, y + i * cell, w * cell, h * cell)
                    for i, j, h, w in mask_runs(mask_load)]
            if runs:
                c.rects(runs, Style(hatch=hatch, hatch_color=theme.foreground))
        c.rect(x, y, nc * cell, nr * cell, theme.stroke("outline", theme.thin_mm))
        return
    levels = np.round(share * (SHARE_LEVELS - 1)).astype(np.int64)
    tints = _tints(theme, role)
    mask_load, mask_hit = loads > 0, hits > 0
    base = np.stack(np.divmod(np.arange(nr * nc), nc), axis=1)
    xywh = np.stack([x + base[:, 1] * cell, y + base[:, 0] * cell,
                     np.full(len(base), cell), np.full(len(base), cell)], axis=1)
    keys = strip_keys(prefix, nr, nc, per)
    flat_levels = levels.reshape(-1)
    for level, tint in enumerate(tints):
        idx = np.flatnonzero(flat_levels == level)
        if len(idx):
            style = theme.fill("absent" if level == 0 else role, outline=outline)
            if 0 < level < SHARE_LEVELS - 1:
                style = Style(fill=tint, stroke=style.stroke, stroke_width=style.stroke_width,
                              hatch=style.hatch, hatch_color=style.hatch_color)
            c.rects(xywh[idx], style, [keys[i] for i in idx])
    loaded = np.flatnonzero(mask_load.reshape(-1))
    hit = np.flatnonzero(mask_hit.reshape(-1))
    if not outline:
        marks: tuple[tuple[np.ndarray, RoleName], ...] = ((loaded, "miss"), (hit, "hit"))
        for idx, role_ in marks:
            if len(idx):
                c.rects(xywh[idx], theme.fill(role_, outline=False), [keys[i] for i in idx])
        c.rect(x, y, nc * cell, nr * cell, theme.stroke("outline", theme.thin_mm))
        return
    inset = cell * 0.22
    if len(loaded):
        c.rects(xywh[loaded] + np.array([inset, inset, -2 * inset, -2 * inset]),
                theme.fill("miss"))
    for i in hit.tolist():
        c.circle(xywh[i, 0] + cell / 2, xywh[i, 1] + cell / 2, cell * 0.2, hit_style(theme))


def select_strip_cells(c: BlockCanvas, theme: Theme, selection: frozenset[str], prefix: str,
                       x: float, y: float, cell: float, shape: tuple[int, int],
                       per: int) -> None:
    """The selection's double outline on each selected cell of a strip (a selected K tile marks
    the bin that holds it)."""
    nr, nc = shape
    for text in sorted(selection):
        kind, _, value = text.partition(":")
        if kind != prefix:
            continue
        try:
            i, j = (int(v) for v in value.split(","))
        except ValueError:
            continue
        r, k = (i, j // per) if prefix == "atile" else (i // per, j)
        if 0 <= r < nr and 0 <= k < nc:
            theme.select(c, x + k * cell, y + r * cell, cell, cell)


_BINNED: dict[tuple[int, int], tuple] = {}


def binned_state(state, per: int) -> tuple:
    """The A and B strips of a state in bins of ``per`` K tiles: (share resident, any loaded,
    any hit and none loaded) for A, then for B. Kept for the state last asked about (a layout
    search builds the same strips at several widths)."""
    cache_key = (id(state), per)
    kept = _BINNED.get(cache_key)
    if kept is None or kept[6] is not state:
        a = [_bin(m, per, axis=1) for m in (state.a_resident, state.a_loaded, state.a_hit)]
        b = [_bin(m, per, axis=0) for m in (state.b_resident, state.b_loaded, state.b_hit)]
        a[2], b[2] = np.where(a[1] > 0, 0.0, a[2]), np.where(b[1] > 0, 0.0, b[2])
        kept = (*a, *b, state)  # the state kept alive with it, so its id is not reused
        if len(_BINNED) > 8:
            _BINNED.clear()
        _BINNED[cache_key] = kept
    return kept[:6]


def _bin(mask: np.ndarray, per: int, axis: int) -> np.ndarray:
    """The share of each bin of ``per`` K tiles (along ``axis``) that is set."""
    if per == 1:
        return mask.astype(float)
    k = mask.shape[axis]
    bins = -(-k // per)
    shape = list(mask.shape)
    shape[axis] = bins * per
    padded = np.zeros(shape, dtype=float)
    padded[(slice(None), slice(0, k)) if axis == 1 else (slice(0, k), slice(None))] = mask
    counts = np.full(bins, per, dtype=float)
    counts[-1] = k - per * (bins - 1)
    if axis == 1:
        return padded.reshape(mask.shape[0], bins, per).sum(axis=2) / counts[None, :]
    return padded.reshape(bins, per, mask.shape[1]).sum(axis=1) / counts[:, None]


def mask_runs(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The set cells of a 2-D mask as runs (row, col, rows, cols) along its longer side."""
    along_rows = mask.shape[0] >= mask.shape[1]
    grid = mask.T if along_rows else mask
    runs = []
    for line, cells in enumerate(grid.tolist()):
        start = None
        for k, on in enumerate([*cells, False]):
            if on and start is None:
                start = k
            elif not on and start is not None:
                runs.append((start, line, k - start, 1) if along_rows
                            else (line, start, 1, k - start))
                start = None
    return runs
