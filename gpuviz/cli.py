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
from gpuviz.scenario.problems import printable

COMMANDS = ("validate", "compute", "export", "list", "schema")
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
EXIT_BAD_INPUT = 2


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
                                        "'file: json.path: message' for each problem")
    v.add_argument("scenarios", nargs="+", metavar="SCENARIO")

    c = sub.add_parser("compute", help="print the panels' results as JSON {panel_id: {...}}")
    c.add_argument("scenario", metavar="SCENARIO")
    c.add_argument("--panel", metavar="ID", help="only this panel")
    c.add_argument("--step", type=int, metavar="K", help="the state after scenario step K (0-based)")

    e = sub.add_parser("export", help="write figures without a display")
    e.add_argument("scenario", metavar="SCENARIO")
    e.add_argument("--panel", metavar="ID", help="only this panel (default: the scenario's panels)")
    e.add_argument("--step", type=int, metavar="K", help="the state after scenario step K (0-based)")
    e.add_argument("--out", required=True, metavar="DIR", help="folder to write into (created)")
    e.add_argument("--format", choices=("svg", "pdf", "png"), default="svg")
    e.add_argument("--theme", choices=("screen", "print", "dark", "presentation"), default="screen")
    e.add_argument("--size", choices=("natural", "single", "double", "slide"), default="natural",
                   help="physical size preset: single column 85 mm, double column 178 mm, "
                        "16:9 slide (default: the figure's natural size)")
    e.add_argument("--dpi", type=int, default=200, help="PNG resolution (default 200)")
    e.add_argument("--select", action="append", default=[], metavar="KEY",
                   help="highlight a key such as lane:3 (repeatable)")
    e.add_argument("--frames", action="store_true",
                   help="write every playback frame as a numbered sequence "
                        "(<scenario>-<panel>-0001.<format> …) for slides")

    sub.add_parser("list", help="bundled scenarios, panels and architecture presets")
    sub.add_parser("schema", help="print the scenario JSON Schema")
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
    args = _parser().parse_args(argv)
    if args.command is None:
        return _open_app(None)
    if sys.stdout is None:  # started with standard output closed
        print("gpuviz: standard output is closed; nothing can be printed", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        status = {"validate": _validate, "compute": _compute, "export": _export,
                  "list": _list, "schema": _schema}[args.command](args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
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
    from gpuviz.ui.app import run_app  # lazy: the GUI is the only part that needs Qt widgets

    return run_app(path)


def _load(path: str):
    from gpuviz.scenario import ScenarioError, load_scenario

    try:
        return load_scenario(path), None
    except ScenarioError as e:
        return None, e


def _report(err) -> int:
    for line in err.lines():
        print(line, file=sys.stderr)
    return EXIT_BAD_INPUT


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


def _at_step(scenario, step: int | None, source: str):
    if step is None:
        return scenario, None
    if not 0 <= step < max(1, len(scenario.steps)) or not scenario.steps:
        from gpuviz.scenario import Problem, ScenarioError

        have = f"steps 0 … {len(scenario.steps) - 1}" if scenario.steps else "no steps"
        return None, ScenarioError(source, [Problem("steps", f"--step {step} does not exist; "
                                                             f"this scenario has {have}")])
    return scenario.at_step(step), None


def _panels(scenario, panel_id: str | None, source: str):
    from gpuviz.registry import PANEL_IDS
    from gpuviz.scenario import Problem, ScenarioError
    from gpuviz.scenario.problems import did_you_mean

    if panel_id is None:
        return scenario.panels, None
    if panel_id not in PANEL_IDS:
        return None, ScenarioError(source, [Problem("panels", f"--panel {panel_id!r} is not a panel"
                                                              + did_you_mean(panel_id, PANEL_IDS)
                                                              + f" (panels: {', '.join(PANEL_IDS)})")])
    from gpuviz.scenario.io import panel_problems

    found = panel_problems(scenario, panel_id)  # a panel the scenario does not show may not fit
    if found:
        return None, ScenarioError(source, found)
    return (panel_id,), None


def _compute(args: argparse.Namespace) -> int:
    from gpuviz.models.jsonable import to_jsonable
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
    text = json.dumps({pid: to_jsonable(r) for pid, r in results.items()}, indent=2,
                      ensure_ascii=False)
    # JSON escapes C0 controls itself; C1 controls (a terminal may obey U+009B as CSI) and
    # other unprintable characters can only stand inside strings, where \uXXXX means the same
    print(_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))
    return 0


def _export(args: argparse.Namespace) -> int:
    from gpuviz.export.files import export_figure

    scenario, err = _load(args.scenario)
    if err:
        return _report(err)
    selection = frozenset(args.select)
    if args.step is not None:
        selection |= scenario.step_selection(args.step)
    scenario, err = _at_step(scenario, args.step, args.scenario)
    if err:
        return _report(err)
    panels, err = _panels(scenario, args.panel, args.scenario)
    if err:
        return _report(err)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(printable(f"{out}: cannot create the output folder ({e.strerror})"), file=sys.stderr)
        return EXIT_BAD_INPUT
    stem = Path(args.scenario).stem
    if args.frames:
        from gpuviz.export.sequence import export_sequence

        for pid in panels:
            paths = export_sequence(scenario, pid, out, stem, fmt=args.format, theme_name=args.theme,
                                    size=args.size, dpi=args.dpi, selection=selection)
            for path in paths:
                print(printable(str(path)))
        return 0
    for pid in panels:
        suffix = f"-step{args.step}" if args.step is not None else ""
        path = out / f"{stem}-{pid}{suffix}.{args.format}"
        note = export_figure(scenario, pid, path, fmt=args.format, theme_name=args.theme,
                             size=args.size, dpi=args.dpi, selection=selection)
        print(printable(f"{path}{note}"))
    return 0


def _list(args: argparse.Namespace) -> int:
    from gpuviz.models.arch import load_preset, preset_names
    from gpuviz.registry import PANELS
    from gpuviz.scenario import ScenarioError, bundled_scenarios, load_scenario

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
    print("\nArchitecture presets:")
    for name in preset_names():
        print(f"  {name:<12} {load_preset(name).get('name', name)}")
    return 0


def _schema(args: argparse.Namespace) -> int:
    from gpuviz.scenario import scenario_schema

    print(json.dumps(scenario_schema(), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
