"""Case files of the real-size traversal batch (tools/device/batch6.sh): N × N × N bf16 at
N = 4096, 8192, 16384 with 128 × 128 output tiles and K steps of 32 (8 KiB A and B tiles, the
model's ``k_tiles = N / 32``), and a repeat of the K-step-64 cases at 4096.

Usage: python tools/traversal_real_cases.py DIR
writes DIR/real32.txt (K step 32), DIR/lock32.txt (the same cases at 4096, run in lockstep) and
DIR/real64.txt (K step 64 at 4096), DIR/mid32.txt (K step 32 at 2048, 4096 and 6144,
batch 9) and DIR/place32.txt (batch 10: at 4096 the same orders with the tiles of each step
handed to the blocks in another order, :func:`placed_order`), one case a line: "ID N TILES t0 t1 …" as
tools/traversal_probe.cu reads them. tools/build_measurements.py reads the same list back
(:func:`cases`), so the ids and their order are defined once, here.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gpuviz.models.traversal import tile_order

TILE = 128
#: (order, GROUP_M) measured at every size
ORDERS = (("row-major", 8), ("column-major", 8), ("hilbert", 8), ("grouped", 4), ("grouped", 8),
          ("grouped", 16))
SIZES = (4096, 8192, 16384)
LOCKSTEP_SIZES = (4096,)
#: the sizes around the L2's edge (batch 9): 2048² fits one partition, 6144² is three times it
MID_SIZES = (2048, 4096, 6144)
#: batch 10: which block (SM) runs which tile of a step, the order of the steps unchanged
PLACEMENTS = ("reversed", "shuffled")
PLACE_ORDERS = (("row-major", 8), ("hilbert", 8), ("grouped", 4), ("grouped", 8),
                ("grouped", 16))
PLACE_SIZE = 4096
BLOCKS = 132  # the probe's grid: one block per SM of an H100 SXM or H200


def case_id(order: str, group_m: int, n: int, bk: int) -> str:
    name = f"grouped{group_m}" if order == "grouped" else order
    return f"trav-{name}-{n}-k{bk}"


def cases(bk: int, sizes=SIZES) -> list[tuple[str, int, str, int]]:
    """(id, N, order, GROUP_M) in the order the batch runs them."""
    orders = ORDERS if bk == 32 else tuple(o for o in ORDERS if o != ("grouped", 4)
                                           and o != ("grouped", 16))
    return [(case_id(o, g, n, bk), n, o, g) for n in sizes for o, g in orders]


def placed_order(tiles: list[int], placement: str, blocks: int = BLOCKS) -> list[int]:
    """The same steps of ``blocks`` tiles, each step's tiles dealt to the blocks in another
    order: block b runs position s·blocks + b of step s (tools/traversal_probe.cu), so
    "reversed" gives block b the tile block blocks − 1 − b ran, "shuffled" a fixed random
    permutation per step. Which tiles are in flight together is unchanged; which SM reads which
    A and B tiles is not."""
    import numpy as np

    out = list(tiles)
    rng = np.random.default_rng(10)
    for first in range(0, len(tiles), blocks):
        step = tiles[first:first + blocks]
        if placement == "reversed":
            step = step[::-1]
        elif placement == "shuffled":
            step = [step[i] for i in rng.permutation(len(step))]
        else:
            raise ValueError(placement)
        out[first:first + len(step)] = step
    return out


def placed_cases() -> list[tuple[str, int, str, int, str]]:
    """(id, N, order, GROUP_M, placement) of batch 10, in the order it runs them."""
    return [(case_id(o, g, PLACE_SIZE, 32) + f"-{pl}", PLACE_SIZE, o, g, pl)
            for pl in PLACEMENTS for o, g in PLACE_ORDERS]


def order_tiles(n: int, order: str, group_m: int, placement: str | None = None) -> list[int]:
    g = n // TILE
    tiles = [int(r) * g + int(c) for r, c in tile_order(order, g, g, group_m)]
    return tiles if placement is None else placed_order(tiles, placement)


def line(n: int, order: str, group_m: int, ident: str, placement: str | None = None) -> str:
    tiles = order_tiles(n, order, group_m, placement)
    return f"{ident} {n} {len(tiles)} " + " ".join(map(str, tiles))


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, bk, sizes in (("real32", 32, SIZES), ("lock32", 32, LOCKSTEP_SIZES),
                            ("real64", 64, (4096,)), ("mid32", 32, MID_SIZES)):
        lines = [line(n, o, g, i) for i, n, o, g in cases(bk, sizes)]
        (out / f"{name}.txt").write_text("\n".join(lines) + "\n")
        print(out / f"{name}.txt", len(lines), "cases")
    lines = [line(n, o, g, i, pl) for i, n, o, g, pl in placed_cases()]
    (out / "place32.txt").write_text("\n".join(lines) + "\n")
    print(out / "place32.txt", len(lines), "cases")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
