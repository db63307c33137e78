"""Exports larger than gpuviz writes are refused with exit 2 and a clear message, before any
file is written: a resolution out of range, a PNG of too many pixels, too many frames."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from gpuviz.export.raster import MAX_DPI, MAX_PIXELS, MIN_DPI, ExportLimitError, check_png_size
from gpuviz.export.sequence import MAX_FRAMES, export_sequence
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIO = scenario_dir() / "divergence-if-else.json"


def gpuviz(*args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "gpuviz", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize("dpi", ["0", "-1", str(MIN_DPI - 1), str(MAX_DPI + 1), "5000", "20000",
                                 "abc"])
def test_a_resolution_out_of_range_is_exit_2_and_writes_nothing(tmp_path, dpi):
    out = tmp_path / "out"
    proc = gpuviz("export", SCENARIO, "--format", "png", "--out", out, "--dpi", dpi)
    assert proc.returncode == 2
    assert "argument --dpi:" in proc.stderr and "Traceback" not in proc.stderr
    if dpi != "abc":
        assert f"must be from {MIN_DPI} to {MAX_DPI}, got {dpi}" in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize("dpi", [MIN_DPI, MAX_DPI])
def test_the_ends_of_the_range_are_accepted(tmp_path, dpi):
    proc = gpuviz("export", SCENARIO, "--format", "png", "--out", tmp_path, "--dpi", dpi,
                  "--size", "single", "--part", "graph")  # a single column holds one part
    assert proc.returncode == 0, proc.stderr
    png = (tmp_path / "divergence-if-else-divergence-graph.png").read_bytes()
    width = int.from_bytes(png[16:20], "big")
    assert width == round(85.0 * dpi / 25.4)


def test_a_png_of_too_many_pixels_is_refused_with_the_resolution_that_fits():
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import SCREEN

    figure = figure_for(load_scenario(SCENARIO), "divergence", SCREEN, frozenset())
    width_mm = 600.0
    with pytest.raises(ExportLimitError) as err:
        check_png_size(figure, width_mm, 1200)
    message = str(err.value)
    assert f"{MAX_PIXELS // 1_000_000} million" in message
    fitting = int(message.split("use at most ")[1].split(" dpi")[0])
    check_png_size(figure, width_mm, fitting)  # the suggested resolution fits
    with pytest.raises(ExportLimitError):
        check_png_size(figure, width_mm, fitting + 2)


def test_a_png_of_too_many_pixels_is_exit_2_from_the_command_line(tmp_path):
    # twenty layers of blocks make a tall figure: over 200 million pixels at 1200 dpi
    nodes = [{"name": "entry", "instructions": 1}]
    edges = []
    before = "entry"
    for i in range(20):
        nodes += [{"name": f"a{i}", "instructions": 1}, {"name": f"b{i}", "instructions": 1},
                  {"name": f"j{i}", "instructions": 1}]
        edges += [{"source": before, "target": f"a{i}", "predicate": f"lane < {i + 1}"},
                  {"source": before, "target": f"b{i}", "predicate": ""},
                  {"source": f"a{i}", "target": f"j{i}", "predicate": ""},
                  {"source": f"b{i}", "target": f"j{i}", "predicate": ""}]
        before = f"j{i}"
    path = tmp_path / "tall.json"
    path.write_text(json.dumps({"version": 1, "panels": ["divergence"],
                                "divergence": {"nodes": nodes, "edges": edges}}))
    out = tmp_path / "out"
    proc = gpuviz("export", path, "--format", "png", "--out", out, "--dpi", 1200)
    assert proc.returncode == 2, proc.stderr
    assert re.match(rf"{re.escape(str(path))}: a \d+ × \d+ pixel PNG \(\d+ million pixels\)",
                    proc.stderr)
    assert f"larger than the {MAX_PIXELS // 1_000_000} million gpuviz writes" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert list(out.iterdir()) == []
    assert gpuviz("export", path, "--format", "png", "--out", out, "--dpi", 300).returncode == 0


def traversal_with_frames(tmp_path, tiles_per_side):
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"version": 1, "panels": ["traversal"],
                                "traversal": {"rows": tiles_per_side, "cols": tiles_per_side,
                                              "sweep": False}}))
    return path


def test_a_sequence_of_more_than_the_maximum_frames_is_exit_2_and_writes_nothing(tmp_path):
    path = traversal_with_frames(tmp_path, 48)  # 2,304 steps, 2,305 frames
    out = tmp_path / "frames"
    proc = gpuviz("export", path, "--frames", "--out", out)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"{path}: traversal has 2305 playback frames; a "
                                   f"sequence is at most {MAX_FRAMES} files (export single "
                                   "frames, --select frame:N, instead)")
    assert not out.exists() or list(out.iterdir()) == []
    with pytest.raises(ExportLimitError):
        export_sequence(load_scenario(path), "traversal", out, "long")
    assert not out.exists() or list(out.iterdir()) == []


def test_a_sequence_at_the_maximum_is_not_refused(tmp_path, monkeypatch):
    # 44 × 45 tiles: 1,980 steps, 1,981 frames, written as SVG without Qt
    import gpuviz.export.sequence as sequence

    written, checked = [], []
    monkeypatch.setattr(sequence, "export_figure", lambda scenario, pid, path, check_only=False,
                        **kw: (checked if check_only else written).append(path))
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({"version": 1, "panels": ["traversal"],
                                "traversal": {"rows": 44, "cols": 45, "sweep": False}}))
    paths = export_sequence(load_scenario(path), "traversal", tmp_path / "f", "ok")
    assert len(paths) == len(written) == 1981 <= MAX_FRAMES
    assert checked == written  # every frame checked before the first is written


def test_a_full_page_png_past_900_dpi_is_refused_as_more_than_a_budget_of_work():
    # 170 × 230 mm at 1200 dpi is 87 million pixels; 80 million took 2.4 CPU s to paint and
    # compress, past the 2 s any accepted input may take: the cap is a full page at 900 dpi
    from gpuviz.figures.display import Figure

    page = Figure(170.0, 230.0, "#ffffff", ())
    for dpi in (1200, 1000, 950):  # 87, 60 and 55 million pixels
        with pytest.raises(ExportLimitError):
            check_png_size(page, None, dpi)
    check_png_size(page, None, 900)  # 6024 × 8150: 49 million
