"""The banks figure's layout search keeps what it built between designs and builds
(``banks_rack``'s kept blocks): every bundled state's figure, at every size, in every theme, with
a part alone too, is drawn exactly as the search without them drew it (the digests in
``tests/golden/banks-layouts.json``, recorded before the blocks were kept), whichever figures
were built before it.

A layout that changes on purpose is approved by regenerating (``GPUVIZ_UPDATE_GOLDEN=1``) and
reviewing the pictures of the states whose digest changed."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from gpuviz.figures.display import Figure
from gpuviz.figures.lint_sweep import fingerprint
from gpuviz.figures.targets import DOUBLE, NATURAL, SINGLE, SLIDE, view_target
from gpuviz.figures.theme import THEMES
from gpuviz.scenario import bundled_scenarios, load_scenario
from gpuviz.scenario.compute import compute_all

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "banks-layouts.json"
UPDATE = os.environ.get("GPUVIZ_UPDATE_GOLDEN") == "1"

CASES = (
    ("natural", NATURAL, "screen"), ("single", SINGLE, "print"), ("double", DOUBLE, "print"),
    ("slide", SLIDE, "presentation"), ("dark", NATURAL, "dark"),
    ("single-rack", SINGLE.showing(["rack"]), "print"),
    ("slide-rack", SLIDE.showing(["rack"]), "presentation"),
    ("view", view_target(180.0, 1.6), "screen"),
    ("view-rack", view_target(120.0, 0.8).showing(["rack"]), "screen"),
)


def digest(figure: Figure) -> str:
    """Everything ``figure`` draws, and its size, as one digest (``lint_sweep.fingerprint``,
    the same-step rule's)."""
    return fingerprint(figure)[:20]


def states():
    """(label, result, selection) of every bundled state drawing the banks figure."""
    for path in bundled_scenarios():
        scenario = load_scenario(path)
        if "banks" not in scenario.panels:
            continue
        shown = [("overview", scenario, frozenset())]
        shown += [(f"step {k + 1}", scenario.at_step(k), scenario.step_selection(k))
                  for k in range(len(scenario.steps))]
        for label, state, selection in shown:
            result = compute_all(state, ("banks",))["banks"]
            yield f"{path.stem} {label}", result, selection


def drawn(order: str) -> dict[str, str]:
    """Every state's digest in every case, built case by case (``"cases"``: each state at one
    size, then the next size) or state by state (``"states"``)."""
    from gpuviz.figures.scene import build_figure

    shown = list(states())
    pairs = ([(c, s) for c in CASES for s in shown] if order == "cases"
             else [(c, s) for s in shown for c in CASES])
    out: dict[str, str] = {}
    for (name, target, theme), (label, result, selection) in pairs:
        figure = build_figure("banks", result, selection, THEMES[theme], target)
        out[f"{label} · {name}"] = digest(figure)
    return dict(sorted(out.items()))


@pytest.mark.parametrize("order", ["cases", "states"])
def test_bundled_banks_layouts_are_the_searched_ones(order):
    now = drawn(order)
    if UPDATE:
        GOLDEN.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        pytest.skip(f"{GOLDEN.name} approved anew: an approval run checks nothing")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert set(now) == set(expected)
    changed = [k for k in now if now[k] != expected[k]]
    assert not changed, f"{len(changed)} of {len(now)} layouts differ: " + ", ".join(changed[:8])


def test_a_layout_search_draws_each_block_of_rounds_once(monkeypatch):
    """The queues alone of a rack in phases (banks-padded33 with 8-byte accesses, the API's
    example) on a slide, in columns and in a view, each with and without a selection: every
    block of rounds the searches place is drawn once, however many widths and designs they
    try (it was drawn 6.5 times on average, 1.4 s of the example's 3 s)."""
    import gpuviz.figures.banks_rack as rack
    from gpuviz.figures.scene import build_figure
    from gpuviz.registry import panel

    drawn_args: list[tuple] = []
    stretch = rack._stretch

    def counted(r, selection, theme, spans, *rest, **kw):
        drawn_args.append((id(r), selection, theme.name, tuple(spans),
                           tuple(a for a in rest if not isinstance(a, dict)), tuple(kw.items())))
        return stretch(r, selection, theme, spans, *rest, **kw)

    monkeypatch.setattr(rack, "_stretch", counted)
    scenario = load_scenario(next(p for p in bundled_scenarios() if p.stem == "banks-padded33"))
    result = panel("banks").compute(replace(scenario.sections["banks"], access_bytes=8))
    assert result.phases > 1
    for _ in range(2):  # a second export of the same figures draws none anew
        for selection in (frozenset(), frozenset({"bank:1", "lane:1"})):
            for target, theme in ((SLIDE, "presentation"), (SINGLE, "print"),
                                  (DOUBLE, "screen"), (view_target(150.0, 1.2), "dark")):
                build_figure("banks", result, selection, THEMES[theme], target.showing(["rack"]))
    assert drawn_args, "the deep rack is drawn in blocks of rounds"
    assert len(drawn_args) == len(set(drawn_args)), \
        f"{len(drawn_args)} blocks drawn, {len(set(drawn_args))} different"
