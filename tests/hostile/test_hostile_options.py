"""Options an export would silently ignore (class 4 of the third hardening round): each is
honoured, or the combination is refused with exit 2 and a sentence saying why."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest
from hostile_fonts import font_bytes, write_font

from gpuviz.cli import main

HERE = os.path.dirname(__file__)
SECTORS = os.path.join(HERE, "..", "..", "scenarios", "sectors-stride8.json")


def _export(tmp_path, *options):
    out = tmp_path / "out"
    return main(["export", SECTORS, "--out", str(out), *options]), out


REFUSED = {
    "font-html": (["--format", "html", "--all-steps"], "--font"),
    "font-pptx": (["--format", "pptx", "--all-steps"], "--font"),
    "font-handout": (["--format", "pdf", "--all-steps"], "--font"),
    "font-gif": (["--format", "gif"], "--font"),
    "font-apng": (["--format", "apng"], "--font"),
    "frames-all-steps": (["--frames", "--all-steps"], "--frames"),
    "frames-steps": (["--frames", "--steps", "1-2"], "--frames"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_an_option_that_would_be_ignored_is_refused(case, tmp_path, capsys):
    options, says = REFUSED[case]
    if case.startswith("font"):
        options = [*options, "--font", str(write_font(tmp_path, "f.ttf", font_bytes()))]
    status, out = _export(tmp_path, *options)
    err = capsys.readouterr().err
    assert status == 2 and says in err, err
    assert not out.exists()


def test_a_repeated_chrome_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        _export(tmp_path, "--chrome", "none", "--chrome", "legend")
    assert stop.value.code == 2
    assert "--chrome is given more than once" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--text-as-paths", "--embed-fonts", "chrome", "part",
                                    "font"])
def test_frames_honour_the_figure_options(option, tmp_path, capsys):
    extra = {"chrome": ["--chrome", "none"], "part": ["--part", "map"],
             "font": ["--font", str(write_font(tmp_path, "f.ttf", font_bytes("FramesFace")))],
             }.get(option, [option])
    status, out = _export(tmp_path, "--frames", *extra)
    assert status == 0, capsys.readouterr().err
    frames = sorted(out.glob("*.svg"))
    assert frames
    plain_status, plain = _export(tmp_path / "plain", "--frames")
    assert plain_status == 0
    first, base = frames[0].read_text("utf-8"), sorted(plain.glob("*.svg"))[0].read_text("utf-8")
    if option == "--text-as-paths":
        assert "<text" not in first and "<text" in base
    elif option == "--embed-fonts":
        assert "@font-face" in first and "@font-face" not in base
    elif option == "font":
        assert "FramesFace" in first
    else:
        assert len(first) < len(base)  # less drawn than the whole figure
        ET.fromstring(first)
