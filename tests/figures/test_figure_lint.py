"""The figure lint over every bundled figure: each scenario, before and after each of its steps,
in every theme and at every size preset (natural, single and double column, 16:9 slide).

Failures name the figure, the item and its key. Every panel lays itself out with
``gpuviz.figures.layout``, so every panel must pass."""

from __future__ import annotations

import pytest

from gpuviz.export.lecture import lecture_pages
from gpuviz.figures.lint import lint
from gpuviz.figures.lint_sweep import sweep
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import THEMES
from gpuviz.registry import PANEL_IDS
from gpuviz.scenario import bundled_scenarios, load_scenario

SCENARIOS = [load_scenario(p) for p in bundled_scenarios()]
#: The lint's ``hatch-line`` rule (a horizontal line hatch in thin bands hugging a label reads
#: as a strike-through) finds these panels' bundled figures drawing one (launch: the tile
#: quantization's "wave 0" chips in print): that rule alone is open for them until their
#: figures keep such a hatch to a band along the edge.
LINE_HATCH_OPEN = ("launch",)


def _cases(panel_id):
    shown = [s for s in SCENARIOS if panel_id in s.panels]
    return [(label, findings) for pid, label, findings
            in sweep(shown, tuple(THEMES), tuple(TARGETS.values()), panels=(panel_id,))]


@pytest.mark.parametrize("panel_id", PANEL_IDS)
def test_every_bundled_figure_passes_the_lint(panel_id):
    cases = _cases(panel_id)
    assert cases, f"no bundled scenario shows {panel_id}"
    if panel_id in LINE_HATCH_OPEN:
        cases = [(label, [f for f in findings if f.rule != "hatch-line"])
                 for label, findings in cases]
    failing = [(label, findings) for label, findings in cases if findings]
    report = []
    for label, findings in failing[:8]:
        report += [f"{label}: {f}" for f in findings[:6]]
    total = sum(len(f) for _, f in failing)
    assert not failing, (f"{len(failing)} of {len(cases)} {panel_id} figures fail the lint "
                         f"({total} findings); first ones:\n" + "\n".join(report))


def test_the_sweep_runs_the_chrome_rules_over_every_part(monkeypatch):
    """Each case of the sweep lints each part alone without chrome at every size and, at a
    size with no aspect, headed with its name inside full chrome. Before, the sweep linted the
    whole figure only (the chrome rules ran over each scenario's overview alone)."""
    from gpuviz.figures import lint_sweep
    from gpuviz.figures.targets import SINGLE, SLIDE

    seen, real = [], lint_sweep.chrome_findings

    def recording(figure, chrome, **kw):  # the real rules, each call noted
        seen.append((figure.width, chrome, tuple(kw.get("parts") or ())))
        return real(figure, chrome, **kw)

    monkeypatch.setattr(lint_sweep, "chrome_findings", recording)
    [scenario] = [s for s in SCENARIOS if s.panels == ("pipeline",)][:1]
    cases = list(sweep([scenario], ("print",), (SINGLE, SLIDE)))
    steps = len(scenario.steps) + 1
    assert len(cases) == 2 * steps
    calls = {(w, c, p) for w, c, p in seen}
    assert calls == {(width, chrome, (part,)) for part in ("timeline", "receipt")
                     for width, chrome in ((SINGLE.width, "none"), (SINGLE.width, "full"),
                                           (SLIDE.width, "none"))}
    # each distinct drawing once: two parts, two chromes at one column, one on a slide
    assert len(seen) == len(_distinct_states(scenario, "pipeline")) * (2 * 2 + 2)


def _distinct_states(scenario, pid):
    from gpuviz.scenario.compute import compute_all

    states = [(scenario, frozenset())] + [(scenario.at_step(k), scenario.step_selection(k))
                                          for k in range(len(scenario.steps))]
    return {(repr(compute_all(s, (pid,))[pid]), sel) for s, sel in states}


def test_a_case_that_draws_what_an_earlier_one_drew_is_reported_under_its_own_label():
    """The sweep lints a repeated drawing once; its findings still reach every case that
    draws it, each under its own label, exactly as if each had been linted."""
    from dataclasses import replace

    from gpuviz.figures.targets import SINGLE

    [scenario] = [s for s in SCENARIOS if s.panels == ("pipeline",)][:1]
    # the first step twice over: the second draws what the first drew
    doubled = replace(scenario, steps=(scenario.steps[0], scenario.steps[0]))
    cases = list(sweep([doubled], ("print",), (SINGLE,)))
    assert [label.split(" · ")[-3] for _, label, _ in cases] == ["step 0", "step 1", "step 2"]
    alone = list(sweep([replace(scenario, steps=(scenario.steps[0],))], ("print",), (SINGLE,)))
    assert cases[2][2][:-1] == alone[1][2]  # the repeat: step 1's findings, and the repeat's
    assert cases[2][2][-1].rule == "same-step"



@pytest.mark.parametrize("theme_name", ("screen", "presentation"))  # type sizes differ
def test_no_bundled_slide_wraps_a_column_beside_an_empty_body(theme_name):
    """The ``cramped-column`` rule over the deck's slides: every lecture page of every bundled
    scenario, each panel with the parts it shows and the step's heading and caption, as
    ``--size slide`` lays it out. The slide composer gives a wrapping side column the room."""
    theme = THEMES[theme_name]
    found = []
    for scenario in SCENARIOS:
        for page in lecture_pages(scenario):
            for pid in page.panels:
                target = TARGETS["slide"].showing(page.parts(pid)).titled(*page.heading())
                figure = figure_for(page.state, pid, theme, page.selection_for(pid), target)
                found += [f"{scenario.title} · {page.label} · {pid}: {f}"
                          for f in lint(figure, target, 1.0, theme)
                          if f.rule == "cramped-column"]
    assert not found, "\n".join(found[:8])
