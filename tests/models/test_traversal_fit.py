"""Which LRU capacities give each measured traversal case (gpuviz.models.traversal_fit), against
the stored tables: the agreeing cases are matched at the cache's own size, and of the 4096²
disagreements all but the H200's GROUP_M 4 are matched by an LRU within 10 % of that size."""

from __future__ import annotations

import pytest

from gpuviz.kernels import measure
from gpuviz.models import traversal
from gpuviz.models.traversal_fit import capacity_fit, reason

TABLES = ("h200-traversal.json", "h200-traversal-sizes.json", "h100-traversal-mid.json")


def _cases(rows_at_most: int = 48):
    for f in measure.shipped():
        if f.name in TABLES:
            m = measure.load(f)
            for c in m["cases"]:
                if c["section"]["rows"] <= rows_at_most:
                    yield c, m["known_disagreements"], m["tolerance"]


def _fit(c, tolerance=0.10):
    return capacity_fit(measure.case_params("traversal", c["section"]), c["measured"],
                        tolerance)


def test_the_fit_reads_the_models_own_traffic_at_the_caches_size():
    for c, known, tol in _cases():
        fit = _fit(c, tol)
        own = fit.traffic[fit.capacities.index(fit.capacity)]
        assert own == pytest.approx(c["model"]), c["id"]
        assert fit.own_matches == (c["id"] not in known), c["id"]


def test_the_4096_disagreements_are_matched_near_the_partition_but_grouped4_on_the_h200():
    windows = {}
    for c, known, _ in _cases():
        if c["id"] in known:
            fit = _fit(c)
            lo, hi = fit.nearest_window()
            windows[c["id"]] = (fit.mib(lo), fit.mib(hi), fit.mib(fit.capacity))
    assert set(windows) == {
        "trav-hilbert-4096-half-l2", "trav-hilbert-4096-k32", "trav-grouped4-4096-k32",
        "trav-grouped16-4096-k32", "trav-h100-hilbert-4096-k32", "trav-h100-grouped16-4096-k32"}
    for case, (lo, hi, own) in windows.items():
        near = min(abs(lo - own), abs(hi - own)) / own
        if case == "trav-grouped4-4096-k32":
            assert near > 0.3 and hi - lo < 0.1  # a cliff of the LRU at 40 MiB, not a plateau
        else:
            assert near <= 0.10, case
    # the H200's Hilbert curve: a sliver of capacity at 28 MiB, where the scan's edge starts
    lo, hi, own = windows["trav-hilbert-4096-k32"]
    assert 27.5 < lo <= hi < 28.5 and own == 30


def test_row_major_has_grouped4s_lru_traffic_at_every_capacity_the_h200_measured_apart():
    """Why GROUP_M 4 at 4096² is not a matter of reuse distance: up to 36 MiB the LRU gives
    row-major and GROUP_M 4 the same traffic within 5 %, yet the H200 read 29 % more for
    row-major."""
    cases = {c["id"]: c for c, _, _ in _cases()}
    row, g4 = cases["trav-row-major-4096-k32"], cases["trav-grouped4-4096-k32"]
    a, b = _fit(row), _fit(g4)
    assert a.capacities == b.capacities
    upto = [i for i, cap in enumerate(a.capacities) if a.mib(cap) <= 36]
    assert len(upto) > 1000
    assert all(abs(b.traffic[i] / a.traffic[i] - 1) < 0.05 for i in upto)
    assert row["measured"] / g4["measured"] > 1.25


def test_the_reason_says_which_capacity_would_match_or_that_none_near_does():
    cases = {c["id"]: c for c, _, _ in _cases()}
    assert reason(_fit(cases["trav-grouped4-4096-k32"])).startswith(
        "Only an LRU of 40 MiB, 33 % larger than this cache's 30 MiB, gives it, so the reuse "
        "distances alone do not decide it")
    assert reason(_fit(cases["trav-hilbert-4096-k32"])).startswith(
        "An LRU of 27.9–28 MiB gives it, not 30 MiB")
    fit = capacity_fit(traversal.TraversalParams(rows=32, cols=32, k_tiles=128, in_flight=132,
                                                 cache="l2-partition", arch="h200",
                                                 tile_bytes=8192), 0.5, 0.10)
    assert fit is not None and not fit.matching  # below one read of A and B: nothing gives it
    assert reason(fit).startswith("No LRU of 15–45 MiB gives the measured traffic within 10 %")
    assert capacity_fit(traversal.TraversalParams(capacity=None), 1.0, 0.1) is None


def _real_cases_tool():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "traversal_real_cases.py"
    spec = importlib.util.spec_from_file_location("traversal_real_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_placed_orders_keep_each_steps_tiles_and_the_h200_lru_all_but_unchanged():
    """The placement cases (tools/device/batch10.sh) deal each step's tiles to other blocks:
    the same tiles in flight together, so the LRU of one partition predicts within 1 % of the
    plain order for every case; a measured change is the placement's (which SM reads which
    tile), which a reuse-distance model cannot show."""
    from dataclasses import replace

    tool = _real_cases_tool()
    base = traversal.TraversalParams(rows=32, cols=32, k_tiles=128, in_flight=132, sweep=False,
                                     cache="l2-partition", arch="h200", tile_bytes=8192)
    placed = tool.placed_cases()
    assert len(placed) == 10
    for _ident, n, order, g, placement in placed:
        plain = tool.order_tiles(n, order, g)
        moved = tool.order_tiles(n, order, g, placement)
        assert moved != plain
        for first in range(0, len(plain), 132):
            assert sorted(moved[first:first + 132]) == sorted(plain[first:first + 132])
        p = replace(base, order=order, group_m=g)
        lru = traversal.compute(p).operand_traffic
        other = traversal.compute(replace(p, order="explicit", explicit=tuple(moved)))
        assert other.operand_traffic == pytest.approx(lru, rel=0.01)
