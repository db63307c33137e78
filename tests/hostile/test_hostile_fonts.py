"""Hostile ``--font`` files and crafted family names (classes 1–3 of the third hardening round):
a family name is data from a file the user did not write, escaped wherever it is written; a file
that cannot set a figure exits 2 naming ``--font FILE`` and why, and nothing but a regular file
of a sane size is opened; a face lacking characters borrows them from the shipped faces."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest
from hostile_fonts import font_bytes, write_font
from hostile_run import gpuviz, text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuviz.cli import main
from gpuviz.figures.metrics import read_typeface

SCENARIO = os.path.join(os.path.dirname(__file__), "..", "..", "scenarios", "banks-stride1.json")
def _safe(family: str, quotes: str = "") -> bool:
    """Letters, digits and `` .+-_`` only (and the quotes and commas of a family list)."""
    return all(c.isalnum() or c in " .+-_" + quotes for c in family)
MODES = ([], ["--embed-fonts"], ["--text-as-paths"])
HOSTILE_NAMES = ['X" onmouseover="alert(1)" a="', "</text><script>alert(1)</script>",
                 "a'b", "\x01\x1b[31mred", "]]>&amp;", "\u202eevil", "x\uffff\x00\x7f"]


def _export(tmp_path, font, *extra, fmt="svg"):
    out = tmp_path / "out"
    status = main(["export", SCENARIO, "--out", str(out), "--font", str(font),
                   "--format", fmt, *extra])
    return status, out


def _check_svg(path) -> None:
    body = path.read_text(encoding="utf-8")
    tree = ET.parse(path)  # well-formed
    assert "<script" not in body
    for el in tree.iter():
        assert not [a for a in el.attrib if a.lower().startswith("on")], el.attrib
        family = el.get("font-family")
        if family is not None:
            assert _safe(family, "',"), family
    assert not [c for c in body if ord(c) < 0x20 and c not in "\n\t\r"]


@pytest.mark.parametrize("mode", MODES, ids=["text", "embed", "paths"])
@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_a_family_name_cannot_inject(name, mode, tmp_path, capsys):
    font = write_font(tmp_path, "evil.ttf", font_bytes(name))
    status, out = _export(tmp_path, font, *mode)
    assert status == 0, capsys.readouterr().err
    for svg in out.glob("*.svg"):
        _check_svg(svg)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=40))
def test_any_family_name_reads_safe(tmp_path, name):
    font = write_font(tmp_path, "any.ttf", font_bytes(name))
    _, family, _ = read_typeface(str(font))
    assert family and _safe(family), family


def _truncated(tmp_path):
    return write_font(tmp_path, "cut.ttf", font_bytes()[:600])


def _sparse(tmp_path):
    path = tmp_path / "huge.ttf"
    with open(path, "wb") as f:
        f.truncate(3 * 1024**3)
    return path


def _fifo(tmp_path):
    path = tmp_path / "pipe.ttf"
    os.mkfifo(path)
    return path


BROKEN = {
    "truncated": (_truncated, "not an OpenType or TrueType font"),
    "units-per-em-0": (lambda p: write_font(p, "u.ttf", font_bytes(upm=0)), "units per em is 0"),
    "no-name-table": (lambda p: write_font(p, "n.ttf", font_bytes(name_table=False)), "(name)"),
    "no-unicode-cmap": (lambda p: write_font(p, "c.ttf", font_bytes(cmap=False)),
                        "no Unicode character map"),
    "woff2": (lambda p: write_font(p, "w.woff2", b"wOF2" + bytes(60)), "WOFF"),
    "empty": (lambda p: write_font(p, "e.ttf", b""), "bytes"),
    "sparse-3GiB": (_sparse, "bytes: a font file has"),
    "fifo": (_fifo, "not a regular file"),
    "folder": (lambda p: p, "not a regular file"),
    "missing": (lambda p: p / "nothing.ttf", "no such file"),
}


@pytest.mark.parametrize("case", BROKEN, ids=list(BROKEN))
def test_a_broken_font_exits_2_naming_it(case, tmp_path, capsys):
    make, says = BROKEN[case]
    font = make(tmp_path)
    status, out = _export(tmp_path, font)
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(f"--font {font}: ") and says in err, err
    assert not out.exists()


def test_a_fifo_is_never_opened_by_the_command(tmp_path):
    font = _fifo(tmp_path)
    proc = gpuviz("export", SCENARIO, "--out", tmp_path / "o", "--font", font, timeout=20)
    assert proc.returncode == 2 and f"--font {font}: not a regular file" in text(proc.stderr)


@pytest.mark.parametrize("fmt,extra", [("svg", ()), ("svg", ("--embed-fonts",)),
                                       ("svg", ("--text-as-paths",)), ("pdf", ()), ("png", ())],
                         ids=["text", "embed", "paths", "pdf", "png"])
def test_a_face_lacking_characters_borrows_the_shipped_face(fmt, extra, tmp_path, capsys):
    """A face with only "ABC" and the space: every other character is measured and drawn in
    the shipped face, never as its .notdef box (which this face draws as a filled box)."""
    from gpuviz.export.text_paths import text_path_data
    from gpuviz.figures.display import Text
    from gpuviz.figures.metrics import face, use_typeface

    font = write_font(tmp_path, "few.ttf", font_bytes(chars="ABC "))
    use_typeface(str(font))
    try:
        m = face("sans")
        assert ord("z") in m.shipped and m.width_em("z") != m.fallback
        own, _, _, _ = text_path_data(Text(0, 0, "A", 10, "#000"))
        lent, _, _, _ = text_path_data(Text(0, 0, "z", 10, "#000"))
        assert own == "M50 0V700H450V0Z" and lent and "H450" not in lent  # z is not the face's box
    finally:
        use_typeface(None)
    status, out = _export(tmp_path, font, *extra, fmt=fmt)
    assert status == 0, capsys.readouterr().err
    [written] = out.glob(f"*.{fmt}")
    if fmt == "svg" and not extra:
        assert "'Crafted', Inter," in written.read_text(encoding="utf-8")
