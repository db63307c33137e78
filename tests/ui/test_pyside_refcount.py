"""Regression guard for the PySide6 6.12.0 / CPython 3.11 crash (docs/platform.md): a long loop of
void-returning calls must not abort the interpreter with the PySide6 this project installs."""

from __future__ import annotations

import subprocess
import sys

LOOP = """
from PySide6 import QtGui
path = QtGui.QPainterPath()
for i in range(200_000):
    path.addRect(float(i), 0.0, 3.5, 3.5)
print("survived", path.elementCount())
"""


def test_two_hundred_thousand_void_calls_do_not_crash_the_interpreter():
    proc = subprocess.run([sys.executable, "-c", LOOP], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"interpreter died: {proc.stderr[-500:]}"
    assert proc.stdout.startswith("survived 1000000")


def test_installed_pyside_respects_the_pin():
    import PySide6

    major, minor = (int(x) for x in PySide6.__version__.split(".")[:2])
    if sys.version_info < (3, 12):
        assert (major, minor) < (6, 12), "PySide6 6.12 crashes on Python < 3.12; see pyproject.toml"
