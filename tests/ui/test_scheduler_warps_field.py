"""The scheduler's warps field shows the warps that run: with warps per SM given, the
scheduler drawn holds ⌈W/4⌉ of them (48 per SM run 12), and the field is not editable."""

from __future__ import annotations

from dataclasses import replace


def test_warps_per_sm_sets_the_warps_field_to_what_runs(make_main_window, scenario_path,
                                                        qtbot):
    w = make_main_window(scenario_path("scheduler-h200-l1.json"))
    dock = w.docks["scheduler"]
    params = w.document.shown.section("scheduler")
    w.document.edit_section("scheduler", replace(params, warps=16, warps_per_sm=48))
    field = dock.form.editor("warps")
    qtbot.waitUntil(lambda: field.value() == 12, timeout=10000)
    assert not field.isEnabled()
    w.document.edit_section("scheduler", replace(params, warps=16, warps_per_sm=None))
    qtbot.waitUntil(field.isEnabled, timeout=10000)
    assert field.value() == 16 and w.document.shown.section("scheduler").warps == 16
