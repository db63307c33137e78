"""The classes of the second hardening round, each re-run as a generated case set, every run a
subprocess held to 10 s and 1 GiB of address space; prints class, cases tried and handled.

    .venv/bin/python tests/hostile/hostile_table.py

A case is handled when gpuviz does what a correct program does with it within the caps: a
refusal (exit 2) that names the JSON path, option or file and writes nothing; an acceptance
(exit 0) that validates, computes and exports; a warning (exit 0) with its path on standard
error; never a traceback, a Python warning, an internal error or a run past the caps (10 s of
CPU, as the cores are shared, and 60 s of wall time for a run that waits). Every accepted file
is also opened in the app (``benchmarks/bench_limits_app.py``'s child), its overview and every
step each settled within 10 CPU s, in 1 GiB. The
tests in this folder run the same cases (and more of each class) under the suite."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hostile_bounds import GENERATORS
from hostile_corpus import Case
from hostile_run import text
from test_hostile_commands import HUGE, MEASUREMENTS
from test_late_limits import CASES as LATE

TIMEOUT, MEMORY, WALL = 10, 1024**3, 60
PIPELINE = {"version": 1, "panels": ["pipeline"]}
TRAVERSAL = {"version": 1, "panels": ["traversal"], "traversal": {
    "rows": 256, "cols": 256, "k_tiles": 2, "order": "hilbert"}}


class OverCap:
    """A run killed at the time cap: never handled."""

    returncode = -1
    stdout = stderr = b"killed at the time cap"


def _caps() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (TIMEOUT, TIMEOUT))


def run(*args):
    """``gpuviz args`` held to TIMEOUT seconds of CPU (the cores are shared: wall time counts
    other people's work) and WALL seconds of wall time (a run that waits, on a pipe say)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONWARNINGS="default")
    env.pop("DISPLAY", None)
    env.pop("GPUVIZ_DEBUG", None)
    try:
        return subprocess.run([sys.executable, "-m", "gpuviz", *map(str, args)], env=env,
                              timeout=WALL, preexec_fn=_caps, stdin=subprocess.DEVNULL,
                              capture_output=True)
    except subprocess.TimeoutExpired:
        return OverCap()


def clean(proc) -> bool:
    err = text(proc.stderr)
    return (proc.returncode in (0, 2) and "Traceback" not in err and "Warning:" not in err
            and "internal error" not in err)


def file_case(case: Case, tmp: Path) -> bool:
    path = case.materialise(tmp)
    v = run("validate", path)
    said = [line for line in text(v.stderr).splitlines() if line.startswith(f"{path}: ")]
    if not clean(v):
        return False
    if case.expect == "bad":
        return v.returncode == 2 and any(case.says in line for line in said)
    warned = [line for line in said if ": warning: " in line]
    if v.returncode != 0 or warned != said or (case.expect == "ok") == bool(said):
        return False
    if case.expect == "warn" and not any(case.says in line for line in said):
        return False
    c, e = run("compute", path), run("export", path, "--out", tmp / f"{case.name}-out")
    return clean(c) and clean(e) and c.returncode == e.returncode == 0


def refused_cleanly(argv: list, out: Path | None = None, says: str = "") -> bool:
    proc = run(*argv)
    nothing = out is None or not out.exists() or not any(out.iterdir())
    return clean(proc) and proc.returncode == 2 and says in text(proc.stderr) and nothing


def within_caps(argv: list, out: Path) -> bool:
    """Exit 0 with the file written, or exit 2 before anything is written."""
    proc = run(*argv)
    if not clean(proc):
        return False
    written = out.exists() and any(out.iterdir())
    return written if proc.returncode == 0 else not written


def write(tmp: Path, name: str, data) -> Path:
    path = tmp / name
    path.write_text(json.dumps(data))
    return path


def animation_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    traversal = write(tmp, "t.json", TRAVERSAL)
    steps = write(tmp, "s.json", {**PIPELINE, "steps": [
        {"title": f"s{k}", "changes": {"pipeline": {"tiles": 2 + k % 60}}} for k in range(250)]})
    for i, extra in enumerate((["--format", "gif"], ["--format", "apng"],
                               ["--format", "gif", "--max-frames", "45"],
                               ["--format", "gif", "--max-frames", "100"],
                               ["--format", "apng", "--dpi", "1200", "--max-frames", "3"],
                               ["--format", "apng", "--dpi", "469", "--max-frames", "2"],
                               ["--format", "gif", "--dpi", "36", "--max-frames", "2000"])):
        yield f"traversal-{i}", lambda e=extra, i=i: within_caps(
            ["export", traversal, "--out", tmp / f"a{i}", *e], tmp / f"a{i}")
    for i, fmt in enumerate(("gif", "apng")):
        yield f"250-steps-{fmt}", lambda f=fmt, i=i: within_caps(
            ["export", steps, "--all-steps", "--format", f, "--out", tmp / f"s{i}"],
            tmp / f"s{i}")


def select_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    scenario = write(tmp, "p.json", PIPELINE)
    for i, key in enumerate((f"lane:{HUGE}", "lane:3\n", "", f"tile:1,{'1' * 19}",
                             f"frame:{'9' * 4301}")):
        yield f"select-{i}", lambda k=key, i=i: refused_cleanly(
            ["export", scenario, "--select", k, "--out", tmp / f"k{i}"], tmp / f"k{i}", "--select")
    for i, key in enumerate(("lane:-1", f"lane:{'9' * 18}")):  # well formed: selects nothing
        yield f"select-ok-{i}", lambda k=key, i=i: within_caps(
            ["export", scenario, "--select", k, "--out", tmp / f"ok{i}"], tmp / f"ok{i}")
    stepped = write(tmp, "st.json", {**PIPELINE, "steps": [{"title": "a", "select": [
        f"lane:{HUGE}"]}]})
    yield "step-select-5000-digits", lambda: refused_cleanly(
        ["export", stepped, "--all-steps", "--out", tmp / "ks"], tmp / "ks", "steps[0].select[0]")


def fps_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    scenario = write(tmp, "f.json", PIPELINE)
    for i, fps in enumerate(("0", "0.001", "0.0015", "1e-300", "-4", "nan", "inf", "50.5",
                             "1e309", "x")):
        yield f"fps-{fps}", lambda f=fps, i=i: refused_cleanly(
            ["export", scenario, "--format", "gif", "--fps", f, "--out", tmp / f"f{i}"],
            tmp / f"f{i}", "--fps")
    for fps in ("0.002", "50"):
        yield f"fps-{fps}", lambda f=fps: within_caps(
            ["export", scenario, "--format", "gif", "--dpi", "36", "--fps", f, "--out",
             tmp / f"ok{f}"], tmp / f"ok{f}")


def measure_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    for i, (data, says) in enumerate(MEASUREMENTS):
        path = write(tmp, f"m{i}.json", data)
        yield f"compare-{i}", lambda p=path, s=says: refused_cleanly(
            ["measure", "compare", p], None, f"{p}: {s}")
    fifo = tmp / "pipe.json"
    os.mkfifo(fifo)
    cases = write(tmp, "case.json", {"id": "a", "panel": "sectors", "section": {}})
    yield "compare-fifo", lambda: refused_cleanly(["measure", "compare", fifo], None, "FIFO")
    yield "import-fifo", lambda: refused_cleanly(
        ["measure", "import", fifo, "--cases", cases, "--out", tmp / "m.json"], None, "FIFO")
    yield "import-fifo-cases", lambda: refused_cleanly(
        ["measure", "import", cases, "--cases", fifo, "--out", tmp / "m.json"], None, "FIFO")
    yield "out-empty", lambda: refused_cleanly(
        ["measure", "import", "x.csv", "--cases", cases, "--out", ""], None, "is empty")


def target_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    scenario = write(tmp, "o.json", PIPELINE)
    fifo = tmp / "o-fifo"
    os.mkfifo(fifo)
    yield "export-out-empty", lambda: refused_cleanly(["export", scenario, "--out", ""], None,
                                                      "is empty")
    yield "export-out-blank", lambda: refused_cleanly(["export", scenario, "--out", " "], None,
                                                      "is empty")
    yield "kernel-out-empty", lambda: refused_cleanly(["kernel", scenario, "--out", ""], None,
                                                      "is empty")
    yield "export-onto-a-fifo", lambda: refused_cleanly(["export", scenario, "--out", fifo],
                                                        None) and fifo.is_fifo()
    blocked = tmp / "blocked"
    blocked.mkdir()
    (blocked / "o-pipeline.svg").mkdir()  # a folder where the file goes
    yield "export-onto-a-folder", lambda: refused_cleanly(
        ["export", scenario, "--out", blocked], None, "o-pipeline.svg") and not [
        p for p in blocked.iterdir() if p.name.endswith(".tmp")]


def late_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    for i, (name, (files, options, says)) in enumerate(sorted(LATE.items())):
        folder = tmp / f"late{i}"
        folder.mkdir()
        for stem, data in files.items():
            write(folder, f"{stem}.json", data)
        source = folder if len(files) > 1 else folder / f"{next(iter(files))}.json"
        yield name, lambda s=source, o=options, w=says, i=i: refused_cleanly(
            ["export", s, "--out", tmp / f"lo{i}", *o], tmp / f"lo{i}", w)


def repeat_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    """Options repeated past their use: refused before argparse, whose time grows with the
    square of their count, and before anything is written."""
    scenario = write(tmp, "r.json", {"version": 1, "panels": ["banks"]})
    for n in (1_025, 30_000):
        yield f"part-x{n}", lambda n=n: refused_cleanly(
            ["export", scenario, *["--part", "rack"] * n, "--out", tmp / f"p{n}"], tmp / f"p{n}",
            "options given")
    yield "part-twice", lambda: refused_cleanly(
        ["export", scenario, "--part", "rack", "--part", "rack", "--out", tmp / "p2"],
        tmp / "p2", "given more than once")
    for n in (257, 500):
        keys = [x for i in range(n) for x in ("--select", f"lane:{i}")]
        yield f"select-x{n}", lambda k=keys, n=n: refused_cleanly(
            ["export", scenario, *k, "--out", tmp / f"s{n}"], tmp / f"s{n}", "--select is given")
    keys = [x for i in range(256) for x in ("--select", f"lane:{i}")]
    yield "select-x256", lambda: within_caps(["export", scenario, *keys, "--out", tmp / "s256"],
                                             tmp / "s256")


BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SLOWEST: list[tuple[float, str]] = []  # (CPU s of the slowest state, case) shown in the app


def _app_caps() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def shown_in_app(path: Path, name: str, tmp: Path) -> bool:
    """The app opened on ``path`` (offscreen, 1920×1080, fresh settings) shows the overview
    and every step, each settled within TIMEOUT CPU seconds, in 1 GiB; the slowest state's CPU
    seconds are kept for the summary."""
    sys.path.insert(0, str(BENCHMARKS))
    from bench_limits_app import APP_CHILD

    config = tmp / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": 1920,
                                               "height": 1080, "logicalDpi": 96,
                                               "logicalBaseDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
               XDG_CONFIG_HOME=str(tmp), HOME=str(tmp))
    steps = json.loads(path.read_text()).get("steps", [])
    try:
        proc = subprocess.run([sys.executable, "-c", APP_CHILD, json.dumps([str(path), WALL])],
                              env=env, preexec_fn=_app_caps, capture_output=True, text=True,
                              timeout=WALL * (len(steps) + 2), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False
    result = next((json.loads(line[7:]) for line in proc.stdout.splitlines()
                   if line.startswith("RESULT ")), None)
    if result is None or "Traceback" in proc.stderr:
        return False
    states = result["states"]
    if any(state["wall"] is None for state in states):
        return False
    slowest = max(state["cpu"] for state in states)
    SLOWEST.append((slowest, name))
    return len(states) == len(steps) + 1 and slowest <= TIMEOUT


def app_cases(tmp: Path) -> Iterator[tuple[str, Callable[[], bool]]]:
    for make in GENERATORS:
        for case in make():
            if case.expect in ("ok", "warn"):
                folder = tmp / case.name
                folder.mkdir()
                path = case.materialise(folder)
                yield case.name, lambda p=path, n=case.name, f=folder: shown_in_app(p, n, f)


def main() -> int:
    rows: list[tuple[str, str, bool]] = []
    with tempfile.TemporaryDirectory(prefix="gpuviz-hostile-") as name:
        tmp = Path(name)
        for make in GENERATORS:
            for case in make():
                folder = tmp / f"{case.klass}-{case.name}".replace(" ", "-")
                folder.mkdir()
                rows.append((case.klass, case.name, file_case(case, folder)))
        for klass, cases in (("animation export", animation_cases),
                             ("select keys and digits", select_cases), ("--fps", fps_cases),
                             ("measure input", measure_cases), ("output targets", target_cases),
                             ("limits met while writing", late_cases),
                             ("options repeated", repeat_cases),
                             ("accepted, shown in the app", app_cases)):
            folder = tmp / klass.replace(" ", "-")
            folder.mkdir()
            rows += [(klass, label, check()) for label, check in cases(folder)]
    tried, handled = Counter(k for k, _, _ in rows), Counter(k for k, _, ok in rows if ok)
    print(f"each run capped at {TIMEOUT} CPU s ({WALL} s wall) and {MEMORY // 1024**3} GiB of "
          "address space")
    print(f"{'class':<28} {'tried':>5} {'handled':>7}")
    for klass in tried:
        print(f"{klass:<28} {tried[klass]:>5} {handled[klass]:>7}")
    print(f"{'all':<28} {sum(tried.values()):>5} {sum(handled.values()):>7}")
    if SLOWEST:
        cpu, name = max(SLOWEST)
        print(f"in the app: the slowest state of {len(SLOWEST)} accepted files took {cpu:.2f} "
              f"CPU s ({name}); over 2 s: "
              + (", ".join(f"{n} {c:.2f}" for c, n in sorted(SLOWEST) if c > 2) or "none"))
    for klass, label, ok in rows:
        if not ok:
            print(f"NOT HANDLED: {klass}: {label}")
    return 0 if handled == tried else 1


if __name__ == "__main__":
    sys.exit(main())
