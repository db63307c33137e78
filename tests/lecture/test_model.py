"""The lecture model: one answer per step, whatever the surface or the path to it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpuviz.export.lecture import lecture_pages
from gpuviz.keys import frame_of
from gpuviz.lecture import VEIL_HIDES, Lecture, show
from gpuviz.scenario import bundled_scenarios, load_scenario


def _bundled(name: str):
    return load_scenario(next(p for p in bundled_scenarios() if p.stem == name))


def test_a_step_shows_the_frame_it_names_and_the_overview_the_last():
    lecture = Lecture(_bundled("traversal-grouped"))
    named = [frame_of(s.select) for s in lecture.scenario.steps]
    assert named[:2] == [1, 6]
    for k, frame in enumerate(named):
        shown = show(lecture, k, "window")
        assert shown.panel("traversal").frame == frame
        assert frame_of(shown.selection_for("traversal")) == frame
    assert show(lecture, -1).panel("traversal").frame is None  # the end, as exports draw it


def test_the_clock_moves_the_live_frame_only():
    lecture = Lecture(_bundled("reduction-warp-shfl-down")).at(0).with_frame(3)
    pid = show(lecture).panel_ids[0]
    assert show(lecture, 0, "window").panel(pid).frame == 3
    assert show(lecture, 0, "export").panel(pid).frame == frame_of(lecture.scenario.steps[0].select)
    assert lecture.at(1).at(0).frame is None  # back at the step: its own frame again


def test_a_step_shows_the_same_wherever_it_is_reached_from():
    lecture = Lecture(_bundled("linked-launch-sectors"))
    n = len(lecture.scenario.steps)
    paths = [list(range(n)), list(range(n - 1, -1, -1)), [n - 1, 0, n - 2, 1]]
    seen: dict[int, set] = {}
    for path in paths:
        at = lecture
        for k in path:
            at = at.at(k)
            shown = show(at)
            seen.setdefault(k, set()).add((shown.panel_ids, shown.selection,
                                           tuple(p.parts for p in shown.panels)))
    assert all(len(v) == 1 for v in seen.values()), seen


def test_focus_comes_first_and_a_focus_outside_the_lecture_panels_is_shown():
    scenario = _bundled("linked-launch-sectors")
    step = replace(scenario.steps[0], focus="sectors")
    lecture = Lecture(replace(scenario, panels=("launch",), steps=(step,)))
    assert show(lecture, 0, "handout").panel_ids == ("sectors",)
    assert lecture_pages(lecture.scenario)[1].panels == ("sectors",)


def test_a_veiled_step_hides_what_gives_the_answer_until_revealed():
    lecture = Lecture(_bundled("banks-padded33")).at(1)
    shown = show(lecture)
    assert shown.veiled and shown.question
    assert set(shown.hides) == set(VEIL_HIDES)
    assert shown.hidden("measured") and shown.hidden("strips")
    revealed = show(lecture.reveal())
    assert not revealed.veiled and revealed.hides == ()
    # a rehearsal veils it again; the export asks every question
    assert show(lecture.reveal().veil_all()).veiled
    assert show(lecture.reveal(), 1, "html").veiled is False
    assert show(Lecture(lecture.scenario), 1, "html").veiled


def test_an_edit_keeps_the_step_its_parts_and_pages():
    lecture = Lecture(_bundled("banks-padded33")).at(1).with_page("banks", 1)
    edited = lecture.with_scenario(replace(lecture.scenario, title="Edited"))
    assert edited.step == 1 and edited.pages["banks"] == 1
    assert show(edited).parts("banks") == show(lecture).parts("banks") == ("rack", "receipt")


def test_panels_shown_while_authoring_are_the_lectures_and_undo_is_a_stack():
    lecture = Lecture(_bundled("banks-stride1"))
    history = [lecture]
    history.append(history[-1].with_panels(("banks", "sectors")))
    assert show(history[-1], -1).panel_ids == ("banks", "sectors")
    history.pop()
    assert show(history[-1], -1).panel_ids == lecture.scenario.panels


def test_the_caption_is_stale_after_an_edit():
    scenario = _bundled("banks-stride1")
    lecture = Lecture(scenario, saved=scenario).at(0)
    assert show(lecture).stale == ""
    first = next(iter(scenario.at_step(0).sections))
    section = scenario.at_step(0).section(first)
    field = next(f for f, v in vars(section).items() if isinstance(v, int) and not isinstance(v, bool))
    changed = replace(scenario, sections={**scenario.sections,
                                         first: replace(section, **{field: getattr(section, field) + 1})})
    assert show(replace(lecture, scenario=changed)).stale == "edited since saved"
    at_overview = replace(Lecture(changed), edited_from=0)
    assert show(at_overview).stale == "edited since step 1"
    assert show(at_overview, -1, "export").stale == ""


def test_every_bundled_step_has_one_answer_for_the_exports():
    for path in bundled_scenarios():
        scenario = load_scenario(path)
        lecture = Lecture(scenario)
        for page in lecture_pages(scenario)[1:]:
            shown = show(lecture, page.number - 1, "deck")
            assert page.panels == shown.panel_ids and page.selection == shown.selection
            assert page.caption == shown.caption and page.question == shown.question


def test_an_unknown_surface_is_refused():
    with pytest.raises(ValueError, match="surface"):
        show(Lecture(_bundled("banks-stride1")), 0, "poster")  # type: ignore[arg-type]


def test_shown_selection_and_question_are_shows_answer_for_every_bundled_step():
    from gpuviz.lecture import shown_question, shown_selection
    from gpuviz.scenario import bundled_scenarios, load_scenario

    for path in bundled_scenarios():
        lecture = Lecture(load_scenario(path))
        for k in range(-1, lecture.steps):
            shown = show(lecture, k, "export")
            assert shown_question(lecture, k) == shown.question, (path.stem, k)
            for pid in shown.panel_ids:
                assert shown_selection(lecture, k, pid) == shown.selection_for(pid), \
                    (path.stem, k, pid)
        at = lecture.at(0).with_frame(0)  # live: the lecture's own frame at its step
        pid = show(at, 0, "window").panel_ids[0]
        assert shown_selection(at, 0, pid, "window") == show(at, 0, "window").selection_for(pid)


def test_the_overview_of_a_question_about_its_picture_is_veiled_until_answered(scenario_path):
    """sectors-shifted asks at step 1 how many sectors the overview's own picture fetches:
    the overview showed the five sectors before the question was asked."""
    from gpuviz.lecture import asked_ahead

    lecture = Lecture(load_scenario(scenario_path("sectors-shifted.json")))
    assert asked_ahead(lecture) == (0,)
    overview = show(lecture, -1)
    assert overview.veiled and overview.question == "" and overview.asked_ahead == (0,)
    assert overview.hidden("figure") and overview.hidden("measured")
    assert overview.hidden("description")
    assert show(lecture, -1, "present").veiled
    assert not show(lecture, -1, "export").veiled, "a file shows the lecture as written"
    answered = lecture.at(0).reveal().at(-1)
    assert not show(answered, -1).veiled and show(answered, -1).asked_ahead == ()
    assert show(answered.veil_all(), -1).veiled
    # a question about a picture of its own (another state) leaves the overview alone
    other = Lecture(load_scenario(scenario_path("occupancy-register-cliff.json")))
    assert other.asks(1) and asked_ahead(other) == () and not show(other, -1).veiled
