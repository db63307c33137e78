"""``gpuviz export --part/--chrome`` and ``gpuviz list --parts``, as a user runs them (in
process: the command line's own entry point)."""

from __future__ import annotations

import json

from gpuviz.cli import main
from gpuviz.registry import PANELS
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def test_list_parts_prints_one_panel_part_pair_a_line(capsys):
    assert main(["list", "--parts"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{p.id} {part}" for p in PANELS for part in p.parts]
    assert main(["list"]) == 0
    assert "parts: map, receipt, sweep" in capsys.readouterr().out


def test_an_unknown_part_exits_2_naming_the_panels_parts(tmp_path, capsys):
    status = main(["export", str(SCENARIOS / "banks-stride1.json"), "--out", str(tmp_path),
                   "--part", "rack", "--part", "queue"])
    assert status == 2
    err = capsys.readouterr().err
    assert "'queue'" in err and "lanes, rack, receipt" in err
    assert not list(tmp_path.iterdir())


def test_a_part_this_scenario_does_not_draw_exits_2(tmp_path, capsys):
    status = main(["export", str(SCENARIOS / "reduction-xor-butterfly.json"), "--out",
                   str(tmp_path), "--part", "block"])
    assert status == 2
    assert "it draws: tree" in capsys.readouterr().err


def test_parts_and_chrome_are_exported_in_order_and_named_in_the_file(tmp_path, capsys):
    status = main(["export", str(SCENARIOS / "sectors-stride8.json"), "--out", str(tmp_path),
                   "--part", "sweep", "--part", "map", "--chrome", "none", "--size", "double"])
    assert status == 0, capsys.readouterr().err
    path = tmp_path / "sectors-stride8-sectors-sweep-map.svg"
    svg = path.read_text(encoding="utf-8")
    assert 'parts="sweep map"' in svg and 'chrome="none"' in svg
    assert "touches" not in svg.split("</desc>")[1]  # the title ("… touches N sectors") is chrome
    assert svg.index("stride") < svg.index('data-key="lane:0"')  # the sweep first, then the map


def test_a_steps_parts_are_what_its_export_shows(tmp_path, capsys):
    doc = json.loads((SCENARIOS / "sectors-stride8.json").read_text(encoding="utf-8"))
    doc["steps"] = [{"title": "the sweep alone", "parts": ["sweep"]}]
    source = tmp_path / "lecture.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["export", str(source), "--all-steps", "--out", str(tmp_path / "out")]) == 0
    svg = (tmp_path / "out" / "lecture-sectors-step01.svg").read_text(encoding="utf-8")
    assert 'parts="sweep"' in svg and 'data-key="lane:0"' not in svg


def test_the_whole_gemm_dashboard_at_single_column_is_written_a_page_a_file(tmp_path, capsys):
    """The whole figure at a size whose budget it misses exited 2 ("Parts that fit: …"); the
    obvious command now writes the pages that meet the budget, one file each, as --all-steps
    does, and says so; each page meets the budget alone."""
    from gpuviz.figures.budget import over_budget
    from gpuviz.figures.layout import TARGETS
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import SCREEN
    from gpuviz.scenario import load_scenario

    source = SCENARIOS / "gemm-walkthrough.json"
    status = main(["export", str(source), "--out", str(tmp_path), "--size", "single"])
    assert status == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) >= 2 and f"page 1 of {len(names)}: the whole figure misses" in out
    drawn = [p for n in names for p in n[len("gemm-walkthrough-gemm-"):-len(".svg")].split("-")]
    assert sorted(drawn) == sorted(["walkthrough", "owners", "counts", "intensity"])  # each once
    loaded = load_scenario(source)
    scenario = loaded[0] if isinstance(loaded, tuple) else loaded
    for n in names:
        parts = n[len("gemm-walkthrough-gemm-"):-len(".svg")].split("-")
        figure = figure_for(scenario, "gemm", SCREEN, frozenset(),
                            TARGETS["single"].showing(parts))
        assert not over_budget(figure, TARGETS["single"]), n


def test_a_whole_figure_at_slide_size_is_written_as_its_pages(tmp_path, capsys):
    """`--size slide` on a whole figure exited 2 for 39 of the 55 bundled scenarios."""
    assert main(["export", str(SCENARIOS / "traversal-grouped.json"), "--out", str(tmp_path),
                 "--size", "slide", "--format", "svg"]) == 0
    # on the slide's title-safe grid the two plots take a slide each (their body box is the
    # slide's less its margins, title and caption bands)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "traversal-grouped-traversal-loads.svg",
        "traversal-grouped-traversal-path-resident.svg",
        "traversal-grouped-traversal-sweep.svg"]
    assert main(["export", str(SCENARIOS / "traversal-grouped.json"), "--out",
                 str(tmp_path / "asked"), "--size", "slide", "--part", "path", "--part",
                 "resident", "--part", "loads", "--part", "sweep"]) == 2  # asked: as asked


def test_every_step_of_a_lecture_exports_as_slides_a_page_a_file_where_whole_misses_it(
        tmp_path, capsys):
    """--all-steps --size slide refused the whole lecture ("nothing was written") where one
    step's whole figure missed the slide's 20 px (23 of 52 bundled lectures, gemm-walkthrough
    among them). Such a step is now written a page of parts a file, each within the budget,
    as presentation mode shows it; a step whose parts fit is one file, as before; parts asked
    for with --part are still written as asked, or refused."""
    source = SCENARIOS / "gemm-walkthrough.json"
    out = tmp_path / "out"
    assert main(["export", str(source), "--all-steps", "--size", "slide", "--theme",
                 "presentation", "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    step1 = [n for n in names if n.endswith("-step01.svg")]
    assert len(step1) >= 2 and all(n.startswith("gemm-walkthrough-gemm-") for n in step1)
    drawn = [p for n in step1 for p in n[len("gemm-walkthrough-gemm-"):-len("-step01.svg")]
             .split("-")]
    assert sorted(drawn) == sorted(["walkthrough", "owners", "counts", "intensity"])  # each once
    assert "gemm-walkthrough-gemm-step04.svg" in names  # a step's own part: one file
    for n in step1:
        svg = (out / n).read_text(encoding="utf-8")
        assert 'parts="' in svg
    capsys.readouterr()
    assert main(["export", str(source), "--all-steps", "--size", "slide", "--part", "owners",
                 "--part", "intensity", "--part", "walkthrough", "--out",
                 str(tmp_path / "asked")]) == 2


def test_every_export_carries_a_one_sentence_alt_text(tmp_path, capsys):
    assert main(["export", str(SCENARIOS / "banks-stride1.json"), "--out", str(tmp_path),
                 "--part", "rack", "--format", "svg"]) == 0
    svg = (tmp_path / "banks-stride1-banks-rack.svg").read_text(encoding="utf-8")
    desc = svg.split("<desc>")[1].split("</desc>")[0]
    assert desc.startswith("The rack part of the shared-memory banks serving 32 lanes")
    assert "in 1 round:" in desc and desc.endswith(".") and desc.count(". ") == 0
