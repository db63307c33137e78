"""Text that travels: the fallback face draws what the shipped faces lack (as text, as outlines,
and in the measurements), SVG can embed the faces it uses, and a paper's own typeface is laid
out with its own metrics."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from gpuviz.export.svg import figure_to_svg
from gpuviz.export.svg_fonts import subset_face
from gpuviz.export.text_paths import text_path_data
from gpuviz.figures.display import PT_TO_MM, Figure, Text
from gpuviz.figures.lint import lint
from gpuviz.figures.metrics import FALLBACK_FILE, face, text_width, use_typeface
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SINGLE
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SWIZZLE = load_scenario(scenario_dir() / "swizzle-column3.json")


def test_a_bracket_inter_lacks_is_measured_and_outlined_from_the_fallback_face():
    assert ord("⟨") not in face("sans").advances
    lent = face("sans").borrowed
    assert text_width("⟨⟩", 10.0) == (lent[ord("⟨")] + lent[ord("⟩")]) * 10.0 * PT_TO_MM
    bare, _, _, _ = text_path_data(Text(0.0, 0.0, "ab", 9.0, "#000000"))
    framed, _, _, _ = text_path_data(Text(0.0, 0.0, "⟨ab⟩", 9.0, "#000000"))
    assert framed.count("M") > bare.count("M")  # the brackets are drawn, not empty boxes


def test_svg_names_the_fallback_face_only_where_it_is_needed():
    svg = figure_to_svg(figure_for(SWIZZLE, "swizzle", theme("print")))
    families = re.findall(r'font-family="([^"]*)"[^>]*>([^<]*)<', svg)
    assert all(("Noto Sans Math" in fam) == ("⟨" in text) for fam, text in families)


def test_embedded_faces_are_subsets_that_cover_every_character_printed():
    # monospaced text with arrows only the fallback face has (Inter is subset the same way)
    fig = Figure(60.0, 20.0, "#FFFFFF", (Text(2.0, 8.0, "Swizzle ↺ 3", 9.0, "#000000",
                                              font="mono"),
                                         Text(2.0, 16.0, "P/I ↻ 16", 9.0, "#000000",
                                              font="mono", bold=True)))
    svg = figure_to_svg(fig, embed_fonts=True)
    subset = subset_face.__wrapped__  # uncached: a subset is the same bytes every time it is made
    brackets = frozenset({0x27E8, 0x27E9})
    assert subset(FALLBACK_FILE, brackets) == subset(FALLBACK_FILE, brackets)
    faces = re.findall(r"font-family: '([^']+)'; font-weight: (\w+); src: "
                       r"url\(data:font/\w+;base64,([A-Za-z0-9+/=]+)\)", svg)
    covered = {(family, weight == "bold"): set(TTFont(io.BytesIO(base64.b64decode(data)))
                                                .getBestCmap())
               for family, weight, data in faces}
    assert set(map(ord, "Swizzle3")) <= covered[("Noto Sans Mono", False)]
    assert set(map(ord, "P/I16")) <= covered[("Noto Sans Mono", True)]
    assert set(map(ord, "↺↻")) <= covered[("Noto Sans Math", False)]
    assert len(covered[("Noto Sans Math", False)]) < 10  # a subset, not the face


def test_a_papers_typeface_is_measured_and_laid_out_not_scaled():
    fonts = Path(__file__).resolve().parents[2] / "resources" / "fonts"
    wide = str(fonts / "NotoSansMono-Regular.ttf")  # a wider face than Inter
    before = figure_for(SWIZZLE, "swizzle", theme("print"), frozenset(), SINGLE.showing(["banks"]))
    inter = text_width("swizzled layout", 8.0)
    use_typeface(wide)
    try:
        assert text_width("swizzled layout", 8.0) > 1.1 * inter
        after = figure_for(SWIZZLE, "swizzle", theme("print"), frozenset(),
                           SINGLE.showing(["banks"]))
        svg = figure_to_svg(after)
        assert lint(after, SINGLE) == []
    finally:
        use_typeface(None)
    assert after.width == before.width == 85.0  # laid out again for the column, not scaled
    assert after.height > before.height  # wider text wraps onto more lines
    assert "font-family=\"'Noto Sans Mono', Inter" in svg


def test_an_svg_with_text_as_text_leaves_room_for_a_wider_fallback_face(tmp_path):
    """Opened where Inter is missing (rsvg-convert sets it in DejaVu Sans, up to 8 % wider, bold
    17 %), the text of an SVG export cannot collide: "guarantee." ran into the next heading in
    launch-n130, gemm's legend labels into the next swatch, swizzle's subtitle off the page,
    occupancy's "shared memory" into its bar, traversal's "visited tiles, first" into the
    visit-order ramp."""
    from gpuviz.export.files import export_figure
    from gpuviz.figures.lint_fallback import lint_fallback
    from gpuviz.figures.metrics import fallback_room

    for name, pid in (("launch-n130", "launch"), ("gemm-walkthrough", "gemm"),
                      ("swizzle-column3", "swizzle"),
                      # the words before the bars and the ramp's swatches, measured with room
                      ("occupancy-shared-memory", "occupancy"),
                      ("traversal-grouped", "traversal")):
        scenario = load_scenario(scenario_dir() / f"{name}.json")
        shipped = figure_for(scenario, pid, theme("print"))
        assert lint_fallback(shipped), name  # set in the shipped faces: no room left
        with fallback_room(True):
            roomy = figure_for(scenario, pid, theme("print"))
        assert not lint_fallback(roomy), name
        assert not lint(roomy), name
        export_figure(scenario, pid, tmp_path / "text.svg", theme_name="print")
        assert (tmp_path / "text.svg").read_text(encoding="utf-8") == figure_to_svg(
            roomy, metadata=_metadata(scenario, pid))
    found = {f.message for f in lint_fallback(figure_for(SWIZZLE, "swizzle", theme("print")))}
    assert any("past the" in m for m in found)  # the subtitle clipped at the page's edge


def test_gemm_owners_with_room_for_a_wider_face_keep_three_grids_in_a_column_row(tmp_path):
    """The strategies' titles break after "Shared-" where a wider face would not fit
    "Shared-memory" in a third of the column: with room, the three grids still share a row
    (they took 166 mm, stacked, where the budget is 120 mm) and the SVG is written in that
    layout, without the shipped faces' note."""
    from gpuviz.export.files import export_figure
    from gpuviz.figures.lint_fallback import lint_fallback
    from gpuviz.figures.metrics import fallback_room

    scenario = load_scenario(scenario_dir() / "gemm-walkthrough.json")
    target = SINGLE.showing(["owners"])
    with fallback_room(True):
        roomy = figure_for(scenario, "gemm", theme("print"), target=target)
    assert roomy.height <= 120.0
    assert not lint_fallback(roomy)
    assert export_figure(scenario, "gemm", tmp_path / "owners.svg", theme_name="print",
                         size="single", parts=["owners"]) == ""


def test_where_the_room_would_miss_the_budget_the_svg_keeps_the_shipped_layout(tmp_path):
    """The launch grid of 98 blocks of 1,024 threads at a single column in the presentation
    theme fits 120 mm in the shipped faces and not with room for a wider face: written as the
    PDF would be, with a note, rather than refused."""
    from gpuviz.export.files import export_figure
    from gpuviz.scenario import loads_scenario

    scenario = loads_scenario(json.dumps({"version": 1, "panels": ["launch"], "launch": {
        "n": 100000, "block": [1024]}}), "tall.json")
    note = export_figure(scenario, "launch", tmp_path / "grid.svg", theme_name="presentation",
                         size="single", parts=["grid"])
    assert "shipped faces" in note
    shipped = figure_for(scenario, "launch", theme("presentation"),
                         target=SINGLE.showing(["grid"]))
    height = re.search(r'height="([0-9.]+)mm"', (tmp_path / "grid.svg").read_text("utf-8"))
    assert height and abs(float(height.group(1)) - shipped.height) < 0.01


def test_the_python_api_writes_the_svg_the_command_line_writes(tmp_path):
    import gpuviz.api as gv
    from gpuviz.export.files import export_figure

    fig = gv.load("launch-n130").figure("launch", theme="print")
    export_figure(load_scenario(scenario_dir() / "launch-n130.json"), "launch",
                  tmp_path / "cli.svg", theme_name="print")
    assert fig.svg() == (tmp_path / "cli.svg").read_text(encoding="utf-8")
    assert fig.svg(text_as_paths=True) == figure_to_svg(fig.figure, text_as_paths=True,
                                                         metadata=fig.metadata)


def test_outlined_text_needs_no_room_and_keeps_the_shipped_layout(tmp_path):
    from gpuviz.export.files import export_figure

    export_figure(SWIZZLE, "swizzle", tmp_path / "paths.svg", theme_name="print",
                  text_as_paths=True)
    shipped = figure_for(SWIZZLE, "swizzle", theme("print"))
    height = re.search(r'height="([0-9.]+)mm"', (tmp_path / "paths.svg").read_text("utf-8"))
    assert height and abs(float(height.group(1)) - shipped.height) < 0.01


def _metadata(scenario, pid):
    from gpuviz.export.files import export_metadata

    return export_metadata(scenario, pid, "print", "natural")


def test_the_one_subsetter_keeps_the_faces_timestamps_and_licence_in_woff_too():
    """The web lecture's WOFF faces come from the subsetter the SVG faces use: the bundled
    face's timestamps kept (they were set to the time of the export, so no two exports of a
    lecture had the same bytes) and its copyright and names kept (the licence travels)."""
    from importlib import resources

    from gpuviz.export.svg_fonts import subset_bytes

    woff = TTFont(io.BytesIO(subset_bytes("Inter-Regular.otf", frozenset(map(ord, "0 1 ab")),
                                          flavor="woff")))
    with resources.as_file(resources.files("gpuviz.resources") / "fonts"
                           / "Inter-Regular.otf") as path:
        bundled = TTFont(str(path), lazy=True)
    assert woff.flavor == "woff"
    assert woff["head"].modified == bundled["head"].modified
    assert woff["name"].getDebugName(0) == bundled["name"].getDebugName(0)


def test_room_for_a_fallback_face_is_left_in_the_exporting_thread_only():
    """An SVG export leaves room for a wider face while it lays out; a dock laying out on
    another thread meanwhile lays out in the shipped faces."""
    import threading

    from gpuviz.figures.metrics import fallback_room, leaves_room, room_width, text_width

    seen = []
    with fallback_room(True):
        assert leaves_room()
        worker = threading.Thread(target=lambda: seen.append(
            (leaves_room(), room_width("warp 0", 9.0) == text_width("warp 0", 9.0))))
        worker.start()
        worker.join()
    assert seen == [(False, True)] and not leaves_room()


@pytest.mark.parametrize(("name", "pid", "part"), [
    ("divergence-nested", "divergence", "stack"),  # "reconv." ran into "active lanes"
    ("reduction-block", "reduction", "tree"),  # "shared entries" into "lane"
    ("swizzle-column3", "swizzle", "banks"),  # "1 bank, 8-way" into "linear"
    ("swizzle-column3", "swizzle", "logical"),  # "column 3 goes to" off the page
    ("occupancy-block-size", "occupancy", "limits"),  # "228 blocks, axis cut" off the page
    ("scheduler-h200-dram", "scheduler", "utilisation"),  # the "6,000" tick off the page
])
def test_a_part_in_the_largest_type_leaves_room_for_a_wider_face(name, pid, part):
    from gpuviz.figures.lint_fallback import lint_fallback
    from gpuviz.figures.metrics import fallback_room

    scenario = load_scenario(scenario_dir() / f"{name}.json")
    with fallback_room(True):
        figure = figure_for(scenario, pid, theme("presentation"), frozenset(),
                            SINGLE.showing([part]))
    assert figure.parts == (part,)
    assert [str(f) for f in lint_fallback(figure)] == []


def test_a_slide_with_text_as_text_leaves_room_for_a_wider_face_and_a_view_does_not():
    from gpuviz.figures.lint_fallback import lint_fallback
    from gpuviz.figures.metrics import fallback_room
    from gpuviz.figures.targets import SLIDE, view_target

    scenario = load_scenario(scenario_dir() / "scheduler-v100-arithmetic-intensity.json")
    with fallback_room(True):  # the title ran 26 mm past the slide in a fallback face
        slide = figure_for(scenario, "scheduler", theme("presentation"), frozenset(),
                           SLIDE.showing(["utilisation"]))
        view = figure_for(scenario, "scheduler", theme("presentation"), frozenset(),
                          view_target(254.0, 16 / 9).showing(["utilisation"]))
    assert [str(f) for f in lint_fallback(slide)] == []
    with fallback_room(True):  # a plot's mark label ran into the y ticks, measured narrow
        cliff = figure_for(load_scenario(scenario_dir() / "scheduler-memory-parallelism.json"),
                           "scheduler", theme("presentation"), frozenset(), SLIDE)
    assert [str(f) for f in lint_fallback(cliff)] == []
    with fallback_room(False):  # a view is painted in the shipped faces: laid out for them
        shipped = figure_for(scenario, "scheduler", theme("presentation"), frozenset(),
                             view_target(254.0, 16 / 9).showing(["utilisation"]))
    assert figure_to_svg(view) == figure_to_svg(shipped)
