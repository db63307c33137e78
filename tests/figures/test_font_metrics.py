"""The metrics table the layout measures text with (resources/font_metrics.json) is exactly what
the bundled font files say, read with fontTools; laying out a figure never loads fontTools."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont

from gpuviz.figures.metrics import FONT_FILES, face

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("font_metrics_tool", ROOT / "tools" / "font_metrics.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_table_is_what_the_tool_writes_from_the_fonts():
    tool = _tool()
    on_disk = (ROOT / "resources" / "font_metrics.json").read_text(encoding="utf-8")
    assert json.loads(on_disk) == json.loads(tool.dumps(tool.build())), \
        "resources/font_metrics.json is stale: run tools/font_metrics.py"


def test_face_metrics_match_the_font_files():
    for (kind, bold), name in FONT_FILES.items():
        font = TTFont(str(ROOT / "resources" / "fonts" / name), lazy=True)
        upm = float(font["head"].unitsPerEm)
        hmtx = font["hmtx"].metrics
        cmap = font.getBestCmap()
        m = face(kind, bold)
        assert set(m.advances) == {cp for cp, g in cmap.items() if g in hmtx}
        for cp in (ord("0"), ord("M"), ord("i"), ord(" "), 0x00D7, 0x2192):
            if cp in cmap:
                assert m.advances[cp] == hmtx[cmap[cp]][0] / upm
        assert m.fallback == hmtx[".notdef"][0] / upm
        assert m.cap_height == font["OS/2"].sCapHeight / upm
        assert m.x_height == font["OS/2"].sxHeight / upm
        assert m.ascender == font["hhea"].ascent / upm
        assert m.descender == -font["hhea"].descent / upm
        font.close()


def test_measuring_text_does_not_import_fonttools():
    code = ("import sys; from gpuviz.figures.metrics import text_width; "
            "assert text_width('Grid 4 × 2', 9) > 0; "
            "print('fontTools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "False"
