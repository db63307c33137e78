"""The tma panel's H200 checks: write the probe's case file, then import what it printed.

Usage:
  python tools/tma_sweep.py cases DIR     DIR/cases.txt (the lines tools/tma_probe.cu reads)
  python tools/tma_sweep.py import DIR    DIR holds what tools/device/tma.sh wrote (probe.jsonl,
                                          versions.txt); writes resources/measurements/tma/h100-tma.json

The file lies in a folder of its own: the files directly in resources/measurements are profiled
scalars that ``gpuviz measure`` and the Measurements dock read; these are whole placements and
traces. Every case is a ``tma`` scenario section in the fields of shared/SPEC.md, so the test
(tests/kernels/test_tma_hardware.py) hands the same section to the model. Cases: tensor maps the
driver accepts and refuses (each rule of ``cuTensorMapEncodeTiled``), 2-D box loads (every swizzle
mode, element size 1/2/4/8, several inner box widths, shared offsets 0–512 past a 1024-byte
base, boxes partly or wholly out of bounds, a negative start), scripts of mbarrier events, and
cluster occupancy (sizes 1–16) with the placement of one launch per cluster size.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "measurements" / "tma" / "h100-tma.json"

SWIZZLE = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
OPS = {"arrive": 0, "expect_tx": 1, "arrive_expect_tx": 2, "copy": 3, "complete_tx": 4,
       "test_wait": 5}

#: Global tensor of every load case: 288 × 20 elements (row bytes a multiple of 16 for every size).
LOAD_DIMS = (288, 20)


def _map(eb: int = 2, dims: tuple[int, ...] = (256, 64), box: tuple[int, ...] = (64, 8),
         swizzle: str = "128B", **kw: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"element_bytes": eb, "global_dims": list(dims), "box_dims": list(box),
                         "swizzle": swizzle}
    s.update(kw)
    return s


def encode_cases() -> list[tuple[str, dict[str, Any]]]:
    c: list[tuple[str, dict[str, Any]]] = []
    for sw, inner in (("none", 64), ("32B", 16), ("64B", 32), ("128B", 64)):
        c.append((f"enc-ok-{sw}", _map(box=(inner, 8), swizzle=sw)))
    for eb in (1, 4, 8):
        c.append((f"enc-ok-e{eb}", _map(eb=eb, dims=(512, 16), box=(128 // eb, 8))))
    c += [
        ("enc-box-256", _map(swizzle="none", box=(64, 256), dims=(256, 512))),
        ("enc-box-257", _map(swizzle="none", box=(64, 257), dims=(256, 512))),
        ("enc-box-inner-256", _map(eb=1, swizzle="none", box=(256, 2))),
        ("enc-box-inner-257", _map(eb=1, swizzle="none", box=(257, 2), dims=(512, 64))),
        ("enc-box-0", _map(box=(64, 0))),
        ("enc-inner-over-32B", _map(box=(32, 8), swizzle="32B")),
        ("enc-inner-over-64B", _map(box=(64, 8), swizzle="64B")),
        ("enc-inner-over-128B", _map(box=(128, 8), swizzle="128B")),
        ("enc-inner-under-128B", _map(box=(32, 8), swizzle="128B")),
        ("enc-inner-8-bytes", _map(box=(4, 8), swizzle="none")),
        ("enc-inner-24-bytes", _map(box=(12, 8), swizzle="none")),
        ("enc-stride-520", _map(global_strides=[520])),
        ("enc-stride-528", _map(global_strides=[528])),
        ("enc-stride-below-row", _map(global_strides=[256])),
        ("enc-stride-2^40", _map(global_strides=[1 << 40])),
        ("enc-stride-2^40-16", _map(global_strides=[(1 << 40) - 16])),
        ("enc-estride-8", _map(element_strides=[1, 8])),
        ("enc-estride-9", _map(element_strides=[1, 9])),
        ("enc-estride-0", _map(element_strides=[1, 0])),
        ("enc-estride-inner-2", _map(element_strides=[2, 1])),
        ("enc-offset-8", _map(swizzle="none", global_offset=8)),
        ("enc-offset-16-none", _map(swizzle="none", global_offset=16)),
        ("enc-offset-16-32B", _map(box=(16, 8), swizzle="32B", global_offset=16)),
        ("enc-offset-16-64B", _map(box=(32, 8), swizzle="64B", global_offset=16)),
        ("enc-offset-16-128B", _map(swizzle="128B", global_offset=16)),
        ("enc-offset-32-128B", _map(swizzle="128B", global_offset=32)),
        ("enc-offset-64-128B", _map(swizzle="128B", global_offset=64)),
        ("enc-offset-128-128B", _map(swizzle="128B", global_offset=128)),
        ("enc-dim-0", _map(dims=(256, 0))),
        ("enc-dim-2^32", _map(dims=(256, 1 << 32), global_strides=[512])),
        ("enc-dim-2^32-1", _map(dims=(256, (1 << 32) - 1), global_strides=[512])),
        ("enc-rank-1", _map(dims=(1024,), box=(64,))),
        ("enc-rank-3", _map(dims=(64, 16, 4), box=(64, 8, 2))),
        ("enc-rank-4", _map(dims=(64, 8, 4, 2), box=(64, 4, 2, 2))),
        ("enc-rank-5", _map(dims=(64, 4, 4, 2, 2), box=(64, 2, 2, 2, 2))),
        ("enc-il16-rank3", _map(dims=(64, 16, 4), box=(8, 8, 2), swizzle="none",
                                interleave="16B")),
        ("enc-il32-rank3-32B", _map(dims=(64, 16, 4), box=(16, 8, 2), swizzle="32B",
                                    interleave="32B")),
        ("enc-il32-rank3-none", _map(dims=(64, 16, 4), box=(16, 8, 2), swizzle="none",
                                     interleave="32B")),
        ("enc-il32-rank3-128B", _map(dims=(64, 16, 4), box=(16, 8, 2), swizzle="128B",
                                     interleave="32B")),
        ("enc-il16-rank2", _map(box=(8, 8), swizzle="none", interleave="16B")),
        ("enc-il32-offset-16", _map(dims=(64, 16, 4), box=(16, 8, 2), swizzle="32B",
                                    interleave="32B", global_offset=16)),
        ("enc-il32-stride-16", _map(dims=(8, 16, 4), box=(16, 8, 2), swizzle="32B",
                                    interleave="32B", global_strides=[16, 256])),
    ]
    return c


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    d0, d1 = LOAD_DIMS
    out: list[tuple[str, dict[str, Any]]] = []

    def add(name: str, eb: int, sw: str, inner_bytes: int, rows: int = 8,
            start: tuple[int, int] = (0, 0), smem: int = 0, **kw: Any) -> None:
        s = _map(eb=eb, dims=(d0, d1), box=(inner_bytes // eb, rows), swizzle=sw,
                 box_start=list(start), smem_offset=smem, **kw)
        out.append((name, s))

    for eb in (1, 2, 4, 8):
        for sw in SWIZZLE:
            add(f"load-e{eb}-{sw}", eb, sw, SPAN[sw] or 64, start=(eb, 1))
    for sw in ("32B", "64B", "128B"):
        for off in (128, 256, 384, 512):
            add(f"load-e2-{sw}-smem{off}", 2, sw, SPAN[sw], start=(16, 2), smem=off)
    add("load-e4-128B-smem384", 4, "128B", 128, smem=384)
    for sw, widths in (("128B", (16, 32, 64)), ("64B", (16, 32)), ("32B", (16,)),
                       ("none", (16, 48, 256))):
        for w in widths:
            add(f"load-e2-{sw}-inner{w}", 2, sw, w, start=(8, 3))
    add("load-e1-none-inner256", 1, "none", 256, rows=4, start=(3, 0))
    add("load-e2-128B-rows5", 2, "128B", 128, rows=5, start=(0, 0))
    add("load-e2-128B-rows12-smem256", 2, "128B", 128, rows=12, smem=256)
    add("load-e2-128B-neg", 2, "128B", 128, start=(-3, -2))
    add("load-e2-128B-end", 2, "128B", 128, start=(d0 - 20, d1 - 3))
    add("load-e2-none-out", 2, "none", 64, start=(-64, 0))
    add("load-e2-none-below", 2, "none", 64, start=(0, d1 + 4))
    add("load-e1-32B-neg", 1, "32B", 32, start=(-5, -7))
    add("load-e4-none-end", 4, "none", 64, start=(d0 - 7, 15))
    add("load-e8-64B-neg-smem128", 8, "64B", 64, start=(-1, -1), smem=128)
    add("load-e2-128B-goff16", 2, "128B", 128, global_offset=16)
    add("load-e2-none-goff16", 2, "none", 64, global_offset=16)
    add("load-e2-64B-pitch528", 2, "64B", 64, start=(4, 1), global_strides=[d0 * 2 + 16])
    # where the copy faults: the start's inner byte offset, and inner boxes under 128B swizzle
    for x in (2, 4, 6, 8, 16, -4, -8, -16):
        add(f"load-e2-none-x{x}", 2, "none", 64, start=(x, 0))
    add("load-e1-none-x16", 1, "none", 64, start=(16, 0))
    add("load-e4-128B-x4", 4, "128B", 128, start=(4, 0))
    for sw, widths in (("128B", (16, 32, 48, 80, 96, 112)), ("64B", (48,))):
        for w in widths:
            add(f"load-e2-{sw}-inner{w}-at0", 2, sw, w)
    return out


def _bar(count: int, *events: tuple[str, int]) -> dict[str, Any]:
    evs = []
    for op, v in events:
        key = "parity" if op == "test_wait" else "count" if op == "arrive" else "bytes"
        evs.append({"op": op} if op == "copy" else {"op": op, key: v})
    return {"barrier": {"count": count, "events": evs}}


#: Bytes of the copy the barrier scripts run ({"op": "copy"}): the box of their section.
BAR_BOX = {"element_bytes": 2, "global_dims": [256, 64], "box_dims": [64, 8], "swizzle": "128B"}
BAR_BYTES = 64 * 8 * 2


def barrier_cases() -> list[tuple[str, dict[str, Any]]]:
    tw0, tw1 = ("test_wait", 0), ("test_wait", 1)
    cp = ("copy", BAR_BYTES)
    scripts = {
        "bar-init": _bar(1, tw0, tw1),
        "bar-load": _bar(1, ("arrive_expect_tx", BAR_BYTES), tw0, cp, tw0, tw1),
        "bar-complete-before-expect": _bar(1, ("complete_tx", 256), tw0,
                                           ("arrive_expect_tx", 256), tw0, tw1),
        "bar-expect-alone-completes": _bar(1, ("arrive", 1), tw0, ("complete_tx", 128),
                                           ("arrive", 1), tw1, ("expect_tx", 128), tw1),
        "bar-expect-then-arrive": _bar(1, ("expect_tx", 512), ("arrive", 1), tw0,
                                       ("complete_tx", 256), tw0, ("complete_tx", 256), tw0),
        "bar-two-arrivals": _bar(2, ("arrive", 1), tw0, ("arrive", 1), tw0, ("arrive", 2), tw1),
        "bar-expect-twice": _bar(1, ("expect_tx", BAR_BYTES), ("expect_tx", BAR_BYTES),
                                 ("arrive", 1), cp, tw0, ("complete_tx", BAR_BYTES), tw0),
        "bar-expect-too-large": _bar(1, ("arrive_expect_tx", 2 * BAR_BYTES), cp, tw0, tw1),
        "bar-rounds": _bar(1, *[e for _ in range(4) for e in (("arrive_expect_tx", BAR_BYTES),
                                                               cp, tw0, tw1)]),
        "bar-count3-tx": _bar(3, ("arrive_expect_tx", 128), ("arrive", 1), tw0,
                              ("complete_tx", 64), ("arrive", 1), tw0, ("complete_tx", 64), tw0),
    }
    return [(k, {**BAR_BOX, **v}) for k, v in scripts.items()]


#: The cluster occupancy grid the probe queries (threads, dynamic shared bytes, size 1–16).
CLUSTER_THREADS = (128, 256, 1024)
CLUSTER_SHARED = (0, 48 * 1024, 100 * 1024, 227 * 1024)


def _line(kind: str, name: str, s: dict[str, Any]) -> str:
    eb, dims, box = s["element_bytes"], s["global_dims"], s["box_dims"]
    rank = len(dims)
    strides = s.get("global_strides")
    if strides is None:
        strides, acc = [], dims[0] * eb
        for d in dims[1:]:
            strides.append(acc)
            acc *= d
    off = s.get("global_offset", 0)
    sw = SWIZZLE[s.get("swizzle", "none")]
    if kind == "E":
        estr = s.get("element_strides", [1] * rank)
        il = {"none": 0, "16B": 16, "32B": 32}[s.get("interleave", "none")]
        nums = [eb, rank, *dims, *strides, off, *box, *estr, il, sw]
    else:
        start = s["box_start"]
        nums = [eb, dims[0], dims[1], strides[0], off, box[0], box[1], sw, start[0], start[1],
                s.get("smem_offset", 0)]
    return f"{kind} {name} " + " ".join(str(n) for n in nums)


def _bar_line(name: str, s: dict[str, Any]) -> str:
    b = s["barrier"]
    nums = []
    for e in b["events"]:
        v = BAR_BYTES if e["op"] == "copy" else e.get("count", e.get("bytes", e.get("parity")))
        nums += [OPS[e["op"]], v]
    return f"B {name} {b['count']} {len(b['events'])} " + " ".join(map(str, nums))


def write_cases(d: Path) -> None:
    d.mkdir(parents=True, exist_ok=True)
    lines = [_line("E", n, s) for n, s in encode_cases()]
    lines += [_bar_line(n, s) for n, s in barrier_cases()]
    lines.append("C")
    lines += [_line("L", n, s) for n, s in load_cases()]  # last: a faulting copy ends the run
    (d / "cases.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} case lines in {d / 'cases.txt'}")


def _row(line: str) -> dict[str, Any]:
    """One line the probe printed; a load whose copy faulted printed its start, then the error."""
    if '{"fatal"' not in line:
        return json.loads(line)
    head, _, tail = line.partition('{"fatal"')
    row = json.loads(head + "}")
    row["fault"] = json.loads('{"fatal"' + tail)["fatal"]
    return row


def import_results(d: Path) -> None:
    versions = dict(line.split("=", 1) for line in (d / "versions.txt").read_text().splitlines()
                    if "=" in line)
    rows = [_row(line) for line in (d / "probe.jsonl").read_text().splitlines()
            if line.startswith("{")]
    by_id = {r["id"]: r for r in rows if "id" in r}
    device = next(r for r in rows if r.get("kind") == "device")
    cases: list[dict[str, Any]] = []
    for name, s in encode_cases():
        r = by_id[name]
        cases.append({"id": name, "check": "encode", "section": s, "cu_result": r["result"],
                      "accepted": r["result"] == 0})
    for name, s in load_cases():
        r = by_id[name]
        case = {"id": name, "check": "load", "section": s, "cu_result": r["encode"]}
        if "fault" in r:
            case["fault"] = r["fault"]
        elif r["encode"] == 0:
            case.update(completed=bool(r["completed"]), box_bytes=r["box_bytes"],
                        slots=r["slots"])
        cases.append(case)
    for name, s in barrier_cases():
        r = by_id[name]
        trace = [{"wait0": bool(t["wait0"]), "wait1": bool(t["wait1"])} for t in r["trace"]]
        cases.append({"id": name, "check": "barrier", "section": s, "trace": trace})
    clusters = next(r for r in rows if r.get("kind") == "clusters")
    for o in clusters["occupancy"]:
        cases.append({"id": f"clusters-t{o['threads']}-s{o['shared']}-c{o['cluster']}",
                      "check": "clusters",
                      "section": {"cluster": {"dims": [o["cluster"], 1, 1]},
                                  "threads_per_block": o["threads"],
                                  "dynamic_shared_memory": o["shared"]},
                      "max_active_clusters": o["max_active_clusters"], "error": o["error"]})
    doc = {
        "format": 1, "device": device["name"], "compute_capability": device["cc"],
        "multiprocessors": device["sms"], "driver": versions.get("driver", ""),
        "driver_api": device["driver_api"], "runtime": device["runtime"],
        "toolkit": versions.get("toolkit", ""), "date": versions.get("date", ""),
        "tool": "tools/tma_probe.cu (cases: tools/tma_sweep.py)",
        "build": "nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -o tma_probe tools/tma_probe.cu",
        "command": "./tma_probe < cases.txt (tools/device/tma.sh)",
        "what": ("cuTensorMapEncodeTiled's answer (CUresult) per tensor map; per 2-D box load "
                 "(cp.async.bulk.tensor completing on an mbarrier) the value in each element-sized "
                 "slot of shared memory from the buffer's start: global element (x, y) holds "
                 "y * d0 + x + 1, 0 is zero fill, -1 an untouched byte; per mbarrier script "
                 "test_wait.parity 0 and 1 after each event; a copy that faulted gives "
                 "its error instead of slots; cudaOccupancyMaxActiveClusters per cluster size with "
                 "non-portable sizes allowed; %cluster_ctarank, %smid and %clusterid.x of each "
                 "block of one launch per cluster size."),
        "cases": cases,
        "placement": clusters["placement"],
    }
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases → {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("cases", "import"):
        sys.exit(__doc__)
    (write_cases if sys.argv[1] == "cases" else import_results)(Path(sys.argv[2]))
