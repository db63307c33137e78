"""``gpuviz export --veiled``: a question step as the room sees it before the reveal."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gpuviz.cli import main
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import SCREEN
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

CLIFF = scenario_dir() / "occupancy-register-cliff.json"
SVG = "{http://www.w3.org/2000/svg}"


def _texts(path) -> list[str]:
    root = ET.parse(path).getroot()
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_veiled_writes_the_question_alone_and_all_steps_adds_it_before_the_answer(
        tmp_path, capsys):
    scenario = load_scenario(CLIFF)
    asking = [k for k, s in enumerate(scenario.steps) if s.predict]
    assert asking, "the register cliff asks the room a question"
    k = asking[0]
    assert main(["export", str(CLIFF), "--step", str(k + 1), "--veiled", "--out",
                 str(tmp_path / "one")]) == 0
    (veiled,) = (tmp_path / "one").glob("*.svg")
    assert veiled.name == f"occupancy-register-cliff-occupancy-step{k + 1:02d}-veiled.svg"
    shown = " ".join(_texts(veiled))
    assert scenario.steps[k].predict.split()[0] in shown
    revealed = figure_for(scenario.at_step(k), "occupancy", SCREEN, scenario.step_selection(k))
    assert not set(_texts(veiled)) & set(revealed.texts()), "a text of the answer is shown"
    desc = ET.parse(veiled).getroot().find(f"{SVG}desc")
    assert desc is not None and revealed.description not in desc.text
    # every step: the question step veiled as well as revealed
    assert main(["export", str(CLIFF), "--all-steps", "--veiled", "--out",
                 str(tmp_path / "all")]) == 0
    names = sorted(p.name for p in (tmp_path / "all").glob("*.svg"))
    assert len(names) == len(scenario.steps) + len(asking)
    stem = f"occupancy-register-cliff-occupancy-step{k + 1:02d}"
    assert {f"{stem}-veiled.svg", f"{stem}.svg"} <= set(names)
    # a step that asks nothing has no veiled picture: refused, naming the steps that ask
    other = next(i for i in range(len(scenario.steps)) if i not in asking)
    capsys.readouterr()
    assert main(["export", str(CLIFF), "--step", str(other + 1), "--veiled", "--out",
                 str(tmp_path / "none")]) == 2
    assert f"steps with a question: {k + 1}" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_a_veiled_slide_is_a_clean_figure_of_the_revealed_page():
    from gpuviz.export.files import export_figure_of
    from gpuviz.export.veiled import step_question
    from gpuviz.figures.lint import lint

    scenario = load_scenario(CLIFF)
    k = next(i for i, s in enumerate(scenario.steps) if s.predict)
    shown = dict(size="slide", parts=["limits"], theme_name="dark")
    revealed, _ = export_figure_of(scenario.at_step(k), "occupancy", **shown)
    veiled, _ = export_figure_of(scenario.at_step(k), "occupancy", question=step_question(
        scenario, k), **shown)
    assert (veiled.width, veiled.height, veiled.background) == (
        revealed.width, revealed.height, revealed.background)
    assert lint(veiled) == []
