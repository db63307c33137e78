"""The design card's layout, installed: ``scenarios/`` and ``resources/`` at the top level are the
packages ``gpuviz.scenarios`` and ``gpuviz.resources``, in a source tree, in this (editable)
environment, and in a wheel installed into a fresh virtual environment outside the source tree."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from importlib import resources
from pathlib import Path

import pytest

from gpuviz.scenario.bundled import bundled_scenarios, scenario_dir

ROOT = Path(__file__).resolve().parents[1]


def test_top_level_holds_the_design_cards_folders():
    for name in ("gpuviz", "resources", "scenarios", "tests", "packaging"):
        assert (ROOT / name).is_dir(), name
    assert not (ROOT / "gpuviz" / "scenarios").exists()
    assert not (ROOT / "gpuviz" / "resources").exists()


def test_bundled_scenarios_are_a_real_folder_not_a_namespace_multiplexed_path():
    # A namespace package (no __init__.py) gives a MultiplexedPath, whose glob lists nothing.
    folder = resources.files("gpuviz.scenarios")
    assert type(folder).__name__ != "MultiplexedPath"
    assert scenario_dir() == Path(str(folder))
    on_disk = sorted(p.name for p in (ROOT / "scenarios").glob("*.json"))
    assert [p.name for p in bundled_scenarios()] == on_disk
    assert len(on_disk) >= 40


def test_no_code_looks_resources_up_under_the_gpuviz_folder():
    # files("gpuviz") / "resources" names a folder that exists in no source tree or editable install
    pattern = re.compile(r'files\(\s*"gpuviz"\s*\)\s*/\s*"(resources|scenarios)"')
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "gpuviz").rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert not offenders


def test_fonts_presets_and_schema_are_found_as_package_resources():
    from gpuviz.models.arch import preset_names

    root = resources.files("gpuviz.resources")
    assert (root / "scenario.schema.json").is_file()
    assert (root / "font_metrics.json").is_file()
    assert {"Inter-Regular.otf", "NotoSansMono-Regular.ttf"} <= {
        p.name for p in (root / "fonts").iterdir()}
    assert "h200" in preset_names()


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_environment_and_lists_and_exports(tmp_path):
    """Build the wheel, install it (alone) into a new venv outside the tree, and use it from a
    folder outside the tree. Its run-time dependencies come from this test environment through a
    path entry, not from the source tree or the editable install."""
    wheels = tmp_path / "wheels"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "-q", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    if build.returncode != 0 and "No module named" in build.stderr:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip()[-200:]}")
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("gpuviz-*.whl")

    env_dir = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies only: a plain path line, so this environment's editable gpuviz is not seen
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=300)

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    where = subprocess.run([str(py), "-c", "import gpuviz; print(gpuviz.__file__)"], cwd=work,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(env_dir)), where

    gpuviz = env_dir / "bin" / "gpuviz"
    listed = subprocess.run([str(gpuviz), "list"], cwd=work, env=env, capture_output=True,
                            text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    for path in bundled_scenarios():
        assert path.name in listed.stdout, path.name

    bundled = subprocess.run([str(py), "-c", "from gpuviz.scenario import default_scenario_path;"
                              "print(default_scenario_path())"], cwd=work, env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
    assert bundled.startswith(str(env_dir)), bundled
    out = work / "out"
    exported = subprocess.run([str(gpuviz), "export", bundled, "--out", str(out)], cwd=work,
                              env=env, capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    svgs = list(out.glob("*.svg"))
    assert svgs and svgs[0].read_text().startswith("<?xml")
