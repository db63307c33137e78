"""The Python API: the same validation and numbers as the command line, figures in every format,
and a notebook that displays a lecture and a figure, run headless."""

from __future__ import annotations

import json

import pytest

import gpuviz.api as gv
from gpuviz.cli import main
from gpuviz.scenario import ScenarioError


def test_compute_is_what_gpuviz_compute_prints(capsys, scenario_path):
    path = scenario_path("banks-padded33.json")
    assert main(["compute", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert gv.load(path).compute() == printed
    assert gv.load("banks-padded33").compute("banks") == printed["banks"]


def test_a_change_is_validated_as_a_file_is_and_nested_records_change_field_by_field():
    lecture = gv.load("banks-padded33")
    assert lecture.compute("banks")["rounds"] == 1
    unpadded = lecture.with_params("banks", pattern={"padding": 0})
    assert unpadded.compute("banks")["rounds"] == 32
    assert unpadded.params("banks")["pattern"]["row_width"] == 32, "the rest of the record kept"
    assert lecture.compute("banks")["rounds"] == 1, "a lecture is immutable"
    with pytest.raises(ScenarioError, match=r"banks\.access_bytes: must be one of"):
        lecture.with_params("banks", access_bytes=3)


def test_a_scenario_from_nothing_and_a_step_by_number():
    made = gv.scenario("occupancy", threads_per_block=256, title="256 threads")
    assert made.title == "256 threads" and made.panels == ("occupancy",)
    assert made.params("occupancy")["threads_per_block"] == 256
    lecture = gv.load("occupancy-register-cliff")
    assert lecture.at_step(2).params("occupancy")["registers_per_thread"] == 65
    with pytest.raises(IndexError):
        lecture.at_step(len(lecture.steps) + 1)


def test_figures_write_svg_pdf_and_png(tmp_path):
    fig = gv.load("banks-padded33").figure("banks", theme="print", size="single")
    assert fig.size_mm[0] == pytest.approx(85.0)
    assert fig.save(tmp_path / "f.svg").read_text(encoding="utf-8").startswith("<?xml")
    assert fig.save(tmp_path / "f.pdf").read_bytes().startswith(b"%PDF")
    assert fig.save(tmp_path / "f.png", dpi=100).read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match=r"write \.svg, \.pdf or \.png"):
        fig.save(tmp_path / "f.jpg")


def test_a_notebook_displays_a_lecture_and_a_figure(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = ["import gpuviz.api as gv\nlecture = gv.load('occupancy-register-cliff')\nlecture",
             "fig = lecture.figure('occupancy', size='single', step=2)\nfig",
             "lecture.at_step(2).compute('occupancy')['active_blocks_per_sm']"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    lecture_out, figure_out, number_out = (c.outputs[0]["data"] for c in nb.cells)
    html = lecture_out["text/html"]
    assert "<ol><li>64 registers per thread</li>" in html and "<svg" in html
    assert figure_out["image/svg+xml"].lstrip().startswith("<svg")
    expected = gv.load("occupancy-register-cliff").at_step(2).compute("occupancy")
    assert number_out["text/plain"] == repr(expected["active_blocks_per_sm"])


def test_at_step_keeps_the_steps_selection_parts_and_shows_its_words():
    import html

    from gpuviz import api
    from gpuviz.keys import frame_of

    lecture = api.load("traversal-grouped")
    first = lecture.at_step(1)
    assert first.shown is not None and first.shown.panel("traversal").frame == 1
    assert first.figure().svg() == lecture.figure(step=1).svg()  # frame 1, not the last
    assert frame_of(lecture.state.steps[0].select) == 1
    parted = api.load("banks-padded33").at_step(2)
    assert list(parted.figure().figure.parts) == list(parted.shown.parts("banks"))
    page = parted._repr_html_()
    step = api.load("banks-padded33").state.steps[1]
    assert html.escape(step.title) in page and "Predict:" in page
    assert html.escape(parted.shown.question) in page and html.escape(parted.shown.caption) in page
