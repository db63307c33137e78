"""Warnings: values a scenario may hold, computed exactly, that are likely not what its author
meant (a grid that leaves elements unprocessed, a warp whose every lane is masked, a load that no
lane takes part in). They come from the models' ``warnings`` hooks, named by JSON path as
problems are, and are reported, never refused: ``gpuviz validate``, ``compute`` and ``export``
print them on standard error and exit 0 (``problems.warning_lines``: capped and escaped as
problems are), and the application shows those of the state on screen in its message line.

A panel is checked with what it follows (sectors with the warp selected in launch), in the
overview and in every step whose state warns differently from the state before it, so that 250
steps over one short grid say so once."""

from __future__ import annotations

from gpuviz.registry import panel
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.problems import Problem, join


def state_warnings(state: Scenario, where: str = "") -> tuple[Problem, ...]:
    """The warnings of one state's panels (the overview, or a step's state as shown); paths
    start at ``where`` (a step's ``steps[k].changes``) or at the panel id."""
    return tuple(problem for pid in state.panels for problem in _at(where, pid,
                                                                     _panel_warnings(state, pid)))


def scenario_warnings(scenario: Scenario) -> tuple[Problem, ...]:
    """The warnings of a scenario's overview and of its steps (a step's only where its state
    warns differently from the one before it), in order."""
    found = list(state_warnings(scenario))
    before = {pid: _panel_warnings(scenario, pid) for pid in scenario.panels}
    for k in range(len(scenario.steps)):
        state = scenario.at_step(k)
        for pid in scenario.panels:
            said = _panel_warnings(state, pid)
            if said != before[pid]:
                found += _at(join(join("steps", k), "changes"), pid, said)
                before[pid] = said
    return tuple(found)


def _at(where: str, pid: str, said: tuple[tuple[str, str], ...]) -> list[Problem]:
    base = join(where, pid) if where else pid
    return [Problem(join(base, sub) if sub else base, message) for sub, message in said]


def _panel_warnings(state: Scenario, pid: str) -> tuple[tuple[str, str], ...]:
    from gpuviz.scenario.compute import effective_params

    try:
        params = effective_params(state, pid)
    except Exception:  # a state the loader refused has no warnings to add
        return ()
    return tuple(panel(pid).warnings(params))
