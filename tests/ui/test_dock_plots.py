"""The docks' interactive plots show the figure's own data in the figure's style: the scheduler's
zoomable timeline (and its export of the visible cycles), the gemm and traversal plots."""

from __future__ import annotations

import itertools

import numpy as np
from PySide6.QtWidgets import QApplication, QSplitter

from gpuviz import keys
from gpuviz.figures.display import Image, walk
from gpuviz.figures.theme import theme
from gpuviz.figures.traversal import sweep_series
from gpuviz.scenario.compute import compute_all


def _figure(dock):
    QApplication.processEvents()
    return dock.current_figure()


def _images(figure):
    return {item.key: item.rgb for item in walk(figure.items) if isinstance(item, Image)}


def test_scheduler_timeline_is_the_figures_timeline_for_the_whole_run(make_main_window,
                                                                        scenario_path):
    w = make_main_window(scenario_path("scheduler-try-round-robin.json"))
    dock = w.docks["scheduler"]
    tl = dock.extras.timeline
    r = tl.result
    img = tl.image.image
    assert img.shape == (r.resident_warps + 1, r.cycles, 3)
    figure = _figure(dock)
    images = _images(figure)
    win = images["slots"].shape[1]
    # the figure shows the window its width holds (one that begins before the first math
    # instruction where it holds less than a loop); the dock opens on the run's first window
    from gpuviz.figures.scheduler import visible_cycles, window_cycles

    start, end = tl.visible()
    assert start == 0 and end >= min(win, window_cycles(r))
    shown = next(visible_cycles(r, frozenset(), fit) for fit in range(win, win + 100)
                 if visible_cycles(r, frozenset(), fit)[1] - visible_cycles(r, frozenset(), fit)[0]
                 == win)
    a, b = shown
    assert np.array_equal(img[:1, a:b], images["slots"])
    assert np.array_equal(img[1:, a:b], images["warps"])


def test_zooming_panning_and_exporting_the_visible_cycles(make_main_window, scenario_path, tmp_path):
    w = make_main_window(scenario_path("scheduler-try-round-robin.json"))
    dock = w.docks["scheduler"]
    tl = dock.extras.timeline
    box = tl.plot.getViewBox()
    a0, b0 = tl.visible()
    box.scaleBy(x=0.25, y=1)  # the wheel's zoom, around the centre
    a1, b1 = tl.visible()
    assert (b1 - a1) < (b0 - a0) / 2 and a1 > a0
    box.translateBy(x=2000)  # a drag to the right
    a2, b2 = tl.visible()
    assert a2 == a1 + 2000 and b2 - a2 == b1 - a1
    assert tl.range_label.text() == f"cycles {a2:,}–{b2 - 1:,} of {tl.result.cycles:,}"

    out = tmp_path / "window.svg"
    tl.export_visible(out)
    svg = out.read_text()
    assert f"Issue timeline, cycles {a2:,}–{b2 - 1:,} of {tl.result.cycles:,}" in svg

    from gpuviz.figures.scene import figure_for

    fig = figure_for(w.document.shown, "scheduler", theme("screen"), frozenset({keys.cycles(a2, b2 - 1)}))
    assert np.array_equal(_images(fig)["warps"], tl.image.image[1:, a2:b2])
    assert not any(k.startswith("cycles:") for k in w.document.selection)  # nothing shown changed


def test_a_cycles_key_in_the_selection_sets_the_timeline(make_main_window, scenario_path):
    w = make_main_window(scenario_path("scheduler-try-round-robin.json"))
    tl = w.docks["scheduler"].extras.timeline
    w.document.select({"cycles:500-799"})
    assert tl.visible() == (500, 800)
    assert "Issue timeline, cycles 500–799" in " ".join(_figure(w.docks["scheduler"]).texts())
    tl.show_whole_run()
    assert tl.visible() == (0, tl.result.cycles)


def _curves(plot):
    return [item for item in plot.listDataItems() if item.opts["pen"] is not None]


def test_the_gemm_dock_draws_the_flops_per_byte_plot_once(make_main_window, scenario_path,
                                                          qtbot):
    """The plot is the figure's intensity part (offered as a page where the whole figure is too
    small); the controls column says the tile's value in words, and draws no second plot."""
    import pyqtgraph as pg

    w = make_main_window(scenario_path("gemm-requested-bytes.json"))
    dock = w.docks["gemm"]
    result = compute_all(w.document.shown, ("gemm",))["gemm"]
    qtbot.waitUntil(lambda: dock.view_layout() is not None, timeout=10000)
    assert not dock.findChildren(pg.PlotWidget)
    pages = dock.view_layout().pages
    assert sum("intensity" in page for page in pages) == 1
    assert f"{result.tile_flops_per_byte:.3f} FLOPs per requested byte" in dock.summary.text()


def test_traversal_dock_plot_is_the_figures_sweep(make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("traversal-sweep.json"))
    dock = w.docks["traversal"]
    runner = dock.extras.sweep_runner
    qtbot.waitUntil(lambda: runner.result is not None, timeout=60000)
    result = compute_all(w.document.shown, ("traversal",))["traversal"]
    series, _marks = sweep_series(result.capacities, result.misses_by_order, result.capacity,
                                  result.order_name)
    curves = _curves(runner.plot)
    assert [c.name() for c in curves] == [s.label for s in series]
    for c, s in zip(curves, series, strict=True):
        assert list(c.getData()[1]) == [float(v) for v in s.y]
        assert c.opts["pen"].color().name() == dock.theme.category(s.color_index).lower()
    assert runner.plot.getAxis("left").labelText == "misses (tile loads)"


def test_a_sweep_whose_dock_is_gone_stops_without_an_error():
    """Closing the dock (or opening another scenario, or quitting) while the sweep runs deletes
    the runner: the job's next report stops the sweep instead of raising in the worker thread."""
    import shiboken6

    from gpuviz.models.traversal import TraversalParams
    from gpuviz.ui.panels.traversal import _SweepJob, _SweepSignals

    signals = _SweepSignals()
    job = _SweepJob(1, TraversalParams(), signals)
    shiboken6.delete(signals)
    job.run()  # raised RuntimeError ("Signal source has been deleted") from the progress report
    assert job.cancel_event.is_set()


def test_the_timeline_row_labels_never_lie_over_each_other(make_main_window, scenario_path,
                                                           qtbot):
    """Dragging the splitter between the figure and the zoomable timeline shrinks the timeline's
    plot; its row labels thin out so that "issue slot" never lies over "warp 0"."""
    w = make_main_window(scenario_path("scheduler-h200-dram.json"))
    tl = w.docks["scheduler"].extras.timeline
    column = w.docks["scheduler"].findChild(QSplitter, "scheduler-figure-and-companion")
    line = tl.fontMetrics().height()
    for timeline_px in (400, 120):  # tall, then dragged as short as it goes
        total = sum(column.sizes())
        column.setSizes([total - timeline_px, timeline_px])
        qtbot.wait(50)
        box = tl.plot.getViewBox()
        row_px = box.height() / (tl.result.resident_warps + 1)
        ticks = tl.plot.getAxis("left")._tickLevels[0]
        assert ticks == tl.row_labels() and ticks[0][1] == "issue slot"
        gaps = [(b[0] - a[0]) * row_px for a, b in itertools.pairwise(ticks)]
        assert min(gaps) >= line  # a line of text apart, the first warp from the issue slot too
    assert len(tl.row_labels()) < tl.result.resident_warps + 1  # thinned when short


def test_the_timeline_top_row_label_is_whole_when_the_timeline_is_short(
        make_main_window, scenario_path, qtbot):
    """"issue slot" is centred on the top row; dragged short, that row is thinner than a line of
    text and the label's top was cut off at the plot's edge: no ink in the plot's top row."""
    w = make_main_window(scenario_path("scheduler-h200-dram.json"))
    tl = w.docks["scheduler"].extras.timeline
    column = w.docks["scheduler"].findChild(QSplitter, "scheduler-figure-and-companion")
    total = sum(column.sizes())
    column.setSizes([total - 120, 120])
    qtbot.wait(100)
    image = tl.plot.grab().toImage()
    axis_w = round(tl.plot.getAxis("left").width())
    background = image.pixelColor(1, 0)
    top = {image.pixelColor(x, y).name() for x in range(axis_w - 4) for y in range(2)}
    assert top == {background.name()}, top
    below = {image.pixelColor(x, y).name() for x in range(axis_w - 4)
             for y in range(2, image.height() // 3)}
    assert len(below) > 2  # the label is drawn, under the top edge
