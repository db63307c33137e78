"""Structure of the barrier figure: keys, hazards, playback state, themes."""

from dataclasses import replace

import pytest

from gpuviz.figures import barrier as fig
from gpuviz.figures.display import Rect, Text, walk
from gpuviz.figures.targets import DOUBLE, SINGLE
from gpuviz.figures.theme import SCREEN, THEMES
from gpuviz.models.barrier import BarrierParams, compute

SAFE = compute(BarrierParams())
MISSING_SECOND = compute(replace(BarrierParams(), second_barrier=False))


def test_threads_slots_and_events_have_keys():
    keys = set(fig.build(SAFE, frozenset(), SCREEN).keys())
    assert {f"thread:{t}" for t in range(4)} <= keys
    assert {f"slot:{a}" for a in range(4)} <= keys
    assert {f"event:{e.index}" for e in SAFE.events} <= keys


def test_hazards_are_listed_with_threads_and_slot():
    figure = fig.build(MISSING_SECOND, frozenset(), SCREEN)
    texts = figure.texts()
    assert "Unsafe: 1 hazard" in texts
    # a row of the hazards table: thread 3 overwrote its slot with tile 1's 8 before thread 2
    # read tile 0's 4 from it, at step 19
    (h,) = MISSING_SECOND.hazards
    row = [t.text for t in walk(figure.items) if isinstance(t, Text) and t.key == "hazard:0"]
    assert row == [str(h.event + 1), "write before read", "2", "3", "0", "8", "4"]
    assert h.threads == (2, 3) and h.address == 3


def test_safe_schedule_says_so():
    assert any(t.startswith("Safe:") for t in fig.build(SAFE, frozenset(), SCREEN).texts())


def test_frame_shows_the_shared_tile_at_that_step():
    assert fig.frame_count(SAFE) == len(SAFE.events) + 1
    before = fig.build(SAFE, frozenset({"frame:0"}), SCREEN).texts()
    assert before.count("—") == 4  # nothing written yet
    after_one = fig.build(SAFE, frozenset({"frame:1"}), SCREEN).texts()
    assert after_one.count("—") == 3 and "1" in after_one


def test_selected_slot_is_highlighted():
    figure = fig.build(SAFE, frozenset({"slot:2"}), SCREEN)
    assert [i for i in walk(figure.items)
            if isinstance(i, Rect) and i.key == "slot:2" and i.style == SCREEN.highlight()]


def test_early_return_names_the_broken_contract():
    r = compute(replace(BarrierParams(), valid_threads=3, early_return=True))
    texts = " ".join(fig.build(r, frozenset(), SCREEN).texts())
    assert "barrier contract broken" in texts and "thread 3 returned" in texts


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_builds(name):
    figure = fig.build(MISSING_SECOND, frozenset({"thread:1", "frame:9"}), THEMES[name])
    assert 120 <= figure.width <= 180 * THEMES[name].text_pt / 8.0


@pytest.mark.parametrize("target", [SINGLE, DOUBLE])
def test_a_column_gets_its_width_and_every_operation(target):
    """A long interleaving is wrapped into bands at a column's width, never dropped."""
    figure = fig.build(MISSING_SECOND, frozenset(), SCREEN, target)
    assert figure.width == target.width
    keys = set(figure.keys())
    assert {f"event:{e.index}" for e in MISSING_SECOND.events} <= keys
    texts = figure.texts()
    marks = [fig.glyph(e) for e in MISSING_SECOND.events if e.op != "release"]
    assert sorted(t for t in texts if t in set(marks)) == sorted(marks)


def test_wide_block_wraps_the_timeline_into_bands():
    r = compute(replace(BarrierParams(), threads=16, valid_threads=16))
    figure = fig.build(r, frozenset(), SCREEN, SINGLE)
    assert figure.width == SINGLE.width
    assert {f"event:{e.index}" for e in r.events} <= set(figure.keys())
    assert figure.texts().count("step") > 1  # more than one band of steps


def test_a_two_barrier_interleaving_fits_a_journal_column_in_the_large_theme():
    """40 steps in the presentation theme took four bands and 159 mm at 85 mm."""
    from gpuviz.figures.budget import over_budget

    result = compute(replace(BarrierParams(), valid_threads=3))
    target = SINGLE.showing(["interleaving"])
    figure = fig.build(result, frozenset(), THEMES["presentation"], target)
    assert over_budget(figure, target) == []
    assert {f"event:{e.index}" for e in result.events if e.op != "release"} <= set(figure.keys())
