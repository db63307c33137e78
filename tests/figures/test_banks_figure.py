"""The bank queue figure: keys, rounds, broadcasts, phases, selection and themes."""


import pytest

from gpuviz.figures import banks as banks_figure
from gpuviz.figures.display import Rect, Rects, walk
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(name, step=-1):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("banks",))["banks"]


def build(name="banks-stride1.json", selection=frozenset(), theme_name="screen", step=-1):
    return banks_figure.build(result_of(name, step), selection, theme(theme_name))


def slots_by_style(fig, t, role):
    fill = t.color(role)
    return [i for i in walk(fig.items) if isinstance(i, Rects) and i.style.fill == fill
            and i.keys and all(k.startswith("word:") for k in i.keys)]


def test_lanes_banks_and_words_are_pointable():
    keys = set(build().keys())
    assert {f"lane:{i}" for i in range(32)} <= keys
    assert {f"bank:{b}" for b in range(32)} <= keys
    assert {f"word:{w}" for w in range(32)} <= keys


def test_column_of_32_wide_array_draws_32_rounds_in_bank_0():
    fig = build("banks-column32.json")
    assert "Banks: 32 lanes read 4-byte elements — 32 rounds" in fig.texts()
    [conflicts] = slots_by_style(fig, theme("screen"), "conflict")
    assert len(conflicts.xywh) == 32
    assert len({round(x, 6) for x in conflicts.xywh[:, 0]}) == 1  # one column: bank 0
    assert "32 (bank 0)" in fig.texts()


def test_broadcast_is_one_slot_labelled_with_its_readers():
    fig = build("banks-broadcast.json")
    [bc] = slots_by_style(fig, theme("screen"), "broadcast")
    assert bc.keys == ("word:0",)
    assert "1 (largest: 32 readers)" in fig.texts()


def test_wide_access_names_its_phases():
    fig = build("banks-wide-access.json")
    texts = fig.texts()
    assert "phase 1" in texts and "phase 2" in texts
    assert any("2 half-warps of 16 lanes" in t for t in texts)
    assert "1 + 1" in texts


def test_swizzled_figure_states_the_formula():
    fig = build("banks-swizzled-columns.json", step=1)
    assert any("address ^ ((address & 0x380) >> 3)" in t for t in fig.texts())


def test_selecting_a_bank_highlights_its_column_and_the_lanes_reading_it():
    t = theme("screen")
    fig = build("banks-padded33.json", frozenset({"bank:5"}))
    accented = [i for i in walk(fig.items) if isinstance(i, Rect) and i.style.stroke == t.accent]
    assert len(accented) == 1
    hi = [i for i in walk(fig.items) if hasattr(i, "xyxy") and i.style.stroke == t.accent]
    assert len(hi) == 1 and len(hi[0].xyxy) == 1  # lane 5's connection


@pytest.mark.parametrize("name", list(THEMES))
def test_every_theme_builds_from_theme_colours_only(name):
    t = theme(name)
    allowed = t.colours()
    fig = build("banks-wide-access.json", frozenset({"lane:3", "bank:0", "word:2"}), name)
    used = fig.colours()
    assert used <= allowed, used - allowed
