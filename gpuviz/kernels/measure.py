"""Measurement files: what a real GPU counted for a scenario section, beside what the model says.

A measurement file (``resources/measurements/*.json``) records the device, driver, toolkit and
profiler versions, the date, the tool and command, and one entry per case: the panel, the panel
section (scenario JSON) the model reads, the profiler metric and the measured value. It is made
from Nsight Compute's ``--csv --page raw`` output by :func:`from_ncu` (``gpuviz measure import``),
joining profiled launches to cases in launch order.

:func:`compare` recomputes the model for every case. Each panel has one compared quantity:

- banks: ``rounds`` against shared-memory wavefronts of the instruction
  (``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`` for loads and ldmatrix, ``_op_st`` for
  stores);
- sectors: ``sector_count`` against ``l1tex__t_sectors_pipe_lsu_mem_global_op_ld`` / ``_op_st``;
- occupancy: ``active_blocks_per_sm`` against ``cudaOccupancyMaxActiveBlocksPerMultiprocessor``;
- mma: ``ldmatrix_wavefronts`` against the shared-memory wavefronts of the ``ldmatrix``
  (``_op_ld``) or ``stmatrix`` (``_op_st``) that moves the fragment;
- traversal: A and B tiles loaded (times the tile's bytes) against DRAM bytes read
  (``dram__bytes_read``), both over the bytes of A and B; agreement within ``tolerance``;
- scheduler: ``sm_issue_utilization`` (steady state, mean over the SM's schedulers that hold a
  warp) against ``smsp__issue_active.avg.pct_of_peak_sustained_active`` ÷ 100, agreement within
  ``tolerance`` (:mod:`gpuviz.kernels.scheduler`).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from gpuviz.kernels.ncu_csv import number, read_file
from gpuviz.registry import PANELS

FORMAT = 1

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

#: Resident blocks per SM by each resource at launch; the launch's blocks are their minimum.
OCCUPANCY_LIMITS = ("launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
                    "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps")

#: What each panel's model is compared on, and in which words (the registry's ``measured``).
QUANTITY: dict[str, tuple[str, str]] = {
    p.id: (p.measured.quantity, p.measured.unit) for p in PANELS if p.measured is not None}


def metric_for(panel: str, op: str) -> str:
    """The profiler metric that counts what the panel's model predicts for one instruction."""
    if panel == "banks":
        return SHARED_ST if op == "sts" else SHARED_LD
    if panel == "sectors":
        return GLOBAL_ST if op == "stg" else GLOBAL_LD
    if panel == "traversal":
        return DRAM_READ
    if panel == "mma":
        return SHARED_ST if op == "stsm" else SHARED_LD
    raise ValueError(f"no profiler metric for panel {panel!r}")


def case_params(panel: str, section: dict[str, Any], path: str | None = None):
    from gpuviz.scenario.io import decode_section

    params, problems = decode_section(panel, section, path)
    if problems or params is None:
        raise ValueError("; ".join(f"{p.path}: {p.message}" for p in problems))
    return params


def traversal_bytes(section: dict[str, Any], tile_bytes: int, operand_bytes: int) -> float:
    """Model's operand traffic: tiles loaded × tile bytes ÷ bytes of A and B."""
    from gpuviz.models import traversal

    r = traversal.compute(traversal.without_sweep(traversal_params(section)))
    return (r.a_loads + r.b_loads) * tile_bytes / operand_bytes


def traversal_params(section: dict[str, Any]):
    """A measured traversal section as parameters (up to 16384² with 128 × 128 tiles and
    k_tiles 512: within the app's limits)."""
    return case_params("traversal", section)


def model_value(case: dict[str, Any], path: str | None = None) -> float:
    """The model's value for a case; ``path`` (its place in the file, ``cases[3]``) starts the
    JSON paths of a section that does not decode."""
    panel = case["panel"]
    if panel == "traversal":
        try:
            return traversal_bytes(case["section"], case["tile_bytes"], case["operand_bytes"])
        except ValueError as e:
            raise ValueError(f"{path}.section: {e}" if path else str(e)) from None
    if panel == "scheduler":  # the compared number alone, without the figure's runs
        from gpuviz.models.scheduler import sm_issue_utilization

        return sm_issue_utilization(case_params(panel, case["section"],
                                            f"{path}.section" if path else None))
    from gpuviz.registry import panel as panel_spec

    result = panel_spec(panel).compute(case_params(panel, case["section"],
                                               f"{path}.section" if path else None))
    return float(getattr(result, QUANTITY[panel][0]))


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
    ``panel``, ``op`` and ``section``; ``metric`` defaults to :func:`metric_for`."""
    rows: list[dict[str, str]] = []
    for path in csv_paths:
        rows.extend(read_file(path))
    if len(rows) != len(cases):
        raise ValueError(f"{len(rows)} profiled launches for {len(cases)} cases; the profile "
                         "must hold exactly one launch per case, in case order")
    device = rows[0].get("device__attribute_display_name", "") if rows else ""
    out_cases = []
    for case, row in zip(cases, rows, strict=True):
        if case["panel"] == "occupancy":
            metric = "min(" + ", ".join(OCCUPANCY_LIMITS) + ")"
            missing = [m for m in OCCUPANCY_LIMITS if m not in row]
            if missing:
                raise ValueError(f"case {case['id']}: the profile has no {missing[0]}")
            measured = min(number(row[m]) for m in OCCUPANCY_LIMITS)
            raw = {m: number(row[m]) for m in OCCUPANCY_LIMITS}
        else:
            metric = case.get("metric") or metric_for(case["panel"], case.get("op", ""))
            if metric not in row:
                raise ValueError(f"case {case['id']}: the profile has no metric {metric}")
            measured = number(row[metric])
            raw = {k: number(v) for k, v in row.items()
                   if (k in KEPT and number(v)) or k == metric}
            if case["panel"] == "traversal":
                measured /= case["operand_bytes"]
                metric += " ÷ bytes of A and B"
        entry = {**case, "metric": metric, "measured": measured,
                 "kernel": row.get("Kernel Name", ""), "raw": raw}
        out_cases.append(entry)
    return {"format": FORMAT, "device": meta.get("device") or device, **meta,
            "cases": out_cases}
