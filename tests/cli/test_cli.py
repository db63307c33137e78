"""The command line, run in a subprocess as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuviz.scenario.bundled import scenario_dir

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = scenario_dir() / "launch-n130.json"


def gpuviz(*args, check=False):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("DISPLAY", None)
    proc = subprocess.run([sys.executable, "-m", "gpuviz", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_version_and_help():
    from gpuviz import __version__

    assert gpuviz("--version", check=True).stdout.strip() == f"gpuviz {__version__}"
    out = gpuviz("--help", check=True).stdout
    for command in ("validate", "compute", "export", "list", "schema"):
        assert command in out


def test_validate_ok_and_bad(tmp_path):
    assert gpuviz("validate", DEFAULT).returncode == 0
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "launch": {"block": [2048]}}')
    proc = gpuviz("validate", DEFAULT, bad)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"{bad}: launch.block[0]: must be at most 1024, got 2048"
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("content,path_part", [
    (b"", "$"),
    (b"{", "line 1, column 2"),
    (b"\xff\xfe", "$"),
    (b'{"version": 2}', "version"),
    (b'{"version": 1, "launch": {"warp_size": 0}}', "launch.warp_size"),
])
def test_bad_files_exit_2_with_file_and_path(tmp_path, content, path_part):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    proc = gpuviz("compute", bad)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{bad}: {path_part}: ")
    assert "Traceback" not in proc.stderr


def test_compute_prints_documented_keys():
    data = json.loads(gpuviz("compute", DEFAULT, "--step", "3", check=True).stdout)
    r = data["launch"]
    for key in ("blocks", "threads_launched", "valid_threads", "warps_per_block", "waves",
                "active_lanes", "tiles", "tile_slots", "tile_valid", "wave_count", "last_wave_fill"):
        assert key in r
    assert r["active_lanes"] == [0, 1]
    assert not any(k.startswith("_") for k in r)
    # steps count from 1 as in the app; 0 is the overview
    overview = json.loads(gpuviz("compute", DEFAULT, "--step", "0", check=True).stdout)
    assert overview == json.loads(gpuviz("compute", DEFAULT, check=True).stdout)


def test_compute_gives_the_tma_placements_swizzle_and_descriptor():
    shifted = json.loads(gpuviz("compute", scenario_dir() / "tma-swizzle-offset.json", "--step",
                                "2", check=True).stdout)["tma"]
    # the swizzle panel's Swizzle<3,4,3>, the buffer on line 3 of its 1024-byte pattern
    assert shifted["swizzle_equivalent"] == {"mode": "128B", "bits": 3, "base": 4, "shift": 3,
                                             "repeat_bytes": 1024, "phase": 3}
    d = shifted["wgmma_descriptor"]
    # base offset 0 off the pattern's boundary too: measured on an H100 (tma/h100-wgmma-...)
    assert (d["layout_type"], d["start_address"], d["base_offset"]) == (1, 384, 0)
    assert int(d["descriptor_hex"], 16) >> 49 & 7 == 0


def test_compute_names_the_scheduler_limit_and_the_h200_value(capsys):
    from gpuviz.cli import main

    assert main(["compute", str(scenario_dir() / "scheduler-h200-l1.json"), "--step", "2"]) == 0
    r = json.loads(capsys.readouterr().out)["scheduler"]
    assert r["limit"] == "issue"  # C = 4 at 48 warps per SM
    assert r["measured_issue_utilization"] == pytest.approx(0.880, abs=0.001)
    assert main(["compute", str(scenario_dir() / "scheduler-memory-parallelism.json")]) == 0
    seed = json.loads(capsys.readouterr().out)["scheduler"]
    assert seed["limit"] == "latency" and "measured_issue_utilization" not in seed


def test_compute_unknown_panel_and_step_are_clear():
    proc = gpuviz("compute", DEFAULT, "--panel", "lanch")
    assert proc.returncode == 2 and "did you mean 'launch'" in proc.stderr
    proc = gpuviz("compute", DEFAULT, "--step", "9")
    assert proc.returncode == 2 and "--step 9 does not exist" in proc.stderr


def test_export_svg_is_byte_identical_and_needs_no_qt(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    gpuviz("export", DEFAULT, "--out", a, check=True)
    gpuviz("export", DEFAULT, "--out", b, check=True)
    fa, fb = a / "launch-n130-launch.svg", b / "launch-n130-launch.svg"
    assert fa.read_bytes() == fb.read_bytes()
    assert fa.read_text().startswith("<?xml")


@pytest.mark.parametrize("fmt,magic", [("png", b"\x89PNG"), ("pdf", b"%PDF")])
def test_export_pdf_and_png_headless(tmp_path, fmt, magic):
    proc = gpuviz("export", DEFAULT, "--out", tmp_path, "--format", fmt, "--theme", "print",
                  "--size", "single", "--part", "lanes", check=True)
    path = Path(proc.stdout.split()[0])
    assert path.read_bytes().startswith(magic)


def test_export_step_and_selection(tmp_path):
    proc = gpuviz("export", DEFAULT, "--out", tmp_path, "--step", "3", "--select", "lane:1",
                  check=True)
    svg = Path(proc.stdout.split()[0]).read_text()
    assert 'data-key="lane:1"' in svg
    assert "Warp 0 of block 2: 2 lanes valid, 30 masked" in svg


def test_list_and_schema():
    out = gpuviz("list", check=True).stdout
    assert "launch-n130.json" in out and "launch" in out and "h100-sxm" in out
    schema = json.loads(gpuviz("schema", check=True).stdout)
    assert schema["properties"]["launch"]["properties"]["block"]["type"] == "array"


def test_export_to_an_unwritable_place_is_a_clear_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = gpuviz("export", DEFAULT, "--out", blocker / "sub")
    assert proc.returncode == 2
    assert "cannot create the output folder" in proc.stderr


def test_export_frames_writes_a_numbered_sequence(tmp_path):
    scenario = scenario_dir() / "pipeline-double-buffer.json"
    proc = gpuviz("export", scenario, "--out", tmp_path, "--frames", check=True)
    paths = [Path(p) for p in proc.stdout.split()]
    assert len(paths) > 1
    assert paths[0].name == "pipeline-double-buffer-pipeline-0001.svg"
    assert [p.name for p in sorted(tmp_path.iterdir())] == [p.name for p in paths]
    assert paths[0].read_bytes() != paths[-1].read_bytes()
