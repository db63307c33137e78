"""What a result keeps for its figure and what it says in JSON: every field has a plain name
(figures read them as data), and `gpuviz compute`'s JSON leaves out exactly the fields declared
with ``not_in_json()``."""

from __future__ import annotations

import dataclasses

import pytest

from gpuviz.models.jsonable import to_jsonable
from gpuviz.registry import PANEL_IDS
from gpuviz.scenario import bundled_scenarios, load_scenario
from gpuviz.scenario.compute import compute_all


def _results(value, depth=0):
    """Every dataclass in ``value``: itself and, through its fields, sequences (their first item)
    and mappings (their first value)."""
    if depth > 6:
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for f in dataclasses.fields(value):
            yield from _results(getattr(value, f.name), depth + 1)
    elif isinstance(value, (list, tuple)) and value:
        yield from _results(value[0], depth + 1)
    elif isinstance(value, dict) and value:
        yield from _results(next(iter(value.values())), depth + 1)


def _bundled_result(panel_id):
    for path in bundled_scenarios():
        scenario = load_scenario(path)
        if panel_id in scenario.panels:
            return compute_all(scenario, scenario.panels)[panel_id]
    pytest.fail(f"no bundled scenario shows {panel_id}")


@pytest.mark.parametrize("panel_id", PANEL_IDS)
def test_result_fields_have_plain_names_and_the_json_leaves_out_only_the_marked(panel_id):
    for obj in _results(_bundled_result(panel_id)):
        names = [f.name for f in dataclasses.fields(obj)]
        assert not [n for n in names if n.startswith("_")], (
            f"{type(obj).__name__} keeps fields under underscored names; declare them with "
            "not_in_json() instead")
        shown = {f.name for f in dataclasses.fields(obj) if f.metadata.get("json", True)}
        assert set(to_jsonable(obj)) == shown
