"""Authoring steps without editing JSON: a new step records the difference from the step before
it, and reordering, editing and deleting steps keep the scenario loadable and exact."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpuviz.registry import PANEL_IDS
from gpuviz.scenario import ScenarioError, dumps_scenario, load_scenario, loads_scenario
from gpuviz.scenario.authoring import (
    add_step,
    check_selection,
    default_focus,
    delete_step,
    describe_changes,
    edit_step,
    move_step,
    section_changes,
)
from gpuviz.scenario.decode import encode


@pytest.fixture
def lecture(scenario_path):
    return load_scenario(scenario_path("launch-n130.json"))


def _state(s):
    return {pid: encode(s.section(pid)) for pid in PANEL_IDS}


def test_changes_are_only_the_fields_that_differ(lecture):
    before = lecture.at_step(0)
    after = before.with_section("launch", replace(before.section("launch"), n=1000, block=(128,)))
    changes = section_changes(before, after)
    assert changes == {"launch": {"n": 1000, "block": [128]}}
    assert section_changes(before, before) == {}
    assert describe_changes(changes) == ["launch.n = 1000", "launch.block = [128]"]


def test_a_new_step_reproduces_the_state_it_was_recorded_from(lecture):
    for after in range(-1, len(lecture.steps)):
        shown = lecture.at_step(after)
        shown = shown.with_section("launch", replace(shown.section("launch"), n=777))
        new, index = add_step(lecture, shown, after, "Bigger N", caption="c", predict="q?",
                              notes="say it slowly", focus="launch", select=["block:1"])
        assert index == after + 1
        assert len(new.steps) == len(lecture.steps) + 1
        assert _state(new.at_step(index)) == _state(shown)
        step = new.steps[index]
        assert (step.title, step.caption, step.predict, step.notes, step.focus, step.select) == \
            ("Bigger N", "c", "q?", "say it slowly", "launch", ("block:1",))
        assert dict(step.changes["launch"]) == {"n": 777}
        # the overview and the steps before it are untouched
        assert _state(new) == _state(lecture)
        for k in range(index):
            assert _state(new.at_step(k)) == _state(lecture.at_step(k))


def test_steps_after_an_inserted_step_build_on_it(lecture):
    shown = lecture.at_step(0)
    shown = shown.with_section("launch", replace(shown.section("launch"), n=300))
    new, index = add_step(lecture, shown, 0, "N = 300")
    # step 1 of the old lecture changed only the selected block: now on top of N = 300
    old_next, new_next = lecture.at_step(1).section("launch"), new.at_step(index + 1).section("launch")
    assert new_next == replace(old_next, n=300)


def test_an_unchanged_state_makes_a_step_without_changes(lecture):
    new, index = add_step(lecture, lecture.at_step(1), 1, "Pause here")
    assert not new.steps[index].changes
    assert _state(new.at_step(index)) == _state(lecture.at_step(1))


def test_move_then_move_back_is_the_same_lecture(lecture):
    moved = move_step(lecture, 0, 3)
    assert [s.title for s in moved.steps] == [s.title for s in lecture.steps[1:4]] + \
        [lecture.steps[0].title] + [s.title for s in lecture.steps[4:]]
    back = move_step(moved, 3, 0)
    # the texts come back as they were; the changes are rebased (a no-op change is dropped)
    assert [(s.title, s.caption, s.select) for s in back.steps] == \
        [(s.title, s.caption, s.select) for s in lecture.steps]
    assert [_state(back.at_step(k)) for k in range(len(back.steps))] == \
        [_state(lecture.at_step(k)) for k in range(len(lecture.steps))]


def test_a_moved_step_keeps_what_every_step_shows(lecture):
    # step 1 selects block 2 and the steps after it build on that; moved to the end, every
    # step still shows its own state, not its stored difference on a new predecessor
    before = {s.title: _state(lecture.at_step(k)) for k, s in enumerate(lecture.steps)}
    moved = move_step(lecture, 1, len(lecture.steps) - 1)
    assert {s.title: _state(moved.at_step(k)) for k, s in enumerate(moved.steps)} == before


def test_delete_removes_the_step_and_its_changes(lecture):
    # step 1 selects block 2; without it, step 2 keeps block 0 (from the overview)
    gone = delete_step(lecture, 1)
    assert [s.title for s in gone.steps] == [s.title for s in lecture.steps if s is not lecture.steps[1]]
    assert gone.at_step(1).section("launch").selected_block == lecture.section("launch").selected_block
    with pytest.raises(IndexError):
        delete_step(lecture, len(lecture.steps))


def test_edit_sets_and_clears_fields(lecture):
    edited = edit_step(lecture, 0, caption="", notes="point at block 0", predict="How many?")
    s = edited.steps[0]
    assert (s.caption, s.notes, s.predict, s.title) == ("", "point at block 0", "How many?",
                                                       lecture.steps[0].title)
    with pytest.raises(TypeError):
        edit_step(lecture, 0, colour="red")


def test_an_impossible_step_is_refused_with_the_loader_path(lecture):
    with pytest.raises(ScenarioError) as err:
        edit_step(lecture, 2, changes={"launch": {"warp_size": 0}})
    assert any(p.path.startswith("steps[2].changes.launch.warp_size") for p in err.value.problems)


def test_notes_survive_saving_and_loading(lecture):
    new, index = add_step(lecture, lecture.at_step(0), 0, "t", notes="only for the presenter")
    again = loads_scenario(dumps_scenario(new))
    assert again.steps[index].notes == "only for the presenter"
    assert again.steps == new.steps


def test_focus_and_selection_helpers():
    assert default_focus({"launch": {"n": 3}}, "sectors") == "launch"
    assert default_focus({"launch": {}, "sectors": {}}, "sectors") == "sectors"
    assert check_selection(["lane:3", "block:2,1", "Bad Key", "frame:"]) == ["Bad Key"]
