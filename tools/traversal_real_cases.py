"""Case files of the real-size traversal batch (tools/device/batch6.sh): N × N × N bf16 at
N = 4096, 8192, 16384 with 128 × 128 output tiles and K steps of 32 (8 KiB A and B tiles, the
model's ``k_tiles = N / 32``), and a repeat of the K-step-64 cases at 4096.

Usage: python tools/traversal_real_cases.py DIR
writes DIR/real32.txt (K step 32), DIR/lock32.txt (the same cases at 4096, run in lockstep) and
DIR/real64.txt (K step 64 at 4096) and DIR/mid32.txt (K step 32 at 2048, 4096 and 6144,
batch 9), one case a line: "ID N TILES t0 t1 …" as
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


def case_id(order: str, group_m: int, n: int, bk: int) -> str:
    name = f"grouped{group_m}" if order == "grouped" else order
    return f"trav-{name}-{n}-k{bk}"


def cases(bk: int, sizes=SIZES) -> list[tuple[str, int, str, int]]:
    """(id, N, order, GROUP_M) in the order the batch runs them."""
    orders = ORDERS if bk == 32 else tuple(o for o in ORDERS if o != ("grouped", 4)
                                           and o != ("grouped", 16))
    return [(case_id(o, g, n, bk), n, o, g) for n in sizes for o, g in orders]


def line(n: int, order: str, group_m: int, ident: str) -> str:
    g = n // TILE
    tiles = [int(r) * g + int(c) for r, c in tile_order(order, g, g, group_m)]
    return f"{ident} {n} {len(tiles)} " + " ".join(map(str, tiles))


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, bk, sizes in (("real32", 32, SIZES), ("lock32", 32, LOCKSTEP_SIZES),
                            ("real64", 64, (4096,)), ("mid32", 32, MID_SIZES)):
        lines = [line(n, o, g, i) for i, n, o, g in cases(bk, sizes)]
        (out / f"{name}.txt").write_text("\n".join(lines) + "\n")
        print(out / f"{name}.txt", len(lines), "cases")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
