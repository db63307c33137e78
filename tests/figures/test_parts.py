"""Parts: every panel's figure is made of named parts, each a figure of its own, and an export
can ask for some of them and for the chrome (title, subtitle, notes, legend) to be left out."""

from __future__ import annotations

import pytest

from gpuviz.figures.display import Group, Text, walk
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import theme
from gpuviz.registry import PANELS, panel
from gpuviz.scenario import bundled_scenarios, load_scenario
from gpuviz.scenario.bundled import scenario_dir

PRINT = theme("print")


def _legend(figure) -> set[str]:
    return {item.name.removeprefix("legend:") for item in walk(figure.items)
            if isinstance(item, Group) and item.name and item.name.startswith("legend:")}


def _with_every_part(panel_id: str):
    """A bundled scenario whose whole figure of ``panel_id`` draws every part it declares, and
    the target of that whole figure. A panel whose scenarios show some of its parts each (mma
    draws the parts its section's ``show`` names) is drawn whole by asking for every part."""
    first = None
    for path in bundled_scenarios():
        scenario = load_scenario(path)
        if panel_id in scenario.panels:
            first = first or scenario
            whole = figure_for(scenario, panel_id, PRINT, frozenset(), SINGLE)
            if set(whole.parts) == set(panel(panel_id).parts):
                return scenario, SINGLE
    assert first is not None, f"no bundled scenario shows {panel_id}"
    every = SINGLE.showing(panel(panel_id).parts)
    assert set(figure_for(first, panel_id, PRINT, frozenset(), every).parts) \
        == set(panel(panel_id).parts), f"{panel_id} cannot draw every part"
    return first, every


@pytest.mark.parametrize("panel_id", [p.id for p in PANELS])
def test_each_part_alone_is_that_part_with_only_its_legend(panel_id):
    scenario, target = _with_every_part(panel_id)
    whole = figure_for(scenario, panel_id, PRINT, frozenset(), target)
    legends = {}
    for part in panel(panel_id).parts:
        alone = figure_for(scenario, panel_id, PRINT, frozenset(), SINGLE.showing([part]))
        assert alone.parts == (part,)
        assert alone.height < whole.height, part
        legends[part] = _legend(alone)
        assert legends[part] <= _legend(whole), part
    # a legend entry belongs to the parts that draw it: some part lists fewer than the whole
    if len(_legend(whole)) > 1:
        assert any(entries != _legend(whole) for entries in legends.values()), legends


def test_a_part_alone_lists_only_its_own_legend_entries():
    scenario = load_scenario(scenario_dir() / "sectors-stride8.json")
    sweep = figure_for(scenario, "sectors", PRINT, frozenset(), SINGLE.showing(["sweep"]))
    mapped = figure_for(scenario, "sectors", PRINT, frozenset(), SINGLE.showing(["map"]))
    assert "element read by a lane" in _legend(mapped)
    assert "element read by a lane" not in _legend(sweep)
    assert not any("sector" in t and "index" in t for t in sweep.texts())  # the map's note


def test_parts_are_drawn_in_the_order_asked():
    scenario = load_scenario(scenario_dir() / "sectors-stride8.json")
    fig = figure_for(scenario, "sectors", PRINT, frozenset(), SINGLE.showing(["sweep", "map"]))
    assert fig.parts == ("sweep", "map")


def test_chrome_none_is_the_drawing_alone_and_legend_keeps_only_the_legend():
    scenario = load_scenario(scenario_dir() / "banks-stride1.json")
    full = figure_for(scenario, "banks", PRINT, frozenset(), SINGLE)
    title = full.texts()[0]
    note = "Each queue slot shows the word it delivers."
    assert any(t.startswith(note) for t in full.texts())
    legend = figure_for(scenario, "banks", PRINT, frozenset(),
                        SINGLE.showing(["rack"], chrome="legend"))
    assert title not in legend.texts() and _legend(legend)
    assert not any(t.startswith(note) for t in legend.texts())  # notes are chrome
    bare = figure_for(scenario, "banks", PRINT, frozenset(), SINGLE.showing(None, "none"))
    assert title not in bare.texts() and not _legend(bare)
    assert set(bare.parts) == set(full.parts) and bare.height < full.height


def test_a_slide_of_one_part_sets_it_larger_than_the_whole_figure():
    scenario = load_scenario(scenario_dir() / "launch-n130.json")
    whole = figure_for(scenario, "launch", PRINT, frozenset(), SLIDE)
    lanes = figure_for(scenario, "launch", PRINT, frozenset(), SLIDE.showing(["lanes"]))
    def body_pt(figure):
        return sorted(t.size for t in walk(figure.items) if isinstance(t, Text))[0]

    assert body_pt(lanes) > body_pt(whole)


def test_every_bundled_figure_has_a_one_sentence_alt_text_in_good_grammar():
    import re

    for path in bundled_scenarios():
        scenario = load_scenario(path)
        for pid in scenario.panels:
            text = figure_for(scenario, pid, PRINT).description
            assert re.fullmatch(r"[A-Z].*[^.]\.", text), (path.name, text)
            assert not re.search(r"(?<![\d.,])1 [a-z-]+s\b", text), (path.name, text)
