"""What the first frame imports: the window on the default scenario, painted once, in a fresh
interpreter. Its modules leave out numpy (a launch figure's display batches are tuples) and
fontTools (text is measured from the bundled metrics) and statistics (with fractions and decimal,
3 ms: a slide's median type is taken without it), as docs/architecture.md's Start-up says."""

from __future__ import annotations

import os
import subprocess
import sys

FIRST_FRAME = """
import gc, os, sys
gc.disable()
from gpuviz.ui.app import start
w = start(None, show=False)
def painted():
    heavy = sorted(m for m in ("numpy", "fontTools", "networkx", "pyqtgraph", "statistics")
                   if m in sys.modules)
    print("imported:", ",".join(heavy), flush=True)
    os._exit(0)
w.complete = painted  # called on the turn after the paint pass that painted the first figure
w.show()
from PySide6.QtWidgets import QApplication
QApplication.exec()
"""


def test_first_frame_imports_no_numpy_or_fonttools(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", FIRST_FRAME], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    lines = [line for line in out.splitlines() if line.startswith("imported:")]
    assert lines, out
    assert lines[0] == "imported: ", lines[0]


SOURCES_READ = """
import sys
import gpuviz.ui  # the core, then what PySide's import hook is told of it
feature = sys.modules["shibokensupport.feature"]
read = []
scan = feature._mod_uses_pyside
def reading(module):
    read.append(module.__name__)
    return scan(module)
feature._mod_uses_pyside = reading
from gpuviz.ui.app import start
from gpuviz.ui.main_window import MainWindow
print("read:", ",".join(sorted(n for n in read if n.startswith("gpuviz") or n in sys.stdlib_module_names)))
"""


def test_pyside_reads_no_source_of_the_modules_start_up_imports(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", SOURCES_READ], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    lines = [line for line in out.splitlines() if line.startswith("read:")]
    assert lines == ["read: gc"], out  # gc is built in: no source to read


DEFERRED = """
import enum, gc, os, sys
gc.disable()
made = []  # the Python enums PySide makes as classes are first named
create = enum.EnumType._create_
def making(cls, name, names, **kw):
    made.append(kw.get("qualname") or name)
    return create(cls, name, names, **kw)
enum.EnumType._create_ = making
from gpuviz.ui.app import start
w = start(None, show=False)
def painted():
    print("deferred:", "gpuviz.ui.lecture_keys" in sys.modules,
          "ScrollHint" in made, len(made) > 100, flush=True)  # QAbstractItemView.ScrollHint
    os._exit(0)
w.complete = painted
w.show()
from PySide6.QtWidgets import QApplication
QApplication.exec()
"""


def test_the_first_frame_names_no_item_view_and_imports_no_lecture_keys(tmp_path):
    """The step list's popup (a list view) is named when it first opens; the lecture's keys
    are installed once the window is complete."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", DEFERRED], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    assert [ln for ln in out.splitlines() if ln.startswith("deferred:")] \
        == ["deferred: False False True"], out
