"""An author's export workflow: every step, every panel, a folder of scenarios, animations,
text as outlines, metadata, and byte-identical output for the same inputs."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpuviz import __version__
from gpuviz.export.animate import FramePlan, write_apng, write_gif
from gpuviz.export.files import scenario_hash
from gpuviz.figures.scene import figure_for, frame_count
from gpuviz.figures.theme import SCREEN
from gpuviz.keys import at_frame
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()
PIPELINE = SCENARIOS / "pipeline-double-buffer.json"
LAUNCH = SCENARIOS / "launch-n130.json"


def gpuviz(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuviz", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_all_steps_writes_one_numbered_file_per_step(tmp_path):
    steps = len(load_scenario(LAUNCH).steps)
    proc = gpuviz("export", str(LAUNCH), "--all-steps", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert names == [f"launch-n130-launch-step{k:02d}.svg" for k in range(1, steps + 1)]
    # each file is that step's state: the step's own export gives the same bytes
    one = tmp_path / "one"
    assert gpuviz("export", str(LAUNCH), "--step", "2", "--out", str(one)).returncode == 0
    # --step counts as the application and --all-steps do: step 2 is step02
    assert (one / "launch-n130-launch-step02.svg").read_bytes() == \
        (tmp_path / "launch-n130-launch-step02.svg").read_bytes()


def test_a_step_range_and_a_bad_one(tmp_path):
    proc = gpuviz("export", str(LAUNCH), "--steps", "2-3", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == [
        "launch-n130-launch-step02.svg", "launch-n130-launch-step03.svg"]
    bad = gpuviz("export", str(LAUNCH), "--steps", "3-99", "--out", str(tmp_path))
    assert bad.returncode == 2 and "outside" in bad.stderr and "Traceback" not in bad.stderr


def test_a_folder_of_scenarios_exports_every_panel_of_each(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("launch-n130.json", "linked-launch-sectors.json"):
        (folder / name).write_bytes((SCENARIOS / name).read_bytes())
    out = tmp_path / "out"
    proc = gpuviz("export", str(folder), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.glob("*.svg")) == [
        "launch-n130-launch.svg", "linked-launch-sectors-launch.svg",
        "linked-launch-sectors-sectors.svg"]


def test_svg_names_version_and_scenario_hash_and_is_byte_identical(tmp_path):
    runs = []
    for k in (1, 2):
        out = tmp_path / f"run{k}"
        assert gpuviz("export", str(LAUNCH), "--out", str(out)).returncode == 0
        runs.append((out / "launch-n130-launch.svg").read_bytes())
    assert runs[0] == runs[1]
    root = ET.fromstring(runs[0])
    meta = root.find("{http://www.w3.org/2000/svg}metadata")[0]
    assert meta.get("version") == __version__
    assert meta.get("scenario-sha256") == scenario_hash(load_scenario(LAUNCH))
    assert len(meta.get("scenario-sha256")) == 64


def test_png_names_version_and_hash_and_is_byte_identical(tmp_path):
    from PIL import Image

    runs = []
    for k in (1, 2):
        out = tmp_path / f"run{k}"
        proc = gpuviz("export", str(LAUNCH), "--format", "png", "--dpi", "96", "--out", str(out))
        assert proc.returncode == 0, proc.stderr
        runs.append((out / "launch-n130-launch.png").read_bytes())
    assert runs[0] == runs[1]
    info = Image.open(io.BytesIO(runs[0])).info
    assert info["gpuviz-version"] == __version__
    assert info["gpuviz-scenario-sha256"] == scenario_hash(load_scenario(LAUNCH))


def test_text_as_paths_has_no_text_elements_but_keeps_the_words(tmp_path):
    proc = gpuviz("export", str(LAUNCH), "--text-as-paths", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    root = ET.parse(tmp_path / "launch-n130-launch.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert not list(root.iter(f"{ns}text"))
    labels = [p.get("aria-label") for p in root.iter(f"{ns}path") if p.get("aria-label")]
    assert any("192 threads" in label for label in labels)
    plain = gpuviz("export", str(LAUNCH), "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0
    text = (tmp_path / "plain" / "launch-n130-launch.svg").read_text()
    assert "<text" in text and "Inter" in text  # the default stays real, searchable text


@pytest.mark.parametrize("fmt", ["gif", "apng"])
def test_animation_of_the_playback_has_every_frame_at_the_rate(tmp_path, fmt):
    from PIL import Image

    proc = gpuviz("export", str(PIPELINE), "--format", fmt, "--fps", "5", "--dpi", "72",
                  "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    (path,) = tmp_path.glob(f"*.{fmt}")
    im = Image.open(path)
    assert im.n_frames == frame_count(load_scenario(PIPELINE), "pipeline")
    assert im.info["duration"] == 200
    capped = gpuviz("export", str(PIPELINE), "--format", fmt, "--max-frames", "3", "--dpi", "72",
                    "--out", str(tmp_path / "capped"))
    assert capped.returncode == 0
    assert Image.open(next((tmp_path / "capped").glob(f"*.{fmt}"))).n_frames == 3


@pytest.mark.parametrize("writer", [write_gif, write_apng])
def test_animation_frames_are_streamed_to_the_file_one_at_a_time(qapp, tmp_path, writer):
    """Each frame is written before the next is built, so memory does not grow with frames."""
    scenario = load_scenario(PIPELINE)
    path = tmp_path / "a.anim"
    written_before = []

    def figure(i):
        tmp = list(tmp_path.glob(".a.anim.*.tmp"))  # the atomic writer's temporary file
        written_before.append(tmp[0].stat().st_size if tmp else 0)
        return figure_for(scenario, "pipeline", SCREEN, at_frame((), i % 4))

    # the writer builds every figure once to size the canvas, then once per frame as it writes
    writer(FramePlan(6, figure, 4.0), path, dpi=72)
    painting = written_before[6:]
    assert len(painting) == 6
    assert all(b > a for a, b in itertools.pairwise(painting[1:]))
    assert path.exists() and not list(tmp_path.glob(".a.anim.*.tmp"))
