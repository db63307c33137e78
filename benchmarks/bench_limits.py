"""Cost of every panel at the limits its validator accepts: time and peak memory per case.

Each case is a scenario section at (or near) the bounds of the panel's parameters, the
combination that costs the most that we know of. Every case runs in a fresh subprocess, which
loads and validates the scenario file, computes the panel, builds its figure and writes it as
SVG, and then writes the JSON that ``gpuviz compute`` prints; the table gives the CPU seconds
of each stage (CPU, not wall time, so that other work on a shared machine does not count), the
wall time, and the subprocess's peak resident memory. The limits in ``gpuviz/models/*.py``
(``param(...)`` bounds and the models' ``problems``) are set so that every accepted case stays
under BUDGET_S and BUDGET_MB on a 2-core machine; a case over budget is marked "OVER". The
export row is the largest PNG ``gpuviz/export/raster.py`` accepts (MAX_PIXELS), held to the
same budgets. It never fails on time: run it, read it.

    .venv/bin/python benchmarks/bench_limits.py [PANEL ...]   (app: only the app rows,
    bench_limits_app.py)

``WORST_CASES`` is also what tests/models/test_limits.py computes (without timing it).

``steps`` rows are whole scenarios whose cost grows with their steps (a linked panel checked in
every state, the widest captions): load is the validation of every step, and compute, figure
and wall are those of the costliest step (its state computed, its captions formatted as the app
shows them, every panel drawn as SVG). ``animation`` rows are the largest GIF and APNG that
``gpuviz/export/animate.py`` accepts, held to the memory budget like the export row.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_S = 2.0
BUDGET_MB = 512.0


def divergence_ladder(instructions: int = 10_000, warp_size: int = 64) -> dict:
    """64 blocks, 124 edges: an entry, 31 layers of two blocks that each branch to both blocks
    of the next layer, and an exit block; the lanes split into ever smaller paths and every
    block runs once per path that reaches it."""
    nodes = [{"name": "entry", "instructions": instructions}]
    edges = []
    before = ["entry"]
    for i in range(1, 32):
        layer = [f"a{i}", f"c{i}"]
        nodes += [{"name": name, "instructions": instructions} for name in layer]
        for j, source in enumerate(before):
            edges.append({"source": source, "target": layer[0],
                          "predicate": f"lane // {2 ** ((i - 1 + j) % 6)} % 2 == 0"})
            edges.append({"source": source, "target": layer[1], "predicate": ""})
        before = layer
    nodes.append({"name": "end", "instructions": instructions})
    edges += [{"source": source, "target": "end", "predicate": ""} for source in before]
    return {"nodes": nodes, "edges": edges, "warp_size": warp_size}


def _explicit_snake(rows: int, cols: int) -> list[int]:
    return [r * cols + (c if r % 2 == 0 else cols - 1 - c) for r in range(rows)
            for c in range(cols)]


# panel id -> [(label, section)]: the costliest accepted sections we know of, the costliest
# measured first
WORST_CASES: dict[str, list[tuple[str, dict]]] = {
    "launch": [
        ("1-D, 2^20 blocks of 1024", {"grid": [1 << 20], "block": [1024]}),
        ("3-D grid 1024×32×32", {"grid": [1024, 32, 32], "block": [16, 8, 8], "warp_size": 64,
                                 "sm_count": 64, "slots_per_sm": 32,
                                 "selected_block": (1 << 20) - 1, "selected_warp": 15}),
        ("quantization at its bounds", {"n": 130, "quantization": {
            "matrix_m": 1048576, "matrix_n": 1048576, "tile_m": 1, "tile_n": 1,
            "sm_count": 1, "blocks_per_sm": 1}}),
    ],
    "sectors": [
        ("64 lanes, 16 B, stride 4096", {"warp_size": 64, "element_bytes": 16,
                                         "base_offset": 1 << 30, "follow_launch": False,
                                         "pattern": {"kind": "stride", "stride": 4096}}),
        ("64 scattered addresses", {"warp_size": 64, "element_bytes": 16, "follow_launch": False,
                                    "pattern": {"kind": "explicit", "addresses": [
                                        (i * 7919 * 4096) % (1 << 30) for i in range(64)]}}),
    ],
    "banks": [
        ("16 B, stride 4096, padded", {"access_bytes": 16, "pattern": {
            "kind": "stride", "stride": 4096, "start": 1048576, "row_width": 4096,
            "padding": 256}}),
        ("explicit words, custom swizzle", {"access_bytes": 16, "pattern": {
            "kind": "explicit", "indices": [(i * 104729) % 16777216 for i in range(32)]},
            "swizzle": {"mode": "custom", "bits": 8, "base": 16, "shift": 16}}),
    ],
    "swizzle": [
        ("custom, 128B span", {"swizzle": {"mode": "custom", "bits": 3, "base": 4, "shift": 3},
                               "column": 7, "word": 3}),
    ],
    "gemm": [
        ("tile 512, K 10^6", {"tile": 512, "k_dim": 1_000_000, "max_tile": 512}),
    ],
    "traversal": [
        ("256×256, k 1024, explicit order", {"rows": 256, "cols": 256, "k_tiles": 1024,
                                             "order": "explicit", "compare_order": "hilbert",
                                             "explicit": _explicit_snake(256, 256),
                                             "capacity": 64}),
        ("256×256, k 1024, hilbert vs grouped", {"rows": 256, "cols": 256, "k_tiles": 1024,
                                                 "order": "hilbert", "compare_order": "grouped",
                                                 "group_m": 3, "capacity": 1_000_000}),
        ("1024×64, k 1024, column vs hilbert", {"rows": 1024, "cols": 64, "k_tiles": 1024,
                                                "order": "column-major",
                                                "compare_order": "hilbert", "capacity": 700}),
        ("256×256, k 1024, in flight 4096", {"rows": 256, "cols": 256, "k_tiles": 1024,
                                             "in_flight": 4096, "order": "grouped",
                                             "compare_order": "row-major", "capacity": 2000}),
        ("128×128, k 1024, unbounded", {"rows": 128, "cols": 128, "k_tiles": 1024,
                                        "order": "hilbert", "compare_order": "grouped",
                                        "capacity": None}),
        ("1024 sweep capacities", {"rows": 256, "cols": 256, "k_tiles": 1024, "order": "hilbert",
                                   "sweep_capacities": list(range(1, 1025))}),
        ("H200 L2 partition, 16384², k 512", {"rows": 128, "cols": 128, "k_tiles": 512,
                                              "in_flight": 132, "order": "hilbert",
                                              "compare_order": "grouped", "group_m": 8,
                                              "cache": "l2-partition", "arch": "h200",
                                              "tile_bytes": 8192}),
    ],
    "pipeline": [
        ("64 tiles, 8 buffers", {"tiles": 64, "buffers": 8, "prefetch_distance": 64,
                                 "load_times": [1000.0] * 64, "compute_times": [0.001] * 64}),
    ],
    "barrier": [
        ("16 threads, 4 tiles, 256 picks", {"threads": 16, "valid_threads": 9, "tiles": 4,
                                            "neighbour_offset": 15, "early_return": True,
                                            "first_barrier": False, "schedule": "explicit",
                                            "picks": [(i * 7) % 16 for i in range(256)]}),
        ("16 threads, round robin", {"threads": 16, "valid_threads": 16, "tiles": 4,
                                     "schedule": "round_robin"}),
    ],
    "reduction": [
        ("1024 values, block, float32", {"values": [1e30 / (i + 1) for i in range(1024)],
                                         "scope": "block", "arithmetic": "float32",
                                         "pattern": "xor", "partial_warp": "active_mask"}),
        ("1024 values, block, exact", {"values": [(-1) ** i * 1e6 / (i + 1)
                                                  for i in range(1024)],
                                       "scope": "block", "final_read": "fixed_32"}),
    ],
    "occupancy": [
        ("smallest blocks", {"threads_per_block": 1, "registers_per_thread": 1,
                             "registers_per_sm": 1048576, "shared_memory_per_sm": 4194304,
                             "max_warps_per_sm": 256, "max_blocks_per_sm": 256}),
        ("largest blocks", {"threads_per_block": 1024, "registers_per_thread": 255,
                            "static_shared_memory": 49152, "dynamic_shared_memory": 1048576}),
    ],
    "scheduler": [
        ("64 warps, busy every cycle, LRR", {"warps": 64, "load_latency": 64,
                                             "math_latency": 2, "math_per_load": 1,
                                             "loads_per_warp": 16, "warp_slots": 64,
                                             "registers_per_thread": 1,
                                             "registers_per_scheduler": 1048576,
                                             "policy": "lrr", "divergence": True,
                                             "cycles": 200000}),
        ("64 warps, 200000 cycles, GTO", {"warps": 64, "load_latency": 5000, "math_latency": 64,
                                          "math_per_load": 512, "loads_per_warp": 16,
                                          "warp_slots": 64, "registers_per_thread": 1,
                                          "registers_per_scheduler": 1048576,
                                          "divergence": True, "cycles": 200000}),
        ("64 warps, busy every cycle, GTO", {"warps": 64, "load_latency": 64,
                                             "math_latency": 2, "math_per_load": 1,
                                             "loads_per_warp": 16, "warp_slots": 64,
                                             "registers_per_thread": 1,
                                             "registers_per_scheduler": 1048576,
                                             "cycles": 200000}),
        ("64 warps, 200000 cycles, LRR", {"warps": 64, "load_latency": 1, "math_latency": 1,
                                          "math_per_load": 0, "loads_per_warp": 16,
                                          "warp_slots": 64, "registers_per_thread": 1,
                                          "registers_per_scheduler": 1048576, "policy": "lrr",
                                          "cycles": 200000}),
    ],
    "divergence": [
        ("ladder, 64 blocks × 10000 instr.", divergence_ladder()),
        ("ladder, warp 32", divergence_ladder(10_000, 32)),
    ],
    "mma": [
        # every part drawn, the widest tile rows, m64n256k16 with four K steps and stages, the
        # largest block tile over a block of 32 warps
        ("all parts, n 256, 512-element rows", {
            "show": ["fragment-a", "fragment-b", "fragment-c", "feed", "warpgroup",
                     "descriptor", "completion", "hierarchy"],
            "feed": {"layout": "padded", "row_elements": 512, "padding": 64, "matrices": 4},
            "warpgroup": {"n": 256, "k_steps": 4, "stages": 4, "wait_pending": 4,
                          "block_warps": 32, "first_warp": 28},
            "hierarchy": {"block_m": 512, "block_n": 512, "warps_m": 2, "warps_n": 16}}),
        ("m16n8k32 s8, swizzled", {"shape": "m16n8k32", "dtype": "s8", "accumulator": "s32",
                                   "feed": {"layout": "swizzled", "swizzle": "32B",
                                            "row_elements": 512}}),
    ],
    "tma": [
        # every part drawn, the largest placed box (256 × 256 one-byte elements, 16 B rows
        # would be refused: 64 × 256 × 4 bytes), a long event script and ring
        ("all parts, 256-row box, 32 iterations", {
            "show": ["tensor-map", "box", "placement", "barrier", "ring", "cluster"],
            "element_bytes": 1, "global_dims": [4096, 4096], "box_dims": [128, 256],
            "box_start": [-64, 4000],
            "barrier": {"count": 4, "events": [{"op": "arrive"}] * 64},
            "pipeline": {"stages": 8, "iterations": 32, "mistake": "early_release"},
            "cluster": {"dims": [16, 1, 1]}}),
    ],
}

# The largest PNG export accepted: a full-width figure near MAX_PIXELS (925 dpi; at 1200 the
# gemm figure is 83 million pixels, at 925 about 49 million).
EXPORT_CASES = [("gemm PNG at 925 dpi", "gemm-walkthrough.json", "gemm", 925)]
# faces subset into every SVG (--embed-fonts), over a bundled lecture's every step; and the
# Python API's figure of every step and one saved file
FONT_CASES = [("embed-fonts, gemm-walkthrough", "gemm-walkthrough.json", "gemm"),
              ("embed-fonts, mma-fragments", "mma-fragments.json", "mma")]
API_CASES = [("api: traversal-sweep, every step", "traversal-sweep.json")]


def _steps(pid: str, changes, count: int = 250) -> list[dict]:
    return [{"title": f"s{k}", "changes": {pid: changes(k)}} for k in range(count)]


_WIDEST_CAPTION = ("{launch.n:>40,} {pipeline.load_time:.20f} {launch.block:>40} "
                   "{sectors.result.efficiency:.20%} {sectors.result.lane_addresses:>40x} "
                   "{launch.result.lanes}")

# Whole scenarios whose cost grows with their steps: loading validates every step (a linked
# panel is checked again in every state); then each step's state is computed, drawn as SVG and
# its caption formatted, as the app shows it. The row gives the load and the costliest step.
SCENARIO_CASES: list[tuple[str, dict]] = [
    ("250 steps over 2^20 linked blocks", {
        "version": 1, "panels": ["launch", "sectors"],
        "launch": {"grid": [1 << 20], "block": [1024]},
        "sectors": {"pattern": {"kind": "expression", "expression": "tid * 4 + warp"}},
        "steps": _steps("launch", lambda k: {"selected_block": k * 4099,
                                             "selected_warp": k % 32})}),
    ("250 steps, widest captions", {
        "version": 1, "panels": ["launch", "sectors", "pipeline"],
        "launch": {"n": 1 << 20, "block": [1024]},
        "steps": [{**step, "caption": _WIDEST_CAPTION, "predict": _WIDEST_CAPTION}
                  for step in _steps("launch", lambda k: {"selected_block": k})]}),
]

_TRAVERSAL_256 = {"version": 1, "panels": ["traversal"], "traversal": {
    "rows": 256, "cols": 256, "k_tiles": 2, "order": "hilbert"}}
# The largest animations accepted (animate.MAX_ANIMATION_PIXELS, MAX_FRAME_PIXELS) of the figure
# costliest to build: (label, scenario, panel, format, dpi, frames). Held to the memory budget;
# their time grows with frames × pixels, which those limits bound.
ANIMATION_CASES = [
    ("traversal GIF, 45 frames, 110 dpi", _TRAVERSAL_256, "traversal", "gif", 110, 45),
    ("traversal APNG, 2 frames, 469 dpi", _TRAVERSAL_256, "traversal", "apng", 469, 2),
]


def scenario_of(panel_id: str, section: dict) -> dict:
    return {"version": 1, "title": "limits", "panels": [panel_id], panel_id: section}


def _measure_panel(panel_id: str, index: int) -> dict:
    from gpuviz.export.svg import figure_to_svg
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import SCREEN
    from gpuviz.models.jsonable import dumps, to_jsonable
    from gpuviz.scenario import ScenarioError, compute_all, load_scenario

    _, section = WORST_CASES[panel_id][index]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.json"
        path.write_text(json.dumps(scenario_of(panel_id, section)))
        w0, t0 = time.perf_counter(), time.process_time()
        try:
            scenario = load_scenario(path)
        except ScenarioError as err:
            return {"rejected": "; ".join(err.lines())[:160]}
        t1 = time.process_time()
        result = compute_all(scenario, (panel_id,))[panel_id]
        t2 = time.process_time()
        svg = figure_to_svg(figure_for(scenario, panel_id, SCREEN))
        t3 = time.process_time()
        wall = time.perf_counter() - w0
        # what `gpuviz compute` prints (the same call as gpuviz/cli.py)
        t4 = time.process_time()
        text = dumps({panel_id: to_jsonable(result)})
        t5 = time.process_time()
    return {"load": t1 - t0, "compute": t2 - t1, "figure": t3 - t2, "wall": wall,
            "svg_mb": len(svg) / 1e6, "json": t5 - t4, "json_mb": len(text) / 1e6}


def _measure_export(index: int) -> dict:
    from gpuviz.export.files import export_figure
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    _, name, panel_id, dpi = EXPORT_CASES[index]
    scenario = load_scenario(scenario_dir() / name)
    with tempfile.TemporaryDirectory() as tmp:
        w0, t0 = time.perf_counter(), time.process_time()
        export_figure(scenario, panel_id, Path(tmp) / "out.png", fmt="png", dpi=dpi)
        t1 = time.process_time()
        png = (Path(tmp) / "out.png").read_bytes()
    size = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
    return {"load": 0.0, "compute": 0.0, "figure": t1 - t0, "wall": time.perf_counter() - w0,
            "svg_mb": len(png) / 1e6, "pixels": size, "json": 0.0, "json_mb": 0.0}


def _measure_fonts(index: int) -> dict:
    from gpuviz.export.files import export_figure
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    _, name, panel_id = FONT_CASES[index]
    scenario = load_scenario(scenario_dir() / name)
    size = 0
    with tempfile.TemporaryDirectory() as tmp:
        w0, t0 = time.perf_counter(), time.process_time()
        for k in range(len(scenario.steps)):
            out = Path(tmp) / f"step{k + 1}.svg"
            export_figure(scenario.at_step(k), panel_id, out, selection=scenario.step_selection(k),
                          embed_fonts=True)
            size += out.stat().st_size
        t1 = time.process_time()
    return {"load": 0.0, "compute": 0.0, "figure": t1 - t0, "wall": time.perf_counter() - w0,
            "svg_mb": size / 1e6, "json": 0.0, "json_mb": 0.0}


def _measure_api(index: int) -> dict:
    import gpuviz.api as gv
    from gpuviz.scenario.bundled import scenario_dir

    _, name = API_CASES[index]
    with tempfile.TemporaryDirectory() as tmp:
        w0, t0 = time.perf_counter(), time.process_time()
        lecture = gv.load(scenario_dir() / name)
        t1 = time.process_time()
        figures = [lecture.at_step(k + 1).figure() for k in range(len(lecture.steps))]
        saved = lecture.save(Path(tmp) / name)
        t2 = time.process_time()
        size = saved.stat().st_size
    return {"load": t1 - t0, "compute": 0.0, "figure": t2 - t1, "wall": time.perf_counter() - w0,
            "svg_mb": size / 1e6, "json": 0.0, "json_mb": 0.0, "figures": len(figures)}


def _measure_scenario(index: int) -> dict:
    from gpuviz.export.svg import figure_to_svg
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import SCREEN
    from gpuviz.scenario import compute_all, load_scenario
    from gpuviz.scenario.fields import format_fields

    _, data = SCENARIO_CASES[index]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.json"
        path.write_text(json.dumps(data))
        w0, t0 = time.perf_counter(), time.process_time()
        scenario = load_scenario(path)
        load, load_wall = time.process_time() - t0, time.perf_counter() - w0
    worst = {"compute": 0.0, "figure": 0.0, "wall": 0.0}
    svg_mb = 0.0
    for k, step in enumerate(scenario.steps):
        state = scenario.at_step(k)
        w1, t1 = time.perf_counter(), time.process_time()
        compute_all(state)
        for text in (step.caption, step.predict):
            format_fields(text, state)
        t2 = time.process_time()
        svg = "".join(figure_to_svg(figure_for(state, pid, SCREEN)) for pid in state.panels)
        t3 = time.process_time()
        if (t3 - t1) > worst["compute"] + worst["figure"]:
            worst = {"compute": t2 - t1, "figure": t3 - t2,
                     "wall": load_wall + time.perf_counter() - w1}
            svg_mb = len(svg) / 1e6
    return {"load": load, **worst, "svg_mb": svg_mb, "json": 0.0, "json_mb": 0.0}


def _measure_animation(index: int) -> dict:
    from gpuviz.export.animate import FramePlan, write_animation
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import SCREEN
    from gpuviz.keys import at_frame
    from gpuviz.scenario import loads_scenario

    _, data, pid, fmt, dpi, frames = ANIMATION_CASES[index]
    scenario = loads_scenario(json.dumps(data))
    plan = FramePlan(frames, lambda i: figure_for(scenario, pid, SCREEN, at_frame((), i)), 4.0)
    with tempfile.TemporaryDirectory() as tmp:
        w0, t0 = time.perf_counter(), time.process_time()
        write_animation(plan, Path(tmp) / f"a.{fmt}", fmt, dpi=dpi)
        t1 = time.process_time()
        size = (Path(tmp) / f"a.{fmt}").stat().st_size
    return {"load": 0.0, "compute": 0.0, "figure": t1 - t0, "wall": time.perf_counter() - w0,
            "svg_mb": size / 1e6, "json": 0.0, "json_mb": 0.0}




def _child(argv: list[str]) -> None:
    kind, *rest = argv
    measure = {"export": lambda: _measure_export(int(rest[0])),
               "scenario": lambda: _measure_scenario(int(rest[0])),
               "animation": lambda: _measure_animation(int(rest[0])),
               "fonts": lambda: _measure_fonts(int(rest[0])),
               "api": lambda: _measure_api(int(rest[0]))}
    out = measure[kind]() if kind in measure else _measure_panel(rest[0], int(rest[1]))
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def _run(args: list[str]) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True,
                          text=True, env=env, timeout=900)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1][:160], "wall": wall}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(panels: list[str]) -> int:
    from bench_limits_app import main_app

    if "app" in panels:  # the app rows alone
        main_app([p for p in panels if p != "app"])
        return 0
    print(f"CPU seconds per stage: load and validate, compute, figure and SVG (their sum is the "
          f"app's cost: CPU s; wall s is its wall time), and separately the JSON that `gpuviz "
          f"compute` prints; peak resident memory of the case; SVG (or PNG) and JSON sizes. Load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print(f"{'panel':<11} {'case':<34} {'load':>5} {'comp.':>5} {'fig.':>5} {'CPU s':>5} "
          f"{'wall s':>6} {'json':>5} {'peak MB':>7} {'out MB':>6} {'json MB':>7}")
    worst_s = worst_mb = 0.0
    rows = [("panel", pid, i, label) for pid in WORST_CASES if not panels or pid in panels
            for i, (label, _) in enumerate(WORST_CASES[pid])]
    if not panels or "export" in panels:
        rows += [("export", "export", i, label) for i, (label, *_) in enumerate(EXPORT_CASES)]
    if not panels or "fonts" in panels:
        rows += [("fonts", "fonts", i, label) for i, (label, *_) in enumerate(FONT_CASES)]
    if not panels or "api" in panels:
        rows += [("api", "api", i, label) for i, (label, *_) in enumerate(API_CASES)]
    if not panels or "steps" in panels:
        rows += [("scenario", "steps", i, label) for i, (label, _) in enumerate(SCENARIO_CASES)]
    if not panels or "animation" in panels:
        rows += [("animation", "animation", i, label)
                 for i, (label, *_) in enumerate(ANIMATION_CASES)]
    for kind, pid, i, label in rows:
        r = _run([kind, str(i)] if kind != "panel" else ["panel", pid, str(i)])
        if "error" in r or "rejected" in r:
            print(f"{pid:<11} {label:<34} {'failed: ' + r['error'] if 'error' in r else 'rejected: ' + r['rejected']}")
            continue
        total = r["load"] + r["compute"] + r["figure"]
        # an export or animation row is held to both budgets too: MAX_PIXELS and the
        # animation's pixel caps are set so that the largest accepted stays within them
        timed = True
        over = r["peak_mb"] > BUDGET_MB or (
            timed and max(total, r["load"] + r["compute"] + r["json"]) > BUDGET_S)
        if timed:
            worst_s = max(worst_s, total, r["load"] + r["compute"] + r["json"])
            worst_mb = max(worst_mb, r["peak_mb"])
        print(f"{pid:<11} {label:<34} {r['load']:>5.2f} {r['compute']:>5.2f} {r['figure']:>5.2f} "
              f"{total:>5.2f} {r['wall']:>6.2f} {r['json']:>5.2f} {r['peak_mb']:>7.0f} "
              f"{r['svg_mb']:>6.1f} {r['json_mb']:>7.1f}{'  OVER' if over else ''}", flush=True)
    print(f"\nworst case: {worst_s:.2f} CPU s, {worst_mb:.0f} MB peak (budget "
          f"{BUDGET_S:.0f} s, {BUDGET_MB:.0f} MB, the export and animation rows included: the "
          f"largest PNG and animations accepted). "
          f"Wall time exceeds CPU time only when other work shares the cores.")
    if not panels or any(p in WORST_CASES or p == "steps" for p in panels):
        main_app(panels)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2:])
    else:
        sys.exit(main(sys.argv[1:]))
