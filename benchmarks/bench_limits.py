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

from gpuviz.registry import PANELS

BUDGET_S = 2.0
BUDGET_MB = 512.0

# panel id -> [(label, section)]: the costliest accepted sections we know of, the costliest
# measured first, declared beside each model (gpuviz/models/<id>.py, worst_cases()); a model
# without the declaration has none here, and the panel conformance suite names it
WORST_CASES: dict[str, list[tuple[str, dict]]] = {
    p.id: getattr(p.model, "worst_cases", list)() for p in PANELS}

# The largest PNG export accepted: a full-width figure near MAX_PIXELS (925 dpi; at 1200 the
# gemm figure is 83 million pixels, at 925 about 49 million).
EXPORT_CASES = [("gemm PNG at 925 dpi", "gemm-walkthrough.json", "gemm", 925)]


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
               "animation": lambda: _measure_animation(int(rest[0]))}
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
