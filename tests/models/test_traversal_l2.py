"""The traversal cache sized from the architecture's L2: the whole L2 or one of its two
partitions, less a reserve; a capacity given in tiles is unchanged."""

from dataclasses import replace

import pytest

from gpuviz.models import traversal
from gpuviz.models.arch import preset_value
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.scenario.compute import compute_all
from gpuviz.scenario.io import load_scenario

H200_L2 = preset_value("h200", "l2_bytes")


def test_capacity_in_tiles_is_what_the_scenario_gives():
    p = traversal.TraversalParams(capacity=8, arch="h200")
    assert traversal.effective_capacity(p) == 8
    assert traversal.effective_capacity(replace(p, capacity=None)) is None
    assert traversal.compute(p).capacity == 8


@pytest.mark.parametrize("arch", ["h200", "h100-sxm", "a100"])
def test_l2_sizes_in_tiles(arch):
    l2 = preset_value(arch, "l2_bytes")
    p = traversal.TraversalParams(arch=arch, cache="l2-whole", tile_bytes=16384)
    assert traversal.effective_capacity(p) == l2 // 16384
    part = replace(p, cache="l2-partition")
    assert traversal.effective_capacity(part) == (l2 // 2) // 16384
    reserved = replace(part, l2_reserved_bytes=3 * 16384 + 1)
    assert traversal.effective_capacity(reserved) == (l2 // 2 - 3 * 16384 - 1) // 16384
    assert traversal.problems(reserved) == []


def test_h200_partition_is_the_half_l2_lru_of_the_measurements():
    p = traversal.TraversalParams(rows=32, cols=32, k_tiles=64, in_flight=132, group_m=8,
                                  order="grouped", arch="h200", cache="l2-partition",
                                  capacity=None, sweep=False)
    assert traversal.effective_capacity(p) == H200_L2 // 2 // 16384 == 1920
    by_cache = traversal.compute(p)
    by_tiles = traversal.compute(replace(p, cache="tiles", capacity=1920))
    assert by_cache.misses == by_tiles.misses
    assert by_cache.capacity == 1920 and by_cache.cache == "l2-partition"
    assert "one L2 partition" in by_cache.cache_label and "1,920 tiles" in by_cache.cache_label
    # the whole L2 keeps every operand tile of a 4096² problem (4,096 tiles) but the first use
    whole = traversal.compute(replace(p, cache="l2-whole"))
    assert whole.capacity == 3840 and whole.misses < by_cache.misses


def test_the_l2_size_is_on_the_sweep():
    p = traversal.TraversalParams(rows=32, cols=32, k_tiles=64, in_flight=132, group_m=8,
                                  arch="h200", cache="l2-partition")
    assert 1920 in traversal.sweep_capacities(p)
    assert 1920 not in traversal.sweep_capacities(replace(p, cache="tiles"))


@pytest.mark.parametrize("arch", ["mi300x", "v100"])
def test_partition_is_refused_where_the_l2_is_not_known_to_be_two_partitions(arch):
    p = traversal.TraversalParams(arch=arch, cache="l2-partition")
    assert [f for f, _ in traversal.problems(p)] == ["cache"]
    assert traversal.problems(replace(p, cache="l2-whole")) == []


def test_a_reserve_larger_than_the_cache_is_refused():
    p = traversal.TraversalParams(arch="h200", cache="l2-partition",
                                  l2_reserved_bytes=H200_L2 // 2)
    assert [f for f, _ in traversal.problems(p)] == ["l2_reserved_bytes"]


def test_the_scenario_follows_its_architecture():
    s = load_scenario(scenario_dir() / "traversal-h200-l2.json")
    r = compute_all(s)["traversal"]
    assert r.capacity == 1920 and r.cache == "l2-partition"
    hilbert = r.misses_by_order["hilbert"][r.capacities.index(1920)]
    # the captions quote the model's numbers
    assert f"{r.misses:,}" in s.steps[0].caption and f"{r.compare.misses:,}" in s.steps[0].caption
    assert f"{hilbert:,}" in s.steps[1].caption
    # and the H200 measured the same within 5 % for grouped and row-major (4,096 operand tiles)
    from gpuviz.kernels import measure

    m = next(measure.load(f) for f in measure.shipped() if f.name == "h200-traversal.json")
    measured = {c["section"]["order"]: c["measured"] for c in m["cases"]
                if c["section"]["rows"] == 32}
    assert r.misses / 4096 == pytest.approx(measured["grouped"], rel=0.05)
    assert r.compare.misses / 4096 == pytest.approx(measured["row-major"], rel=0.05)
