"""Bad scenario files: one clear message naming the file and the JSON path, never a traceback."""

from __future__ import annotations

import pytest

from gpuviz.scenario import ScenarioError, load_scenario, loads_scenario


def problems_of(text, source="bad.json"):
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text if isinstance(text, bytes) else text.encode("utf-8"), source)
    return info.value.lines()


def test_malformed_json_names_line_and_column():
    lines = problems_of('{\n  "version": 1,\n  "title": "x"\n  "launch": {}\n}')
    assert lines == ["bad.json: line 4, column 3: this is not valid JSON: Expecting ',' delimiter"]


def test_empty_file():
    (line,) = problems_of("   \n")
    assert line.startswith("bad.json: $: the file is empty")


def test_not_utf8():
    (line,) = problems_of(b'{"version": 1, "title": "caf\xe9"}')
    assert line == "bad.json: $: the file is not UTF-8 text (byte 0xe9 at offset 28)"


def test_top_level_not_an_object():
    assert problems_of("[1, 2]") == ["bad.json: $: a scenario is a JSON object, got a list of 2"]


def test_missing_version():
    (line,) = problems_of('{"title": "x"}')
    assert line.startswith("bad.json: version: missing")


def test_newer_version_asks_for_an_update():
    (line,) = problems_of('{"version": 7}')
    assert line.startswith("bad.json: version: this scenario uses format version 7, newer")
    assert "update gpuviz" in line


def test_wrong_type_names_the_path():
    lines = problems_of('{"version": 1, "launch": {"n": "130"}}')
    assert lines == ['bad.json: launch.n: expected a whole number, got the string "130"']


def test_unknown_key_suggests_the_right_one():
    lines = problems_of('{"version": 1, "launch": {"blok": [64]}}')
    assert lines[0].startswith("bad.json: launch.blok: unknown setting; did you mean 'block'?")


def test_unknown_top_level_section_suggests_the_panel():
    lines = problems_of('{"version": 1, "lanch": {}}')
    assert lines[0].startswith("bad.json: lanch: unknown key; did you mean 'launch'?")


def test_negative_size():
    assert problems_of('{"version": 1, "launch": {"n": -5}}') == [
        "bad.json: launch.n: must be at least 1, got -5"]


def test_block_over_1024_threads():
    assert problems_of('{"version": 1, "launch": {"block": [64, 32]}}') == [
        "bad.json: launch.block: a block holds at most 1024 threads; 64 × 32 = 2048"]


def test_zero_warp_size():
    assert problems_of('{"version": 1, "launch": {"warp_size": 0}}') == [
        "bad.json: launch.warp_size: must be one of 32, 64; got 0"]


def test_grid_whose_drawing_would_need_millions_of_items():
    (line,) = problems_of('{"version": 1, "launch": {"grid": [65536, 65535], "block": [32]}}')
    assert line.startswith("bad.json: grid: ") is False
    assert line.startswith("bad.json: launch.grid: this launch has 4,294,901,760 blocks")


def test_duplicate_key():
    assert problems_of('{"version": 1, "version": 1}') == [
        'bad.json: $: the key "version" appears twice in one object']


def test_not_a_number_constant_is_rejected():
    (line,) = problems_of('{"version": 1, "launch": {"n": NaN}}')
    assert "not valid JSON" in line


def test_every_problem_is_reported_not_only_the_first():
    lines = problems_of('{"version": 1, "titel": "x", "launch": {"n": 0, "warp_size": 48}}')
    assert len(lines) == 3
    assert {ln.split(": ")[1] for ln in lines} == {"titel", "launch.n", "launch.warp_size"}


def test_bad_step_change_names_the_step_path():
    lines = problems_of('{"version": 1, "steps": [{"title": "a"}, '
                        '{"title": "b", "changes": {"launch": {"block": [0]}}}]}')
    assert lines == ["bad.json: steps[1].changes.launch.block[0]: must be at least 1, got 0"]


def test_step_without_title_and_unknown_step_key():
    lines = problems_of('{"version": 1, "steps": [{"captoin": "x"}]}')
    assert "bad.json: steps[0].captoin: unknown step key; did you mean 'caption'?" in lines[0]
    assert lines[1] == "bad.json: steps[0].title: every step needs a title (a string)"


def test_unknown_panel_in_panels_list():
    (line,) = problems_of('{"version": 1, "panels": ["lauch"]}')
    assert line.startswith("bad.json: panels[0]: unknown panel the string \"lauch\"; did you mean 'launch'?")


def test_unknown_architecture():
    (line,) = problems_of('{"version": 1, "arch": "h100sxm"}')
    assert line.startswith("bad.json: arch: unknown architecture 'h100sxm'; did you mean 'h100-sxm'?")


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path / "nope.json")
    assert info.value.lines() == [f"{tmp_path / 'nope.json'}: $: no such file"]
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path)
    assert "folder" in info.value.lines()[0]


def test_byte_order_mark_is_accepted():
    s = loads_scenario(b'\xef\xbb\xbf{"version": 1, "title": "bom"}')
    assert s.title == "bom"


def test_a_panel_that_cannot_use_the_scenario_architecture_says_so():
    lines = problems_of('{"version": 1, "arch": "mi300x", "panels": ["occupancy"]}')
    assert lines and lines[0].startswith("bad.json: arch: the occupancy panel follows the scenario's architecture")


def test_an_empty_section_arch_follows_the_scenario():
    from gpuviz.scenario import compute_all

    s = loads_scenario(b'{"version": 1, "arch": "v100", "panels": ["occupancy"]}')
    assert compute_all(s)["occupancy"].arch == "v100"
    s = loads_scenario(b'{"version": 1, "arch": "h200", "panels": ["occupancy"], "occupancy": {"arch": "a100"}}')
    assert compute_all(s)["occupancy"].arch == "a100"


def test_predict_must_be_a_question_string():
    assert problems_of('{"version": 1, "steps": [{"title": "a", "predict": 3}]}') == [
        "bad.json: steps[0].predict: expected a question (a string), got the number 3"]
