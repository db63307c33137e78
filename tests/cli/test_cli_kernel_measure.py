"""`gpuviz kernel` and `gpuviz measure`, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from gpuviz.scenario.bundled import scenario_dir


def gpuviz(*args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "gpuviz", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=300)


def test_kernel_writes_the_four_files(tmp_path):
    proc = gpuviz("kernel", scenario_dir() / "banks-padded33.json", "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["README.md", "banks-padded33.cu", "case.json", "run.sh"]
    assert "lane 31" in (tmp_path / "banks-padded33.cu").read_text()


def test_kernel_at_a_step_and_for_a_chosen_panel(tmp_path):
    proc = gpuviz("kernel", scenario_dir() / "occupancy-register-cliff.json", "--step", "2",
                  "--panel", "occupancy", "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    run = (tmp_path / "run.sh").read_text()
    assert "-maxrregcount=65" in run  # step 2 asks for 65 registers


def test_kernel_refuses_a_panel_without_export(tmp_path):
    proc = gpuviz("kernel", scenario_dir() / "launch-n130.json", "--out", tmp_path)
    assert proc.returncode == 2
    assert "no kernel export" in proc.stderr


def test_kernel_refuses_a_64_lane_wavefront(tmp_path):
    proc = gpuviz("kernel", scenario_dir() / "linked-launch-sectors-wave64.json",
                  "--panel", "sectors", "--out", tmp_path)
    assert proc.returncode == 2 and "64" in proc.stderr


def test_measure_import_and_compare_round_trip(tmp_path):
    assert gpuviz("kernel", scenario_dir() / "sectors-shifted.json", "--out",
                  tmp_path).returncode == 0
    csv = tmp_path / "p.csv"
    csv.write_text('==PROF== Connected\n"ID","Kernel Name",'
                   '"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"\n'
                   '"","",""\n"0","sectors_load","5"\n')
    out = tmp_path / "m.json"
    proc = gpuviz("measure", "import", csv, "--cases", tmp_path / "case.json", "--out", out,
                  "--device", "a test GPU")
    assert proc.returncode == 0, proc.stderr
    m = json.loads(out.read_text())
    assert m["device"] == "a test GPU" and m["cases"][0]["measured"] == 5
    proc = gpuviz("measure", "compare", out)
    assert proc.returncode == 0 and "1 agree" in proc.stdout
    m["cases"][0]["measured"] = 4
    out.write_text(json.dumps(m))
    proc = gpuviz("measure", "compare", out)
    assert proc.returncode == 1 and "DIFFERS" in proc.stdout
