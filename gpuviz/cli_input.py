"""The scenario a command reads: loaded, moved to a step, its panels chosen, and its problems
reported as ``file: json.path: message`` lines with exit status 2; its warnings as
``file: json.path: warning: message`` lines, after which the command goes on. Shared by ``gpuviz`` (cli.py)
and ``gpuviz export`` (cli_export.py)."""

from __future__ import annotations

import sys

EXIT_BAD_INPUT = 2
STEP_HELP = ("the state at step K, numbered as the application numbers them: 1 is the first "
             "step, 0 the overview")


def load(path: str):
    """(scenario, None) or (None, the ScenarioError); a scenario's warnings are printed on
    standard error as ``file: json.path: warning: message`` lines (the command goes on)."""
    from gpuviz.scenario import ScenarioError, load_scenario
    from gpuviz.scenario.problems import warning_lines
    from gpuviz.scenario.warnings import scenario_warnings

    try:
        scenario = load_scenario(path)
    except ScenarioError as e:
        return None, e
    for line in warning_lines(path, scenario_warnings(scenario)):
        print(line, file=sys.stderr)
    return scenario, None


def report(err) -> int:
    for line in err.lines():
        print(line, file=sys.stderr)
    return EXIT_BAD_INPUT


def at_step(scenario, step: int | None, source: str):
    """The state at ``--step K``, numbered as the application numbers steps: 1 is the first
    step ("step 1 of n" in the step bar, ``step01`` in ``--all-steps`` file names), 0 the
    overview."""
    if step is None:
        return scenario, None
    if not 0 <= step <= len(scenario.steps):
        from gpuviz.scenario import Problem, ScenarioError

        have = (f"steps 1 … {len(scenario.steps)} (0: the overview)" if scenario.steps
                else "no steps (0: the overview)")
        return None, ScenarioError(source, [Problem("steps", f"--step {step} does not exist; "
                                                             f"this scenario has {have}")])
    return scenario.at_step(step - 1), None


def step_suffix(step: int | None, count: int) -> str:
    """The file-name part for ``--step K``: ``-step02`` as ``--all-steps`` names step 2."""
    if step is None:
        return ""
    digits = max(2, len(str(count)))
    return "-overview" if step == 0 else f"-step{step:0{digits}d}"


def panels(scenario, panel_id: str | None, source: str):
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
