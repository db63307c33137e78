"""A single step's export works out that step alone: ``gpuviz export --step K``,
``--steps A-B`` and ``api.Lecture.figure(step=K)`` run the model for the states they write,
never for the overview's, whose caption (live values in the lecture's description) no file of
theirs carries. Counted on the real call path of the models (``registry.Panel.compute``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from gpuviz import api, cli
from gpuviz.registry import Panel
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.scenario.compute import compute_cached, effective_params


@pytest.fixture
def lecture(tmp_path):
    """banks-padded33 with live values in its description and a caption: the overview (row
    width 33) and step 3 (34) need different results."""
    data = json.loads((scenario_dir() / "banks-padded33.json").read_text(encoding="utf-8"))
    data["description"] = "Rounds at the start: {banks.result.rounds}."
    data["steps"][2]["caption"] = "Now {banks.result.rounds} rounds."
    path = tmp_path / "live.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def computed(monkeypatch) -> Iterator[list[tuple[str, object]]]:
    calls: list[tuple[str, object]] = []
    real = Panel.compute

    def counted(self, params):
        calls.append((self.id, params))
        return real(self, params)

    monkeypatch.setattr(Panel, "compute", counted)
    compute_cached.cache_clear()
    yield calls
    compute_cached.cache_clear()


def _banks(calls) -> list[object]:
    return [params for pid, params in calls if pid == "banks"]


def test_the_overview_and_step_3_need_different_results(lecture):
    s = load_scenario(lecture)
    assert effective_params(s.at_step(-1), "banks") != effective_params(s.at_step(2), "banks")


@pytest.mark.parametrize("how", [["--step", "3"], ["--steps", "3-3"]])
def test_a_step_export_computes_only_that_step(lecture, tmp_path, computed, how):
    step = effective_params(load_scenario(lecture).at_step(2), "banks")
    computed.clear()
    out = tmp_path / "out"
    out.mkdir()
    assert cli.main(["export", str(lecture), *how, "--format", "svg", "--out", str(out)]) == 0
    assert _banks(computed) == [step], "the overview's banks result was computed too"
    assert [f.name for f in out.glob("*.svg")] == ["live-banks-step03.svg"]  # its focus


def test_api_figure_at_a_step_computes_only_that_step(lecture, computed):
    lec = api.load(lecture)
    step = effective_params(load_scenario(lecture).at_step(2), "banks")
    computed.clear()
    lec.figure("banks", step=3)
    assert _banks(computed) == [step]


def test_the_one_page_is_the_page_the_lecture_gives(lecture):
    from gpuviz.export.lecture import lecture_page, lecture_pages

    s = load_scenario(lecture)
    for k in range(-1, len(s.steps)):
        assert lecture_page(s, k) == lecture_pages(s)[k + 1]
    assert lecture_pages(s, [1, 2], overview=False) == lecture_pages(s, [1, 2])[1:]
