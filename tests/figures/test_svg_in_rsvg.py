"""An SVG with text as text, opened by a real renderer without Inter installed, as it is on
most authors' machines: rsvg-convert (librsvg, what GNOME's viewers and many LaTeX toolchains
use to convert SVG) sets the text in fontconfig's fallback, DejaVu Sans. The layout leaves room
for that face (``metrics.FALLBACK_ROOM``); these tests check the room against what the renderer
actually draws, and that no bundled figure is clipped at its page's edge by it.

Skipped where rsvg-convert is missing (``tools/system-deps.sh`` installs it)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image as PILImage

from gpuviz.export.files import budget_pages, export_figure
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.display import Figure, Text
from gpuviz.figures.metrics import FALLBACK_ROOM, text_width
from gpuviz.registry import PANEL_IDS
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

RSVG = shutil.which("rsvg-convert")
pytestmark = pytest.mark.skipif(RSVG is None, reason="rsvg-convert (librsvg2-bin) is missing")

DPI = 600
MM_PER_PX = 25.4 / DPI


def _render(svg: str, dpi: int = DPI) -> np.ndarray:
    """The SVG as rsvg-convert draws it on white, as grey levels (0 ink, 255 paper)."""
    assert RSVG is not None
    done = subprocess.run([RSVG, "-d", str(dpi), "-p", str(dpi), "-b", "white"],
                          input=svg.encode("utf-8"), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert not done.stderr, done.stderr.decode("utf-8", "replace")
    return np.asarray(PILImage.open(io.BytesIO(done.stdout)).convert("L"))


def _ink_width_mm(text: str, size_pt: float, bold: bool) -> float:
    """The width of the ink rsvg-convert draws for one line of sans text."""
    page = text_width(text, size_pt, "sans", bold) * 1.5 + 10.0
    fig = Figure(page, size_pt, "#ffffff",
                 (Text(5.0, size_pt * 0.75, text, size_pt, "#000000", bold=bold),))
    grey = _render(figure_to_svg(fig))
    cols = np.flatnonzero((grey < 128).any(axis=0))
    assert len(cols), f"rsvg-convert drew nothing for {text!r}"
    return float((cols[-1] - cols[0] + 1) * MM_PER_PX)


# labels of the kind the figures set in the sans face: prose, numbers with separators and units,
# parenthesised qualifiers, and the widest letters (m, w, W) that separate the two faces most
LABELS = (
    "FLOPs per requested byte as the tile grows",
    "reconvergence point (ipdom)",
    "2 float loads per MAC + 1 float store",
    "tile side T (elements, log scale)",
    "Model: 8 32-byte sectors · H200 measured: 8",
    "shared memory per SM, 228 KiB",
    "warps per SM 48 · 1,536 threads",
    "Wavefronts: 4 (4-way conflict)",
    "mmmm wwww WWWW MMMM",
)


@pytest.mark.parametrize("bold", [False, True])
def test_the_fallback_face_rsvg_draws_fits_the_room_the_layout_leaves(bold):
    """Every label's ink, as rsvg-convert sets it in DejaVu Sans, fits within its width in the
    shipped face times the room left for the fallback (8 % regular, 18 % bold), and the room is
    needed: some label is wider than it is in the shipped face."""
    room = FALLBACK_ROOM[("sans", bold)]
    ratios = []
    for label in LABELS:
        ink = _ink_width_mm(label, 10.0, bold)
        ratios.append(ink / text_width(label, 10.0, "sans", bold))
    assert max(ratios) <= room, [f"{r:.3f} {t!r}" for r, t in zip(ratios, LABELS, strict=True)]
    assert max(ratios) > 1.0  # the fallback face is wider: without the room, text would collide


def _first_scenario(panel_id: str) -> Path:
    for path in sorted(scenario_dir().glob("*.json")):
        if panel_id in load_scenario(path).panels:
            return path
    raise LookupError(panel_id)


@pytest.mark.parametrize("panel_id", PANEL_IDS)
def test_a_bundled_svg_rendered_by_rsvg_keeps_its_ink_off_the_page_edge(panel_id, tmp_path):
    """A panel's first bundled figure, exported as SVG for a single column in print (as the
    pages that meet the column's budget, as ``gpuviz export --size single`` writes them), drawn
    by rsvg-convert: each renders without a warning and no ink touches the page's edge (text
    run past the page by the wider face would be cut there)."""
    path = _first_scenario(panel_id)
    scenario = load_scenario(path)
    pages = budget_pages(scenario, panel_id, "print", "single") or (None,)
    for page in pages:
        out = tmp_path / "figure.svg"
        export_figure(scenario, panel_id, out, theme_name="print", size="single", parts=page)
        grey = _render(out.read_text(encoding="utf-8"), dpi=300)
        edges = {"left": grey[:, :2], "right": grey[:, -2:], "top": grey[:2, :],
                 "bottom": grey[-2:, :]}
        touched = [side for side, band in edges.items() if band.min() < 200]
        assert not touched, f"{path.name} {page}: ink at the {', '.join(touched)} edge"
