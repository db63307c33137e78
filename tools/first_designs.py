"""Write resources/first_designs.json: the designs the default lecture's views are laid out with
on a first start, on common screens, so that a first start (no settings) draws its first frame
with one build instead of a layout search (``gpuviz/ui/design_memory.py``).

For each screen of SCREENS the window is started on the offscreen platform with a screen of
that size and no settings, as a user's first start; once every shown dock's layout for the
lecture is known, its view shape, pixels, least type and the design its layout chose are
written down. tests/ui/test_first_designs.py lays each view out afresh and compares.

    python tools/first_designs.py          # rewrite the table
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "first_designs.json"
# (width, height) of the screens laid out for: the common desktop and laptop sizes in logical
# pixels (a 4K screen at 200 % is 1920×1080), and the 720p of a projector
SCREENS = ((1920, 1080), (1920, 1200), (2560, 1440), (1680, 1050), (1600, 900), (1536, 864),
           (1440, 900), (1366, 768), (1280, 800), (1280, 720))

CHILD = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from gpuviz.ui.app import start
w = start(None)
def done():
    if not w.is_complete() or not all(d.settled() for d in w.docks.values() if d.isVisible()):
        QTimer.singleShot(50, done)
        return
    views = []
    for d in w.docks.values():
        if not d.isVisible():
            continue
        base = d._base_target()
        known, layout = d.layouts.known(d._ask(base))
        assert known and d.document.step == -1 and d.parts is None
        if layout is not None and layout.design is not None and layout.parts is None:
            views.append({"panel": d.panel.id, "theme": d.theme.name, "width": base.width,
                          "aspect": base.aspect, "view_px": list(d.view_px()),
                          "min_px": d.min_px, "design": f"{layout.design[0]}:{layout.design[1]:g}"})
    print("VIEWS", json.dumps(views), flush=True)
    QApplication.quit()
QTimer.singleShot(0, done)
QApplication.exec()
"""


def views_on(width: int, height: int) -> list[dict]:
    with tempfile.TemporaryDirectory() as config:
        screen = Path(config) / "screen.json"
        screen.write_text(json.dumps({"screens": [{
            "name": "first", "x": 0, "y": 0, "width": width, "height": height,
            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
        env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={screen}",
                   XDG_CONFIG_HOME=config)
        out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                             text=True, timeout=300, check=True).stdout
    line = next(line for line in out.splitlines() if line.startswith("VIEWS "))
    return [dict(v, screen=[width, height]) for v in json.loads(line[len("VIEWS "):])]


def table() -> dict:
    from gpuviz.scenario.bundled import default_scenario_path

    path = default_scenario_path()
    views: list[dict] = []
    for width, height in SCREENS:
        for v in views_on(width, height):
            if all((v["panel"], v["theme"], v["width"], v["aspect"])
                   != (k["panel"], k["theme"], k["width"], k["aspect"]) for k in views):
                views.append(v)
    return {"about": "written by tools/first_designs.py: the designs of the default lecture's "
                     "views on a first start (ui/design_memory.py)",
            "scenario": path.name, "crc32": zlib.crc32(path.read_bytes()), "views": views}


def main() -> None:
    t = table()
    views = ",\n  ".join(json.dumps(v) for v in t.pop("views"))
    head = json.dumps(t, indent=1)[:-2]  # one view a line
    OUT.write_text(f'{head},\n "views": [\n  {views}\n ]\n}}\n', encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
