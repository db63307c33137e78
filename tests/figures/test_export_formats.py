"""One table of export formats: a format outside it is refused before anything is written
(the raster writer used to write any unknown format as PNG)."""

from __future__ import annotations

import pytest

from gpuviz.export import formats
from gpuviz.export.files import export_figure
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_an_unknown_format_is_refused_and_nothing_is_written(tmp_path):
    scenario = load_scenario(scenario_dir() / "banks-stride1.json")
    for fmt in ("jpeg", "gif", "html"):
        with pytest.raises(ValueError, match="formats here are svg, pdf, png"):
            export_figure(scenario, "banks", tmp_path / f"banks.{fmt}", fmt=fmt)
    assert not list(tmp_path.iterdir())


def test_the_raster_writer_refuses_what_it_does_not_paint(tmp_path):
    from gpuviz.export.raster import write_raster
    from gpuviz.figures.display import Canvas

    figure = Canvas().figure(10, 10, "#FFFFFF")
    with pytest.raises(ValueError, match="formats here are pdf, png"):
        write_raster(figure, tmp_path / "x.jpeg", "jpeg")
    assert not list(tmp_path.iterdir())


def test_every_list_of_formats_is_the_table():
    from gpuviz import cli_export, cli_lecture

    assert tuple(formats.FORMATS) == cli_export.FORMATS
    assert cli_export.ANIMATED == formats.ANIMATED_FORMATS == ("gif", "apng")
    assert formats.FIGURE_FORMATS == ("svg", "pdf", "png")
    assert [f for f in formats.FORMATS if cli_lecture.is_lecture(f, False)] == ["html", "pptx"]
    assert cli_lecture.is_lecture("pdf", True) and not cli_lecture.is_lecture("svg", True)


def test_the_export_dialog_offers_the_tables_figure_and_animation_formats():
    from gpuviz.ui import export_dialog

    assert export_dialog.FORMATS == formats.FIGURE_FORMATS + formats.ANIMATED_FORMATS
    assert export_dialog.ANIMATED == formats.ANIMATED_FORMATS
