"""The desktop entry and AppStream metadata are well formed (validated by the freedesktop tools
where they are installed)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESKTOP = ROOT / "packaging" / "io.github.gpuviz.desktop"
METAINFO = ROOT / "packaging" / "io.github.gpuviz.metainfo.xml"


def test_desktop_entry_launches_the_gpuviz_command():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(DESKTOP, encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert section["Exec"].split()[0] == "gpuviz-app"
    assert section["MimeType"] == "application/vnd.gpuviz.scenario+json;"  # ours, not all JSON
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_metainfo_names_the_desktop_entry_and_the_version():
    from gpuviz import __version__

    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == "io.github.gpuviz"
    assert root.find("launchable").text == DESKTOP.name
    assert root.find("releases/release").get("version") == __version__


def test_the_gui_and_cli_entry_point_is_declared():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["gpuviz"] == "gpuviz.cli:main"
    assert project["gui-scripts"]["gpuviz-app"] == "gpuviz.gui:main"
    assert project["license"] == "MIT"  # the SPDX form, no setuptools deprecation warning


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstreamcli not installed")
def test_metainfo_validates():
    proc = subprocess.run(["appstreamcli", "validate", "--no-net", str(METAINFO)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_scenario_mime_type_is_our_own_json_subtype():
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(ROOT / "packaging" / "io.github.gpuviz.mime.xml").getroot()
    (mime,) = root.findall("m:mime-type", ns)
    assert mime.get("type") == "application/vnd.gpuviz.scenario+json"
    assert mime.find("m:sub-class-of", ns).get("type") == "application/json"
    assert {g.get("pattern") for g in mime.findall("m:glob", ns)} == {"*.gpuviz.json", "*.gpuviz"}


def test_icon_comes_as_svg_and_the_png_sizes_desktops_want():
    import struct

    icons = ROOT / "packaging" / "icons"
    ET.parse(icons / "io.github.gpuviz.svg")  # well-formed
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        data = (icons / f"io.github.gpuviz-{size}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (size, size)
