"""Shipped measurements: every case measured on the H200 agrees with its model, or is a known,
explained disagreement; the profiler's CSV is read as it comes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gpuviz.kernels import measure
from gpuviz.kernels.ncu_csv import read_rows
from gpuviz.models.traversal_lru import misses_at as reuse_misses_at
from gpuviz.models.traversal_lru import panel_reuse

FILES = measure.shipped()


def test_measurements_are_shipped_with_their_provenance():
    names = {f.name for f in FILES}
    assert {"h200-banks.json", "h200-sectors.json", "h200-occupancy-carveout.json",
            "h200-traversal.json", "h200-exported-kernels.json"} <= names
    for f in FILES:
        m = measure.load(f)
        for key in ("device", "driver", "toolkit", "profiler", "date", "tool", "cases"):
            assert m.get(key), f"{f.name}: no {key}"
        # batch 9 asked for an H200 and ran on the H100 it was lent: its files say so by name
        assert m["device"] == ("NVIDIA H100 80GB HBM3" if f.name.startswith("h100-")
                               else "NVIDIA H200")


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_every_measurement_agrees_with_the_model(path):
    m = measure.load(path)
    if path.name == "h200-traversal.json":  # every size: test_traversal_l2_models below
        m["cases"] = [c for c in m["cases"] if c["section"]["rows"] <= 32]
    rows = measure.compare(m, path.name)
    assert rows
    # the model value stored for the app (Measurements dock) is still what the model says
    stored = [c["model"] for c in m["cases"]]
    assert stored == pytest.approx([r.model for r in rows])
    unexplained = [(r.id, r.model, r.measured) for r in rows if not r.agrees and not r.known]
    assert not unexplained
    for r in rows:
        if r.known:
            assert not r.agrees, f"{r.id} is listed as a disagreement but agrees"


def _traversal_models():
    """Per measured traversal case: the model with the whole L2, with one L2 partition (the
    shipped option), and the measured DRAM bytes ÷ bytes of A and B. One pass per case gives
    both (LRU inclusion)."""
    from gpuviz.models import traversal

    m = measure.load(next(f for f in FILES if f.name == "h200-traversal.json"))
    out = {}
    for c in m["cases"]:
        p = measure.case_params("traversal", c["section"])
        assert p.cache == "l2-partition" and p.arch == "h200"
        caps = [traversal.effective_capacity(replace(p, cache=mode))
                for mode in ("l2-whole", "l2-partition")]
        order = traversal.tile_order(p.order, p.rows, p.cols, p.group_m)
        reuse = panel_reuse(order, p.rows, p.cols, p.k_tiles, p.in_flight)
        whole, part = (reuse_misses_at(reuse, np.array(caps)) * c["tile_bytes"]
                       / c["operand_bytes"]).tolist()
        out[c["id"]] = (whole, part, c["measured"], c["model"])
    return out, m["known_disagreements"], m["tolerance"]


def test_traversal_l2_models_against_every_measured_size():
    """One L2 partition (half the H200's 60 MiB) matches the DRAM traffic of all four orders at
    N = 2048, 4096, 6144 and 8192 within 5 %, except the listed Hilbert order at 4096; the whole
    L2 predicts that everything nearly fits at 4096 and is off by 2.2–4.7×."""
    from gpuviz.models import traversal

    p = traversal.TraversalParams(cache="l2-partition", arch="h200")
    assert traversal.effective_capacity(p) == 62914560 // 2 // 16384 == 1920
    assert traversal.effective_capacity(replace(p, cache="l2-whole")) == 3840
    models, known, tol = _traversal_models()
    assert len(models) == 16 and tol == 0.05
    assert set(known) == {"trav-hilbert-4096-half-l2"}
    for case, (whole, part, measured, stored) in models.items():
        assert part == pytest.approx(stored)  # the stored model value is this option's
        if case in known:
            assert abs(part / measured - 1) > tol
            assert whole < part < measured  # the partition explains part of the gap
        else:
            assert abs(part / measured - 1) <= tol, case
    at_4096 = {k: v for k, v in models.items() if "-4096-" in k}
    for whole, _part, measured, _ in at_4096.values():
        assert whole <= 1.13 and measured / whole > 1.9  # the whole L2 misses the 4096 story
    # the partition model ranks the orders at 4096 as measured (Hilbert, grouped, the rest)
    rank = sorted(at_4096, key=lambda k: at_4096[k][2])
    assert rank[:2] == ["trav-hilbert-4096-half-l2", "trav-grouped-4096-half-l2"]
    assert sorted(at_4096, key=lambda k: at_4096[k][1])[:2] == rank[:2]


def test_a_reserve_for_c_cannot_fit_both_knees_at_4096():
    """Why Hilbert at 4096 stays a known disagreement: reserving the C tiles of one step in a
    partition (132 tiles × 32 KiB ÷ 2 partitions = 2 MiB) would match Hilbert but put grouped
    8 % over; the data allow at most about 1.3 MiB, which leaves Hilbert 15 % under."""
    from gpuviz.models import traversal

    m = measure.load(next(f for f in FILES if f.name == "h200-traversal.json"))
    cases = {c["id"]: c for c in m["cases"] if "-4096-" in c["id"]}

    def ratio(case_id, reserved):
        c = cases[case_id]
        p = replace(measure.case_params("traversal", c["section"]), l2_reserved_bytes=reserved)
        return traversal_bytes(p, c) / c["measured"] - 1

    def traversal_bytes(p, c):
        r = traversal.compute(p)
        return (r.a_loads + r.b_loads) * c["tile_bytes"] / c["operand_bytes"]

    c_of_one_step = 132 * 128 * 128 * 2 // 2
    assert abs(ratio("trav-hilbert-4096-half-l2", c_of_one_step)) < 0.05
    assert ratio("trav-grouped-4096-half-l2", c_of_one_step) > 0.05
    assert ratio("trav-grouped-4096-half-l2", 1280 << 10) < 0.05
    assert ratio("trav-hilbert-4096-half-l2", 1280 << 10) < -0.1


def test_merged_phases_were_seen_on_the_hardware():
    """The shipped banks measurements include loads the fixed phases overcount."""
    from gpuviz.models import banks
    from gpuviz.scenario.io import decode_section

    merged = 0
    for name in ("h200-banks.json", "h200-banks-merge.json"):
        for c in measure.load(next(f for f in FILES if f.name == name))["cases"]:
            p, _ = decode_section("banks", c["section"])
            r = banks.compute(p)
            if r.merged_by is not None and r.fixed_phase_rounds > r.rounds:
                assert c["measured"] == r.rounds < r.fixed_phase_rounds
                merged += 1
    assert merged >= 30


CSV = '''==PROF== Connected to process 1 (probe)
case 0 a
"ID","Kernel Name","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","smsp__inst_executed_op_global_ld.sum"
"","","sector",""
"1","ldg_probe<4>","5","1"
"0","ldg_probe<4>","4","1"
==PROF== Disconnected from process 1
'''


def test_ncu_csv_is_read_past_the_profiler_notes_in_launch_order():
    rows = read_rows(CSV)
    assert [r["ID"] for r in rows] == ["0", "1"]
    assert rows[1]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == "5"


def test_import_joins_launches_to_cases_and_compares():
    cases = [{"id": "aligned", "panel": "sectors", "op": "ldg",
              "section": {"follow_launch": False}},
             {"id": "shifted", "panel": "sectors", "op": "ldg",
              "section": {"follow_launch": False, "base_offset": 4}}]
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "p.csv"
        p.write_text(CSV)
        m = measure.from_ncu([p], cases, {"date": "today"})
        with pytest.raises(ValueError, match="2 profiled launches for 1 cases"):
            measure.from_ncu([p], cases[:1], {})
    assert [c["measured"] for c in m["cases"]] == [4.0, 5.0]
    assert [r.agrees for r in measure.compare(m)] == [True, True]
    m["cases"][0]["measured"] = 5
    assert [r.agrees for r in measure.compare(m)] == [False, True]


def test_scheduler_measurements_are_found_by_the_loop_and_labelled_in_percent():
    from gpuviz import measurements
    from gpuviz.kernels import scheduler as probe
    from gpuviz.models.scheduler import SchedulerParams, compute

    m = measure.load(next(f for f in FILES if f.name == "h200-scheduler.json"))
    assert [c["id"] for c in m["cases"]] == [c["id"] for c in probe.cases()]
    assert {c["raw"]["instructions_per_iteration"] // 1 for c in m["cases"]} == {13, 25, 73}
    # the section that models a case finds it, whatever the run's length or the unused fields
    p = SchedulerParams(memory="l1", math_per_load=16, loop_instructions=8, warps_per_sm=16,
                        cycles=1234, load_latency=9, warps=3)
    found = measurements.lookup("scheduler", p)
    assert found is not None and found.case_id == "sched-imm-l1-c16-w16"
    model = compute(p).sm_issue_utilization
    assert found.agrees_with(model)
    percent = f"{found.measured:.1%}".replace("%", " %")
    assert found.label(model) == f"H200 measured: {percent} (agrees within 10 %)"
    off = measurements.lookup("scheduler", SchedulerParams(
        memory="dram", math_per_load=64, loop_instructions=8, warps_per_sm=64))
    assert off is not None and off.known and "all 64 warps of an SM ran together for 72% of the run" in off.known
    assert "higher)" in off.label(1.0)
    assert [w for w, _ in measurements.series("scheduler", p, "warps_per_sm")] == \
        [float(w) for w in probe.WARPS]


def test_the_loaded_latency_brings_133_of_144_scheduler_loops_within_10_percent():
    """The memory levels' queueing constants are the fit to the stored C = 4 loop, and with
    them 133 of the 144 probed loops agree within 10 % (128 with a fixed latency): DRAM 45 of
    48, L2 41, L1 47; the 11 left are listed, each with its measured active warps."""
    from gpuviz.kernels import scheduler as probe
    from gpuviz.models.scheduler_sim import MEMORY

    m = measure.load(next(f for f in FILES if f.name == "h200-scheduler.json"))
    fitted = probe.fit_queueing(m)
    assert {k: round(v, 3) for k, v in fitted.items()} == \
        {k: level.queueing for k, level in MEMORY.items()}
    rows = measure.compare(m)
    agree: dict[str, int] = {}
    for case, r in zip(m["cases"], rows, strict=True):
        agree[case["section"]["memory"]] = agree.get(case["section"]["memory"], 0) + r.agrees
    assert agree == {"dram": 45, "l2": 41, "l1": 47}
    assert sorted(r.id for r in rows if not r.agrees) == sorted(m["known_disagreements"])
    assert all("warps of an SM ran together for" in why for why in m["known_disagreements"].values())


def test_gpuviz_measure_reads_the_scheduler_file():
    from gpuviz.kernels.measure_input import load_measurement

    path = next(f for f in FILES if f.name == "h200-scheduler.json")
    assert len(load_measurement(path)["cases"]) == 144


def test_one_l2_partition_matches_the_h200_at_real_gemm_sizes():
    """K steps of 32, six orders: within 1.5 % of the measured DRAM traffic at 8192² and
    16384², the three 4096² disagreements listed; lockstep and K step 64 change the traffic at
    4096² by at most 1.3 %, and a cyclic scan read by every SM is kept whole up to 28 MiB and not at
    all from 36 MiB (an LRU of about one 30 MiB partition)."""
    m = measure.load(next(f for f in FILES if f.name == "h200-traversal-sizes.json"))
    rows = {r.id: r for r in measure.compare(m)}
    assert len(rows) == 18
    for r in rows.values():
        if "-4096-" not in r.id:
            assert abs(r.model - r.measured) <= 0.015 * r.measured, r.id
    assert set(m["known_disagreements"]) == {
        "trav-hilbert-4096-k32", "trav-grouped4-4096-k32", "trav-grouped16-4096-k32"}
    for check in m["schedule_checks"]:
        assert abs(check["measured"] - check["free_run"]) <= 0.013 * check["free_run"]
    kept = {c["mib"]: c["dram_read_over_w"] for c in m["l2_scan"]["cases"]}
    assert all(kept[w] < 1.01 for w in (8, 16, 24, 28))
    assert all(kept[w] > 3.99 for w in (36, 48, 64, 96))


def test_a_lecture_section_finds_its_measurement_whatever_it_sweeps_or_compares():
    from gpuviz import measurements
    from gpuviz.models import traversal

    p = traversal.TraversalParams(rows=128, cols=128, order="grouped", group_m=8, k_tiles=512,
                                  in_flight=132, cache="l2-partition", arch="h200",
                                  tile_bytes=8192, compare_order="row-major", capacity=99)
    found = measurements.lookup("traversal", p)
    assert found is not None and found.case_id == "trav-grouped8-16384-k32"
    value = traversal.compute(traversal.without_sweep(p)).operand_traffic
    assert measurements.label("traversal", p, value) == "H200 measured: 12.7 (agrees)"
    hilbert = replace(p, rows=32, cols=32, k_tiles=128, order="hilbert")
    value = traversal.compute(traversal.without_sweep(hilbert)).operand_traffic
    assert measurements.label("traversal", hilbert, value) == \
        "H200 measured: 2.21 (model 1.69: 24 % under)"


def test_the_h200_kept_more_blocks_resident_than_the_api_reports_and_the_model_says_so():
    """Three H200 cases keep more blocks than the occupancy API reports: the model answers the
    API's number (active_blocks_per_sm) and, apart, what the SM keeps under the driver's own
    carveout choice (resident_blocks_per_sm), equal to the count in all 96 cases."""
    from gpuviz.models import occupancy

    m = measure.load(next(f for f in FILES if f.name == "h200-occupancy-residency.json"))
    assert len(m["cases"]) == 96 and not m["known_disagreements"]
    differ = {}
    for c in m["cases"]:
        r = occupancy.compute(measure.case_params("occupancy", c["section"]))
        assert r.active_blocks_per_sm == c["api"], c["id"]
        assert r.resident_blocks_per_sm == c["measured"] == c["model"], c["id"]
        assert r.driver_shared_memory_config >= r.shared_memory_config
        if c["measured"] != c["api"]:
            differ[c["id"]] = (c["api"], c["measured"])
    assert differ == {"res-t32-s0-c0": (8, 32), "res-t128-s0-c0": (8, 16),
                      "res-t32-s1024-c10": (16, 32)}


def test_the_driver_picks_its_carveout_as_the_model_says_whatever_ran_before():
    """648 launches (6 preferences × 6 block sizes × 9 shared sizes × 2 prior configurations,
    3 launches each): every count equals resident_blocks_per_sm, the API equals
    active_blocks_per_sm, the configuration left by the previous launch changes nothing, and the
    driver's size is never below the API's (the API's number is a floor an author can rely on)."""
    from gpuviz.models import occupancy

    m = measure.load(next(f for f in FILES if f.name == "h100-carveout-choice.json"))
    assert len(m["cases"]) == 648 and not m["known_disagreements"]
    more = 0
    by_case: dict = {}
    for c in m["cases"]:
        r = occupancy.compute(measure.case_params("occupancy", c["section"]))
        assert c["reps"] == [r.resident_blocks_per_sm] * 3 == c["fewest_on_an_sm"], c["id"]
        assert r.active_blocks_per_sm == c["api"], c["id"]
        assert r.resident_blocks_per_sm >= r.active_blocks_per_sm
        more += r.resident_blocks_per_sm > r.active_blocks_per_sm
        by_case.setdefault(c["id"].rsplit("-", 1)[0], set()).add(c["measured"])
    assert all(len(v) == 1 for v in by_case.values())  # small or large before: the same
    assert more == 34  # launches where the SM kept more blocks than the API reports


def test_the_shipped_files_are_read_as_the_strict_reader_reads_them_without_its_cost(
        monkeypatch):
    # the strict reader (for a user's files) took 1.3 s over the shipped 2.6 MB on the window's
    # thread as the first measured panel was shown; plain JSON reads the same data in 0.12 s
    from gpuviz import measurements
    from gpuviz.kernels import measure, measure_input

    strict = {path.name: measure.load(path) for path in measure.shipped()[:3]}
    measurements._files.cache_clear()
    monkeypatch.setattr(measure_input, "load_measurement", None)  # not called for shipped files
    try:
        files = dict(measurements._files())
    finally:
        measurements._files.cache_clear()
    assert all(files[name] == data for name, data in strict.items())
    assert sorted(files) == [p.name for p in measure.shipped()]


def test_import_refuses_a_traversal_case_its_measurement_could_not_compare(tmp_path):
    """What the model's value reads beside the section (the kernel's tile and operand bytes,
    the traversal module's ``case_numbers``) is asked for at import, not only at compare."""
    import json

    from gpuviz.kernels.measure_input import MeasureInputError, load_cases

    path = tmp_path / "case.json"
    path.write_text(json.dumps({"id": "t", "panel": "traversal", "section": {},
                                "operand_bytes": 4096}))
    with pytest.raises(MeasureInputError, match=": tile_bytes: missing"):
        load_cases(path)


def test_import_reads_each_measured_panel_by_its_own_record(tmp_path):
    """One launch per measured panel: each case's number is the metric of its instruction, read
    as its kernel module says (traversal over the bytes of A and B, occupancy the smallest
    launch limit, the scheduler's percentage as a fraction)."""
    limits = ("launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
              "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps")
    issue = "smsp__issue_active.avg.pct_of_peak_sustained_active"
    columns = [measure.SHARED_LD, measure.SHARED_ST, measure.GLOBAL_ST, measure.DRAM_READ,
               *limits, issue]
    values = ["3", "5", "7", "8192", "32", "6", "4", "8", "44.5"]
    rows = "\n".join(f'"{i}","k",' + ",".join(f'"{v}"' for v in values) for i in range(6))
    csv = tmp_path / "p.csv"
    csv.write_text('"ID","Kernel Name",' + ",".join(f'"{c}"' for c in columns) + "\n"
                   + '"","",' + ",".join('""' for _ in columns) + "\n" + rows + "\n")
    cases = [{"id": "b", "panel": "banks", "op": "lds", "section": {}},
             {"id": "s", "panel": "sectors", "op": "stg", "section": {}},
             {"id": "m", "panel": "mma", "op": "stsm", "section": {}},
             {"id": "t", "panel": "traversal", "op": "traverse", "section": {},
              "operand_bytes": 4096, "tile_bytes": 1024},
             {"id": "o", "panel": "occupancy", "op": "launch", "section": {}},
             {"id": "q", "panel": "scheduler", "section": {}}]
    got = {c["id"]: (c["metric"], c["measured"]) for c in measure.from_ncu([csv], cases, {})["cases"]}
    assert got == {
        "b": (measure.SHARED_LD, 3.0), "s": (measure.GLOBAL_ST, 7.0),
        "m": (measure.SHARED_ST, 5.0), "t": (measure.DRAM_READ + " ÷ bytes of A and B", 2.0),
        "o": ("min(" + ", ".join(limits) + ")", 4.0), "q": (issue + " ÷ 100", 0.445)}
