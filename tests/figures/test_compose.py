"""compose() for a slide or a view: the design it searches is recorded, and laying out again
with that design builds the blocks once and gives the same figure."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.blocks import BlockCanvas
from gpuviz.figures.composition import SLIDE_FACTORS, compose
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import DESIGN_FACTORS, SLIDE, view_target
from gpuviz.figures.text_blocks import text_block
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCREEN = theme("screen")


def _counting_blocks():
    calls: list[float] = []

    def body(width: float):
        calls.append(width)
        c = BlockCanvas()
        cells = max(1, int(width // 12))
        for i in range(24):
            row, col = divmod(i, cells)
            c.value(col * 12.0, row * 8.0, 11.0, 7.0, str(i * 1000), SCREEN.text_pt,
                    SCREEN.foreground, floor=7.0, key=f"cell:{i}")
        return [c.block(min(width, cells * 12.0), (-(-24 // cells)) * 8.0, "cells")]

    def side(width: float):
        return [text_block("A note that explains the cells at some length, to be wrapped.",
                           SCREEN, width)]

    return calls, body, side


def test_a_view_layout_records_its_design_and_repeats_it_from_one_build():
    calls, body, side = _counting_blocks()
    target = view_target(240, 1.5)
    full = compose(target, SCREEN, title="Cells", body=body, side=side, natural_width=120)
    assert len(calls) == 2 * len(DESIGN_FACTORS)  # stacked and beside at every design width
    assert full.design is not None and full.design[1] in DESIGN_FACTORS
    calls.clear()
    again = compose(replace(target, design=full.design), SCREEN, title="Cells", body=body,
                    side=side, natural_width=120)
    assert len(calls) == 1
    assert again == full  # the same items, page and design: the redraw is the final picture
    assert figure_to_svg(again) == figure_to_svg(full)


def test_a_given_design_is_followed_even_where_the_search_would_choose_another():
    calls, body, side = _counting_blocks()
    full = compose(SLIDE, SCREEN, title="Cells", body=body, side=side, natural_width=120)
    other = next(d for d in [("stacked", f) for f in DESIGN_FACTORS] if d != full.design)
    calls.clear()
    drafted = compose(replace(SLIDE, design=other), SCREEN, title="Cells", body=body, side=side,
                      natural_width=120)
    assert calls == [120 * other[1]]
    assert drafted.design == other and drafted != full
    assert replace(SLIDE, design=other).searched() == SLIDE


def test_every_panel_repeats_its_view_design_exactly():
    for name in ("launch-n130", "reduction-block", "traversal-h200-l2", "swizzle-column3"):
        scenario = load_scenario(scenario_dir() / f"{name}.json")
        for pid in scenario.panels:
            target = view_target(260, 1.4)
            full = figure_for(scenario, pid, SCREEN, target=target)
            assert full.design is not None, pid
            again = figure_for(scenario, pid, SCREEN, target=replace(target, design=full.design))
            assert figure_to_svg(again) == figure_to_svg(full), pid


def test_every_panel_figure_takes_its_target_as_the_figure_protocol_declares():
    """Every figure is laid out for its target (``registry.FigureModule``): none is built at
    its natural size and scaled into a column or a slide."""
    import inspect

    from gpuviz.registry import PANELS

    for p in PANELS:
        signature = inspect.signature(p.figure.build)
        signature.bind("result", frozenset(), SCREEN, SLIDE)  # raises if it takes no target
        assert list(signature.parameters)[3] == "target", p.id


def test_a_side_by_side_design_for_a_figure_without_a_side_column_builds_once_stacked():
    # the view search asks every figure for "beside" designs too; one with no side column
    # searched every stacked width instead (six builds where one was asked for), a third of
    # the builds of F5 on banks-swizzled-columns
    calls, body, _ = _counting_blocks()
    target = view_target(240, 1.5)
    for factor in DESIGN_FACTORS:
        calls.clear()
        figure = compose(replace(target, design=("beside", factor)), SCREEN, title="Cells",
                         body=body, natural_width=120)
        assert len(calls) == 1
        assert figure.design == ("stacked", factor)


def test_a_page_too_narrow_for_the_title_on_one_line_sets_the_short_title():
    """A view's design narrower than the title on one line sets the column's shorter title, as
    a journal column does: the second title line took the height the bank rack beside the
    swizzle grid needed in F5. A design wide enough keeps the whole title."""
    _, body, side = _counting_blocks()
    title = "Cells of a figure whose title is long enough to take two lines when narrow"
    for width, natural, kept in ((90, 60, "Cells"), (600, 400, title)):
        figure = compose(view_target(width, 4.0), SCREEN, title=title, column_title="Cells",
                         body=body, side=side, natural_width=natural)
        assert figure.texts()[0] == kept, width
        assert title.split()[1] not in figure.texts()[1:2]  # never both, nor a second line


def _exhaustive(monkeypatch):
    """The search with every design built whole: the reference the pruned search must match."""
    from gpuviz.figures import composition

    monkeypatch.setattr(composition._Arrangement, "reaches", lambda self, right, down: None)


def test_a_search_gives_up_designs_on_a_told_size_and_chooses_as_the_whole_search(monkeypatch):
    """A body that tells the size of its next block (``Reach``) is not asked to build it in a
    design that size keeps from beating the best one; the design and figure are those of the
    search that builds every design whole."""
    from gpuviz.figures.composition import Reach

    built: list[float] = []
    _, cells, side = _counting_blocks()

    def body(width: float):
        block = cells(width)[0]  # its size, as a body computes it before drawing
        yield Reach(block.width, block.height)
        built.append(width)
        yield block

    for target in (view_target(240, 1.5), view_target(160, 0.8), view_target(400, 3.0), SLIDE):
        built.clear()
        pruned = compose(target, SCREEN, title="Cells", body=body, side=side, natural_width=120)
        factors = SLIDE_FACTORS if target.gridded else DESIGN_FACTORS  # a slide's body box
        assert len(built) < 2 * len(factors), target
        with monkeypatch.context() as m:
            _exhaustive(m)
            built.clear()
            whole = compose(target, SCREEN, title="Cells", body=body, side=side,
                            natural_width=120)
            assert len(built) == 2 * len(factors)
        assert pruned.design == whole.design and pruned == whole, target


def test_the_launch_view_searched_is_the_whole_search_in_fewer_builds(monkeypatch):
    """The first frame's search on the default scenario (and others) chooses the design and
    draws the figure the search building all twelve designs does, drawing the lanes' cells in
    a fraction of the designs."""
    from gpuviz.figures import launch
    from gpuviz.scenario import default_scenario_path

    drawn: list[float] = []
    draw = launch._LanesPlan.draw

    def counted(self, *args):
        drawn.append(self.width)
        return draw(self, *args)

    monkeypatch.setattr(launch._LanesPlan, "draw", counted)
    for path in (default_scenario_path(), scenario_dir() / "launch-n130.json"):
        scenario = load_scenario(path)
        for size in ((353, 1.67), (235, 1.25), (423, 3.6), (165, 0.78), (301, 1.78)):
            for name in ("screen", "dark", "presentation"):
                target, th = view_target(*size), theme(name)
                drawn.clear()
                pruned = figure_for(scenario, "launch", th, target=target)
                fewer = len(drawn)
                with monkeypatch.context() as m:
                    _exhaustive(m)
                    drawn.clear()
                    whole = figure_for(scenario, "launch", th, target=target)
                assert fewer < len(drawn) == 2 * len(DESIGN_FACTORS), (size, name)
                assert figure_to_svg(pruned) == figure_to_svg(whole), (path.name, size, name)


def test_the_launch_slide_with_room_for_a_wider_face_is_the_whole_search(monkeypatch):
    """Where the layout leaves room for a wider fallback face (an SVG slide with text as text),
    a block can be wider than its told size: none is told, and the search is the whole one."""
    from gpuviz.figures.metrics import fallback_room
    from gpuviz.scenario import default_scenario_path

    scenario = load_scenario(default_scenario_path())
    for name in ("screen", "presentation"):
        with fallback_room(True):
            pruned = figure_for(scenario, "launch", theme(name), target=SLIDE)
            with monkeypatch.context() as m:
                _exhaustive(m)
                whole = figure_for(scenario, "launch", theme(name), target=SLIDE)
        assert figure_to_svg(pruned) == figure_to_svg(whole), name
