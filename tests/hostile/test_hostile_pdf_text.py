"""Every PDF gives the reader its text (class 11 of the third hardening round): what pdftotext
extracts, as copying or a screen reader does, holds every character the figure's text holds
("=", "×", "–", ":" and parentheses came out as other characters, or not at all)."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter

import pytest

import gpuviz.api as gv
from gpuviz.figures.display import Text, walk

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (poppler-utils, tools/system-deps.sh) absent")
MARKS = "=×–:()·%,"


def _extracted(path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, timeout=20).stdout.decode("utf-8")


@pytest.mark.parametrize("name", ["gemm-walkthrough", "mma-hierarchy", "occupancy-block-size"])
def test_a_figure_pdf_copies_as_its_text(name, tmp_path):
    fig = gv.load(name).figure()
    path = fig.save(tmp_path / "f.pdf")
    texts = "".join(t.text for t in walk(fig.figure.items) if isinstance(t, Text))
    want, got = Counter(c for c in texts if c in MARKS), Counter(_extracted(path))
    assert want and all(got[c] >= n for c, n in want.items()), (want, got)


def test_a_handout_copies_as_its_text(tmp_path):
    lecture = gv.load("gemm-walkthrough")
    path = lecture.save_handout(tmp_path / "h.pdf")
    got = _extracted(path)
    assert lecture.title in " ".join(got.split()) and got.count("=") >= 1
