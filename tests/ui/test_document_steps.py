"""What the application shows at each step is what the file it saves shows at that step, after
an edit made while a step was shown."""

from __future__ import annotations

import dataclasses

from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.ui.document import Document


def _states(scenario) -> list:
    return [dict(scenario.at_step(k).sections) for k in range(-1, len(scenario.steps))]


def test_an_edit_at_a_step_shows_every_step_as_the_saved_file_does(qapp, tmp_path):
    doc = Document(load_scenario(scenario_dir() / "barrier-early-return.json"))
    assert doc.shown.section("barrier").threads == 4
    doc.go_to_step(1)
    barrier = doc.shown.section("barrier")
    doc.edit_section("barrier", dataclasses.replace(barrier, threads=5))
    walked = []
    for k in range(-1, len(doc.scenario.steps)):
        doc.go_to_step(k)
        walked.append(dict(doc.shown.sections))
    assert walked[1]["barrier"].threads == 5  # step 0 on top of the edited scenario
    doc.save(tmp_path / "edited.json")
    assert _states(load_scenario(tmp_path / "edited.json")) == walked
