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

``command`` rows are whole ``gpuviz export`` runs (``cli.main`` in the child, its lazy imports
counted) of what a user exports most: traversal at real sizes with 4,096 tiles in flight, a
bundled lecture's every step with ``--embed-fonts`` (the shipped faces, and a paper's face with
``--font``), its web page, handout and deck, a 3-step web page, and the 250-step lecture of the
hostile corpus as a deck, web page and handout; ``api`` rows the same through ``gpuviz.api``. A
lecture scales with its pages, so its rule is per page: CPU seconds / pages (the overview and
each step, the "pages" column) within BUDGET_S, and the whole run within BUDGET_MB.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


_ROOT = Path(__file__).resolve().parents[1]
_TRAVERSAL_4096 = "traversal real sizes, 4096 in flight"
_STEPS_250 = "250-steps-over-a-big-divergence"  # tests/hostile/hostile_corpus.steps()
# (label, source: a bundled scenario, _TRAVERSAL_4096 or _STEPS_250, export options)
COMMAND_CASES: list[tuple[str, str, list[str]]] = [
    ("traversal real sizes, 4096 in flight", _TRAVERSAL_4096, []),
    ("the same, every step", _TRAVERSAL_4096, ["--all-steps"]),
    ("gemm-walkthrough, --embed-fonts", "gemm-walkthrough", ["--all-steps",
     "--embed-fonts"]),
    ("gemm-walkthrough, --font, embedded", "gemm-walkthrough", ["--all-steps",
     "--embed-fonts", "--font"]),
    ("gemm-walkthrough, --text-as-paths", "gemm-walkthrough", ["--all-steps",
     "--text-as-paths"]),
    ("gemm-walkthrough web page", "gemm-walkthrough", ["--format", "html"]),
    ("gemm-walkthrough handout", "gemm-walkthrough", ["--format", "pdf", "--all-steps"]),
    ("gemm-walkthrough deck", "gemm-walkthrough", ["--format", "pptx"]),
    ("sectors-stride8 web page, 3 steps", "sectors-stride8", ["--format", "html"]),
    ("250-step web page", _STEPS_250, ["--format", "html"]),
    ("250-step handout", _STEPS_250, ["--format", "pdf", "--all-steps"]),
    ("250-step deck", _STEPS_250, ["--format", "pptx"]),
]
# (label, what it does with gv.load("gemm-walkthrough") and a folder, whether it is a
# lecture's every page)
API_CASES: list[tuple[str, Callable[[Any, Path], object], bool]] = [
    ("figure as PDF", lambda lecture, out: lecture.figure().save(out / "f.pdf"), False),
    ("figure as SVG, every step", lambda lecture, out: [
        lecture.at_step(k).figure().save(out / f"{k}.svg") for k in range(len(lecture.steps))],
     True),
    ("save_html", lambda lecture, out: lecture.save_html(out / "l.html"), True),
    ("save_handout", lambda lecture, out: lecture.save_handout(out / "h.pdf"), True),
    ("save_deck", lambda lecture, out: lecture.save_deck(out / "d.pptx"), True),
]


def _command_source(source: str, folder: Path) -> Path:
    from gpuviz.scenario.bundled import scenario_dir

    if source == _TRAVERSAL_4096:
        data = json.loads((scenario_dir() / "traversal-h200-real-sizes.json").read_text("utf-8"))
        data["traversal"]["in_flight"] = 4096
        path = folder / "traversal-4096.json"
        path.write_text(json.dumps(data))
        return path
    if source == _STEPS_250:
        sys.path.insert(0, str(_ROOT / "tests" / "hostile"))
        from hostile_corpus import steps

        [case] = [c for c in steps() if c.name == source]
        return case.materialise(folder)
    return scenario_dir() / f"{source}.json"


def _measure_command(index: int) -> dict:
    from gpuviz.cli import main as gpuviz
    from gpuviz.scenario import load_scenario

    _, source, options = COMMAND_CASES[index]
    with tempfile.TemporaryDirectory() as tmp:
        path = _command_source(source, Path(tmp))
        if "--font" in options:  # a paper's face (a copy of the shipped Inter)
            font = Path(tmp) / "paper.otf"
            font.write_bytes((_ROOT / "resources" / "fonts" / "Inter-Regular.otf").read_bytes())
            options = [*options, str(font)]
        pages = 1 + len(load_scenario(path).steps) if (
            "--all-steps" in options or {"html", "pptx"} & set(options)) else 1
        out = Path(tmp) / "out"
        w0, t0 = time.perf_counter(), time.process_time()
        status = gpuviz(["export", str(path), "--out", str(out), *options])
        t1 = time.process_time()
        size = sum(f.stat().st_size for f in out.iterdir()) if out.exists() else 0
    if status != 0:  # refused (its message on standard error), or failed
        return {"rejected": f"exit {status}, after {t1 - t0:.2f} CPU s", "cpu": t1 - t0}
    return {"load": 0.0, "compute": 0.0, "figure": t1 - t0, "wall": time.perf_counter() - w0,
            "svg_mb": size / 1e6, "json": 0.0, "json_mb": 0.0, "pages": pages}


def _measure_api(index: int) -> dict:
    import gpuviz.api as gv

    _, call, lecture_pages = API_CASES[index]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        w0, t0 = time.perf_counter(), time.process_time()
        lecture = gv.load("gemm-walkthrough")
        call(lecture, out)
        t1 = time.process_time()
        size = sum(f.stat().st_size for f in out.iterdir())
    pages = 1 + len(lecture.steps) if lecture_pages else 1
    return {"load": 0.0, "compute": 0.0, "figure": t1 - t0, "wall": time.perf_counter() - w0,
            "svg_mb": size / 1e6, "json": 0.0, "json_mb": 0.0, "pages": pages}


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
               "animation": lambda: _measure_animation(int(rest[0])),
               "command": lambda: _measure_command(int(rest[0])),
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
    if not panels or "steps" in panels:
        rows += [("scenario", "steps", i, label) for i, (label, _) in enumerate(SCENARIO_CASES)]
    if not panels or "animation" in panels:
        rows += [("animation", "animation", i, label)
                 for i, (label, *_) in enumerate(ANIMATION_CASES)]
    if not panels or "command" in panels:
        rows += [("command", "command", i, label) for i, (label, *_) in enumerate(COMMAND_CASES)]
    if not panels or "api" in panels:
        rows += [("api", "api", i, label) for i, (label, *_) in enumerate(API_CASES)]
    for kind, pid, i, label in rows:
        r = _run([kind, str(i)] if kind != "panel" else ["panel", pid, str(i)])
        if "error" in r or "rejected" in r:
            late = " OVER" if r.get("cpu", 0.0) > BUDGET_S else ""  # a refusal is held to it too
            print(f"{pid:<11} {label:<34} {'failed: ' + r['error'] if 'error' in r else 'rejected: ' + r['rejected']}{late}")
            continue
        total = r["load"] + r["compute"] + r["figure"]
        # an export or animation row is held to both budgets too: MAX_PIXELS and the
        # animation's pixel caps are set so that the largest accepted stays within them; a
        # lecture's (command and api rows) to BUDGET_S a page
        per_page = total / r.get("pages", 1)
        over = r["peak_mb"] > BUDGET_MB or max(per_page, r["load"] + r["compute"] + r["json"]
                                               ) > BUDGET_S
        worst_s = max(worst_s, per_page, r["load"] + r["compute"] + r["json"])
        worst_mb = max(worst_mb, r["peak_mb"])
        pages = f"  {per_page:.2f} s a page of {r['pages']}" if r.get("pages", 1) > 1 else ""
        print(f"{pid:<11} {label:<34} {r['load']:>5.2f} {r['compute']:>5.2f} {r['figure']:>5.2f} "
              f"{total:>5.2f} {r['wall']:>6.2f} {r['json']:>5.2f} {r['peak_mb']:>7.0f} "
              f"{r['svg_mb']:>6.1f} {r['json_mb']:>7.1f}{pages}{'  OVER' if over else ''}",
              flush=True)
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
