"""The lint's rules for figures that travel: size budgets (single and double column, slides),
glyphs no shipped face has, and consecutive steps that draw the same picture. Each rule is shown
firing on a bundled figure as it was before the layout met it."""

from __future__ import annotations

from gpuviz.figures.display import Figure, Text
from gpuviz.figures.lint import lint
from gpuviz.figures.lint_sweep import same_steps
from gpuviz.figures.metrics import face, missing_glyphs
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import DOUBLE, SINGLE, SLIDE
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

PRINT = theme("print")
GEMM = load_scenario(scenario_dir() / "gemm-walkthrough.json")


def _rules(figure, target):
    return {f.rule for f in lint(figure, target, budget=True)}


def test_budget_rule_fires_on_the_whole_gemm_dashboard_at_single_column():
    whole = figure_for(GEMM, "gemm", PRINT, frozenset(), SINGLE)
    found = [f.message for f in lint(whole, SINGLE, budget=True) if f.rule == "budget"]
    assert any("4 parts" in m for m in found) and any("mm tall" in m for m in found)
    counts = figure_for(GEMM, "gemm", PRINT, frozenset(), SINGLE.showing(["counts"]))
    assert "budget" not in _rules(counts, SINGLE)


def test_double_column_allows_200_mm():
    whole = figure_for(GEMM, "gemm", PRINT, frozenset(), DOUBLE)
    tall = [f for f in lint(whole, DOUBLE, budget=True) if f.rule == "budget"]
    assert bool(tall) == (whole.height > 200.0)


def test_slide_rule_fires_on_the_whole_gemm_dashboard_at_1280x720():
    whole = figure_for(GEMM, "gemm", PRINT, frozenset(), SLIDE)
    found = " ".join(f.message for f in lint(whole, SLIDE, budget=True) if f.rule == "slide")
    assert "body type" in found


def test_glyph_rule_fires_for_a_character_no_shipped_face_has():
    page = Figure(60.0, 20.0, "#FFFFFF", (Text(2.0, 10.0, "tile 漢", 9.0, "#000000"),))
    assert [f.rule for f in lint(page)] == ["glyph"]
    assert missing_glyphs("tile 漢") == ["漢"]


def test_the_fallback_face_draws_what_inter_lacks_in_the_swizzle_and_scheduler_titles():
    assert ord("⟨") not in face("sans", True).advances  # Inter has no ⟨ ⟩ ⌈ ⌉ of its own
    for name, pid in (("swizzle-column3", "swizzle"), ("scheduler-try-registers", "scheduler")):
        fig = figure_for(load_scenario(scenario_dir() / f"{name}.json"), pid, PRINT)
        assert any(ch in t for t in fig.texts() for ch in "⟨⌈")
        assert "glyph" not in {f.rule for f in lint(fig)}


def test_same_step_rule_fires_on_two_steps_that_draw_the_same_picture():
    fig = figure_for(GEMM, "gemm", PRINT)
    assert [f.rule for f in same_steps(["step 1", "step 2"], [fig, fig])] == ["same-step"]


def test_prefetching_two_ahead_is_drawn_apart_from_one_ahead():
    """Two ahead with two slots runs the same schedule as one ahead (the slot binds), so the
    figure marks where the prefetch distance would let each load start."""
    two = load_scenario(scenario_dir() / "pipeline-two-ahead.json")
    one = load_scenario(scenario_dir() / "pipeline-double-buffer.json")
    figures = [figure_for(s, "pipeline", PRINT) for s in (one, two)]
    assert same_steps(["one ahead", "two ahead"], figures) == []
    one_keys, two_keys = (f.keys() for f in figures)  # every key drawn, dots included
    assert sum(k.startswith("tile:") for k in two_keys) > \
        sum(k.startswith("tile:") for k in one_keys)


def test_the_sweep_reports_a_step_that_repeats_the_one_before():
    import json

    from gpuviz.figures.lint_sweep import sweep
    from gpuviz.figures.targets import NATURAL
    from gpuviz.scenario import loads_scenario

    doc = json.loads((scenario_dir() / "launch-n130.json").read_text(encoding="utf-8"))
    doc["steps"].insert(2, dict(doc["steps"][1], title="the tail block again"))
    repeated = loads_scenario(json.dumps(doc).encode("utf-8"), "repeated.json")
    found = [(label, f.item) for _, label, findings in sweep([repeated], ("print",), (NATURAL,))
             for f in findings if f.rule == "same-step"]
    assert [item for _, item in found] == ["step 3"]
