"""The orders in which output tiles are visited, over a ``rows × cols`` grid of output tiles
(any size, not only powers of two):

* ``row-major`` / ``column-major``;
* ``hilbert`` — the generalised Hilbert curve for rectangles ("gilbert", J. Červený), which
  visits every tile once and always steps to a 4-neighbour; of its two orientations the one
  along the longer side is used unless only the other keeps every step 4-neighbour;
* ``grouped`` — Triton's GROUP_M swizzle: blocks of ``group_m`` tile rows are walked column by
  column, ``pid_m = first_m + (pid % (group_m·cols)) % group_size_m``,
  ``pid_n = (pid % (group_m·cols)) // group_size_m``;
* ``explicit`` — a list of linear tile numbers ``i·cols + j`` from the scenario, which must be a
  permutation of all tiles.
"""

import numpy as np


def _sgn(v: int) -> int:
    return (v > 0) - (v < 0)


def _gilbert(ax: int, ay: int, bx: int, by: int, memo: dict) -> np.ndarray:
    """Červený's generalised Hilbert recursion: the (x=col, y=row) points, relative to the
    start, that fill the rectangle spanned by the major vector (ax, ay) and the minor vector
    (bx, by). The curve of a rectangle depends only on these vectors, so each shape is built
    once (``memo``) and reused wherever the recursion meets it again."""
    key = (ax, ay, bx, by)
    if key in memo:
        return memo[key]
    w = abs(ax + ay)
    h = abs(bx + by)
    dax, day = _sgn(ax), _sgn(ay)
    dbx, dby = _sgn(bx), _sgn(by)
    if h == 1 or w == 1:
        count, dx, dy = (w, dax, day) if h == 1 else (h, dbx, dby)
        steps = np.arange(count, dtype=np.int64)
        out = np.stack([steps * dx, steps * dy], axis=1)
        memo[key] = out
        return out
    ax2, ay2 = ax // 2, ay // 2
    bx2, by2 = bx // 2, by // 2
    w2 = abs(ax2 + ay2)
    h2 = abs(bx2 + by2)
    if 2 * w > 3 * h:
        if w2 % 2 and w > 2:  # an even first half keeps the halves' ends adjacent
            ax2, ay2 = ax2 + dax, ay2 + day
        parts = [((0, 0), (ax2, ay2, bx, by)), ((ax2, ay2), (ax - ax2, ay - ay2, bx, by))]
    else:
        if h2 % 2 and h > 2:
            bx2, by2 = bx2 + dbx, by2 + dby
        parts = [((0, 0), (bx2, by2, ax2, ay2)),
                 ((bx2, by2), (ax, ay, bx - bx2, by - by2)),
                 (((ax - dax) + (bx2 - dbx), (ay - day) + (by2 - dby)),
                  (-bx2, -by2, -(ax - ax2), -(ay - ay2)))]
    out = np.concatenate([_gilbert(*shape, memo) + np.array(at, dtype=np.int64)
                          for at, shape in parts])
    memo[key] = out
    return out


def _four_connected(path: np.ndarray) -> bool:
    return bool(np.all(np.abs(np.diff(path, axis=0)).sum(axis=1) == 1)) if len(path) > 1 else True


def hilbert_order(rows: int, cols: int) -> np.ndarray:
    """(rows·cols, 2) array of (row, col): a generalised Hilbert curve whose every step moves
    to a 4-neighbour."""
    candidates = []
    memo: dict = {}
    for along_cols in (cols >= rows, cols < rows):
        pts = _gilbert(cols, 0, 0, rows, memo) if along_cols else _gilbert(0, rows, cols, 0, memo)
        path = pts[:, ::-1].copy()  # (row, col)
        if _four_connected(path):
            return path
        candidates.append(path)
    return candidates[0]


def grouped_order(rows: int, cols: int, group_m: int) -> np.ndarray:
    """Triton's grouped launch order (GROUP_M) as (row, col) per program id."""
    pid = np.arange(rows * cols, dtype=np.int64)
    in_group = group_m * cols
    first_m = (pid // in_group) * group_m
    size_m = np.minimum(rows - first_m, group_m)
    local = pid % in_group
    return np.stack([first_m + local % size_m, local // size_m], axis=1)


def tile_order(name: str, rows: int, cols: int, group_m: int = 4,
               explicit: tuple[int, ...] = ()) -> np.ndarray:
    """The (row, col) of every output tile in visiting order."""
    if name == "row-major":
        r, c = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    elif name == "column-major":
        c, r = np.divmod(np.arange(rows * cols, dtype=np.int64), rows)
    elif name == "hilbert":
        return hilbert_order(rows, cols)
    elif name == "grouped":
        return grouped_order(rows, cols, group_m)
    elif name == "explicit":
        r, c = np.divmod(np.asarray(explicit, dtype=np.int64), cols)
    else:
        raise ValueError(f"unknown order {name!r}")
    return np.stack([r, c], axis=1)


def multiply_in_order(a: np.ndarray, b: np.ndarray, tile_m: int, tile_n: int, tile_k: int,
                      order: np.ndarray) -> np.ndarray:
    """C = A·B computed output tile by output tile in the given order, each tile accumulating
    its K tiles in K order: the order changes when a tile is computed, never what it sums."""
    m, k = a.shape
    n = b.shape[1]
    c = np.zeros((m, n), dtype=np.result_type(a, b))
    for i, j in np.asarray(order).tolist():
        rs = slice(i * tile_m, min((i + 1) * tile_m, m))
        cs = slice(j * tile_n, min((j + 1) * tile_n, n))
        acc = np.zeros((rs.stop - rs.start, cs.stop - cs.start), dtype=c.dtype)
        for k0 in range(0, k, tile_k):
            ks = slice(k0, min(k0 + tile_k, k))
            acc += a[rs, ks] @ b[ks, cs]
        c[rs, cs] = acc
    return c
