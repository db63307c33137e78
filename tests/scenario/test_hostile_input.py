"""The loader against hostile input, in process: bounded reads, positions that point at the
fault, capped and escaped reports, steps checked incrementally and completely."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from gpuviz.registry import panel
from gpuviz.scenario import ScenarioError, bundled_scenarios, load_scenario, loads_scenario
from gpuviz.scenario.decode import BAD, decode_dataclass, encode, merge
from gpuviz.scenario.io import MAX_NESTING, MAX_STEPS, decode_section
from gpuviz.scenario.problems import MAX_REPORTED, Problem


def lines_of(text: str | bytes) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text.encode() if isinstance(text, str) else text, "f.json")
    return info.value.lines()


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_without_reading_them(path):
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    with pytest.raises(ScenarioError, match="character device, not a regular file"):
        load_scenario(path)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="a pipe"):
        load_scenario(fifo)


def test_a_file_over_the_limit_is_refused(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(8 * 1024 * 1024 + 1)
    with pytest.raises(ScenarioError, match="at most 8,388,608 bytes"):
        load_scenario(big)


@pytest.mark.parametrize("text,where", [
    ('{\n  "version": 1,\n  "title": NaN\n}', "line 3, column 12"),
    ('{"version": 1, "title": "Infinity", "launch": {"n": -Infinity}}', "line 1, column 53"),
    ('{"version": 1,\n\n   "launch": {"n": Infinity}}', "line 3, column 20"),
])
def test_nan_and_infinity_are_placed_where_they_are(text, where):
    (line,) = lines_of(text)
    assert line.startswith(f"f.json: {where}: this is not valid JSON")


def test_nesting_is_refused_at_the_bracket_that_goes_too_deep():
    text = '{"version": 1,\n "title": ' + "[" * 2000 + "]" * 2000 + "}"
    (line,) = lines_of(text)
    # the object is level 1, so the list that makes level MAX_NESTING + 1 opens at column
    # 11 + MAX_NESTING - 1 of line 2
    assert line == (f"f.json: line 2, column {11 + MAX_NESTING - 1}: lists and objects are "
                    f"nested more than {MAX_NESTING} deep")


def test_nesting_just_inside_the_limit_loads_to_a_clear_problem():
    value = "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1)
    (line,) = lines_of('{"version": 1, "title": ' + value + "}")
    assert line.startswith("f.json: title: expected a string, got a list of 1")


@pytest.mark.parametrize("literal,message", [
    ("9" * 5000, "this number has 5,000 digits"),
    ("1e400", "the number 1e400 is too large"),
    ("-1e400", "the number -1e400 is too large"),
])
def test_numbers_beyond_any_use_are_placed(literal, message):
    (line,) = lines_of('{"version": 1,\n"launch": {"n": ' + literal + "}}")
    assert line == f"f.json: line 2, column 17: {message}" + (
        "; numbers in a scenario have at most 400" if "digits" in message else
        " to represent (beyond ±1.8e308)")


def test_a_huge_integer_in_a_float_field_is_a_problem_not_a_crash():
    (line,) = lines_of('{"version": 1, "panels": ["reduction"], "reduction": {"values": [1'
                       + "0" * 350 + "]}}")
    assert line == ("f.json: reduction.values[0]: expected a number within ±1.8e308, got a "
                    "number of 351 digits")


def test_reduction_values_are_bounded_so_every_sum_stays_finite():
    (line, *_rest) = lines_of(json.dumps({"version": 1, "reduction": {"values": [1e31]}}))
    assert line == "f.json: reduction.values[0]: must be at most 1e+30, got 1e+31"


def test_the_report_is_capped_and_says_how_many_more():
    text = json.dumps({"version": 1, **{f"nope{i}": i for i in range(5000)}})
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text, "f.json")
    assert len(info.value.problems) == 5000
    lines = info.value.lines()
    assert len(lines) == MAX_REPORTED + 1
    assert lines[-1] == f"f.json: $: and {5000 - MAX_REPORTED:,} more problems"
    assert len(info.value.lines(limit=None)) == 5000


def test_control_characters_in_keys_values_and_file_names_are_escaped():
    problem = Problem("\x1b]0;title\x07", "got \x1b[2J and \u202e and \ud800")
    assert problem.line("a\nb.json") == (
        "a\\x0ab.json: \\x1b]0;title\\x07: got \\x1b[2J and \\u202e and \\ud800")
    (line,) = lines_of(json.dumps({"version": 1, "\x1b[31mred": 1}))
    assert line.startswith("f.json: \\x1b[31mred: unknown key")


def test_a_lone_surrogate_is_refused_with_its_path():
    (line,) = lines_of('{"version": 1, "divergence": {"nodes": [{"name": "a\\udc00"}]}}')
    assert line.startswith("f.json: divergence.nodes[0].name: a \\u escape names half")
    params, problems = decode_section("divergence", {"nodes": [{"name": "b\ud800"}]})
    assert params is None and problems[0].path == "divergence.nodes[0].name"
    assert loads_scenario('{"version": 1, "title": "\\ud83d\\ude00"}').title == "\U0001F600"


def test_too_many_steps():
    (line,) = lines_of(json.dumps({"version": 1, "steps": [{"title": "s"}] * (MAX_STEPS + 1)}))
    assert line == f"f.json: steps: {MAX_STEPS + 1} steps; a scenario has at most {MAX_STEPS}"


def test_a_step_that_makes_a_panel_follow_an_architecture_it_cannot_model():
    text = json.dumps({"version": 1, "arch": "mi300x", "panels": ["occupancy"],
                       "occupancy": {"arch": "h100-sxm"},
                       "steps": [{"title": "follow", "changes": {"occupancy": {"arch": None}}}]})
    (line,) = lines_of(text)
    assert line.startswith("f.json: steps[0].changes.occupancy: the occupancy panel follows the "
                           "scenario's architecture here: ")


def test_expressions_are_evaluated_in_every_steps_state():
    base = {"version": 1, "panels": ["divergence"],
            "divergence": {"warp": 1, "entry_mask": "lane % warp < 30"},
            "steps": [{"title": "fine", "changes": {"divergence": {"warp": 2}}},
                      {"title": "warp 0", "changes": {"divergence": {"warp": 0}}}]}
    (line,) = lines_of(json.dumps(base))
    assert line.startswith("f.json: steps[1].changes.divergence.entry_mask: division by zero")


def _full_decode_states(raw: dict) -> list[dict]:
    """Each step's sections, decoded from scratch from the merged JSON (the slow way)."""
    scenario = loads_scenario(json.dumps(raw))
    current = {pid: encode(p) for pid, p in scenario.sections.items()}
    states = []
    for step in raw.get("steps", []):
        for pid, partial in step.get("changes", {}).items():
            merged = merge(current.get(pid) or encode(panel(pid).params_type()), partial)
            problems: list[Problem] = []
            params = decode_dataclass(panel(pid).params_type, merged, pid, problems)
            assert params is not BAD and not problems
            current[pid] = encode(params)
        states.append(dict(current))
    return states


@pytest.mark.parametrize("path", [p for p in bundled_scenarios()
                                  if '"changes"' in p.read_text(encoding="utf-8")],
                         ids=lambda p: p.stem)
def test_incremental_steps_give_the_states_a_full_decode_gives(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    scenario = load_scenario(path)
    want = _full_decode_states(raw)
    for k, sections in enumerate(want):
        got = scenario.at_step(k).sections
        assert {pid: encode(p) for pid, p in got.items()} == sections


def test_a_nested_step_change_merges_over_the_state_before_it():
    raw = {"version": 1, "panels": ["sectors"],
           "sectors": {"follow_launch": False, "pattern": {"kind": "stride", "stride": 2}},
           "steps": [{"title": "a", "changes": {"sectors": {"pattern": {"stride": 3}}}},
                     {"title": "b", "changes": {"sectors": {"element_bytes": 8}}}]}
    s = loads_scenario(json.dumps(raw))
    first, second = s.at_step(0).section("sectors"), s.at_step(1).section("sectors")
    assert (first.pattern.kind, first.pattern.stride, first.element_bytes) == ("stride", 3, 4)
    assert second == replace(first, element_bytes=8)
