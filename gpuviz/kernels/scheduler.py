"""The scheduler probe's cases and its measurement file (``resources/measurements/h200-scheduler.json``).

``tools/scheduler_probe.cu`` runs warps that loop over one global load and C dependent FFMAs,
with the load hitting DRAM (streaming), L2 or L1, at 1 to 64 warps per SM, in two forms of the
FFMA (an immediate operand, ``FFMA R, R, imm, R``, and registers only, ``FFMA R, R, R, R``);
``tools/device/scheduler.sh`` builds it, keeps its SASS and profiles every case with
``ncu --clock-control none``. This module lists the cases in the probe's launch order
(:func:`cases`), each as the scheduler section that models it, and turns the run's output into a
measurement file (:func:`measurement`): ``python -m gpuviz.kernels.scheduler RAW_DIR``.

What the SASS shows (``cuobjdump --dump-sass``, C = 4): one iteration is ``IADD3``,
``IADD3.X`` (the address), ``LDG``, ``UIADD3``, ``VIADD``, ``ISETP`` (counter, offset, compare),
C × ``FFMA``, two ``LOP3.LUT`` (the next offset, through the last FFMA's result) and ``BRA``:
``1 + C + 8`` instructions, as ``smsp__inst_executed`` counts (13.0, 25.0 and 73.0 per iteration
for C = 4, 16, 64). Qt-free.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from gpuviz.kernels.ncu_csv import number, read_file
from gpuviz.models.scheduler import SchedulerParams, sm_issue_utilization
from gpuviz.registry import Measure, Reading

#: Warps per SM of the immediate form, and of the register form (fewer: it measured the same).
WARPS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64)
REGISTER_WARPS = (1, 4, 8, 16, 32, 64)
LEVELS = ("dram", "l1", "l2")  # launch order
MATH = (16, 64, 4)  # launch order
LOOP_INSTRUCTIONS = 8  # read from the SASS, see above
METRIC = "smsp__issue_active.avg.pct_of_peak_sustained_active"
KEPT = ("smsp__issue_active.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.sum",
        "smsp__cycles_active.avg", "sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second",
        "gpu__time_duration.sum", "sm__warps_active.avg.per_cycle_active", "dram__bytes_read.sum")
TOLERANCE = 0.10  # relative: "agrees" within 10 % of the measured utilisation


def section(memory: str, math_per_load: int, warps_per_sm: int) -> dict[str, Any]:
    """The scheduler section (fields that differ from the defaults) that models one case."""
    return {"memory": memory, "math_per_load": math_per_load,
            "loop_instructions": LOOP_INSTRUCTIONS, "warps_per_sm": warps_per_sm}


def cases() -> list[dict[str, Any]]:
    """Every profiled launch, in the probe's order: part a (immediate form), then part b."""
    out = []
    for form, warps in (("immediate", WARPS), ("register", REGISTER_WARPS)):
        for level in LEVELS:
            for c in MATH:
                for w in warps:
                    out.append({"id": f"sched-{form[:3]}-{level}-c{c}-w{w}", "panel": "scheduler",
                                "form": form, "section": section(level, c, w),
                                "source": f"probe loop: 1 load ({level}) + {c} dependent FFMA "
                                          f"({form} operand) + {LOOP_INSTRUCTIONS} loop "
                                          f"instructions, {w} warps per SM"})
    return out


#: The loop whose points fix the loaded latency: C = 4 keeps the scheduler's issue demand lowest
#: (at most 62 % at 64 warps per SM), so the rise of its loop's period is the memory level's.
FIT_MATH = 4


def fit_queueing(data: Mapping[str, Any]) -> dict[str, float]:
    """Each memory level's queueing constant q (``models.scheduler_sim.MEMORY``), fitted to a
    measurement file: at every latency-bound point of the C = :data:`FIT_MATH` loop (Little's
    law at the unloaded latency below 1), the latency its loop saw, ``L = N·I ÷ measured − (P0
    − L0)``, against the load it put on the level, ρ = its bytes a cycle over the level's
    bandwidth (as ``level_load`` gives it for the model): least squares of ``L/L0 − 1 =
    q·ρ/(1 − ρ)`` through the origin."""
    from gpuviz.kernels.measure import case_params
    from gpuviz.models.scheduler_sim import (
        MAX_LOAD,
        bandwidth,
        latency,
        scheduler_warps,
        unloaded_loop,
    )

    sums: dict[str, list[float]] = {}
    for case in data["cases"]:
        p = case_params("scheduler", case["section"])
        per = scheduler_warps(p)
        n = sum(per) / len(per)
        p0, i0 = unloaded_loop(p)
        if p.math_per_load != FIT_MATH or n * i0 / p0 >= 1:
            continue
        big_l = latency(p)
        seen = n * i0 / case["measured"] - (p0 - big_l)
        # the load the measured loop put on the level: its bytes a cycle over the bandwidth
        rho = min(MAX_LOAD, len(per) * case["measured"] / i0 * p.loads_per_warp
                  * p.bytes_per_load / bandwidth(p))
        x, y = rho / (1 - rho), seen / big_l - 1
        xy_xx = sums.setdefault(p.memory, [0.0, 0.0])
        xy_xx[0] += x * y
        xy_xx[1] += x * x
    return {level: max(0.0, xy / xx) for level, (xy, xx) in sums.items()}


def tails() -> dict[tuple[str, str, int, int], dict[str, Any]]:
    """The chunk-clock run of the same loops (resources/measurements/scheduler/h100-tails.json)
    by (form, level, C, warps per SM): how long all of an SM's warps ran together, and the
    SM's rate in that window against its whole run."""
    path = resources.files("gpuviz.resources") / "measurements" / "scheduler" / "h100-tails.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {(t["form"], t["level"], t["c"], t["warps_per_sm"]): t for t in data["cases"]}


def _why(case: dict[str, Any], measured: float, model: float) -> str:
    """Why a case's model and measurement differ by more than the tolerance, from the numbers:
    the model's loop, and what the chunk clocks saw of the warps finishing apart."""
    from gpuviz.kernels.measure import case_params
    from gpuviz.models.scheduler import loop_shape, scheduler_warps

    p = case_params("scheduler", case["section"])
    n = scheduler_warps(p)[0]
    period, instructions = loop_shape(p, n)
    w = p.warps_per_sm or n
    if model > 0.95:
        head = (f"the model issues in {model:.1%} of the cycles ({n} warps, {instructions} "
                f"instructions a {period:,}-cycle loop), the H200 in {measured:.1%} over the run")
    else:
        seen, modelled = n * instructions / measured, n * instructions / model
        head = (f"a loop took each warp {seen:,.0f} cycles on the H200 (N·I ÷ measured), "
                f"{modelled:,.0f} in the model at its loaded {p.memory.upper()} latency")
    t = tails().get((case["form"], p.memory, p.math_per_load, w))
    if t is None:
        return head + "."
    steady = measured * t["ratio_mean"]
    gap = model / steady - 1
    tail = (f"; all {w} warps of an SM ran together for {t['window_share']:.0%} of the run "
            f"(chunk clocks, H100), issuing {t['ratio_mean']:.2f}× the run's rate: "
            f"{steady:.1%} in that steady state, the model {abs(gap):.1%} "
            f"{'higher' if gap > 0 else 'lower'}")
    if abs(gap) <= TOLERANCE:
        return head + tail + ": the warps finishing apart is the difference."
    return head + tail + ": the rest is a stall the model leaves out."


def measurement(raw: Path) -> dict[str, Any]:
    """The measurement file from one run of tools/device/scheduler.sh (its $OUT folder)."""
    from gpuviz.kernels.measure import FORMAT

    info = json.loads((raw / "info.json").read_text(encoding="utf-8"))
    rows = read_file(raw / "ncu_a.csv") + read_file(raw / "ncu_b.csv")
    want = cases()
    if len(rows) != len(want) or len(info["loops"]) != len(want):
        raise ValueError(f"{len(rows)} profiled launches and {len(info['loops'])} timed loops "
                         f"for {len(want)} cases")
    versions = (raw / "versions.txt").read_text(encoding="utf-8").splitlines()
    date = next(v for v in versions if v[:2] == "20")
    gpu = next(v for v in versions if v.startswith("NVIDIA")).split(", ")
    out_cases = []
    for case, row, timed in zip(want, rows, info["loops"], strict=True):
        s = case["section"]
        if (timed["level"], timed["c"], timed["warps_per_sm"], timed["form"]) != \
                (s["memory"], s["math_per_load"], s["warps_per_sm"], case["form"]):
            raise ValueError(f"case {case['id']}: the probe timed {timed} in its place")
        if timed["blocks_per_sm"][0] != timed["blocks_per_sm"][1]:
            raise ValueError(f"case {case['id']}: SMs held different numbers of blocks")
        measured = _read(case, row, METRIC).measured
        raw_values = {k: number(row[k]) for k in KEPT}
        total_warps = info["sms"] * s["warps_per_sm"]
        raw_values["instructions_per_iteration"] = round(
            raw_values["smsp__inst_executed.sum"] / (total_warps * timed["iterations"]), 3)
        entry = {**case, "metric": f"{METRIC} ÷ 100", "measured": round(measured, 5),
                 "kernel": row.get("Kernel Name", ""), "iterations": timed["iterations"],
                 "event_ms": timed["ms"], "raw": raw_values}
        out_cases.append(entry)
    return remodel({
        "format": FORMAT, "device": gpu[0], "compute_capability": "9.0", "driver": gpu[1],
        "toolkit": "CUDA 13.0 (nvcc V13.0.88)",
        "profiler": "Nsight Compute 2025.3.1.0 (build 36398880)",
        "clocks": f"unmodified (ncu --clock-control none); SM {info['sm_clock_mhz']:.0f} MHz "
                  "while running (clock64 over events), 1980 MHz maximum",
        "date": date, "tool": "tools/scheduler_probe.cu",
        "build": "nvcc -arch=sm_90a -O3 -o sched_probe scheduler_probe.cu",
        "command": "tools/device/scheduler.sh: ncu --clock-control none --kernel-name "
                   "regex:sched_loop --csv --page raw --metrics METRICS ./sched_probe loops a|b",
        "what": "Issue-slot utilisation of warps looping over one global load (DRAM streaming, "
                "L2, L1) and C = 4, 16, 64 dependent FFMAs, immediate and register operands, "
                "1–64 warps per SM (one block per SM, two above 32 warps; residency checked "
                "per SM), against the scheduler model of the same loop.",
        "tolerance": TOLERANCE,
        "latencies_cycles": {"pointer_chase": info["chase_cycles"],
                             "dependent_ffma": info["ffma_latency_cycles"]},
        "bandwidth_bytes_per_s": info["bandwidth_bytes_per_s"],
        "sms": info["sms"], "sm_clock_mhz": info["sm_clock_mhz"],
        "known_disagreements": {},
        "cases": out_cases,
    })


def remodel(data: dict[str, Any]) -> dict[str, Any]:
    """A measurement file's model values and known disagreements as the model gives them now,
    its measurements unchanged (``python -m gpuviz.kernels.scheduler --remodel FILE``)."""
    from gpuviz.kernels.measure import model_value

    known = {}
    for entry in data["cases"]:
        entry["model"] = model_value(entry)
        measured = entry["measured"]
        if abs(entry["model"] - measured) > TOLERANCE * measured:
            known[entry["id"]] = _why(entry, measured, entry["model"])
    data["known_disagreements"] = known
    return data


def main(argv: list[str]) -> int:
    shipped = Path(__file__).resolve().parents[2] / "resources" / "measurements" / \
        "h200-scheduler.json"
    if argv[0] == "--remodel":
        out = Path(argv[1]) if len(argv) > 1 else shipped
        data = remodel(json.loads(out.read_text(encoding="utf-8")))
    else:
        out = Path(argv[1]) if len(argv) > 1 else shipped
        data = measurement(Path(argv[0]))
    out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    print(out, len(data["cases"]), "cases,", len(data["known_disagreements"]), "disagree")
    return 0


def _read(case: Mapping[str, Any], row: Mapping[str, str], metric: str) -> Reading:
    if metric not in row:
        raise ValueError(f"case {case['id']}: the profile has no metric {metric}")
    return Reading(f"{metric} ÷ 100", number(row[metric]) / 100,
                   {k: number(row[k]) for k in KEPT if k in row})


def _utilization(p: SchedulerParams, case: Mapping[str, Any]) -> float:
    return sm_issue_utilization(p)  # the compared number alone, without the figure's runs


#: Compared on ``sm_issue_utilization`` (steady state, mean over the SM's schedulers that hold a
#: warp) against ``smsp__issue_active.avg.pct_of_peak_sustained_active`` ÷ 100, agreement
#: within the file's tolerance.
MEASURE = Measure(metric=lambda op: METRIC, read=_read, value=_utilization)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
