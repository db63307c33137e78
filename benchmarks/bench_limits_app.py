"""The limits benchmark's app rows: every worst case of ``bench_limits.py`` opened in the
application, run by ``bench_limits.py`` (``bench_limits.py app [PANEL …]`` for these alone).

Each case is opened as a user opens it (``gpuviz FILE``), offscreen on a 1920×1080 screen with
fresh settings, in a child process per case. The clock starts before the file is read (the
interpreter, Qt and gpuviz already imported: bench_startup.py times those) and stops at the
last figure painted once every shown dock has settled: the overview first, then each step in
turn (a question step revealed). "CPU s" and "wall s" are those of the slowest state by CPU
seconds of the whole process (wall beside it: on shared cores it counts others' work), "open s"
the overview's wall time, "peak MB" the process's peak resident memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from bench_limits import BUDGET_MB, BUDGET_S, SCENARIO_CASES, WORST_CASES, scenario_of

APP_CHILD = r"""
import json, os, resource, sys, time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpuviz.ui.app import start
from gpuviz.ui.figure_view import FigureView

path, limit = json.loads(sys.argv[1])
painted = {}  # view -> times it was painted

def watch(window):
    for view in window.findChildren(FigureView):
        if view not in painted:
            painted[view] = []
            view.painted.connect(lambda v=view: painted[v].append(time.perf_counter()))

def quiet(window, first):
    docks = [d for d in window.docks.values() if d.isVisible()]
    return all(d.settled() and (not first or painted.get(d.view))
               for d in docks)

def wait(window, since, first):
    # until every shown dock has settled (and, the first time, painted)
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        app.processEvents()
        watch(window)
        if quiet(window, first):
            app.processEvents()
            if quiet(window, first):
                break
        time.sleep(0.002)
    else:
        return None
    last = max((t for times in painted.values() for t in times), default=since)
    return max(last, since) - since

w0, c0 = time.perf_counter(), time.process_time()
window = start(path)
shown = wait(window, w0, True)
states = [{"step": 0, "wall": shown, "cpu": time.process_time() - c0}]
doc = window.document
for k in range(len(doc.scenario.steps)):
    if shown is None:
        break
    for times in painted.values():
        times.clear()
    w1, c1 = time.perf_counter(), time.process_time()
    doc.go_to_step(k)
    if doc.veiled:
        window.next_step()
    shown = wait(window, w1, False)
    states.append({"step": k + 1, "wall": shown, "cpu": time.process_time() - c1})
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
doc.undo_stack.setClean()
print("RESULT " + json.dumps({"states": states, "peak_mb": peak,
                              "status": window.step_bar_widget._message}), flush=True)
os._exit(0)
"""


def app_cases() -> list[tuple[str, str, dict]]:
    """(panel, label, scenario) of every case opened in the app: the panels' worst sections,
    the scenarios whose cost grows with their steps, and the animation rows' scenario."""
    out = [(pid, label, scenario_of(pid, section)) for pid in WORST_CASES
           for label, section in WORST_CASES[pid]]
    out += [("steps", label, data) for label, data in SCENARIO_CASES]
    return out


def _measure_app(data: dict, limit: float = 60.0) -> dict:
    from offscreen_screen import run_on_screen

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.json"
        path.write_text(json.dumps(data))
        try:
            return run_on_screen(APP_CHILD, [str(path), limit], 1920, 1080, name="limits",
                                 timeout=limit * (len(data.get("steps", [])) + 2) + 60)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            return {"error": str(e).strip().splitlines()[-1][:160]}


def main_app(panels: list[str]) -> None:
    print(f"\nIn the app (offscreen 1920×1080, one child process per case): the slowest state "
          f"of the overview and every step, wall and CPU seconds from opening the file (or "
          f"choosing the step) to the last figure painted once every dock settled; peak "
          f"resident memory. Budget {BUDGET_S:.0f} s, {BUDGET_MB:.0f} MB. Load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print(f"{'panel':<11} {'case':<34} {'states':>6} {'open s':>6} {'wall s':>7} {'CPU s':>6} "
          f"{'at':>5} {'peak MB':>7}")
    worst_s = worst_mb = 0.0
    for pid, label, data in app_cases():
        if panels and pid not in panels:
            continue
        r = _measure_app(data)
        if "error" in r:
            print(f"{pid:<11} {label:<34} failed: {r['error']}", flush=True)
            continue
        states = r["states"]
        if any(s["wall"] is None for s in states):
            at = next(s["step"] for s in states if s["wall"] is None)
            print(f"{pid:<11} {label:<34} never settled (state {at})  OVER", flush=True)
            continue
        # held to the budget in CPU seconds (of every thread of the app), as the table above:
        # on shared cores the wall time counts other people's work
        slowest = max(states, key=lambda s: s["cpu"])
        over = slowest["cpu"] > BUDGET_S or r["peak_mb"] > BUDGET_MB
        worst_s, worst_mb = max(worst_s, slowest["cpu"]), max(worst_mb, r["peak_mb"])
        at = "ovw" if slowest["step"] == 0 else str(slowest["step"])
        print(f"{pid:<11} {label:<34} {len(states):>6} {states[0]['wall']:>6.2f} "
              f"{slowest['wall']:>7.2f} {slowest['cpu']:>6.2f} {at:>5} {r['peak_mb']:>7.0f}"
              f"{'  OVER' if over else ''}", flush=True)
    print(f"\nworst in the app: {worst_s:.2f} CPU s to the last figure painted, {worst_mb:.0f} MB "
          f"peak (held to the budget in CPU seconds; wall time exceeds them when other work "
          f"shares the cores)")
