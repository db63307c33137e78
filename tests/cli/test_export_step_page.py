"""A step's own file (``gpuviz export --all-steps`` or ``--step K``) with ``--chrome full``
carries the step's title and caption, as the lecture model gives them for an export; with
``--chrome none`` or ``legend`` the drawing alone."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpuviz.lecture import Lecture, show
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SVG = "{http://www.w3.org/2000/svg}"


def _export(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuviz", "export", *args],
                          capture_output=True, text=True, timeout=300)


def _text(svg: Path) -> str:
    """The SVG's drawn text, its lines joined by spaces (a caption wraps)."""
    root = ET.parse(svg).getroot()
    lines = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    return re.sub(r"\s+", " ", " ".join(lines))


@pytest.mark.parametrize("name", ["banks-padded33", "traversal-grouped"])
def test_each_step_file_carries_its_title_and_caption_with_full_chrome(name, tmp_path):
    path = scenario_dir() / f"{name}.json"
    lecture = Lecture(load_scenario(path))
    run = _export(str(path), "--all-steps", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    files = sorted(tmp_path.glob("*-step*.svg"))
    assert files
    for svg in files:
        k = int(re.search(r"-step(\d+)", svg.name).group(1)) - 1
        shown = show(lecture, k, "export")
        text = _text(svg)
        assert shown.title and shown.caption
        assert f"Step {k + 1} · {shown.title}" in text, svg.name
        assert re.sub(r"\s+", " ", shown.caption) in text, svg.name
        # the other steps' captions are not on this step's page
        others = [show(lecture, j, "export").caption for j in range(lecture.steps) if j != k]
        assert not any(c and c != shown.caption and c in text for c in others), svg.name


def test_chrome_none_writes_the_drawing_alone(tmp_path):
    path = scenario_dir() / "banks-padded33.json"
    lecture = Lecture(load_scenario(path))
    for chrome in ("none", "legend"):
        out = tmp_path / chrome
        run = _export(str(path), "--all-steps", "--chrome", chrome, "--out", str(out))
        assert run.returncode == 0, run.stderr
        for svg in sorted(out.glob("*-step*.svg")):
            k = int(re.search(r"-step(\d+)", svg.name).group(1)) - 1
            shown = show(lecture, k, "export")
            text = _text(svg)
            assert shown.title not in text and shown.caption not in text, (chrome, svg.name)
            assert f"Step {k + 1}" not in text


def test_one_steps_file_is_the_same_page_as_all_steps_writes(tmp_path):
    path = scenario_dir() / "banks-padded33.json"
    every, one = tmp_path / "every", tmp_path / "one"
    assert _export(str(path), "--all-steps", "--out", str(every)).returncode == 0
    assert _export(str(path), "--step", "3", "--out", str(one)).returncode == 0
    name = "banks-padded33-banks-step03.svg"
    assert (one / name).read_bytes() == (every / name).read_bytes()
    assert "Step 3 · " in _text(one / name)


def test_a_slide_too_full_for_the_caption_is_written_without_it_and_says_so(tmp_path):
    # the traversal figure fills a slide: with the step's caption its type would miss the
    # slide's budget; the file keeps its type and the command says what it left out
    path = scenario_dir() / "traversal-grouped.json"
    run = _export(str(path), "--all-steps", "--size", "slide", "--format", "svg",
                  "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    lecture = Lecture(load_scenario(path))
    left_out = [ln for ln in run.stdout.splitlines() if "title and caption left out" in ln]
    for line in run.stdout.splitlines():
        svg = Path(line.split("  (")[0])
        k = int(re.search(r"-step(\d+)", svg.name).group(1)) - 1
        carries = show(lecture, k, "export").caption in _text(svg)
        assert carries == (line not in left_out), line
    assert len(left_out) < len(run.stdout.splitlines())  # some steps have room for it
