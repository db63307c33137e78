"""Two L2 partitions with a far-hit path, replayed request by request: do they give the DRAM
traffic measured at 4096², where the LRU of one partition (gpuviz.models.traversal) is off?

The A100 whitepaper ("A100 L2 Cache") describes the L2 as two partitions, each caching data for
the SMs of the GPCs directly connected to it, kept coherent by the hardware. The replay makes
that concrete, on the request stream of :mod:`gpuviz.models.traversal` (step s runs P tiles;
for kk = 0 … K − 1 each of them in turn requests A(i, kk), then B(kk, j)):

* every 8 KiB tile is two halves, one homed in each partition (addresses are spread over the
  slices of both);
* a request goes to the partition of the SM that runs the tile (the near one); a hit there
  costs nothing;
* a miss of a half homed there reads it from DRAM into the near partition;
* a miss of a half homed in the other partition asks that one: a far hit if it holds it, else a
  DRAM read that fills the home partition (``--fill home``) or not (``--fill near``); either way
  the near partition keeps a copy;
* each partition is an LRU of one partition's capacity (``effective_capacity`` of the case).

Which SM runs which block, and to which partition an SM is connected, are not documented. The
tool takes a rule from the block (its place b in the step) to the partition: ``chunk:C`` or
``chunk:C+O`` is ((b + O) // C) mod 2 (``chunk:66``: the first 66 blocks and the rest),
``gpc:S1,S2,…/G1,G2,…`` deals the blocks round-robin over GPCs of S1, S2, … SMs and puts GPCs
G1, G2, … in partition 1, ``random:SEED`` any 66 of them. Or it reads the schedule that
tools/device/batch10.sh records (``--schedule FILE``: the SM of every order position) and puts
the SMs below ``--sm-split`` in partition 0.

Usage: python tools/l2_partition_replay.py TABLE.json [--only N] [--sides RULE] [--fill F]
       [--engine PATH] [--schedule FILE --sm-split S] [--search]
TABLE.json: a traversal measurement (resources/measurements/); --only keeps the cases of one N;
--engine: tools/l2_partition_replay.cpp built (the Python replay takes about 25 s a 4096² case,
the built one 20 ms); --search replays every rule of the families above with both fills and
prints the best, by their largest difference from the measured traffic.
"""

from __future__ import annotations

import argparse
import random
import subprocess
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from gpuviz.kernels import measure
from gpuviz.models import traversal

FILLS = ("home", "near")
BLOCKS = 132


def replay(tiles: Sequence[tuple[int, int]], rows: int, cols: int, k_tiles: int,
           in_flight: int, capacity: int, sides: Sequence[int],
           fill: str = "home") -> tuple[float, int]:
    """(tiles read from DRAM, halves served by the far partition) of the run: ``tiles`` are the
    output tiles (row, col) in order, ``sides[t]`` the partition (0 or 1) of the SM that runs
    order position t, ``capacity`` the tiles each partition holds."""
    if fill not in FILLS:
        raise ValueError(fill)
    parts: list[OrderedDict[tuple[int, int, int], None]] = [OrderedDict(), OrderedDict()]
    limit = 2 * capacity  # in halves

    def put(part: OrderedDict, a: tuple[int, int, int]) -> None:
        part[a] = None
        part.move_to_end(a)
        if len(part) > limit:
            part.popitem(last=False)

    dram = far = 0
    for first in range(0, len(tiles), in_flight):
        step = range(first, min(first + in_flight, len(tiles)))
        for kk in range(k_tiles):
            for t in step:
                i, j = tiles[t]
                x = sides[t]
                near = parts[x]
                for panel in (i, rows + j):
                    for half in (0, 1):
                        a = (panel, kk, half)
                        if a in near:
                            near.move_to_end(a)
                            continue
                        if half != x:
                            home = parts[half]
                            if a in home:
                                home.move_to_end(a)
                                far += 1
                            else:
                                dram += 1
                                if fill == "home":
                                    put(home, a)
                        else:
                            dram += 1
                        put(near, a)
    return dram / 2, far


def engine_replay(engine: str, tiles: Sequence[tuple[int, int]], rows: int, cols: int,
                  k_tiles: int, in_flight: int, capacity: int, sides: Sequence[int],
                  fill: str = "home") -> tuple[float, int]:
    """:func:`replay` by the built tools/l2_partition_replay.cpp."""
    head = (f"{rows} {cols} {k_tiles} {in_flight} {capacity} {FILLS.index(fill)} "
            f"{len(tiles)}\n")
    body = "\n".join(f"{i} {j} {s}" for (i, j), s in zip(tiles, sides, strict=True))
    out = subprocess.run([engine], input=head + body + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), int(out[1])


def block_sides(rule: str, blocks: int = BLOCKS) -> list[int]:
    """The partition of each block (its place in a step) under ``rule`` (module docstring)."""
    kind, _, arg = rule.partition(":")
    if kind == "chunk":
        size, _, offset = arg.partition("+")
        c, o = int(size), int(offset or 0)
        return [((b + o) // c) % 2 for b in range(blocks)]
    if kind == "gpc":
        sizes_text, _, far_text = arg.partition("/")
        sizes = [int(v) for v in sizes_text.split(",")]
        far = {int(v) for v in far_text.split(",") if v}
        held = [0] * len(sizes)
        out, g = [], 0
        for _b in range(blocks):
            while held[g % len(sizes)] >= sizes[g % len(sizes)]:
                g += 1
            out.append(int(g % len(sizes) in far))
            held[g % len(sizes)] += 1
            g += 1
        return out
    if kind == "random":
        chosen = set(random.Random(int(arg)).sample(range(blocks), blocks // 2))
        return [int(b in chosen) for b in range(blocks)]
    raise ValueError(f"unknown rule {rule!r}")


def search_rules(blocks: int = BLOCKS) -> list[str]:
    rules = [f"chunk:{c}+{o}" for c in range(1, blocks // 2 + 1) for o in sorted({0, c // 2})]
    for sizes in ("18,18,16,16,16,16,16,16", "16,16,16,16,16,16,18,18",
                  "18,16,18,16,16,16,16,16"):
        rules += [f"gpc:{sizes}/{far}" for far in ("4,5,6,7", "1,3,5,7", "2,3,6,7")]
    return rules + [f"random:{seed}" for seed in range(20)]


def read_schedule(path: Path) -> dict[str, list[int]]:
    """Batch 10's schedule: per case, the SM of every order position ("case ID", then one
    "start end sm" line per position)."""
    out: dict[str, list[int]] = {}
    sms: list[int] = []
    for line in path.read_text().splitlines():
        if line.startswith("case "):
            sms = out.setdefault(line.split()[1], [])
        elif line.strip():
            sms.append(int(line.split()[2]))
    return out


def case_run(case: dict) -> tuple[list[tuple[int, int]], traversal.TraversalParams, int]:
    """A measured case's order, parameters and the tiles one partition holds."""
    p = measure.case_params("traversal", case["section"])
    order = traversal.tile_order(p.order, p.rows, p.cols, p.group_m, p.explicit)
    capacity = traversal.effective_capacity(p)
    assert capacity is not None
    return [(int(i), int(j)) for i, j in order], p, capacity


def traffic(case: dict, sides_of: Sequence[int], fill: str, engine: str | None) -> float:
    """The replay's DRAM bytes ÷ bytes of A and B for ``case``."""
    tiles, p, capacity = case_run(case)
    args = (tiles, p.rows, p.cols, p.k_tiles, p.in_flight, capacity, sides_of, fill)
    dram, _far = engine_replay(engine, *args) if engine else replay(*args)
    return dram / traversal.distinct_tiles(p)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables", nargs="+", type=Path)
    ap.add_argument("--only", type=int, help="the cases of this N alone")
    ap.add_argument("--sides", default="chunk:66")
    ap.add_argument("--fill", default="home", choices=FILLS)
    ap.add_argument("--engine")
    ap.add_argument("--schedule", type=Path)
    ap.add_argument("--sm-split", type=int, default=BLOCKS // 2)
    ap.add_argument("--search", action="store_true")
    a = ap.parse_args(argv)
    cases = [c for t in a.tables for c in measure.load(t)["cases"]
             if a.only is None or c["section"]["rows"] * 128 == a.only]
    schedule = read_schedule(a.schedule) if a.schedule else {}

    def sides_for(case: dict, rule: str) -> list[int]:
        if case["id"] in schedule:
            return [int(sm >= a.sm_split) for sm in schedule[case["id"]]]
        per_block = block_sides(rule, case["section"]["in_flight"])
        return [per_block[t % len(per_block)]
                for t in range(case["section"]["rows"] * case["section"]["cols"])]

    if not a.search:
        for c in cases:
            v = traffic(c, sides_for(c, a.sides), a.fill, a.engine)
            print(f"{c['id']:36s} replay {v:6.3f}  measured {c['measured']:6.3f}  "
                  f"{v / c['measured'] - 1:+.1%}")
        return
    found = []
    for rule in search_rules():
        for fill in FILLS:
            errs = [traffic(c, sides_for(c, rule), fill, a.engine) / c["measured"] - 1
                    for c in cases]
            found.append((max(abs(e) for e in errs), rule, fill, errs))
    found.sort()
    print("ids: " + " ".join(c["id"] for c in cases))
    for worst, rule, fill, errs in found[:10]:
        print(f"{worst:6.1%} {rule:28s} {fill}: " + " ".join(f"{e:+.0%}" for e in errs))


if __name__ == "__main__":
    main()
