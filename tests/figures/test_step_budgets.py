"""Parts at the steps of a lecture: a step's state (its changes and its selection) lays each
part out within its size's budget, as the overview does. The cases are the states whose parts
missed a budget or left the page before they were laid out for it: one figure each, linted
with the budgets."""

from __future__ import annotations

from functools import cache

import pytest

from gpuviz.figures.layout import DOUBLE, SINGLE, SLIDE
from gpuviz.figures.lint import lint
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SIZES = {"single": SINGLE, "double": DOUBLE, "slide": SLIDE}

# (scenario, step as numbered in the app, panel, part, theme, size)
CASES = [
    # a selected warp's outline at the left edge of a slide
    ("launch-n130", 3, "launch", "warps", "print", "slide"),
    ("linked-launch-sectors", 1, "launch", "warps", "dark", "slide"),
    ("linked-launch-sectors-wave64", 2, "launch", "warps", "screen", "slide"),
    # a step's selection adds legend entries: the presentation theme's type at single column
    ("launch-2d-block", 1, "launch", "warps", "presentation", "single"),
    # m16n8k32 s8: A is 16 × 32, one lane number per register's four bytes
    ("mma-fragments", 4, "mma", "fragment-a", "print", "single"),
    ("mma-fragments", 4, "mma", "fragment-a", "dark", "single"),
    ("mma-fragments", 4, "mma", "fragment-a", "screen", "slide"),
    # the presentation theme's type in a single column
    ("traversal-h200-real-sizes", 1, "traversal", "resident", "presentation", "single"),
    ("reduction-xor-butterfly", 1, "reduction", "tree", "presentation", "single"),
    ("reduction-partial-warp", 2, "reduction", "tree", "presentation", "single"),
    ("reduction-block", 2, "reduction", "tree", "presentation", "single"),
    ("reduction-float32-order", 1, "reduction", "tree", "presentation", "single"),
    ("reduction-warp-shfl-down", 3, "reduction", "tree", "presentation", "single"),
    ("mma-fragments", 2, "mma", "fragment-b", "presentation", "single"),
    ("mma-fragments", 2, "mma", "fragment-c", "presentation", "single"),
    ("mma-fragments", 3, "mma", "fragment-a", "presentation", "single"),
    ("mma-ldmatrix-swizzle", 1, "mma", "fragment-c", "presentation", "single"),
    # a selected lane's receipt under A (its halves named as one run: a0–a1 [1][2–3])
    ("mma-fragments", 1, "mma", "fragment-a", "presentation", "single"),
    ("mma-fragments", 4, "mma", "fragment-a", "presentation", "single"),
    # B of m16n8k32 (32 × 8) keeps its two panels side by side when its cells widen
    ("mma-fragments", 4, "mma", "fragment-b", "print", "single"),
    # an invalid warpgroup's reason, a sentence in the text face
    ("mma-wgmma-warpgroup", 2, "mma", "warpgroup", "presentation", "single"),
    # a selected thread: its strategy framed, one more legend entry
    ("gemm-walkthrough", 4, "gemm", "owners", "presentation", "single"),
    # a thread that returns early: the legend's "×"; a column's short title
    ("barrier-early-return", 2, "barrier", "interleaving", "presentation", "single"),
    # 16-byte accesses: four phases of one round, banks down in two halves
    ("banks-wide-access", 2, "banks", "rack", "presentation", "single"),
    # the swizzle's title in one line at a column
    ("banks-swizzled-columns", 1, "swizzle", "physical", "presentation", "single"),
    ("banks-swizzled-columns", 1, "swizzle", "banks", "presentation", "single"),
]


@cache
def _scenario(name: str):
    return load_scenario(scenario_dir() / f"{name}.json")


@pytest.mark.parametrize(("name", "step", "panel_id", "part", "theme_name", "size"), CASES,
                         ids=["-".join(map(str, c)) for c in CASES])
def test_a_part_at_a_step_meets_its_budget(name, step, panel_id, part, theme_name, size):
    scenario = _scenario(name)
    state, selection = scenario.at_step(step - 1), scenario.step_selection(step - 1)
    target = SIZES[size].showing([part])
    th = theme(theme_name)
    figure = figure_for(state, panel_id, th, selection, target)
    assert figure.parts == (part,)
    assert [str(f) for f in lint(figure, target, theme=th, budget=True)] == []
