"""Structure of the pipeline figure: keys, highlight, playback cursor, themes, numbers."""

import re

import pytest

from gpuviz.figures import pipeline as fig
from gpuviz.figures.display import Rect, Rects, Text, walk
from gpuviz.figures.targets import SINGLE
from gpuviz.figures.theme import SCREEN, THEMES
from gpuviz.models.pipeline import PipelineParams, compute

RESULT = compute(PipelineParams(tiles=6, buffers=2, load_time=2, compute_time=3,
                                prefetch_distance=2))


def test_every_tile_slot_and_wait_has_a_key():
    keys = set(fig.build(RESULT, frozenset(), SCREEN).keys())
    assert {f"tile:{i}" for i in range(6)} <= keys
    assert {"buffer:0", "buffer:1"} <= keys
    assert {f"wait:{j}" for j in range(len(RESULT.waits))} <= keys


def test_selected_tile_is_outlined_in_the_highlight_style():
    figure = fig.build(RESULT, frozenset({"tile:2"}), SCREEN)
    outlined = [i for i in walk(figure.items)
                if isinstance(i, Rect) and i.key == "tile:2" and i.style == SCREEN.highlight()]
    assert len(outlined) == 3  # load bar, compute bar, ownership band


def test_texts_carry_the_total_and_the_wait_names():
    texts = " ".join(fig.build(RESULT, frozenset(), SCREEN).texts())
    assert re.search(r"total\s+20 time units", texts)
    assert re.search(r"load busy\s+12 \(60 %\)", texts)
    assert "load waits for slot" in texts and "loaded tile waits" in texts


def test_frame_places_the_cursor_and_fades_the_future():
    assert fig.frame_count(RESULT) == len(RESULT.event_times)
    figure = fig.build(RESULT, frozenset({"frame:3"}), SCREEN)
    t = RESULT.event_times[3]
    assert any(f"t = {t:g}" == s for s in figure.texts())
    load = SCREEN.fill("load").fill
    loads = [i for i in walk(figure.items) if isinstance(i, Rects) and "tile:5" in (i.keys or ())
             and i.style.fill not in (load, SCREEN.fill("compute").fill, SCREEN.fill("owned").fill)]
    assert loads, "the future tile 5 is drawn faded"
    final = fig.build(RESULT, frozenset(), SCREEN)
    assert all(i.style.fill in (load, SCREEN.fill("compute").fill, SCREEN.fill("owned").fill)
               for i in walk(final.items) if isinstance(i, Rects) and "tile:5" in (i.keys or ()))


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_builds(name):
    figure = fig.build(RESULT, frozenset({"tile:1", "frame:5"}), THEMES[name])
    assert 120 <= figure.width <= 180 * THEMES[name].text_pt / 8.0 and figure.height > 20


def test_the_time_axis_states_its_unit():
    assert fig.AXIS_LABEL in fig.build(RESULT, frozenset(), SCREEN).texts()


def test_a_long_schedule_in_a_column_wraps_into_bands_and_numbers_every_bar():
    r = compute(PipelineParams(tiles=16, buffers=3, load_time=2, compute_time=3,
                               prefetch_distance=3))
    figure = fig.build(r, frozenset(), SCREEN, SINGLE)
    assert figure.width == SINGLE.width
    numbers = [i.text for i in walk(figure.items) if isinstance(i, Text)
               and i.key == f"tile:{i.text}"]
    for i in range(16):  # on its load bar, its compute bar and its ownership band
        assert numbers.count(str(i)) == 3
    assert figure.texts().count(fig.AXIS_LABEL) == 1



UNEVEN = (2,) * 8 + (9,) + (2,) * 7  # one slow load among sixteen


@pytest.mark.parametrize(("theme_name", "load_times"),
                         [("print", ()), ("presentation", ()), ("print", UNEVEN)])
def test_sixteen_tiles_fit_a_journal_column_with_every_bar_numbered(theme_name, load_times):
    """16 tiles through 3 slots took three bands and 157 mm at 85 mm (127 mm with one slow
    load); rows just taller than their labels and band edges on a fraction of a tick step
    take two bands, every bar keeping its tile number."""
    from gpuviz.figures.budget import over_budget

    result = compute(PipelineParams(tiles=16, buffers=3, load_time=2, compute_time=3,
                                    prefetch_distance=2, load_times=load_times))
    target = SINGLE.showing(["timeline"])
    figure = fig.build(result, frozenset(), THEMES[theme_name], target)
    assert over_budget(figure, target) == []
    numbers = [t.text for t in walk(figure.items) if isinstance(t, Text)
               and (t.key or "").startswith("tile:")]
    assert all(numbers.count(str(i)) >= 2 for i in range(16))  # its load and compute bars


def test_the_lower_bound_is_derived_in_numbers_in_the_receipt_not_a_footnote():
    """Loads of 2, 3, 2 and computes of 4, 1, 5: no wait at all takes max(7 + 5, 2 + 10) =
    12, which the receipt writes as a row of numbers; without chrome no footnote is drawn (it
    was a three-line sentence under the receipt, 16 % of the part at one column)."""
    r = compute(PipelineParams(tiles=3, buffers=2, load_times=(2.0, 3.0, 2.0),
                               compute_times=(4.0, 1.0, 5.0)))
    assert r.lower_bound_time == 12
    rows = dict(fig.receipt_rows(r))
    assert rows["  no wait"] == "max(7 + 5, 2 + 10)"
    bare = fig.build(r, frozenset(), THEMES["print"], SINGLE.showing(["receipt"], "none"))
    text = " ".join(bare.texts())
    assert "max(7 + 5, 2 + 10)" in text and "*" not in text and "no wait at all" not in text
    full = fig.build(r, frozenset(), THEMES["print"], SINGLE.showing(["receipt"]))
    assert "no wait at all" in " ".join(full.texts())  # the why, with the chrome
