"""Structure of the reduction figure: keys, contributor outline, levels by frame, themes."""

from dataclasses import replace

import pytest

from gpuviz.figures import reduction as fig
from gpuviz.figures.display import Rect, Rects, walk
from gpuviz.figures.theme import SCREEN, THEMES
from gpuviz.models.reduction import ReductionParams, compute

WARP = compute(ReductionParams())
BLOCK_BAD = compute(replace(ReductionParams(), values=tuple(float(v) for v in range(1, 101)),
                            scope="block", final_read="fixed_32"))


def test_lanes_and_every_partial_have_keys():
    keys = set(fig.build(WARP, frozenset(), SCREEN).keys())
    assert {f"lane:{lane}" for lane in range(32)} <= keys
    assert {f"partial:{k},{lane}" for k in range(6) for lane in range(32)} <= keys


def test_texts_carry_528():
    texts = fig.build(WARP, frozenset(), SCREEN).texts()
    assert any(t.startswith("lane 0 holds 528") for t in texts)
    assert "528" in texts


def test_selected_partial_outlines_its_contributors():
    figure = fig.build(WARP, frozenset({"partial:2,1"}), SCREEN)
    assert any(t.startswith("partial at level 2, lane 1 = ") and "{1, 9, 17, 25}" in t
               for t in figure.texts())
    selected = [i for i in walk(figure.items)
                if isinstance(i, Rect) and i.key == "partial:2,1"
                and i.style == SCREEN.highlight()]
    assert selected
    outlines = [i for i in walk(figure.items) if isinstance(i, Rects) and i.keys is None
                and i.style.stroke == SCREEN.accent]
    # 4 inputs, 2 partials at level 1, and the selected cell itself.
    assert len(outlines[0].xywh) == 4 + 2 + 1


def test_frames_reveal_one_level_at_a_time():
    assert fig.frame_count(WARP) == 6
    def fills(frame):
        figure = fig.build(WARP, frozenset({f"frame:{frame}"}), SCREEN)
        out = {}
        for item in walk(figure.items):
            if isinstance(item, Rects) and item.keys:
                for key in item.keys:
                    out[key] = item.style.fill
        return out

    first, last = fills(0), fills(5)
    changed = {k for k in first if first[k] != last[k]}
    assert changed == {f"partial:{k},{lane}" for k in range(1, 6) for lane in range(32)}


def test_block_figure_flags_uninitialised_entries():
    figure = fig.build(BLOCK_BAD, frozenset({"shared:5"}), SCREEN)
    keys = set(figure.keys())
    assert {f"warp:{w}" for w in range(4)} <= keys and "shared:31" in keys
    texts = " ".join(figure.texts())
    assert "undefined" in texts and "entries 4–31 are uninitialised" in texts
    assert fig.frame_count(BLOCK_BAD) == 8


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_builds(name):
    figure = fig.build(BLOCK_BAD, frozenset({"partial:1,0", "frame:3"}), THEMES[name])
    assert 120 <= figure.width <= 180
