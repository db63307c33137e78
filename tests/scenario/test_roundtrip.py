"""Scenario round trip, atomic save, schema and steps."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from gpuviz.atomic import write_atomic
from gpuviz.registry import PANELS
from gpuviz.scenario import (
    Scenario,
    bundled_scenarios,
    dumps_scenario,
    load_scenario,
    loads_scenario,
    save_scenario,
    scenario_schema,
)


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.name)
def test_every_bundled_scenario_survives_save_and_load(path, tmp_path):
    s = load_scenario(path)
    out = tmp_path / path.name
    save_scenario(s, out)
    again = load_scenario(out)
    assert again.sections == s.sections
    assert again.steps == s.steps
    assert (again.title, again.arch, again.panels) == (s.title, s.arch, s.panels)
    for k in range(len(s.steps)):
        assert again.at_step(k).sections == s.at_step(k).sections
    assert dumps_scenario(again) == dumps_scenario(s)
    # a copy with other steps or sections derives its own step states, as the loader does
    copied = replace(s, title="copied")
    assert [copied.at_step(k).sections for k in range(len(s.steps))] == \
        [s.at_step(k).sections for k in range(len(s.steps))]


def test_save_is_atomic_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "s.json"
    target.write_text("original")
    s = Scenario(title="new")
    save_scenario(s, target)
    assert json.loads(target.read_text())["title"] == "new"
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


def test_a_failed_write_keeps_the_original(tmp_path, monkeypatch):
    target = tmp_path / "s.json"
    target.write_text("original")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("gpuviz.atomic.os.fsync", disk_full)
    with pytest.raises(OSError):
        write_atomic(target, b'{"version": 1}')
    assert target.read_text() == "original"
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


def test_saved_file_is_readable_by_others(tmp_path):
    target = tmp_path / "s.json"
    save_scenario(Scenario(), target)
    assert os.stat(target).st_mode & 0o044


def test_steps_accumulate_changes():
    s = loads_scenario(json.dumps({
        "version": 1, "launch": {"n": 130},
        "steps": [{"title": "a", "changes": {"launch": {"selected_block": 2}}},
                  {"title": "b", "changes": {"launch": {"selected_warp": 1}}}]}))
    assert s.at_step(-1).section("launch").selected_block == 0
    assert s.at_step(0).section("launch").selected_block == 2
    after = s.at_step(1).section("launch")
    assert (after.selected_block, after.selected_warp, after.n) == (2, 1, 130)


def test_absent_section_means_defaults():
    s = loads_scenario('{"version": 1}')
    assert s.section("launch") == PANELS[0].params_type()
    assert s.panels == ("launch",)


def test_schema_covers_every_panel_and_forbids_unknown_keys():
    schema = scenario_schema()
    assert schema["additionalProperties"] is False
    for p in PANELS:
        section = schema["properties"][p.id]
        assert section["additionalProperties"] is False
        assert section["properties"], p.id


def test_schema_agrees_with_bundled_scenarios():
    """Every key a bundled scenario uses is in the schema, with a matching JSON type."""
    schema = scenario_schema()

    def check(value, node, path):
        if "anyOf" in node:
            if value is None:
                return
            node = node["anyOf"][0]
        kind = node.get("type")
        if kind == "object":
            assert isinstance(value, dict), path
            props = node.get("properties")
            for k, v in value.items():
                if props is not None:
                    assert k in props, f"{path}.{k} not in schema"
                    check(v, props[k], f"{path}.{k}")
        elif kind == "array":
            assert isinstance(value, list), path
            for i, v in enumerate(value):
                check(v, node["items"], f"{path}[{i}]")
        elif kind == "integer":
            assert isinstance(value, int) and not isinstance(value, bool), path
        elif kind == "number":
            assert isinstance(value, (int, float)), path
        elif kind == "string":
            assert isinstance(value, str), path
        elif kind == "boolean":
            assert isinstance(value, bool), path
        if "enum" in node:
            assert value in node["enum"], path

    for path in bundled_scenarios():
        check(json.loads(path.read_text()), schema, path.name)


def test_shipped_schema_file_matches_the_generated_schema():
    from importlib import resources

    shipped = resources.files("gpuviz.resources") / "scenario.schema.json"
    assert json.loads(shipped.read_text()) == json.loads(json.dumps(scenario_schema())), (
        "run `make schema` to regenerate resources/scenario.schema.json")


def test_with_section_replaces_one_panel_only():
    s = load_scenario(bundled_scenarios()[0])
    p = s.section("launch")
    t = s.with_section("launch", replace(p, n=7))
    assert t.section("launch").n == 7
    assert s.section("launch") == p
