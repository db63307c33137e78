"""Computing a scenario's panels: dependencies first, each result cached by its parameters.

A model module may declare ``DEPENDS_ON = ("launch",)`` and ``link(params, upstream) -> params``;
then the upstream results are computed first and ``link`` folds what it needs into the panel's
parameters (the selected warp of ``launch`` sets the active lanes of ``sectors``). Results are
cached on the (frozen, hashable) parameters, so an unchanged section is never recomputed.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from gpuviz.registry import PANEL_IDS, panel
from gpuviz.scenario.document import Scenario


def compute_all(scenario: Scenario, panel_ids: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Results for the given panels (default: the scenario's panels), in the order asked."""
    wanted = panel_ids if panel_ids is not None else scenario.panels
    results: dict[str, Any] = {}
    for pid in wanted:
        _compute_into(scenario, pid, results, ())
    return {pid: results[pid] for pid in wanted}


def effective_params(scenario: Scenario, panel_id: str, results: dict[str, Any] | None = None) -> Any:
    """The panel's parameters after linking to the panels it depends on."""
    results = {} if results is None else results
    p = panel(panel_id)
    params = with_scenario_arch(scenario.section(panel_id), scenario.arch)
    deps = p.depends_on
    if deps:
        upstream = {d: _compute_into(scenario, d, results, (panel_id,)) for d in deps}
        params = p.link(params, upstream)
    return params


def _compute_into(scenario: Scenario, pid: str, results: dict[str, Any], chain: tuple[str, ...]) -> Any:
    if pid in results:
        return results[pid]
    if pid in chain:
        raise RuntimeError(f"panel dependency cycle: {' -> '.join((*chain, pid))}")
    if pid not in PANEL_IDS:
        raise KeyError(pid)
    params = effective_params(scenario, pid, results)
    results[pid] = compute_cached(pid, params)
    return results[pid]


@lru_cache(maxsize=128)
def compute_cached(panel_id: str, params: Any) -> Any:
    return panel(panel_id).compute(params)


def with_scenario_arch(params: Any, arch: str) -> Any:
    """A section with an ``arch`` field left empty (None) follows the scenario's architecture."""
    if any(f.name == "arch" for f in dataclasses.fields(params)) and params.arch is None:
        return dataclasses.replace(params, arch=arch)
    return params
