"""The ``gpuviz`` command line (a public contract; see README.md).

Headless commands never import Qt, except ``export`` to PDF or PNG, which paints with Qt
offscreen. ``gpuviz [SCENARIO]`` opens the application.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import json
import os
import re
import sys
from pathlib import Path

from gpuviz import __version__
from gpuviz.cli_input import EXIT_BAD_INPUT, STEP_HELP, step_suffix
from gpuviz.cli_input import at_step as _at_step
from gpuviz.cli_input import load as _load
from gpuviz.cli_input import panels as _panels
from gpuviz.cli_input import report as _report
from gpuviz.export.raster import ExportLimitError
from gpuviz.scenario.problems import printable

COMMANDS = ("validate", "compute", "export", "list", "schema", "kernel", "measure")
# options one command line may give: every --select key a selection holds (keys.MAX_SELECTED)
# and every part, with room to spare; argparse's time grows with the square of their count
# (30,000 --part options took 32 s to parse)
MAX_OPTIONS = 1024
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")



def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gpuviz",
        description="Exact, steppable pictures of GPU execution and memory behaviour.\n\n"
                    "gpuviz [SCENARIO]           open the application (the bundled default "
                    "scenario when none is given)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"gpuviz {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="check scenario files; exit 2 and print "
                                        "'file: json.path: message' for each problem (values "
                                        "likely not meant are 'file: json.path: warning: "
                                        "message' lines, exit 0)")
    v.add_argument("scenarios", nargs="+", metavar="SCENARIO")

    c = sub.add_parser("compute", help="print the panels' results as JSON {panel_id: {...}}")
    c.add_argument("scenario", metavar="SCENARIO")
    c.add_argument("--panel", metavar="ID", help="only this panel")
    c.add_argument("--step", type=int, metavar="K", help=STEP_HELP)

    from gpuviz.cli_export import add_arguments as add_export_arguments

    add_export_arguments(sub.add_parser("export", help="write figures without a display: every "
                                                        "panel, step, frame, or an animation"))

    ls = sub.add_parser("list", help="bundled scenarios, panels (with their parts) and "
                                     "architecture presets")
    ls.add_argument("--parts", action="store_true",
                    help="only the figures' parts, one 'PANEL PART' pair a line")
    sub.add_parser("schema", help="print the scenario JSON Schema")
    _kernel_parser(sub)
    _measure_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        refusal = _not_the_app_form(argv)
        if refusal:
            print(printable(refusal), file=sys.stderr)
            return EXIT_BAD_INPUT
        return _open_app(argv[0])
    if not argv:
        return _open_app(None)
    options = sum(1 for a in argv if a.startswith("-") and a != "-")
    if options > MAX_OPTIONS:
        _error(f"gpuviz: {options:,} options given; a command line takes at most "
               f"{MAX_OPTIONS:,}")
        return EXIT_BAD_INPUT
    args = _parser().parse_args(argv)
    if args.command is None:
        return _open_app(None)
    if sys.stdout is None:  # started with standard output closed
        print("gpuviz: standard output is closed; nothing can be printed", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        status = {"validate": _validate, "compute": _compute, "export": _export,
                  "list": _list, "schema": _schema, "kernel": _kernel,
                  "measure": _measure}[args.command](args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    except ExportLimitError as exc:  # more pixels or frames than gpuviz writes
        _error(f"gpuviz {args.command}: {exc}")
        return EXIT_BAD_INPUT
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            return _reader_gone()
        where = exc.filename if exc.filename is not None else "standard output"
        _error(f"gpuviz: {where}: cannot write ({exc.strerror or exc})")
        return EXIT_BAD_INPUT
    except Exception as exc:  # never a traceback for a user; GPUVIZ_DEBUG=1 shows it
        if os.environ.get("GPUVIZ_DEBUG"):
            raise
        _error(f"gpuviz: internal error: {type(exc).__name__}: {exc} "
               "(set GPUVIZ_DEBUG=1 for details)")
        return 1


def _not_the_app_form(argv: list[str]) -> str | None:
    """Why ``gpuviz WORD …`` is not ``gpuviz [SCENARIO]``: options or more words after it, or a
    word that is no file and reads as a mistyped command. None when it is the app form."""
    word = argv[0]
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    commands = ", ".join(COMMANDS)
    if not os.path.exists(word) and (len(argv) > 1 or close):
        return f"gpuviz: no such command: '{word}'{hint} (commands: {commands}; gpuviz --help)"
    if len(argv) > 1:
        return (f"gpuviz: the application opens one scenario and takes no options "
                f"(got '{argv[1]}'); to write figures use 'gpuviz export {word} --out DIR' "
                f"(commands: {commands})")
    if not os.path.exists(word) and not _looks_like_a_path(word):
        return f"gpuviz: no such command or file: '{word}' (commands: {commands}; gpuviz --help)"
    if not _display_available():
        return ("gpuviz: cannot open the application: there is no display (DISPLAY and "
                "WAYLAND_DISPLAY are unset); headless commands: " + commands)
    return None


def _looks_like_a_path(word: str) -> bool:
    return os.sep in word or "/" in word or "." in word


def _display_available() -> bool:
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _reader_gone() -> int:
    """The reader of standard output went away (``gpuviz compute x | head``): stop quietly, and
    keep Python from complaining when it flushes at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return 0


def _error(text: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):  # even standard error is gone
        print(printable(text), file=sys.stderr)


def _open_app(path: str | None) -> int:
    if not _display_available():
        _error("gpuviz: cannot open the application: there is no display (DISPLAY and "
               "WAYLAND_DISPLAY are unset); headless commands: " + ", ".join(COMMANDS))
        return EXIT_BAD_INPUT
    import gc

    gc.disable()  # until the window is complete (gpuviz.ui.app.start)
    from gpuviz.ui.app import run_app  # lazy: the GUI is the only part that needs Qt widgets

    return run_app(path)


def _validate(args: argparse.Namespace) -> int:
    """Every file is reported, whatever happens with the one before it."""
    status = 0
    for path in args.scenarios:
        try:
            scenario, err = _load(path)
        except (KeyboardInterrupt, BrokenPipeError):
            raise
        except Exception as exc:  # a bug for this file; the others are still checked
            if os.environ.get("GPUVIZ_DEBUG"):
                raise
            _error(f"{path}: internal error: {type(exc).__name__}: {exc} "
                   "(set GPUVIZ_DEBUG=1 for details)")
            status = 1
            continue
        if err:
            _report(err)
            status = status or EXIT_BAD_INPUT
        else:
            print(printable(f"{path}: valid ({', '.join(scenario.panels)}; "
                            f"{len(scenario.steps)} steps)"))
    return status


def _compute(args: argparse.Namespace) -> int:
    from gpuviz.models.jsonable import dumps, to_jsonable
    from gpuviz.scenario import compute_all

    scenario, err = _load(args.scenario)
    if err:
        return _report(err)
    scenario, err = _at_step(scenario, args.step, args.scenario)
    if err:
        return _report(err)
    panels, err = _panels(scenario, args.panel, args.scenario)
    if err:
        return _report(err)
    results = compute_all(scenario, tuple(panels))
    out = {pid: to_jsonable(r) for pid, r in results.items()}
    if "scheduler" in out:  # the H200's number for this configuration, where it was measured
        from gpuviz.measurements import lookup
        from gpuviz.scenario.compute import effective_params

        m = lookup("scheduler", effective_params(scenario, "scheduler"))
        if m is not None:
            out["scheduler"]["measured_issue_utilization"] = m.measured
    text = dumps(out)
    # JSON escapes C0 controls itself; C1 controls (a terminal may obey U+009B as CSI) and
    # other unprintable characters can only stand inside strings, where \uXXXX means the same
    print(_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))
    return 0


def _export(args: argparse.Namespace) -> int:
    from gpuviz.cli_export import run

    return run(args)


def _list(args: argparse.Namespace) -> int:
    from gpuviz.models.arch import load_preset, preset_names
    from gpuviz.registry import PANELS
    from gpuviz.scenario import ScenarioError, bundled_scenarios, load_scenario

    if args.parts:  # for scripts: every part a figure can be exported as, alone
        for p in PANELS:
            for part in p.parts:
                print(f"{p.id} {part}")
        return 0
    print("Bundled scenarios:")
    for path in bundled_scenarios():
        try:
            title = load_scenario(path).title
        except ScenarioError:
            title = "(invalid)"
        print(f"  {path.name:<40} {title}")
    print("\nPanels:")
    for p in PANELS:
        print(f"  {p.id:<12} {p.title}")
        print(f"  {'':<12} parts: {', '.join(p.parts)}")
    print("\nArchitecture presets:")
    for name in preset_names():
        print(f"  {name:<12} {load_preset(name).get('name', name)}")
    return 0


def _schema(args: argparse.Namespace) -> int:
    from gpuviz.scenario import scenario_schema

    print(json.dumps(scenario_schema(), indent=2, ensure_ascii=False))
    return 0


def _kernel_parser(sub) -> None:
    from gpuviz.cli_export import path_argument
    from gpuviz.registry import KERNEL_PANELS

    k = sub.add_parser("kernel", help="write a CUDA C++ program performing the scenario's access, "
                                      "with its build and ncu commands")
    k.add_argument("scenario", metavar="SCENARIO")
    panels = ", ".join(KERNEL_PANELS[:-1]) + " or " + KERNEL_PANELS[-1]
    k.add_argument("--panel", metavar="ID", help=f"{panels} (default: the scenario's first of "
                                                 "these)")
    k.add_argument("--step", type=int, metavar="K", help=STEP_HELP)
    k.add_argument("--out", required=True, type=path_argument, metavar="DIR",
                   help="folder to write into (created)")


def _kernel(args: argparse.Namespace) -> int:
    from gpuviz.kernels import PANELS, export_kernel, exportable
    from gpuviz.scenario import Problem, ScenarioError

    scenario, err = _load(args.scenario)
    if err:
        return _report(err)
    scenario, err = _at_step(scenario, args.step, args.scenario)
    if err:
        return _report(err)
    choices = exportable(scenario.panels)
    panel_id = args.panel or (choices[0] if choices else None)
    if panel_id not in PANELS:
        what = f"--panel {panel_id!r} has" if args.panel else "this scenario has no panel with"
        return _report(ScenarioError(args.scenario, [Problem(
            "panels", f"{what} no kernel export (panels with one: {', '.join(PANELS)})")]))
    stem = Path(args.scenario).stem + step_suffix(args.step, len(scenario.steps))
    try:
        paths = export_kernel(scenario, panel_id, Path(args.out), name=stem)
    except ValueError as e:
        print(f"{args.scenario}: {panel_id}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:
        _error(f"{e.filename or args.out}: cannot write ({e.strerror or e})")
        return EXIT_BAD_INPUT
    for path in paths:
        print(path)
    return 0


def _measure_parser(sub) -> None:
    from gpuviz.cli_export import path_argument

    m = sub.add_parser("measure", help="import profiler output as a measurement file, or "
                                       "compare measurement files with the models")
    msub = m.add_subparsers(dest="measure_command", metavar="ACTION", required=True)
    i = msub.add_parser("import", help="turn ncu --csv --page raw output into a measurement file")
    i.add_argument("csv", nargs="+", metavar="NCU_CSV", help="one launch per case, in order")
    i.add_argument("--cases", required=True, type=path_argument, metavar="CASES_JSON",
                   help="the cases, in launch order (case.json beside an exported kernel)")
    i.add_argument("--out", required=True, type=path_argument, metavar="FILE",
                   help="measurement file to write")
    i.add_argument("--device", help="device name (default: the profiler's)")
    i.add_argument("--date", help="date of the measurement (default: the CSV file's time)")
    c = msub.add_parser("compare", help="model against measured for measurement files "
                                        "(default: every shipped one); exit 1 on a disagreement "
                                        "that is not a known one")
    c.add_argument("files", nargs="*", metavar="FILE")
    c.add_argument("--all", action="store_true", help="list agreeing cases too")


def _measure(args: argparse.Namespace) -> int:
    from gpuviz.kernels import measure

    if args.measure_command == "import":
        import datetime

        from gpuviz.atomic import write_atomic
        from gpuviz.kernels.measure_input import load_cases
        from gpuviz.scenario import ScenarioError

        try:
            cases = load_cases(args.cases)
            first = Path(args.csv[0])
            date = args.date or datetime.datetime.fromtimestamp(
                first.stat().st_mtime, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            meta = {"date": date, "command": "ncu … --csv --page raw",
                    **({"device": args.device} if args.device else {})}
            data = measure.from_ncu(args.csv, cases, meta)
        except ScenarioError as e:
            return _report(e)
        except (OSError, ValueError) as e:
            _error(f"gpuviz measure import: {getattr(e, 'filename', None) or args.csv[0]}: "
                   f"{getattr(e, 'strerror', None) or e}")
            return EXIT_BAD_INPUT
        write_atomic(Path(args.out), (json.dumps(data, indent=1, ensure_ascii=False)
                                      + "\n").encode("utf-8"))
        print(printable(f"{args.out}: {len(data['cases'])} case(s)"))
        return 0
    files = [Path(f) for f in args.files] or measure.shipped()
    status = 0
    for f in files:
        from gpuviz.scenario import ScenarioError

        try:  # every file is reported, as validate does
            rows = measure.compare(measure.load(f), f.name)
        except ScenarioError as e:
            status = _report(e)
            continue
        except (OSError, ValueError) as e:
            _error(f"{f}: {getattr(e, 'strerror', None) or e}")
            status = EXIT_BAD_INPUT
            continue
        bad = [r for r in rows if not r.agrees and not r.known]
        known = [r for r in rows if not r.agrees and r.known]
        print(f"{f.name}: {len(rows)} cases, {len(rows) - len(bad) - len(known)} agree, "
              f"{len(known)} known disagreements, {len(bad)} disagree")
        for r in rows:
            if args.all or not r.agrees:
                mark = "=" if r.agrees else ("known" if r.known else "DIFFERS")
                print(f"  {r.id:40} model {r.model:g}  measured {r.measured:g}  {mark}"
                      + (f"  ({r.known})" if r.known else ""))
        status = max(status, 1 if bad else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
