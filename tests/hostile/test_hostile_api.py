"""The Python API checks what it is given as the command line does (class 10 of the third
hardening round): a wrong argument raises TypeError or ValueError naming it, never iterates a
string, never takes True for step 1; its messages name the call, not ``<script>``."""

from __future__ import annotations

import os

import pytest

import gpuviz.api as gv

LECTURE = gv.load("sectors-stride8")

WRONG = {
    "select-a-string": (lambda: LECTURE.figure(select="lane:3"), TypeError, "select="),
    "select-an-int": (lambda: LECTURE.figure(select=[3]), TypeError, "select:"),
    "select-not-a-key": (lambda: LECTURE.figure(select=["lane 3"]), ValueError, "select 'lane 3'"),
    "select-too-many": (lambda: LECTURE.figure(select=[f"lane:{i}" for i in range(5000)]),
                        ValueError, "select is given"),
    "step-true": (lambda: LECTURE.figure(step=True), TypeError, "step=True"),
    "at-step-true": (lambda: LECTURE.at_step(True), TypeError, "step=True"),
    "at-step-float": (lambda: LECTURE.at_step(1.0), TypeError, "step=1.0"),
    "theme": (lambda: LECTURE.figure(theme="neon"), ValueError, "theme 'neon'"),
    "size": (lambda: LECTURE.figure(size="huge"), ValueError, "size 'huge'"),
    "panel": (lambda: LECTURE.figure("banks"), ValueError, "panel 'banks'"),
    "scenario-setting": (lambda: gv.scenario("banks", padding=0), gv.ScenarioError,
                         "scenario('banks'): banks.padding"),
    "with-params-setting": (lambda: LECTURE.with_params("sectors", nope=1), gv.ScenarioError,
                            "with_params('sectors'): sectors.nope"),
}


@pytest.mark.parametrize("case", WRONG, ids=list(WRONG))
def test_a_wrong_argument_is_named(case):
    call, error, says = WRONG[case]
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(says), str(raised.value)
    assert "<script>" not in str(raised.value)


def test_scenario_error_is_exported():
    assert "ScenarioError" in gv.__all__ and issubclass(gv.ScenarioError, Exception)


def test_the_docstring_example_runs(tmp_path, monkeypatch):
    """The example ``help(gpuviz.api)`` prints, line by line, in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    lines = [line.split("  #")[0].strip() for line in gv.__doc__.splitlines()
             if line.startswith("    ")]
    code = "\n".join(line for line in lines if line and line != "fig")
    exec(code, {"__name__": "example"})
    assert sorted(os.listdir(tmp_path)) == ["banks.pdf", "handout.pdf", "lecture.html",
                                           "lecture.pptx"]
