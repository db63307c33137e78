"""The installable app: ``make dist``'s PyInstaller spec builds a one-folder app whose command
line exports a figure and whose window starts, headless, from outside the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    pytest.importorskip("PyInstaller", reason="PyInstaller is a test extra (pip install -e .[test])")
    work = tmp_path_factory.mktemp("pyinstaller")
    proc = subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level",
                           "WARN", "--distpath", str(work / "dist"), "--workpath",
                           str(work / "build"), str(ROOT / "packaging" / "gpuviz.spec")],
                          capture_output=True, text=True, timeout=1200, cwd=work)
    assert proc.returncode == 0, proc.stderr[-3000:]
    folder = work / "dist" / "gpuviz"
    assert (folder / "gpuviz").exists() and (folder / "gpuviz-cli").exists()
    return folder


def _env(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    return env


def test_bundled_cli_lists_scenarios_and_exports_svg_and_png(bundle, tmp_path):
    env = _env(tmp_path)
    listed = subprocess.run([str(bundle / "gpuviz-cli"), "list"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert listed.returncode == 0, listed.stderr
    for name in ("launch-n130.json", "banks-padded33.json", "reduction-block.json"):
        assert name in listed.stdout
    scenario = ROOT / "scenarios" / "launch-n130.json"
    for fmt in ("svg", "png", "pptx"):  # pptx: python-pptx's template travels in the bundle
        out = tmp_path / fmt
        proc = subprocess.run([str(bundle / "gpuviz-cli"), "export", str(scenario), "--format",
                               fmt, "--out", str(out)], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stderr
        (written,) = out.glob(f"*.{fmt}")
        assert written.stat().st_size > 1000
    # kernel export imports its panel's module by name, as the dock's extras are
    kernel = subprocess.run([str(bundle / "gpuviz-cli"), "kernel",
                             str(ROOT / "scenarios" / "banks-padded33.json"), "--out",
                             str(tmp_path / "kernel")], capture_output=True, text=True, env=env,
                            cwd=tmp_path, timeout=120)
    assert kernel.returncode == 0, kernel.stderr
    assert list((tmp_path / "kernel").glob("*.cu"))


def test_bundled_window_starts_headless_and_keeps_running(bundle, tmp_path):
    proc = subprocess.Popen([str(bundle / "gpuviz")], env=_env(tmp_path), cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(6.0)
        assert proc.poll() is None, proc.communicate()[1][-2000:]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
