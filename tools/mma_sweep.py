"""The mma panel's H200 checks: export the kernels of a sweep, then import what they printed.

Usage:
  python tools/mma_sweep.py export DIR     one folder per case under DIR (kernel, run script),
                                           and DIR/cases.json
  python tools/mma_sweep.py import DIR     DIR holds what tools/device/mma.sh wrote: checks.txt
                                           (each case's output), ncu.csv and versions.txt;
                                           writes resources/measurements/h200-mma.json

Cases: every bundled ``mma`` scenario before and after each step, and a sweep in which case i
takes feed variant i (ldmatrix/stmatrix × x1/x2/x4 × .trans × operand × five layouts), wgmma
variant i mod 52 (N × swizzle × A source, the second warpgroup of a block, a moved start address, spread-out LBO and SBO) and mma.sync
variant i mod 7 (every shape, input and accumulator type), so every variant of each is run.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gpuviz.kernels.emit import write
from gpuviz.kernels.measure import model_value
from gpuviz.kernels.mma import render
from gpuviz.models import mma
from gpuviz.models.mma_warpgroup import N_CHOICES, SWIZZLE_BYTES

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "measurements" / "h200-mma.json"

MMA_VARIANTS = (("m16n8k16", "f16", "f32"), ("m16n8k16", "f16", "f16"),
                ("m16n8k16", "bf16", "f32"), ("m16n8k8", "tf32", "f32"),
                ("m16n8k32", "s8", "s32"), ("m16n8k32", "u8", "s32"), ("m8n8k4", "f64", "f64"))
LAYOUTS = (("row-major", "128B"), ("padded", "128B"), ("swizzled", "128B"),
           ("swizzled", "64B"), ("swizzled", "32B"))


def feed_variants() -> list[mma.MmaFeed]:
    out = []
    for op in ("ldmatrix", "stmatrix"):
        for operand in ("a", "b"):
            for matrices in (1, 2, 4):
                for trans in (False, True):
                    for layout, swizzle in LAYOUTS:
                        out.append(mma.MmaFeed(op=op, operand=operand, matrices=matrices,
                                               trans=trans, layout=layout, swizzle=swizzle))
    return out


def warpgroup_variants() -> list[mma.MmaWarpgroup]:
    out = []
    for n in N_CHOICES:
        for swizzle in ("none", "32B", "64B", "128B"):
            for source in ("registers", "shared"):
                steps = 2 if swizzle == "none" else SWIZZLE_BYTES[swizzle] // 32
                out.append(mma.MmaWarpgroup(n=n, swizzle=swizzle, a_source=source,
                                            k_steps=steps))
    out += [mma.MmaWarpgroup(first_warp=4, block_warps=8, n=32),
            mma.MmaWarpgroup(first_warp=4, block_warps=8, n=64, swizzle="none", k_steps=1),
            mma.MmaWarpgroup(start_address=2048, n=64),
            mma.MmaWarpgroup(swizzle="none", leading_byte_offset=256, stride_byte_offset=128,
                             n=16, k_steps=1)]  # core matrices along K spread out
    return out


def sweep() -> list[tuple[str, mma.MmaParams, str]]:
    feeds, groups = feed_variants(), warpgroup_variants()
    cases = []
    for i, feed in enumerate(feeds):
        shape, dtype, acc = MMA_VARIANTS[i % len(MMA_VARIANTS)]
        group = groups[i % len(groups)]
        p = mma.MmaParams(shape=shape, dtype=dtype, accumulator=acc, feed=feed, warpgroup=group)
        cases.append((f"sweep{i:03d}", p, "sweep"))
    return cases


def bundled() -> list[tuple[str, mma.MmaParams, str]]:
    """Every bundled mma scenario, before its steps and after each step."""
    from gpuviz.scenario import bundled_scenarios, load_scenario
    from gpuviz.scenario.compute import effective_params

    out = []
    for path in bundled_scenarios():
        sc = load_scenario(path)
        if "mma" not in sc.panels:
            continue
        for k in range(-1, len(sc.steps)):
            p = effective_params(sc.at_step(k), "mma")
            src = f"scenario {path.name} " + ("before the steps" if k < 0 else f"step {k}")
            out.append((f"{path.stem}@{k + 1}", p, src))
    return out


def export(folder: Path) -> None:
    from gpuviz.scenario.decode import encode_changes

    listing = []
    for case_id, p, source in bundled() + sweep():
        name = re.sub(r"[^A-Za-z0-9_-]", "-", case_id)
        k = render(p, name, source)
        write(k, folder / name)
        listing.append({"id": case_id, "dir": name, "panel": "mma",
                        "op": "ldsm" if p.feed.op == "ldmatrix" else "stsm",
                        "metric": k.metrics[0], "source": source,
                        "section": encode_changes(mma.MmaParams(), p)})
    (folder / "cases.json").write_text(json.dumps(listing, indent=1) + "\n")
    print(len(listing), "cases")


def _checks(text: str) -> dict[str, dict[str, str]]:
    """case dir → {check name: "ok" | "FAIL" | "not run"} from the concatenated outputs."""
    out: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("== "):
            current = line[3:].strip()
            out[current] = {}
        elif current and line.startswith("check "):
            what, _, verdict = line[6:].partition(": ")
            kind = what.split(" ")[0]
            out[current][kind] = ("ok" if verdict.startswith("ok") else
                                  "not run" if verdict.startswith("not run") else "FAIL")
            out[current][kind + "_detail"] = line[6:]
    return out


def import_results(folder: Path) -> None:
    from gpuviz.kernels.ncu_csv import number, read_file

    listing = json.loads((folder / "cases.json").read_text())
    checks = _checks((folder / "checks.txt").read_text())
    # one profiled mma_feed launch per case, in the order run_all.sh ran them (sorted folders)
    rows = read_file(folder / "ncu.csv")
    dirs = sorted(c["dir"] for c in listing)
    by_dir = dict(zip(dirs, rows, strict=False))
    versions = dict(line.split("=", 1) for line in
                    (folder / "versions.txt").read_text().splitlines() if "=" in line)
    cases = []
    for c in listing:
        row = by_dir.get(c["dir"])
        name = (row or {}).get("Process Name", "")
        if row is not None and name and not c["dir"].startswith(Path(name).name[:15]):
            raise ValueError(f"profile row of {name} joined to case {c['dir']}")
        entry = {k: c[k] for k in ("id", "panel", "op", "source", "section", "metric")}
        if row is None or c["metric"] not in row:
            continue
        entry["measured"] = number(row[c["metric"]])
        entry["raw"] = {k: number(v) for k, v in row.items() if k.endswith(".sum")}
        entry["checks"] = checks.get(c["dir"], {})
        entry["model"] = model_value(entry)
        cases.append(entry)
    data = {"format": 1, "device": versions.get("device", "NVIDIA H200"),
            "compute_capability": "9.0", "driver": versions.get("driver", ""),
            "toolkit": versions.get("toolkit", ""), "profiler": versions.get("profiler", ""),
            "clocks": "unmodified (ncu --clock-control none)",
            "tool": "gpuviz/kernels/mma.py via tools/mma_sweep.py",
            "build": "nvcc -O3 -gencode=arch=compute_90a,code=sm_90a",
            "command": "ncu --clock-control none --cache-control none --csv --page raw -k "
                       "mma_feed --target-processes all --metrics METRICS sh run_all.sh",
            "date": versions.get("date", ""),
            "what": "Per case one exported mma kernel: mma.sync with the model's fragment "
                    "tables (D against the host's product), ldmatrix/stmatrix with the model's "
                    "row addresses and register halves, and wgmma through the model's "
                    "descriptor and accumulator table; measured: the shared-memory wavefronts "
                    "of the ldmatrix/stmatrix. Case ids name the bundled scenarios' states as "
                    "they were on the day of the run (steps of mma-fragments were merged "
                    "since); the measurement of a section is found by its feed, which every "
                    "bundled state shares with a measured case.",
            "cases": cases}
    OUT.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n")
    print(f"{len(cases)} cases → {OUT}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("export", "import"):
        print(__doc__)
        raise SystemExit(2)
    (export if sys.argv[1] == "export" else import_results)(Path(sys.argv[2]))
