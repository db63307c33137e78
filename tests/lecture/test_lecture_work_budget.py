"""A lecture export's budget is work (the items its figures draw), not time: the same file is
accepted or refused alike however slow the machine or its load."""

from __future__ import annotations

import itertools
import time

import pytest

from gpuviz.cli import main
from gpuviz.export import lecture
from gpuviz.figures.scene import built_items, drawn_items, figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIO = "occupancy-register-cliff.json"


def _drawn(fmt: str, tmp_path) -> int:
    before = built_items()
    assert main(["export", str(scenario_dir() / SCENARIO), "--format", fmt, "--all-steps",
                 "--out", str(tmp_path)]) == 0
    return built_items() - before


@pytest.mark.parametrize("fmt", ["html", "pptx", "pdf"])
def test_a_slow_clock_does_not_refuse_a_lecture(tmp_path, fmt, monkeypatch):
    # every reading of the interval clocks an hour after the last: a machine under any load
    hours = itertools.count(0.0, 3600.0)
    for name in ("monotonic", "perf_counter", "process_time"):
        monkeypatch.setattr(time, name, lambda: next(hours))
    _drawn(fmt, tmp_path)
    assert len(list(tmp_path.iterdir())) == 1


def test_the_budget_refuses_by_the_items_drawn(tmp_path, capsys, monkeypatch):
    drawn = _drawn("html", tmp_path / "whole")
    assert 0 < drawn < lecture.MAX_LECTURE_ITEMS
    monkeypatch.setattr(lecture, "MAX_LECTURE_ITEMS", drawn // 3)
    out = tmp_path / "refused"
    assert main(["export", str(scenario_dir() / SCENARIO), "--format", "html", "--all-steps",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"the limit is {drawn // 3:,}" in err or f"drew over {drawn // 3:,}" in err
    assert not out.exists() or list(out.iterdir()) == []


def test_drawn_items_count_a_batch_by_its_rows():
    scenario = load_scenario(scenario_dir() / "launch-2d-block.json")
    figure = figure_for(scenario, "launch", theme("print"))
    from gpuviz.figures.display import Group, Rects, Segments, walk

    shapes = [i for i in walk(figure.items) if not isinstance(i, Group)]
    rows = sum(len(i.xywh) if isinstance(i, Rects) else len(i.xyxy) if isinstance(i, Segments)
               else 1 for i in shapes)
    assert drawn_items(figure.items) == rows > len(figure.items)


def _long_lecture(tmp_path) -> str:
    """The bundled lecture's steps three times over: steps of unlike work, in a long file."""
    import json
    import re

    raw = json.loads((scenario_dir() / SCENARIO).read_text(encoding="utf-8"))
    raw["steps"] = raw["steps"] * 3
    path = tmp_path / "long.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert re.search(r"\d", path.read_text(encoding="utf-8"))
    return str(path)


@pytest.mark.parametrize("fmt", ["pptx", "html", "pdf"])
def test_the_steps_a_refusal_suggests_are_accepted(tmp_path, capsys, monkeypatch, fmt):
    import re

    path = _long_lecture(tmp_path)
    before = built_items()
    assert main(["export", path, "--format", fmt, "--all-steps", "--out",
                 str(tmp_path / "whole")]) == 0
    drawn = built_items() - before
    monkeypatch.setattr(lecture, "MAX_LECTURE_ITEMS", drawn // 3)
    capsys.readouterr()
    assert main(["export", path, "--format", fmt, "--all-steps", "--out",
                 str(tmp_path / "refused")]) == 2
    suggested = re.search(r"--steps (\d+-\d+)", capsys.readouterr().err)
    assert suggested, "the refusal suggests a range of steps"
    first, last = map(int, suggested.group(1).split("-"))
    assert last - first + 1 >= 2, "the suggestion is more than one step"
    out = tmp_path / "suggested"
    assert main(["export", path, "--format", fmt, "--steps", suggested.group(1), "--out",
                 str(out)]) == 0, capsys.readouterr().err
    assert len(list(out.iterdir())) == 1
