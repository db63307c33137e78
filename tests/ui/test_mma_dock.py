"""The mma dock: a clicked fragment cell selects the lane that holds it, whose other elements are
then outlined in A, B and C; the measured line says what the H200 counted for the fragment load."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from gpuviz.figures.display import Rect, Rects, row_list, walk
from gpuviz.scenario.bundled import scenario_dir


def test_clicking_c_9_3_selects_lane_5_everywhere(make_main_window, qtbot):
    w = make_main_window(scenario_dir() / "mma-fragments.json")
    w.resize(1800, 1300)  # room for A, B and C at the dock's least type: the whole figure
    # step 1 asks who holds C[9][3] of the overview's picture: answered, the overview shows it
    w.document.go_to_step(0)
    w.next_step()
    w.document.go_to_step(-1)
    dock = w.docks["mma"]
    qtbot.waitUntil(lambda: dock.settled() and dock.view_layout() is not None
                    and dock.current_figure() is not None, timeout=15000)
    qtbot.wait(50)
    fig = dock.current_figure()
    assert {"fragment-a", "fragment-b", "fragment-c"} <= set(fig.parts)
    box = next(row_list(i.xywh)[i.keys.index("c:9,3")] for i in walk(fig.items)
               if isinstance(i, Rects) and i.keys and "c:9,3" in i.keys)
    view = dock.view
    x = view._origin.x() + (box[0] + box[2] / 2) * view._scale
    y = view._origin.y() + (box[1] + box[3] / 2) * view._scale
    before = w.document.shown.section("mma").lane
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPointF(x, y).toPoint())
    qtbot.waitUntil(lambda: w.document.selection == frozenset({"c:9,3"}))
    accent = w.theme.accent
    # pointing selects: lane 5's sixteen elements are outlined in A, B and C, and nothing in
    # the lecture changes
    qtbot.waitUntil(lambda: sum(isinstance(i, Rect) and i.style.stroke == accent
                                for i in walk(dock.current_figure().items)) == 16)
    assert w.document.shown.section("mma").lane == before and not w.isWindowModified()
    # Ctrl+click applies it: the lane becomes the section's, saved with the lecture (clicked
    # where the cell is drawn now: the selected lane's receipt may have moved it)
    fig = dock.current_figure()
    box = next(row_list(i.xywh)[i.keys.index("c:9,3")] for i in walk(fig.items)
               if isinstance(i, Rects) and i.keys and "c:9,3" in i.keys)
    x = view._origin.x() + (box[0] + box[2] / 2) * view._scale
    y = view._origin.y() + (box[1] + box[3] / 2) * view._scale
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     QPointF(x, y).toPoint())
    qtbot.waitUntil(lambda: w.document.shown.section("mma").lane == 5)
    qtbot.waitUntil(lambda: "H200 measured: 32 (agrees)" in dock.measured.text())


def test_the_summary_counts_one_block_in_the_singular():
    """mma-hierarchy's last step fits one block per SM: "1 block per SM", not "1 blocks"."""
    from gpuviz.models.mma import compute
    from gpuviz.scenario import load_scenario
    from gpuviz.ui.panels.mma import MmaExtras

    lecture = load_scenario(scenario_dir() / "mma-hierarchy.json")
    shown = [compute(lecture.at_step(k).section("mma")) for k in range(len(lecture.steps))]
    one = [r for r in shown if r.hierarchy.blocks_per_sm == 1]
    assert one, "a step of mma-hierarchy fits one block per SM"
    text = MmaExtras.summary_text(MmaExtras.__new__(MmaExtras), one[0])
    assert "1 block per SM" in text and "1 blocks" not in text
