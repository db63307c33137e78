"""Measurement files: what a real GPU counted for a scenario section, beside what the model says.

A measurement file (``resources/measurements/*.json``) records the device, driver, toolkit and
profiler versions, the date, the tool and command, and one entry per case: the panel, the panel
section (scenario JSON) the model reads, the profiler metric and the measured value. It is made
from Nsight Compute's ``--csv --page raw`` output by :func:`from_ncu` (``gpuviz measure import``),
joining profiled launches to cases in launch order.

:func:`compare` recomputes the model for every case. Each measured panel declares once, in its
registry entry, the model's compared quantity (``MeasuredQuantity``) and, in its kernel module,
how a profile is read and what the model says for a case (``gpuviz.kernels.<id>.MEASURE``, a
``registry.Measure``): the profiler metric for the case's instruction, the reading (the counter as
it is unless the module reads it otherwise), the model's value (the quantity field of the result
unless the module computes it otherwise) and the numbers a case gives beside its section. This
module dispatches on that record and names no panel.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, cast

from gpuviz.kernels.ncu_csv import number, read_file
from gpuviz.registry import MEASURED_PANELS, Measure, MeasuredQuantity, Reading, panel

FORMAT = 1

#: The profiler metrics the kernel modules' ``MEASURE`` records name.
SHARED_LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SHARED_ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
GLOBAL_LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
DRAM_READ = "dram__bytes_read.sum"

#: Profiler values kept beside the compared metric: bank conflicts and the instructions executed
#: (one per case: the measured instruction alone).
KEPT = (
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_ldsm.sum", "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
)


def counter(case: Mapping[str, Any], row: Mapping[str, str], metric: str) -> Reading:
    """A case's number as its launch's row gives ``metric``, with the kept profiler values."""
    if metric not in row:
        raise ValueError(f"case {case['id']}: the profile has no metric {metric}")
    raw = {k: number(v) for k, v in row.items() if (k in KEPT and number(v)) or k == metric}
    return Reading(metric, number(row[metric]), raw)


def _measure(panel_id: str) -> Measure:
    if panel_id not in MEASURED_PANELS:
        raise ValueError(f"no measured quantity for panel {panel_id!r}")
    return panel(panel_id).measure


def case_params(panel_id: str, section: dict[str, Any], path: str | None = None):
    from gpuviz.scenario.io import decode_section

    params, problems = decode_section(panel_id, section, path)
    if problems or params is None:
        raise ValueError("; ".join(f"{p.path}: {p.message}" for p in problems))
    return params


def model_value(case: dict[str, Any], path: str | None = None) -> float:
    """The model's value for a case; ``path`` (its place in the file, ``cases[3]``) starts the
    JSON paths of a section that does not decode."""
    spec = panel(case["panel"])
    value, quantity = _measure(spec.id).value, spec.measured
    params = case_params(spec.id, case["section"], f"{path}.section" if path else None)
    try:
        if value is None:  # the result's field (spec.measure has checked that there is one)
            return cast(MeasuredQuantity, quantity).of(spec.compute(params))
        return float(value(params, case))
    except ValueError as e:
        raise ValueError(f"{path}.section: {e}" if path else str(e)) from None


@dataclass(frozen=True)
class Comparison:
    file: str
    id: str
    panel: str
    source: str
    model: float
    measured: float
    agrees: bool
    known: str | None  # the explanation of a known disagreement


def compare(measurement: dict[str, Any], name: str = "") -> list[Comparison]:
    known = measurement.get("known_disagreements", {})
    tol = float(measurement.get("tolerance", 0.0))
    out = []
    for i, case in enumerate(measurement["cases"]):
        model = model_value(case, f"cases[{i}]")
        measured = float(case["measured"])
        agrees = abs(model - measured) <= tol * max(abs(measured), 1e-12) if tol else \
            model == measured
        out.append(Comparison(name, case["id"], case["panel"], case.get("source", ""), model,
                              measured, agrees, known.get(case["id"])))
    return out


def shipped() -> list[Path]:
    """The measurement files installed with gpuviz."""
    folder = resources.files("gpuviz.resources") / "measurements"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".json"))


def load(path: str | Path) -> dict[str, Any]:
    """A measurement file, read bounded and strictly, its shape checked (MeasureInputError)."""
    from gpuviz.kernels.measure_input import load_measurement

    return load_measurement(path)


def from_ncu(csv_paths: list[str | Path], cases: list[dict[str, Any]],
             meta: dict[str, Any]) -> dict[str, Any]:
    """A measurement file from ncu --csv --page raw output: launch k is case k. Each case gives
    ``panel``, ``op`` and ``section``; ``metric`` defaults to the panel's ``MEASURE.metric(op)``."""
    rows: list[dict[str, str]] = []
    for path in csv_paths:
        rows.extend(read_file(path))
    if len(rows) != len(cases):
        raise ValueError(f"{len(rows)} profiled launches for {len(cases)} cases; the profile "
                         "must hold exactly one launch per case, in case order")
    device = rows[0].get("device__attribute_display_name", "") if rows else ""
    out_cases = []
    for case, row in zip(cases, rows, strict=True):
        m = _measure(case["panel"])
        metric = case.get("metric") or m.metric(case.get("op", ""))
        reading = (m.read or counter)(case, row, metric)
        entry = {**case, "metric": reading.metric, "measured": reading.measured,
                 "kernel": row.get("Kernel Name", ""), "raw": reading.raw}
        out_cases.append(entry)
    return {"format": FORMAT, "device": meta.get("device") or device, **meta,
            "cases": out_cases}
