"""Live values in captions: formatted from the state shown, checked at load."""

from __future__ import annotations

import json

import pytest

from gpuviz.scenario import ScenarioError, loads_scenario
from gpuviz.scenario.fields import field_problems, fields, format_fields

PIPELINE = {"version": 1, "pipeline": {"tiles": 6, "buffers": 1, "load_time": 2, "compute_time": 3},
            "steps": [{"title": "one slot",
                       "caption": "{pipeline.tiles} × ({pipeline.load_time} + "
                                  "{pipeline.compute_time}) = {pipeline.result.total_time} units"},
                      {"title": "eight", "caption": "now {pipeline.tiles} tiles",
                       "changes": {"pipeline": {"tiles": 8}}}]}


def test_fields_are_formatted_from_the_state_at_each_step():
    s = loads_scenario(json.dumps(PIPELINE))
    # one slot: load and compute alternate, tiles × (load + compute)
    assert format_fields(s.steps[0].caption, s.at_step(0)) == "6 × (2 + 3) = 30 units"
    assert format_fields(s.steps[1].caption, s.at_step(1)) == "now 8 tiles"
    assert format_fields(s.steps[0].caption, s.at_step(1)) == "8 × (2 + 3) = 40 units"


def test_format_specs_tuples_and_literal_braces():
    s = loads_scenario('{"version": 1, "launch": {"n": 1000000, "block": [16, 16]}}')
    assert format_fields("{launch.n:,} in {launch.block} blocks {{x}}", s) == \
        "1,000,000 in 16×16 blocks {x}"
    assert format_fields("stride {sectors.pattern.stride}", s) == "stride 1"
    assert fields("a {launch.n} b {launch.block:d}") == ["launch.n", "launch.block"]


@pytest.mark.parametrize(("caption", "message"), [
    ("{lunch.n}", "{lunch.n}: unknown panel 'lunch'; did you mean 'launch'?"),
    ("{launch.tiles}", "{launch.tiles}: launch has no field 'tiles'"),
    ("{launch}", "{launch}: name a field of the launch section"),
    ("{pipeline.result.totl}", "{pipeline.result.totl}: pipeline.result has no field 'totl'"),
    ("{launch.n:q}", "{launch.n:q}: the format does not apply to this field"),
    ("{launch.n!r}", "has a conversion"),
    ("a { b", "a brace that opens or closes no field"),
    ("a } b", "write {{ and }} for literal braces"),
])
def test_a_bad_field_is_an_error_that_names_its_path(caption, message):
    problems = field_problems(caption, "steps[0].caption")
    assert problems and problems[0].path == "steps[0].caption"
    assert message in problems[0].message
    data = {"version": 1, "steps": [{"title": "t"}, {"title": "u", "caption": caption}]}
    with pytest.raises(ScenarioError) as err:
        loads_scenario(json.dumps(data))
    assert any(line.startswith("<scenario>: steps[1].caption: ") and message in line
               for line in err.value.lines())


def test_notes_load_and_save_and_must_be_text():
    from gpuviz.scenario import dumps_scenario

    s = loads_scenario('{"version": 1, "steps": [{"title": "t", "notes": "ask the room"}]}')
    assert s.steps[0].notes == "ask the room"
    assert json.loads(dumps_scenario(s))["steps"][0]["notes"] == "ask the room"
    with pytest.raises(ScenarioError) as err:
        loads_scenario('{"version": 1, "steps": [{"title": "t", "notes": 3}]}')
    assert "steps[0].notes: expected a string" in str(err.value)
