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


def test_key_takes_names_and_numbers_and_refuses_separators():
    import numpy as np
    assert keys.key("thread", "naive", np.int64(5)) == "thread:naive,5"
    assert keys.prefix("thread", "naive") == "thread:naive,"
    assert keys.prefix("lane") == "lane:"
    assert keys.key("thread", "naive", 5).startswith(keys.prefix("thread", "naive"))
    for bad in ("a,b", "a:b"):
        try:
            keys.key("run", bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted as a key part")
