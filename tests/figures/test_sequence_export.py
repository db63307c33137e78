"""Exporting every playback frame of a panel as a numbered file sequence."""

import subprocess
import sys

from gpuviz.export.files import export_figure
from gpuviz.export.sequence import export_sequence, frame_file_name
from gpuviz.figures.scene import frame_count
from gpuviz.scenario import load_scenario


def test_file_names_are_numbered_from_one_and_sort_in_order():
    assert frame_file_name("talk", "pipeline", 0, 14, "svg") == "talk-pipeline-0001.svg"
    assert frame_file_name("talk", "barrier", 12344, 12345, "png") == "talk-barrier-12345.png"


def test_every_frame_of_the_reduction_becomes_one_svg(tmp_path, scenario_path):
    scenario = load_scenario(scenario_path("reduction-warp-shfl-down.json"))
    paths = export_sequence(scenario, "reduction", tmp_path, "tree")
    assert [p.name for p in paths] == [f"tree-reduction-{n:04d}.svg" for n in range(1, 7)]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    assert len(set(texts)) == 6  # every frame differs
    assert all(t.startswith("<?xml") or t.startswith("<svg") for t in texts)


def test_a_frame_file_equals_the_single_figure_export_of_that_frame(tmp_path, scenario_path):
    scenario = load_scenario(scenario_path("pipeline-two-ahead.json"))
    paths = export_sequence(scenario, "pipeline", tmp_path / "seq", "p",
                            selection=frozenset({"tile:2", "frame:1"}))
    assert len(paths) == frame_count(scenario, "pipeline")
    single = tmp_path / "single.svg"
    export_figure(scenario, "pipeline", single, selection=frozenset({"tile:2", "frame:3"}))
    assert paths[3].read_bytes() == single.read_bytes()


def test_sequence_export_is_byte_identical_across_runs(tmp_path, scenario_path):
    scenario = load_scenario(scenario_path("barrier-missing-second.json"))
    a = export_sequence(scenario, "barrier", tmp_path / "a", "b")
    b = export_sequence(scenario, "barrier", tmp_path / "b", "b")
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]


def test_svg_sequence_needs_no_qt(tmp_path, scenario_path):
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from gpuviz.scenario import load_scenario\n"
        "from gpuviz.export.sequence import export_sequence\n"
        f"s = load_scenario({str(scenario_path('reduction-block.json'))!r})\n"
        f"export_sequence(s, 'reduction', Path({str(tmp_path)!r}), 'r')\n"
        "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert len(list(tmp_path.glob("r-reduction-*.svg"))) == 8
