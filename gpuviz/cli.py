"""The ``gpuviz`` command line (a public contract; see README.md).

Headless commands never import Qt, except ``export`` to PDF or PNG, which paints with Qt
offscreen. ``gpuviz [SCENARIO]`` opens the application.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from gpuviz import __version__
from gpuviz.export.raster import ExportLimitError

COMMANDS = ("validate", "compute", "export", "list", "schema")
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

    from gpuviz.cli_export import add_arguments as add_export_arguments

    add_export_arguments(sub.add_parser("export", help="write figures without a display: every "
                                                        "panel, step, frame, or an animation"))

    sub.add_parser("list", help="bundled scenarios, panels and architecture presets")
    sub.add_parser("schema", help="print the scenario JSON Schema")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        return _open_app(argv[0])
    if not argv:
        return _open_app(None)
    args = _parser().parse_args(argv)
    if args.command is None:
        return _open_app(None)
    try:
        return {"validate": _validate, "compute": _compute, "export": _export,
                "list": _list, "schema": _schema}[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except ExportLimitError as exc:  # more pixels or frames than gpuviz writes
        print(f"gpuviz {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # never a traceback for a user; GPUVIZ_DEBUG=1 shows it
        if os.environ.get("GPUVIZ_DEBUG"):
            raise
        print(f"gpuviz: internal error: {type(exc).__name__}: {exc} "
              "(set GPUVIZ_DEBUG=1 for details)", file=sys.stderr)
        return 1


def _open_app(path: str | None) -> int:
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
    status = 0
    for path in args.scenarios:
        scenario, err = _load(path)
        if err:
            status = _report(err)
        else:
            print(f"{path}: valid ({', '.join(scenario.panels)}; {len(scenario.steps)} steps)")
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
    return (panel_id,), None


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
    print(dumps({pid: to_jsonable(r) for pid, r in results.items()}))
    return 0


def _export(args: argparse.Namespace) -> int:
    from gpuviz.cli_export import run

    return run(args)


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
