"""The panel contract: every rule a registered panel must meet, checked for every panel, each
failure naming its rule (docs/architecture.md, "Adding a panel", lists them in this order).

A rule is a function of the registry entry returning what it finds wrong; the suite runs every
rule on every panel, and checks that each rule catches a panel that breaks it."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from gpuviz.figures.lint import lint
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import THEMES
from gpuviz.help import HELP, TOPICS, topic_of
from gpuviz.registry import PANEL_IDS, PANELS, Panel
from gpuviz.scenario import ScenarioError, bundled_scenarios, load_scenario, loads_scenario

#: The names Panel reads of a model module and of a figure module (registry.ModelModule and
#: FigureModule), the optional ones read only where present.
MODEL_HOOKS = frozenset({"PARAMS", "compute", "DEPENDS_ON", "link", "problems", "warnings",
                         "canonical", "SLOW", "worst_cases"})
FIGURE_HOOKS = frozenset({"build", "frame_count"})
#: The shortest help text a panel has (a paragraph that explains, not a caption).
MIN_HELP_CHARS = 200


def topic_order(p: Panel) -> list[str]:
    """The panel has a topic, and the topics list the panels in the registry's order (the
    gallery and the help group by them)."""
    if not p.topic:
        return ["no topic in the registry entry"]
    grouped = [pid for _name, ids in TOPICS for pid in ids]
    if p.id not in dict(TOPICS).get(p.topic, ()):
        return [f"not listed under its topic {p.topic!r}"]
    if grouped.index(p.id) != PANEL_IDS.index(p.id):
        return [f"listed {grouped.index(p.id)}th by topic, {PANEL_IDS.index(p.id)}th in the "
                "registry: a panel's topic follows the panel before it, or starts a new one"]
    return []


def help_text(p: Panel) -> list[str]:
    """The panel has help of at least MIN_HELP_CHARS characters with references, listed under
    its registry topic."""
    h = HELP.get(p.id)
    if h is None:
        return ["no entry in gpuviz/help.py HELP"]
    out = []
    if len(h.text) <= MIN_HELP_CHARS:
        out.append(f"help of {len(h.text)} characters, more than {MIN_HELP_CHARS} needed")
    if not h.references:
        out.append("help cites no references")
    if topic_of(p.id) != p.topic:
        out.append(f"help lists it under {topic_of(p.id)!r}, the registry under {p.topic!r}")
    return out


def parts(p: Panel) -> list[str]:
    """The figure declares at least two named parts, each once."""
    out = []
    if len(p.parts) < 2:
        out.append(f"{len(p.parts)} part(s) declared, at least 2 needed")
    if len(set(p.parts)) != len(p.parts):
        out.append(f"a part named twice: {p.parts}")
    return out


def worst_case(p: Panel) -> list[str]:
    """The model declares ``worst_cases()`` beside itself: the costliest sections it accepts,
    (label, section), read by benchmarks/bench_limits.py; the first one is accepted."""
    declare = getattr(p.model, "worst_cases", None)
    if not callable(declare):
        return [f"gpuviz.models.{p.id} declares no worst_cases()"]
    cases = declare()
    if not cases or not all(isinstance(label, str) and label and isinstance(section, dict)
                            for label, section in cases):
        return [f"worst_cases() is not a non-empty list of (label, section): {cases!r:.80}"]
    label, section = cases[0]
    scenario = {"version": 1, "title": label, "panels": [p.id], p.id: section}
    try:
        loads_scenario(json.dumps(scenario), label)
    except ScenarioError as err:
        return [f"worst case {label!r} is refused: {'; '.join(err.lines())[:200]}"]
    return []


def _misspelt(module: ModuleType, hooks: frozenset[str]) -> list[str]:
    """Public names of a module that look like one of ``hooks`` and are not it (``problem``,
    ``depends_on``, ``frames_count``): an optional hook spelt so is silently never read."""
    out = []
    for name in sorted(n for n in vars(module) if not n.startswith("_") and n not in hooks):
        close = [h for h in hooks if h.lower() == name.lower()] or difflib.get_close_matches(
            name, hooks, n=1, cutoff=0.8)
        if close:
            out.append(f"{module.__name__}.{name} (is it {close[0]}?)")
    return out


def hooks(p: Panel) -> list[str]:
    """The model and figure modules spell their optional hooks right, and those are callable;
    a linked panel names registered panels and has ``link``."""
    model, figure = p.model, p.figure
    out = _misspelt(model, MODEL_HOOKS) + _misspelt(figure, FIGURE_HOOKS)  # type: ignore[arg-type]
    if not set(p.depends_on) <= set(PANEL_IDS) - {p.id}:
        out.append(f"DEPENDS_ON names no other registered panel: {p.depends_on}")
    if p.depends_on and not callable(getattr(model, "link", None)):
        out.append("DEPENDS_ON without link()")
    for name in ("problems", "warnings", "canonical", "link", "worst_cases"):
        if not callable(getattr(model, name, len)):
            out.append(f"gpuviz.models.{p.id}.{name} is not callable")
    if not isinstance(getattr(model, "SLOW", False), bool):
        out.append("SLOW is not a bool")
    if not callable(getattr(figure, "frame_count", len)):
        out.append(f"gpuviz.figures.{p.id}.frame_count is not callable")
    return out


_SCENARIOS: list[tuple[str, Any]] = []


def _bundled() -> list[tuple[str, Any]]:
    if not _SCENARIOS:
        _SCENARIOS.extend((path.stem, load_scenario(path)) for path in bundled_scenarios())
    return _SCENARIOS


def part_budgets(p: Panel) -> list[str]:
    """Every part alone, in every bundled scenario's overview that draws it, meets the budgets
    by layout: at most 120 mm tall at 85 mm with type of at least 7 pt, and at 1280 × 720 body
    type of at least 20 px and titles of at least 28 px; in print and in the presentation theme
    (the largest type) in a column, and in print on a slide. (``benchmarks/bench_parts.py
    --lint --steps`` runs every theme, size and step.)"""
    checked, out = 0, []
    for name, scenario in _bundled():
        if p.id not in scenario.panels:
            continue
        for part in p.parts:
            for theme_name, target in (("print", SINGLE), ("presentation", SINGLE),
                                       ("print", SLIDE)):
                shown = target.showing([part])
                figure = figure_for(scenario, p.id, THEMES[theme_name], frozenset(), shown)
                if figure.parts != (part,):
                    continue  # a part this scenario does not draw
                checked += 1
                found = lint(figure, shown, theme=THEMES[theme_name], budget=True)
                if found:
                    out.append(f"{name} {part} {theme_name} {target.name}: "
                               f"{[str(f) for f in found[:3]]}")
    if not checked:
        out.append("no bundled scenario draws a part of it")
    return out


#: The rules in the order "Adding a panel" lists them.
RULES: tuple[Callable[[Panel], list[str]], ...] = (topic_order, help_text, parts, worst_case,
                                                    hooks, part_budgets)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.__name__)
@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.id)
def test_every_panel_meets_every_rule(panel: Panel, rule):
    found = rule(panel)
    assert not found, f"{panel.id} breaks rule {rule.__name__!r}: {found}"


def test_every_rule_is_documented_under_adding_a_panel():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text()
    section = doc.split("## Adding a panel", 1)[1].split("\n## ", 1)[0]
    missing = [r.__name__ for r in RULES if f"`{r.__name__}`" not in section]
    assert not missing, f"rules not listed under 'Adding a panel': {missing}"


def _stray(base: str, **changes: Any) -> Panel:
    """A registry entry like ``base``'s with some fields changed."""
    import dataclasses

    from gpuviz.registry import panel

    return dataclasses.replace(panel(base), **changes)


def test_each_rule_catches_a_panel_that_breaks_it():
    assert topic_order(_stray("banks", topic="")) == ["no topic in the registry entry"]
    assert "not listed under its topic" in topic_order(_stray("banks", topic="Reuse"))[0]
    assert "help lists it under 'Memory access'" in help_text(_stray("banks", topic="Reuse"))[0]
    assert help_text(_stray("banks", id="nohelp")) == ["no entry in gpuviz/help.py HELP"]
    assert parts(_stray("banks", parts=("rack",))) == ["1 part(s) declared, at least 2 needed"]
    assert "named twice" in parts(_stray("banks", parts=("rack", "rack")))[0]
    # a model without the declaration: one that exists but is not a panel's
    assert worst_case(_stray("banks", id="jsonable")) == [
        "gpuviz.models.jsonable declares no worst_cases()"]


def test_a_misspelt_model_hook_is_caught():
    m = ModuleType("gpuviz.models.example")
    m.problem = lambda params: ()  # type: ignore[attr-defined]  # the hook is problems
    m.depends_on = ("launch",)  # type: ignore[attr-defined]  # the hook is DEPENDS_ON
    m.worst_case = list  # type: ignore[attr-defined]  # the hook is worst_cases
    m.compute_all = len  # type: ignore[attr-defined]  # a helper, not a hook
    assert _misspelt(m, MODEL_HOOKS) == [
        "gpuviz.models.example.depends_on (is it DEPENDS_ON?)",
        "gpuviz.models.example.problem (is it problems?)",
        "gpuviz.models.example.worst_case (is it worst_cases?)"]
