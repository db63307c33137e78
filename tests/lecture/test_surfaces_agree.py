"""Every surface that writes or hands out a step asks the lecture model (``gpuviz.lecture.show``)
what it shows: ``gpuviz export --all-steps`` and ``--step K`` write each step's own panels,
parts and selection, the Python API's ``figure(step=k)`` is ``at_step(k).figure()``, and no
module outside the model works a step's parts, selection or question out again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gpuviz
import gpuviz.api as gv
from gpuviz.cli import main
from gpuviz.lecture import Lecture, show
from gpuviz.registry import panel
from gpuviz.scenario import bundled_scenarios, load_scenario
from gpuviz.scenario.bundled import scenario_dir

# what decides a step's panels, parts, selection and question: the model reads these of the
# scenario, and every surface asks the model
STEP_READERS = re.compile(r"\.step_parts\(|\.step_selection\(|format_fields\(.*predict")
# the model itself, the scenario that defines them, and the lint sweep (the figures layer,
# which checks every state a step can reach and cannot import the model above it)
OWNERS = ("lecture/", "scenario/", "figures/lint_sweep.py")


def test_no_surface_works_out_what_a_step_shows_again():
    root = Path(gpuviz.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(OWNERS):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if STEP_READERS.search(line) and not line.lstrip().startswith("#"):
                found.append(f"gpuviz/{rel}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def _written(out: Path) -> dict[int, set[str]]:
    """{step (1-based): the panels of its files} of an --all-steps folder."""
    steps: dict[int, set[str]] = {}
    for f in out.glob("*-step*.svg"):
        m = re.match(r".+?-(\w+)-step(\d+)\.svg$", f.name)
        assert m, f.name
        steps.setdefault(int(m.group(2)), set()).add(m.group(1))
    return steps


@pytest.mark.parametrize("name", ["linked-launch-sectors", "banks-swizzled-columns"])
def test_all_steps_writes_the_panels_each_step_shows(name, tmp_path, capsys):
    path = scenario_dir() / f"{name}.json"
    lecture = Lecture(load_scenario(path))
    assert main(["export", str(path), "--all-steps", "--out", str(tmp_path)]) == 0
    written = _written(tmp_path)
    want = {k + 1: set(show(lecture, k, "export").panel_ids) for k in range(lecture.steps)}
    assert written == want
    assert any(len(p) < len(lecture.scenario.panels) for p in want.values())


def test_one_step_writes_the_panels_it_shows_and_panel_asks_for_another(tmp_path, capsys):
    path = scenario_dir() / "linked-launch-sectors.json"
    assert main(["export", str(path), "--step", "1", "--out", str(tmp_path / "a")]) == 0
    assert [f.name for f in (tmp_path / "a").iterdir()] == \
        ["linked-launch-sectors-sectors-step01.svg"]
    assert main(["export", str(path), "--step", "1", "--panel", "launch",
                 "--out", str(tmp_path / "b")]) == 0
    assert [f.name for f in (tmp_path / "b").iterdir()] == \
        ["linked-launch-sectors-launch-step01.svg"]


def test_every_bundled_step_hands_the_api_the_models_answer():
    for path in bundled_scenarios():
        scenario = load_scenario(path)
        lecture, api = Lecture(scenario), gv.load(path)
        for k in range(-1, len(scenario.steps)):
            want, got = show(lecture, k, "api"), api.at_step(k + 1).shown
            assert got is not None
            assert (got.panel_ids, [p.parts for p in got.panels], got.selection, got.veiled,
                    got.title, got.question, got.caption) == \
                (want.panel_ids, [p.parts for p in want.panels], want.selection,
                 want.veiled, want.title, want.question, want.caption), (path.stem, k)


@pytest.mark.parametrize("name, step", [("traversal-grouped", 3), ("traversal-grouped", 1)])
def test_figure_at_a_step_is_the_steps_figure(name, step):
    lecture = gv.load(name)
    at = lecture.at_step(step)
    assert lecture.figure(step=step).svg() == at.figure().svg()
    shown = at.shown
    assert shown is not None
    pid = shown.panel_ids[0]
    assert lecture.figure(step=step).figure.parts == (shown.parts(pid) or panel(pid).parts)
