"""Golden SVGs: every bundled scenario's figures, in the print theme, byte for byte.

A figure that changes on purpose is approved by regenerating:

    GPUVIZ_UPDATE_GOLDEN=1 make test

then reviewing `git diff tests/golden/` (and the pictures) before committing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import bundled_scenarios, load_scenario

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
UPDATE = os.environ.get("GPUVIZ_UPDATE_GOLDEN") == "1"

CASES = [(path, pid) for path in bundled_scenarios() for pid in load_scenario(path).panels]


@pytest.mark.parametrize(("path", "panel_id"), CASES, ids=[f"{p.stem}-{pid}" for p, pid in CASES])
def test_figure_matches_its_golden_svg(path, panel_id):
    svg = figure_to_svg(figure_for(load_scenario(path), panel_id, theme("print")))
    golden = GOLDEN / f"{path.stem}-{panel_id}.svg"
    if UPDATE:
        golden.parent.mkdir(exist_ok=True)
        changed = not golden.exists() or golden.read_text(encoding="utf-8") != svg
        golden.write_text(svg, encoding="utf-8")
        pytest.skip(f"{golden.name} {'approved anew' if changed else 'unchanged'}: an approval "
                    "run checks nothing")
    assert golden.exists(), f"no golden file {golden.name}; approve with GPUVIZ_UPDATE_GOLDEN=1"
    expected = golden.read_text(encoding="utf-8")
    if svg != expected:
        a, b = expected.splitlines(), svg.splitlines()
        first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        pytest.fail(f"{golden.name} differs from line {first + 1}:\n"
                    f"  golden: {a[first] if first < len(a) else '(end)'}\n"
                    f"  now:    {b[first] if first < len(b) else '(end)'}\n"
                    "If the change is intended, regenerate with GPUVIZ_UPDATE_GOLDEN=1 and review.")


def test_no_stale_golden_files():
    expected = {f"{p.stem}-{pid}.svg" for p, pid in CASES}
    present = {f.name for f in GOLDEN.glob("*.svg")}
    assert present <= expected, f"golden files without a scenario: {sorted(present - expected)}"
