"""Names and targets (class 9 of the third hardening round): a legal long name is written; an
output that is its own input, through a symbolic or a hard link, never destroys the input; an
unwritable folder is refused before anything is built."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import gpuviz.api as gv
from gpuviz.atomic import write_atomic
from gpuviz.cli import main

SECTORS = Path(__file__).parents[2] / "scenarios" / "sectors-stride8.json"
NAME_MAX = os.pathconf(tempfile.gettempdir(), "PC_NAME_MAX")


@pytest.mark.parametrize("length", [NAME_MAX - 20, NAME_MAX - 6, NAME_MAX])
def test_a_legal_long_name_is_written(length, tmp_path):
    target = tmp_path / ("a" * (length - 4) + ".svg")
    write_atomic(target, b"<svg/>")
    assert target.read_bytes() == b"<svg/>"
    assert os.listdir(tmp_path) == [target.name]  # no temporary file left beside it


def _link(kind, source: Path, target: Path) -> None:
    (os.symlink if kind == "symlink" else os.link)(source.name if kind == "symlink" else source,
                                                   target)


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
@pytest.mark.parametrize("fmt,name", [("svg", "s-sectors.svg"), ("html", "s.html"),
                                      ("pdf", "s-sectors.pdf")])
def test_an_output_linked_to_its_input_keeps_the_input(kind, fmt, name, tmp_path, capsys):
    source = tmp_path / "s.json"
    shutil.copy(SECTORS, source)
    before = source.read_bytes()
    _link(kind, source, tmp_path / name)
    extra = ["--all-steps"] if fmt == "html" else []
    status = main(["export", str(source), "--out", str(tmp_path), "--format", fmt, *extra])
    assert status != 0 or capsys.readouterr().err
    assert source.read_bytes() == before


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
@pytest.mark.parametrize("save", ["save_html", "save_deck"])
def test_the_api_keeps_its_own_file(kind, save, tmp_path):
    source = tmp_path / "s.json"
    shutil.copy(SECTORS, source)
    before = source.read_bytes()
    target = tmp_path / "out"
    _link(kind, source, target)
    with pytest.raises(OSError, match="input being exported"):
        getattr(gv.load(source), save)(target)
    assert source.read_bytes() == before
    gv.load(source).save(source)  # saving the scenario over its own file stays allowed


def test_an_unwritable_folder_is_refused_before_the_lecture_is_built(capsys):
    folder = "/sys/fs"
    if os.access(folder, os.W_OK) and not os.path.ismount("/sys"):
        pytest.skip("no unwritable folder here")
    try:
        tempfile.TemporaryFile(dir=folder).close()
        pytest.skip("the folder is writable here")
    except OSError:
        pass
    status = main(["export", str(SECTORS), "--out", folder, "--format", "html", "--all-steps"])
    assert status == 2 and "cannot write into this folder" in capsys.readouterr().err


@pytest.mark.parametrize("save", ["save_html", "save_deck", "save_handout", "cli"])
def test_a_target_linked_to_the_input_is_refused_before_the_lecture_is_built(save, tmp_path,
                                                                             monkeypatch,
                                                                             capsys):
    """The target is checked first: a lecture whose output is its own input is refused
    without building the lecture (it took a whole deck's build before)."""
    import gpuviz.export.lecture_file as lecture_file

    source = tmp_path / "s.json"
    shutil.copy(SECTORS, source)
    before = source.read_bytes()
    lecture = gv.load(source)

    def built(*args, **kwargs):
        raise AssertionError("the lecture was built before its target was checked")

    monkeypatch.setattr(lecture_file, "lecture_bytes", built)
    if save == "cli":
        _link("symlink", source, tmp_path / "s.html")
        status = main(["export", str(source), "--out", str(tmp_path), "--format", "html"])
        assert status != 0 and "input being exported" in capsys.readouterr().err
    else:
        target = tmp_path / "out"
        _link("hardlink", source, target)
        with pytest.raises(OSError, match="input being exported"):
            getattr(lecture, save)(target)
    assert source.read_bytes() == before
