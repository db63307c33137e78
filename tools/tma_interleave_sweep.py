"""Rank-3 box loads, interleaved and not: where an interleaved tensor map's box lands.

Usage:
  python tools/tma_interleave_sweep.py cases DIR    DIR/cases3.txt (tools/tma_probe.cu's M lines)
  python tools/tma_interleave_sweep.py import DIR   DIR holds probe3.jsonl and versions.txt (what
                                                    tools/device/batch12.sh wrote); writes
                                                    resources/measurements/tma/h100-tma-interleave.json
  python tools/tma_interleave_sweep.py cases-x DIR  DIR/casesx.txt: X lines of every case above
                                                    and of the cases that settle what they leave
                                                    open (settle_cases)
  python tools/tma_interleave_sweep.py import-x DIR DIR holds probex.jsonl and versions.txt (what
                                                    tools/device/batch13.sh wrote); writes
                                                    resources/measurements/tma/h100-tma-interleave-tx.json

Interleaved maps need rank 3 to 5, so the 2-D loads of tools/tma_sweep.py never ran one. Each
case is a ``tma`` section; tests/kernels/test_tma_interleave.py hands it to the model and
compares every slot. Element (x, y, z) holds (z · d1 + y) · d0 + x + 1; 0 is zero fill; -1 a
slot left alone.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "measurements" / "tma" / "h100-tma-interleave.json"
OUTX = ROOT / "resources" / "measurements" / "tma" / "h100-tma-interleave-tx.json"
SWIZZLE = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
INTERLEAVE = {"none": 0, "16B": 16, "32B": 32}


def _case(eb: int, dims: tuple[int, int, int], box: tuple[int, int, int], interleave: str,
          swizzle: str, start: tuple[int, int, int] = (0, 0, 0), smem: int = 0,
          strides: tuple[int, int] | None = None) -> dict[str, Any]:
    out = {"element_bytes": eb, "global_dims": list(dims), "box_dims": list(box),
           "interleave": interleave, "swizzle": swizzle, "box_start": list(start),
           "smem_offset": smem}
    if strides is not None:
        out["global_strides"] = list(strides)
    return out


def cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    # 16B interleave: the innermost dimension is one 16-byte chunk (8 halves, 4 words)
    for sw in ("none", "32B"):
        out.append((f"il16-e2-{sw}", _case(2, (8, 12, 6), (8, 4, 2), "16B", sw, (0, 1, 1))))
    out.append(("il16-e2-none-inner4", _case(2, (8, 12, 6), (4, 4, 2), "16B", "none", (0, 1, 1))))
    out.append(("il16-e2-none-d16", _case(2, (16, 12, 6), (8, 4, 2), "16B", "none", (8, 1, 1))))
    out.append(("il16-e4-none", _case(4, (4, 12, 6), (4, 4, 2), "16B", "none", (0, 2, 0))))
    out.append(("il16-e2-none-neg", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (0, -1, -1))))
    # 32B interleave: a 32-byte chunk (16 halves), every swizzle mode
    for sw in ("none", "32B", "64B", "128B"):
        out.append((f"il32-e2-{sw}", _case(2, (16, 12, 6), (16, 8, 2), "32B", sw, (0, 1, 1))))
    out.append(("il32-e2-128B-smem256", _case(2, (16, 12, 6), (16, 8, 2), "32B", "128B",
                                              (0, 1, 1), 256)))
    out.append(("il32-e2-none-inner8", _case(2, (16, 12, 6), (8, 4, 2), "32B", "none", (0, 1, 1))))
    out.append(("il32-e4-64B", _case(4, (8, 12, 6), (8, 8, 2), "32B", "64B", (0, 0, 1))))
    # the same boxes without interleave, rank 3: the rows of the 2-D rule, plane after plane
    out.append(("none3-e2-none", _case(2, (16, 12, 6), (16, 4, 2), "none", "none", (0, 1, 1))))
    out.append(("none3-e2-128B", _case(2, (64, 12, 6), (64, 4, 2), "none", "128B", (0, 1, 1))))
    return out


def settle_cases() -> list[tuple[str, dict[str, Any]]]:
    """Interleaved loads that settle what the twelve of ``cases`` leave open: whether box
    dimension 1 counts when it exceeds dimension 0 or is 1; the unit of the innermost start
    (an interleave chunk or 16 bytes) under 32B interleave and with 4-byte elements; the zero
    fill of a run that starts inside the tensor and leaves it along dimensions 0, 1 and 2, or
    starts before it; 8-byte elements (a run shorter than the box); 16B interleave under the 64B
    and 128B swizzles and a 16-byte shared offset; a narrow inner box under 32B interleave;
    padded strides; a long run."""
    return [
        ("x-il16-e2-box1-16", _case(2, (8, 24, 6), (8, 16, 2), "16B", "none", (0, 1, 1))),
        ("x-il16-e2-box1-1", _case(2, (8, 12, 6), (8, 1, 2), "16B", "none", (0, 1, 1))),
        ("x-il32-e2-x16", _case(2, (32, 12, 6), (16, 4, 2), "32B", "none", (16, 1, 1))),
        ("x-il16-e4-x4", _case(4, (8, 12, 6), (4, 4, 2), "16B", "none", (4, 1, 0))),
        ("x-il16-e2-x4-past", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (4, 1, 1))),
        ("x-il16-e2-x-2", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (-2, 1, 1))),
        ("x-il16-e2-y10", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (0, 10, 1))),
        ("x-il16-e2-y-1", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (0, -1, 1))),
        ("x-il16-e2-z5", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (0, 1, 5))),
        ("x-il16-e8", _case(8, (2, 12, 6), (2, 4, 2), "16B", "none", (0, 1, 1))),
        ("x-il32-e8", _case(8, (4, 12, 6), (4, 4, 2), "32B", "none", (0, 1, 1))),
        ("x-il16-e2-64B", _case(2, (8, 12, 6), (8, 4, 2), "16B", "64B", (0, 1, 1))),
        ("x-il16-e2-128B", _case(2, (8, 12, 6), (8, 4, 2), "16B", "128B", (0, 1, 1))),
        ("x-il16-e2-smem16", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (0, 1, 1), 16)),
        ("x-il32-e2-inner8-box1-16", _case(2, (16, 24, 6), (8, 16, 2), "32B", "none",
                                           (0, 1, 1))),
        ("x-il16-e2-pad", _case(2, (8, 12, 6), (8, 4, 2), "16B", "none", (0, 1, 1),
                                strides=(32, 384))),
        ("x-il16-e2-run64", _case(2, (64, 12, 6), (64, 2, 2), "16B", "none", (0, 1, 1))),
    ]


def _line(name: str, s: dict[str, Any], kind: str = "M") -> str:
    eb, (d0, d1, d2), box = s["element_bytes"], s["global_dims"], s["box_dims"]
    s1, s2 = s.get("global_strides") or (d0 * eb, d0 * eb * d1)
    nums = [eb, d0, d1, d2, s1, s2, 0, *box, INTERLEAVE[s["interleave"]],
            SWIZZLE[s["swizzle"]], *s["box_start"], s["smem_offset"]]
    return f"{kind} {name} " + " ".join(str(n) for n in nums)


def write_cases(d: Path) -> None:
    d.mkdir(parents=True, exist_ok=True)
    lines = [_line(n, s) for n, s in cases()]
    (d / "cases3.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} case lines in {d / 'cases3.txt'}")


def write_cases_x(d: Path) -> None:
    d.mkdir(parents=True, exist_ok=True)
    lines = [_line(n, s, "X") for n, s in cases() + settle_cases()]
    (d / "casesx.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} case lines in {d / 'casesx.txt'}")


def _probe_output(d: Path, name: str) -> tuple[dict[str, str], dict[str, dict], dict]:
    """A batch folder's versions, the probe's case lines of ``name`` by id, and its device
    line."""
    versions = dict(line.split("=", 1) for line in (d / "versions.txt").read_text().splitlines()
                    if "=" in line)
    from tma_sweep import _row  # a faulted copy's line: its start, then the error

    rows = [_row(line) for line in (d / name).read_text().splitlines() if line.startswith("{")]
    by_id = {r["id"]: r for r in rows if "id" in r}
    return versions, by_id, next(r for r in rows if r.get("kind") == "device")


def _stored_case(name: str, section: dict[str, Any], check: str, r: dict[str, Any] | None,
                 measured: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """One stored case from the probe's line ``r`` for it: what the driver said when it
    encoded the map, the fault or nothing printed, and (``measured``) what a load it accepted
    left."""
    case: dict[str, Any] = {"id": name, "check": check, "section": section}
    if r is None:
        case["fault"] = "the probe printed nothing for this case"
    elif "fault" in r:
        case.update(cu_result=r["encode"], fault=r["fault"])
    else:
        case["cu_result"] = r["encode"]
        if r["encode"] == 0:
            case.update(measured(r))
    return case


def import_results_x(d: Path) -> None:
    versions, by_id, device = _probe_output(d, "probex.jsonl")
    out = []
    for name, s in cases() + settle_cases():
        out.append(_stored_case(name, s, "load3x", by_id.get(name), lambda r: {
            k: r[k] for k in ("box_bytes", "completed", "same_slots", "tx_bytes",
                              "completes_at", "slots")}))
    doc = {
        "format": 1, "device": device["name"], "compute_capability": device["cc"],
        "driver": versions.get("driver", ""), "toolkit": versions.get("toolkit", ""),
        "date": versions.get("date", ""),
        "tool": "tools/tma_probe.cu, X lines (cases: tools/tma_interleave_sweep.py)",
        "build": "nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -o tma_probe tools/tma_probe.cu",
        "command": "./tma_probe < casesx.txt, a process a case (tools/device/batch13.sh)",
        "what": ("Per rank-3 box load: slots as in h100-tma-interleave.json (global element "
                 "(x, y, z) at byte z * s2 + y * s1 + x * eb holds (z * d1 + y) * d0 + x + 1, "
                 "padding bytes 0xEE) from the first of four runs expecting the box's bytes; "
                 "completed: whether each run's phase completed; same_slots: whether the four "
                 "runs left the same slots; tx_bytes: the transaction bytes the copy signalled "
                 "(expect 65536 first, let the copy land, complete one byte at a time until the "
                 "phase completes); completes_at: each expect-tx E (16, 32, … to tx_bytes + 64) "
                 "under which the phase completed, a short bounded wait each."),
        "cases": out,
    }
    OUTX.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(out)} cases → {OUTX}")


def import_results(d: Path) -> None:
    versions, by_id, device = _probe_output(d, "probe3.jsonl")
    out = []
    for name, s in cases():
        out.append(_stored_case(name, s, "load3", by_id.get(name), lambda r: {
            "completed": bool(r["completed"]), "box_bytes": r["box_bytes"],
            "slots": r["slots"]}))
    doc = {
        "format": 1, "device": device["name"], "compute_capability": device["cc"],
        "driver": versions.get("driver", ""), "toolkit": versions.get("toolkit", ""),
        "date": versions.get("date", ""),
        "tool": "tools/tma_probe.cu, M lines (cases: tools/tma_interleave_sweep.py)",
        "build": "nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -o tma_probe tools/tma_probe.cu",
        "command": "./tma_probe < cases3.txt, a process a case (tools/device/batch12.sh)",
        "what": ("Per rank-3 box load (cp.async.bulk.tensor.3d completing on an mbarrier that "
                 "expects the box's bytes) the value in each element-sized slot of shared memory "
                 "from the buffer's start, 4 × the box's bytes + 256: element (x, y, z) holds "
                 "(z * d1 + y) * d0 + x + 1, 0 is zero fill, -1 an untouched slot; completed: "
                 "whether the barrier's phase completed."),
        "cases": out,
    }
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(out)} cases → {OUT}")


if __name__ == "__main__":
    verbs = {"cases": write_cases, "import": import_results, "cases-x": write_cases_x,
             "import-x": import_results_x}
    if len(sys.argv) != 3 or sys.argv[1] not in verbs:
        sys.exit(__doc__)
    verbs[sys.argv[1]](Path(sys.argv[2]))
