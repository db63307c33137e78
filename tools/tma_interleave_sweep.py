"""Rank-3 box loads, interleaved and not: where an interleaved tensor map's box lands.

Usage:
  python tools/tma_interleave_sweep.py cases DIR    DIR/cases3.txt (tools/tma_probe.cu's M lines)
  python tools/tma_interleave_sweep.py import DIR   DIR holds probe3.jsonl and versions.txt (what
                                                    tools/device/batch12.sh wrote); writes
                                                    resources/measurements/tma/h100-tma-interleave.json

Interleaved maps need rank 3 to 5, so the 2-D loads of tools/tma_sweep.py never ran one. Each
case is a ``tma`` section; tests/kernels/test_tma_interleave.py hands it to the model and
compares every slot. Element (x, y, z) holds (z · d1 + y) · d0 + x + 1; 0 is zero fill; -1 a
slot left alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "measurements" / "tma" / "h100-tma-interleave.json"
SWIZZLE = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
INTERLEAVE = {"none": 0, "16B": 16, "32B": 32}


def _case(eb: int, dims: tuple[int, int, int], box: tuple[int, int, int], interleave: str,
          swizzle: str, start: tuple[int, int, int] = (0, 0, 0), smem: int = 0) -> dict[str, Any]:
    return {"element_bytes": eb, "global_dims": list(dims), "box_dims": list(box),
            "interleave": interleave, "swizzle": swizzle, "box_start": list(start),
            "smem_offset": smem}


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


def _line(name: str, s: dict[str, Any]) -> str:
    eb, (d0, d1, d2), box = s["element_bytes"], s["global_dims"], s["box_dims"]
    s1 = d0 * eb
    nums = [eb, d0, d1, d2, s1, s1 * d1, 0, *box, INTERLEAVE[s["interleave"]],
            SWIZZLE[s["swizzle"]], *s["box_start"], s["smem_offset"]]
    return f"M {name} " + " ".join(str(n) for n in nums)


def write_cases(d: Path) -> None:
    d.mkdir(parents=True, exist_ok=True)
    lines = [_line(n, s) for n, s in cases()]
    (d / "cases3.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} case lines in {d / 'cases3.txt'}")


def import_results(d: Path) -> None:
    versions = dict(line.split("=", 1) for line in (d / "versions.txt").read_text().splitlines()
                    if "=" in line)
    from tma_sweep import _row  # a faulted copy's line: its start, then the error

    rows = [_row(line) for line in (d / "probe3.jsonl").read_text().splitlines()
            if line.startswith("{")]
    by_id = {r["id"]: r for r in rows if "id" in r}
    device = next(r for r in rows if r.get("kind") == "device")
    out = []
    for name, s in cases():
        r = by_id.get(name)
        case: dict[str, Any] = {"id": name, "check": "load3", "section": s}
        if r is None:
            case["fault"] = "the probe printed nothing for this case"
        elif "fault" in r:
            case.update(cu_result=r["encode"], fault=r["fault"])
        else:
            case["cu_result"] = r["encode"]
            if r["encode"] == 0:
                case.update(completed=bool(r["completed"]), box_bytes=r["box_bytes"],
                            slots=r["slots"])
        out.append(case)
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
    if len(sys.argv) != 3 or sys.argv[1] not in ("cases", "import"):
        sys.exit(__doc__)
    (write_cases if sys.argv[1] == "cases" else import_results)(Path(sys.argv[2]))
