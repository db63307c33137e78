"""A target's kind decides its layout: figures ask the kind (or a predicate on it), never whether
the width or aspect is None or what the target is called (``figures.targets``)."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from gpuviz.figures.blocks import BlockCanvas
from gpuviz.figures.composition import compose
from gpuviz.figures.targets import (
    DOUBLE,
    KINDS,
    NATURAL,
    SINGLE,
    SLIDE,
    TARGETS,
    Target,
    view_target,
)
from gpuviz.figures.theme import theme

ROOT = Path(__file__).resolve().parents[2]
SHAPE = ("width", "aspect")  # the fields a kind test used to read


def _kind_tests(path: Path) -> list[str]:
    """Each place in ``path`` that tests a target's width or aspect against None (or for
    truth), or compares a target's name with a string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    out = []

    def shape(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in SHAPE

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            nones = any(isinstance(s, ast.Constant) and s.value is None for s in sides)
            if nones and any(shape(s) for s in sides):
                out.append(f"{where}:{node.lineno} {ast.unparse(node)}")
            named = any(isinstance(s, ast.Attribute) and s.attr == "name"
                        and "target" in ast.unparse(s.value) for s in sides)
            strings = any(isinstance(s, (ast.Constant, ast.Tuple, ast.Set, ast.List))
                          and "'" in ast.unparse(s) for s in sides)
            if named and strings:
                out.append(f"{where}:{node.lineno} {ast.unparse(node)}")
        elif isinstance(node, (ast.If, ast.IfExp, ast.While)) and shape(node.test):
            out.append(f"{where}:{node.lineno} if {ast.unparse(node.test)}")
        elif isinstance(node, ast.BoolOp) and any(shape(v) for v in node.values):
            out.append(f"{where}:{node.lineno} {ast.unparse(node)}")
    return out


def test_no_module_tests_a_targets_shape_or_name():
    """Only ``figures/targets.py`` derives the kind from the shape; every other module (the
    figures, the app, the export) asks the kind."""
    own = ROOT / "gpuviz" / "figures" / "targets.py"
    found = [hit for path in sorted((ROOT / "gpuviz").rglob("*.py")) if path != own
             for hit in _kind_tests(path)
             if "target" in hit.split(" ", 1)[1] or "tg." in hit]
    assert not found, found


def test_the_scan_finds_the_old_tests(tmp_path):
    """The scan above sees each form the figures used before kinds."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f(target):\n"
                      "    a = target.width is None\n"
                      "    b = target.aspect is not None and target.whole\n"
                      "    c = target.name == 'single'\n"
                      "    if target.aspect:\n"
                      "        pass\n", encoding="utf-8")
    assert len(_kind_tests(sample)) == 4


def test_each_size_has_its_kind():
    assert [TARGETS[n].kind for n in ("natural", "single", "double", "slide")] == [
        "natural", "column", "column", "slide"]
    assert view_target(120.0, 1.5).kind == "view"
    assert set(KINDS) == {"natural", "column", "page", "slide", "view"}


def test_predicates_follow_the_kind():
    assert not NATURAL.paged and not SINGLE.paged and not DOUBLE.paged
    assert SLIDE.paged and SLIDE.gridded and not SLIDE.on_screen
    view = view_target(120.0, 1.5)
    assert view.paged and view.on_screen and not view.gridded
    page = replace(SLIDE, kind="page")  # a slide's page off its title-safe grid
    assert page.paged and not page.gridded and not page.on_screen
    assert SINGLE.single_column and not DOUBLE.single_column and not SLIDE.single_column
    assert SLIDE.page == (254.0, 254.0 / (16.0 / 9.0)) and SLIDE.shape == 16.0 / 9.0


@pytest.mark.parametrize("width, aspect, kind", [
    (None, None, "column"), (85.0, None, "natural"), (85.0, None, "slide"),
    (254.0, 1.5, "column"), (None, 1.5, "view")])
def test_a_kind_that_contradicts_the_shape_is_refused(width, aspect, kind):
    with pytest.raises(ValueError):
        Target("odd", width, aspect, kind=kind)


def test_no_page_for_a_target_without_one():
    with pytest.raises(ValueError):
        _ = NATURAL.width_mm
    assert SINGLE.width_mm == 85.0
    for target in (NATURAL, SINGLE):
        with pytest.raises(ValueError):
            _ = target.page
        with pytest.raises(ValueError):
            _ = target.shape


def _cells(width: float):
    th = theme("print")
    c = BlockCanvas()
    for i in range(12):
        c.value((i % 4) * 12.0, (i // 4) * 8.0, 11.0, 7.0, str(i), th.text_pt, th.foreground,
                floor=7.0, key=f"cell:{i}")
    return [c.block(48.0, 24.0, "cells")]


def test_the_kind_not_the_name_picks_the_layout():
    """A slide renamed stays on its grid; a slide of kind ``page`` is centred off it; a column
    of any name is as tall as it takes."""
    th = theme("print")
    renamed = compose(replace(SLIDE, name="talk"), th, title="Cells", body=_cells)
    assert renamed.body_box is not None  # laid out on the title-safe grid
    page = compose(replace(SLIDE, kind="page"), th, title="Cells", body=_cells)
    assert page.body_box is None and page.width == SLIDE.page[0]
    assert abs(page.height - SLIDE.page[1]) < 1e-9
    column = compose(replace(SINGLE, name="paper"), th, title="Cells", body=_cells)
    assert column.width == 85.0 and column.height < SLIDE.page[1]
