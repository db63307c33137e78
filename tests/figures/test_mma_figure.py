"""The mma figure: each part alone at single column (85 mm) passes the lint and carries the keys a
user points at; a selected lane is outlined in every operand and spelled out."""

from __future__ import annotations

import pytest

from gpuviz.figures import mma as figure
from gpuviz.figures.display import Rect, walk
from gpuviz.figures.layout import SINGLE
from gpuviz.figures.lint import lint
from gpuviz.figures.theme import theme
from gpuviz.models import mma

KEYS = {"fragment-a": ("a:9,3",), "fragment-b": ("b:15,7",), "fragment-c": ("c:9,3",), "feed": ("lane:31", "chunk:3,7"),
        "warpgroup": ("warp:3",), "descriptor": ("core:15,1",), "completion": ("step:0",),
        "hierarchy": ("tile:1,1",)}


@pytest.mark.parametrize("part", mma.PARTS)
def test_each_part_exports_legibly_at_single_column(part):
    r = mma.compute(mma.MmaParams(show=(part,), lane=5))
    fig = figure.build(r, frozenset({"c:9,3"}), theme("print"), SINGLE)
    assert fig.width == 85.0 and fig.height <= 120.0, (part, fig.height)
    assert not lint(fig, SINGLE)
    assert set(KEYS[part]) <= set(fig.keys())


def test_a_selected_lane_is_outlined_in_a_b_and_c_and_spelled_out():
    r = mma.compute(mma.MmaParams(lane=5))
    th = theme("screen")
    fig = figure.build(r, frozenset(), th, SINGLE)
    outlined = [i for i in walk(fig.items) if isinstance(i, Rect) and i.style == th.highlight()]
    assert len(outlined) == 8 + 4 + 4  # lane 5 holds 8 elements of A, 4 of B, 4 of C
    texts = fig.texts()
    assert any("c3 [9][3]" in t for t in texts)


def test_the_wide_k32_operand_folds_into_a_single_column():
    r = mma.compute(mma.MmaParams(shape="m16n8k32", dtype="s8", accumulator="s32"))
    fig = figure.build(r, frozenset(), theme("print"), SINGLE)
    assert not lint(fig, SINGLE)
    assert {"a:15,31", "b:31,7"} <= set(fig.keys())
