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


@pytest.fixture(scope="module")
def plain_first_frame(tmp_path_factory) -> str:
    """The first frame of ``--frames`` without figure options, which each option is compared
    with (exported once for the module)."""
    status, plain = _export(tmp_path_factory.mktemp("plain"), "--frames")
    assert status == 0
    return sorted(plain.glob("*.svg"))[0].read_text("utf-8")


@pytest.mark.parametrize("option", ["--text-as-paths", "--embed-fonts", "chrome", "part",
                                    "font"])
def test_frames_honour_the_figure_options(option, tmp_path, capsys, plain_first_frame):
    extra = {"chrome": ["--chrome", "none"], "part": ["--part", "map"],
             "font": ["--font", str(write_font(tmp_path, "f.ttf", font_bytes("FramesFace")))],
             }.get(option, [option])
    status, out = _export(tmp_path, "--frames", *extra)
    assert status == 0, capsys.readouterr().err
    frames = sorted(out.glob("*.svg"))
    assert frames
    first, base = frames[0].read_text("utf-8"), plain_first_frame
    if option == "--text-as-paths":
        assert "<text" not in first and "<text" in base
    elif option == "--embed-fonts":
        assert "@font-face" in first and "@font-face" not in base
    elif option == "font":
        assert "FramesFace" in first
    else:
        assert len(first) < len(base)  # less drawn than the whole figure
        ET.fromstring(first)


def _export_small(tmp_path, *options):
    """A lecture format's writer at its least: one step of a small launch."""
    out = tmp_path / "out"
    small = os.path.join(HERE, "..", "..", "scenarios", "launch-n130.json")
    return main(["export", small, "--out", str(out), "--steps", "1-1", *options]), out


def _zip_pictures(path) -> dict[str, bytes]:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n.startswith("ppt/media/")}


def test_font_sets_the_web_lectures_figures_and_is_embedded(tmp_path):
    """--font with a web lecture sets its figures' sans text in the face (their text names
    the family first) and embeds the face's subset under that name, beside the shipped faces
    for what it lacks."""
    import base64
    import io
    import re

    from fontTools.ttLib import TTFont

    font = write_font(tmp_path, "f.ttf", font_bytes("PaperFace"))
    status, out = _export_small(tmp_path, "--format", "html", "--font", str(font))
    assert status == 0
    page = (out / "launch-n130.html").read_text(encoding="utf-8")
    faces = dict(re.findall(r"font-family:'([^']+)';font-weight:normal;src:url\(data:font/woff;"
                            r"base64,([^)]+)\)", page))
    assert {"PaperFace", "Inter", "Noto Sans Mono"} <= set(faces)
    embedded = TTFont(io.BytesIO(base64.b64decode(faces["PaperFace"])))
    assert embedded["name"].getDebugName(1) == "PaperFace"
    assert 'font-family="\'PaperFace\', Inter' in page  # the figures' sans text


@pytest.mark.parametrize("name", ['Evil" onmouseover="alert(1)', "Evil'</style><script>x",
                                  "Evil\x01\x1b;}body{color:red"])
def test_a_crafted_family_name_cannot_break_out_of_the_web_lecture(name, tmp_path):
    font = write_font(tmp_path, "f.ttf", font_bytes(name))
    status, out = _export_small(tmp_path, "--format", "html", "--font", str(font))
    assert status == 0
    page = (out / "launch-n130.html").read_text(encoding="utf-8")
    assert "onmouseover=" not in page
    assert "<script>x" not in page and "\x01" not in page and "\x1b" not in page
    assert "}body{color:red" not in page
    assert "font-family:'Evil" in page  # the face is embedded under its cleaned name


def test_font_sets_the_handout_and_the_decks_figures(tmp_path):
    """The handout embeds the paper's face (a PDF names it by its PostScript name) and the
    deck's pictures are painted in it: not the pictures painted without --font."""
    font = write_font(tmp_path, "f.ttf", font_bytes("PaperFace", ps_name="PaperFace-Regular"))
    status, out = _export_small(tmp_path, "--format", "pdf", "--font", str(font))
    assert status == 0
    assert b"/PaperFace-Regular" in (out / "launch-n130-handout.pdf").read_bytes()
    (tmp_path / "plain").mkdir()
    status, plain = _export_small(tmp_path / "plain", "--format", "pptx")
    assert status == 0
    status, out = _export_small(tmp_path, "--format", "pptx", "--font", str(font))
    assert status == 0
    set_in, shipped = (_zip_pictures(d / "launch-n130.pptx") for d in (out, plain))
    assert set_in.keys() == shipped.keys() and set_in
    assert all(set_in[n] != shipped[n] for n in set_in)


def test_embed_fonts_embeds_the_named_face(tmp_path):
    """--font X --embed-fonts embeds X (its subset, under its family name) for the text it
    sets, and the shipped sans face only for the characters X lacks."""
    import base64
    import io
    import re

    from fontTools.ttLib import TTFont

    font = write_font(tmp_path, "f.ttf", font_bytes("PaperFace"))
    status, out = _export(tmp_path, "--font", str(font), "--embed-fonts")
    assert status == 0
    svg = next(out.glob("*.svg")).read_text(encoding="utf-8")
    rules = re.findall(r"font-family: '([^']+)'; font-weight: (\w+); src: url\(data:[^;]+;"
                       r"base64,([^)]+)\)", svg)
    embedded = {(family, weight): TTFont(io.BytesIO(base64.b64decode(data)))
                for family, weight, data in rules}
    assert ("PaperFace", "normal") in embedded
    assert embedded[("PaperFace", "normal")]["name"].getDebugName(1) == "PaperFace"
    paper = set(embedded[("PaperFace", "normal")].getBestCmap())
    inter = set(embedded.get(("Inter", "normal"), TTFont()).getBestCmap() or ()) \
        if ("Inter", "normal") in embedded else set()
    assert paper and paper <= {ord(c) for c in map(chr, range(0x20, 0x7F))}
    assert not inter & paper  # Inter only for what the paper's face lacks
