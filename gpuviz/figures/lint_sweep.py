"""The figure lint over scenarios: every bundled-style case (scenario, step, panel, theme,
target) linted (:func:`sweep`), each of its parts alone under the chrome rules
(:func:`part_findings`: without chrome, and headed with its name inside full chrome), and the
``same-step`` rule, a step whose figure draws exactly what the step before drew (a deck would
repeat a slide)."""

from __future__ import annotations

import hashlib
from dataclasses import fields
from typing import TYPE_CHECKING

import numpy as np

from gpuviz.figures.display import Figure, walk
from gpuviz.figures.lint import Finding, lint
from gpuviz.figures.lint_chrome import chrome_findings, heading_lines

if TYPE_CHECKING:
    from gpuviz.figures.targets import Chrome, Target
    from gpuviz.figures.theme import Theme
    from gpuviz.scenario.document import Scenario


def part_findings(pid: str, result: object, selection: frozenset[str], theme: Theme,
                  target: Target, whole: Figure) -> list[Finding]:
    """The chrome rules over each part ``whole`` draws, alone: without chrome (``end-label``,
    ``prose``) at every size, and inside full chrome (``part-heading``) at a size with no
    aspect, where a part is headed with its own name (a slide's or a view's layout heads it
    with the figure's title). Each finding names its part and chrome."""
    from dataclasses import replace

    from gpuviz.figures.scene import build_figure

    title = " ".join(t.text for t in heading_lines(whole))
    out: list[Finding] = []
    for part in whole.parts:
        chromes: tuple[Chrome, ...] = ("none", "full") if not target.paged else ("none",)
        for chrome in chromes:
            fig = build_figure(pid, result, selection, theme, target.showing([part], chrome))
            out += [replace(f, item=f"part {part} (chrome {chrome}): {f.item}")
                    for f in chrome_findings(fig, chrome, whole_title=title, parts=[part])]
    return out


def same_steps(labels: list[str], figures: list[Figure]) -> list[Finding]:
    """A ``same-step`` finding for each figure identical to the one before it (``labels``
    name them: the steps of one scenario's panel, in order)."""
    drawn = [fingerprint(f) for f in figures]
    return [Finding("same-step", labels[i], None, f"draws exactly what {labels[i - 1]} draws; "
                                                  "change the drawing or mark the step's subject")
            for i in range(1, len(drawn)) if drawn[i] == drawn[i - 1]]


def fingerprint(figure: Figure) -> str:
    """A digest of everything ``figure`` draws (arrays by their bytes)."""
    digest = hashlib.sha256(f"{figure.width:.4f} {figure.height:.4f}".encode())
    for item in walk(figure.items):
        for f in fields(item):
            if f.name == "items":
                continue
            value = getattr(item, f.name)
            if isinstance(value, np.ndarray):
                digest.update(value.tobytes())
            else:
                digest.update(repr(value).encode())
    return digest.hexdigest()


def sweep(scenarios, themes, targets, panels=None):
    """``(label, findings)`` for every bundled-style case: each scenario, each of its steps
    (and the state before any step), each panel it shows (of ``panels``, if given), each theme
    and target (every figure is laid out for its target), its parts alone under the chrome rules
    too (in the first theme). A step's figure at the first target (with the parts the step
    names) that draws what the step before drew is a ``same-step`` finding (unless the step
    focuses another panel: then this one is context).

    A case that draws what an earlier case drew (the same panel result, selection, theme and
    target: the steps of a lecture often change another panel or the caption alone) is linted
    once and its findings repeated under its own label."""
    from gpuviz.figures.scene import build_figure
    from gpuviz.figures.theme import THEMES
    from gpuviz.scenario.compute import compute_all

    # (panel, result, selection, theme, target, parts) -> (figure, findings, result kept alive)
    seen: dict[tuple, tuple[Figure, list[Finding], object]] = {}

    def linted(pid, result, selection, theme_name, target, parts=None, chrome_parts=False):
        key = (pid, id(result), selection, theme_name, id(target),
               None if parts is None else tuple(parts), chrome_parts)
        if key not in seen:
            theme = THEMES[theme_name]
            shown = target if parts is None else target.showing(parts)
            fig = build_figure(pid, result, selection, theme, shown)
            found: list[Finding] = []
            if parts is None:
                found = lint(fig, target, 1.0, theme)
                if chrome_parts:
                    # the chrome rules read a part's words and layout, which no theme changes:
                    # each part once per state and target, in the first theme
                    found += part_findings(pid, result, selection, theme, target, fig)
            seen[key] = (fig, found, result)
        return seen[key][0], seen[key][1]

    for scenario in scenarios:
        states: list[tuple[int, Scenario, frozenset[str]]] = [(-1, scenario, frozenset())]
        states += [(k, scenario.at_step(k), scenario.step_selection(k))
                   for k in range(len(scenario.steps))]
        drawn: dict[tuple[str, str], str] = {}  # the figure of the step before, per panel
        for k, state, selection in states:
            shown_panels = [p for p in state.panels if panels is None or p in panels]
            if not shown_panels:
                continue
            results = compute_all(state, state.panels)
            for pid in shown_panels:
                for theme_name in themes:
                    for target in targets:
                        fig, found = linted(pid, results[pid], selection, theme_name, target,
                                            chrome_parts=theme_name == themes[0])
                        repeated: list[Finding] = []
                        if target is targets[0] and k >= 0:  # what a deck shows for step k
                            parts = scenario.step_parts(k, pid)
                            shown = fig if parts is None else linted(
                                pid, results[pid], selection, theme_name, target, parts)[0]
                            print_ = fingerprint(shown)
                            before = drawn.get((pid, theme_name))
                            if before == print_ and scenario.steps[k].focus in (None, pid):
                                repeated = [Finding("same-step", f"step {k + 1}", None,
                                                    f"draws exactly what step {k} draws; "
                                                    "change the drawing or mark the step's "
                                                    "subject")]
                            drawn[(pid, theme_name)] = print_
                        label = (f"{scenario.title or pid} · {pid} · step {k + 1} · "
                                 f"{theme_name} · {target.name}")
                        yield pid, label, list(found) + repeated
