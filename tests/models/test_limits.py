"""The costliest section each panel accepts is computed in full (its cost is measured by
benchmarks/bench_limits.py, not here), and one step past a computed limit is refused."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
from pathlib import Path

import pytest

from gpuviz.models import traversal
from gpuviz.models.jsonable import dumps, to_jsonable
from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario import ScenarioError, compute_all, loads_scenario

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_limits",
                                                  ROOT / "benchmarks" / "bench_limits.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def worst(panel_id: str):
    label, section = BENCH.WORST_CASES[panel_id][0]
    scenario = loads_scenario(json.dumps(BENCH.scenario_of(panel_id, section)), label)
    return section, compute_all(scenario, (panel_id,))[panel_id]


@pytest.mark.parametrize("panel_id", sorted(PANEL_IDS))
def test_the_worst_case_is_accepted_and_computes_to_a_complete_result(panel_id):
    _, result = worst(panel_id)
    assert dataclasses.is_dataclass(result)
    out = to_jsonable(result)
    public = [f.name for f in dataclasses.fields(result) if f.metadata.get("json", True)]
    assert list(out) == public
    # what `gpuviz compute` prints stays bounded: the largest, the traversal's per-step
    # arrays, is about 5 MB
    assert len(dumps({panel_id: out})) < 10_000_000
    figure = panel(panel_id).figure.build(result, frozenset(), _theme())
    assert figure.width > 0 and figure.height > 0


def _theme():
    from gpuviz.figures.theme import SCREEN

    return SCREEN


def test_the_largest_traversal_counts_every_request():
    section, r = worst("traversal")
    rows, cols = section["rows"], section["cols"]
    tiles = rows * cols
    assert tiles <= traversal.MAX_TILES
    assert r.k_tiles == traversal.MAX_K_TILES
    assert r.accesses == 2 * tiles * r.k_tiles == 2 * traversal.MAX_TILES * traversal.MAX_K_TILES
    assert sorted((int(i) * cols + int(j)) for i, j in r.order) == list(range(tiles))
    assert [int(i) * cols + int(j) for i, j in r.order] == section["explicit"]
    assert r.steps == math.ceil(tiles / r.in_flight) == len(r.loads_per_step)
    assert r.hits + r.misses == r.accesses and r.a_loads + r.b_loads == r.misses
    assert int(r.cumulative_loads[-1]) == r.misses
    assert set(r.misses_by_order) == {*traversal.SWEEP_ORDERS, "explicit"}
    assert all(len(m) == len(r.capacities) for m in r.misses_by_order.values())
    assert r.cumulative_loads_by_order["explicit"] == tuple(r.cumulative_loads.tolist())
    assert r.compare is not None and r.compare.order_name == "hilbert"
    assert r.compare.hits + r.compare.misses == r.accesses


def test_the_divergence_ladder_keeps_runs_not_instructions():
    section, r = worst("divergence")
    per_block = section["nodes"][0]["instructions"]
    issues = [e for e in r.trace if e.op == "issue"]
    assert r.issued == sum(e.instructions for e in issues) == per_block * len(issues)
    assert r.lane_instructions == sum(e.instructions * e.active for e in issues)
    assert r.lane_efficiency == r.lane_instructions / (r.warp_size * r.issued)
    assert sum(run.count for run in r.volta_runs) == r.issued
    assert len(r.volta_runs) <= len(issues) * (r.max_depth + 1)
    first = r.volta_order[:3]
    assert first == [("entry", 0, (1 << 64) - 1), ("entry", 1, (1 << 64) - 1),
                     ("entry", 2, (1 << 64) - 1)]


def test_the_longest_schedule_has_a_state_for_every_warp_and_cycle():
    section, r = worst("scheduler")
    assert r.cycles == section["cycles"]
    assert r.states.shape == (r.resident_warps, r.cycles)
    assert len(r.issued_warp) == r.cycles
    assert r.issued_instructions == int((r.issued_warp >= 0).sum())


def test_the_largest_launch_has_every_block():
    section, r = worst("launch")
    assert r.grid == (section["grid"][0], 1, 1) and r.block == (1024, 1, 1)
    assert r.blocks == 1 << 20 and r.threads_launched == (1 << 20) * 1024
    assert r.warps_launched == r.blocks * r.warps_per_block == (1 << 20) * (1024 // r.warp_size)
    assert r.waves == math.ceil(r.blocks / r.slots_per_wave)


def _problems_of(section: dict) -> list[str]:
    try:
        loads_scenario(json.dumps(BENCH.scenario_of("traversal", section)), "x.json")
    except ScenarioError as err:
        return err.lines()
    return []


def test_one_step_past_the_traversal_limits_is_refused():
    # 256 × 256 tiles 1,024 deep along K make 134 M requests, the limit; 1,025 is past it
    assert _problems_of({"rows": 256, "cols": 256, "k_tiles": traversal.MAX_K_TILES}) == []
    lines = _problems_of({"rows": 256, "cols": 256, "k_tiles": traversal.MAX_K_TILES + 1})
    assert len(lines) == 1 and lines[0].startswith("x.json: traversal.k_tiles: ")
    assert "1024" in lines[0]
    assert _problems_of({"rows": 257, "cols": 256}) == [
        f"x.json: traversal.rows: The grid has 65792 tiles; at most {traversal.MAX_TILES} are "
        "supported."]
    assert _problems_of({"sweep_capacities": list(range(1, traversal.MAX_SWEEP_POINTS + 2))})
