"""tools/l2_partition_replay.py: two L2 partitions with a far-hit path, replayed request by
request. With every SM on one side and no home fill it is exactly the one-partition LRU of
gpuviz.models.traversal; the built replay gives the Python one's answer; against the stored
tables it agrees with one partition's LRU away from 4096² and, at 4096², leaves the known
disagreements as they are (docs/hardware-notes.md)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from gpuviz.kernels import measure
from gpuviz.models import traversal

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    path = ROOT / "tools" / "l2_partition_replay.py"
    spec = importlib.util.spec_from_file_location("l2_partition_replay", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def _grid(order: str, rows: int, cols: int, group_m: int = 2) -> list[tuple[int, int]]:
    return [(int(i), int(j)) for i, j in traversal.tile_order(order, rows, cols, group_m)]


@pytest.mark.parametrize("order", ["row-major", "column-major", "hilbert", "grouped"])
@pytest.mark.parametrize("capacity", [3, 7, 12, 40])
def test_one_side_without_home_fill_is_the_lru_of_one_partition(order, capacity):
    rows, cols, k, p = 6, 5, 3, 4
    tiles = _grid(order, rows, cols)
    dram, far = TOOL.replay(tiles, rows, cols, k, p, capacity, [0] * len(tiles), "near")
    lru = traversal.compute(traversal.TraversalParams(
        rows=rows, cols=cols, order=order, group_m=2, k_tiles=k, in_flight=p,
        capacity=capacity, sweep=False))
    assert far == 0
    assert dram == lru.misses


def test_a_tile_read_on_both_sides_is_a_far_hit_for_the_half_homed_away():
    # one tile per step, the same tile twice: side 0, then side 1, nothing evicted
    tiles, sides = [(0, 0), (0, 0)], [0, 1]
    # side 0 reads A and B from DRAM (4 halves), the halves homed in 1 fill it too; side 1
    # finds its own halves at home and asks side 0 for the others: far hits
    assert TOOL.replay(tiles, 1, 1, 1, 1, 8, sides, "home") == (2.0, 2)
    # without the home fill side 1's own halves are not there: 2 more halves from DRAM
    assert TOOL.replay(tiles, 1, 1, 1, 1, 8, sides, "near") == (3.0, 2)


@pytest.mark.parametrize("rule", ["chunk:1", "chunk:3+1", "random:4"])
def test_every_operand_byte_is_read_once_when_both_partitions_hold_everything(rule):
    rows, cols, k, p = 5, 6, 4, 6
    tiles = _grid("hilbert", rows, cols)
    per_block = TOOL.block_sides(rule, p)
    sides = [per_block[t % p] for t in range(len(tiles))]
    dram, far = TOOL.replay(tiles, rows, cols, k, p, (rows + cols) * k, sides, "home")
    assert dram == (rows + cols) * k
    assert far > 0


def test_block_rules_split_the_blocks_as_documented():
    assert TOOL.block_sides("chunk:66") == [0] * 66 + [1] * 66
    assert TOOL.block_sides("chunk:2+1", 6) == [0, 1, 1, 0, 0, 1]
    gpc = TOOL.block_sides("gpc:2,1,3/1", 6)  # round-robin over GPCs of 2, 1 and 3 SMs
    assert gpc == [0, 1, 0, 0, 0, 0]
    assert sum(TOOL.block_sides("random:3")) == 66
    with pytest.raises(ValueError):
        TOOL.block_sides("every:2")


def test_the_schedule_of_batch_10_gives_the_sm_of_every_position(tmp_path):
    # the format tools/traversal_probe.cu writes: "case ID", then "start end sm" per position
    f = tmp_path / "sched.txt"
    f.write_text("case a\n10 20 5\n11 21 70\ncase b\n1 2 0\n")
    assert TOOL.read_schedule(f) == {"a": [5, 70], "b": [0]}


ENGINE_SKIP = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay") / "l2_partition_replay"
    subprocess.run(["g++", "-O2", "-o", str(out), str(ROOT / "tools" / "l2_partition_replay.cpp")],
                   check=True)
    return str(out)


@ENGINE_SKIP
@pytest.mark.parametrize("fill", ["home", "near"])
def test_the_built_replay_gives_the_python_replays_answer(engine, fill):
    rows, cols, k, p = 8, 7, 5, 6
    for order in ("row-major", "hilbert", "grouped"):
        tiles = _grid(order, rows, cols, 3)
        sides = [TOOL.block_sides("chunk:2", p)[t % p] for t in range(len(tiles))]
        for capacity in (5, 20, 50):
            assert TOOL.engine_replay(engine, tiles, rows, cols, k, p, capacity, sides, fill) \
                == TOOL.replay(tiles, rows, cols, k, p, capacity, sides, fill)


def _cases(name: str) -> list[dict]:
    return measure.load(ROOT / "resources" / "measurements" / name)["cases"]


@ENGINE_SKIP
def test_against_the_stored_tables_the_far_hit_path_leaves_4096_as_it_was(engine):
    """Replayed with the first 66 blocks on one side and home fill: within 6 % of every
    measured case from 2048² to 16384² on both cards except at 4096², where the H200's Hilbert
    and GROUP_M 4 stay more than 20 % off (as the LRU of one partition: −24 %, +34 %) and the
    H100's Hilbert and GROUP_M 16 more than 25 %."""
    sides = TOOL.block_sides("chunk:66")
    off = {}
    for name in ("h200-traversal-sizes.json", "h100-traversal-mid.json"):
        for c in _cases(name):
            per = [sides[t % 132] for t in range(c["section"]["rows"] * c["section"]["cols"])]
            v = TOOL.traffic(c, per, "home", engine)
            if "-4096-" in c["id"]:
                off[c["id"]] = v / c["measured"] - 1
            else:
                assert abs(v / c["measured"] - 1) <= 0.06, c["id"]
    assert off["trav-hilbert-4096-k32"] < -0.2 and off["trav-grouped4-4096-k32"] > 0.2
    assert off["trav-h100-hilbert-4096-k32"] < -0.25
    assert off["trav-h100-grouped16-4096-k32"] < -0.25
    assert abs(off["trav-row-major-4096-k32"]) < 0.01  # every B column read on both sides
