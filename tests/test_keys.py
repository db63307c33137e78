"""Selection keys: one parser and formatter for every module."""

from gpuviz import keys


def test_keys_round_trip():
    for kind, values in (("lane", (3,)), ("tile", (2, 5)), ("partial", (1, 17))):
        assert keys.parse(keys.key(kind, *values)) == (kind, values)


def test_malformed_keys_are_not_numbers():
    assert keys.parse("lane") is None
    assert keys.parse("lane:x") is None
    assert keys.parse(":3") is None
    assert keys.numbers({"lane:3", "lane:x", "bank:3", "lane:7", "tile:1,2"}, "lane") == {3, 7}


def test_frames_travel_in_the_selection():
    sel = frozenset({"lane:3", "frame:4", "frame:2"})
    assert keys.frame_of(sel) == 2
    assert keys.without_frame(sel) == {"lane:3"}
    assert keys.at_frame(sel, 9) == {"lane:3", "frame:9"}
    assert keys.frame_of({"lane:1"}) is None


def test_cycle_window():
    assert keys.cycle_window({keys.cycles(100, 299)}) == (100, 299)
    assert keys.cycle_window({"cycles:9-3", "cycles:a-b"}) is None
    assert keys.of_kind({"tile:1,2", "tile:0,5", "tile:3"}, "tile", 2) == [(0, 5), (1, 2)]


def test_a_cycles_window_is_dropped_alone():
    assert keys.without_cycles({keys.cycles(0, 99), "warp:3", "frame:2"}) == {"warp:3", "frame:2"}


def test_key_takes_names_and_numbers_and_escapes_what_a_key_cannot_hold():
    import re
    from urllib.parse import unquote

    import numpy as np
    assert keys.key("thread", "naive", np.int64(5)) == "thread:naive,5"
    assert keys.prefix("thread", "naive") == "thread:naive,"
    assert keys.prefix("lane") == "lane:"
    assert keys.key("thread", "naive", 5).startswith(keys.prefix("thread", "naive"))
    for name in ("a,b", "a:b", "T × T tile, K = 4,096", "100 %", "else->join"):
        k = keys.key("series", name)
        assert re.fullmatch(keys.KEY_PATTERN, k) and keys.key_problem(k) is None, k
        assert unquote(k.partition(":")[2]) == name  # nothing lost
    assert keys.key("series", "a,b") != keys.key("series", "a", "b")


def test_a_series_key_selected_in_a_scenario_file_is_drawn_selected():
    """The key a plot's line carries (its label holds a space) is one a step's ``select`` takes:
    loaded, saved and loaded again, it marks that line."""
    import json

    from gpuviz.figures.display import Polyline, walk
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.targets import SINGLE
    from gpuviz.figures.theme import theme
    from gpuviz.scenario import dumps_scenario, loads_scenario

    chosen = keys.key("series", "resident warps")
    text = json.dumps({"version": 1, "panels": ["occupancy"],
                       "steps": [{"title": "t", "select": [chosen]}]})
    scenario = loads_scenario(dumps_scenario(loads_scenario(text)))
    selection = scenario.step_selection(0)
    assert selection == {chosen}
    lines = [i for i in walk(figure_for(scenario, "occupancy", theme("screen"), selection,
                                        SINGLE.showing(["cliffs"])).items)
             if isinstance(i, Polyline) and i.key == chosen]
    assert len(lines) >= 2  # the line and the selection's halo under it
