"""The window in a lecture hall: fixed step bar and caption, nothing moving as the lecture steps,
F5 with one panel and no menu bar, Esc out, the dark palette, live caption fields, notes only on
the presenter's screen."""

from __future__ import annotations

import json

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from gpuviz.figures.display import PT_TO_MM
from gpuviz.ui.presentation import PRESENT_BODY_PX


def settle(qtbot, ms: int = 250) -> None:
    qtbot.wait(ms)  # the docks redraw (and re-lay out after a resize) on later event-loop turns


def view_geometry(w, pid):
    view = w.docks[pid].view
    return (view.mapTo(w, QPoint(0, 0)), view.size())


def test_the_window_opens_inside_the_screen_it_is_on(make_main_window):
    w = make_main_window()
    w.showNormal()
    w.fit_to_screen()
    avail = w.screen().availableGeometry()
    assert avail.contains(w.geometry())
    assert w.width() >= avail.width() * 0.8 and w.height() >= avail.height() * 0.8


def test_step_bar_and_caption_keep_their_height_and_nothing_moves_when_stepping(
        make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    settle(qtbot)
    bar, caption = w.step_bar_widget, w.caption_label
    assert bar.minimumHeight() == bar.maximumHeight()
    assert caption.minimumHeight() == caption.maximumHeight()
    before = {pid: view_geometry(w, pid) for pid in ("launch", "sectors")}
    heights = {(bar.height(), caption.height())}
    seen = set()
    for k in range(len(w.document.scenario.steps)):
        w.document.go_to_step(k)
        settle(qtbot, 100)
        seen.add(caption.text())
        heights.add((bar.height(), caption.height()))
        for pid in ("launch", "sectors"):
            assert view_geometry(w, pid) == before[pid], f"the {pid} figure moved at step {k + 1}"
    assert len(heights) == 1
    assert len(seen) == len(w.document.scenario.steps), "each step shows its own caption"


def test_the_playback_bar_stays_for_the_whole_lecture(make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("pipeline-double-buffer.json"))
    settle(qtbot)
    before = view_geometry(w, "pipeline")
    for k in range(-1, len(w.document.scenario.steps)):
        w.document.go_to_step(k)
        settle(qtbot, 50)
        assert w.playback_toolbar.isVisible()
        assert view_geometry(w, "pipeline") == before


def test_the_step_list_jumps_to_a_step(make_main_window, qtbot):
    w = make_main_window()
    bar = w.step_bar_widget
    assert bar.steps.count() == len(w.document.scenario.steps) + 1  # the overview first
    bar.steps.activated.emit(3)
    assert w.document.step == 2
    assert bar.position.text() == f"step 3 of {len(w.document.scenario.steps)}"


def test_controls_fold_when_several_panels_show_and_name_what_they_follow(
        make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    launch, sectors = w.docks["launch"], w.docks["sectors"]
    for d in (launch, sectors):
        assert not d.controls.isVisible() and d.strip.isVisible()
    assert sectors.follows() == "follows launch: block 0, warp 0"
    assert "follows launch: block 0" in sectors.strip.label()
    assert launch.follows() == ""
    w.document.go_to_step(1)  # block 2, warp 0
    assert sectors.follows() == "follows launch: block 2, warp 0"
    qtbot.mouseClick(sectors.strip, Qt.MouseButton.LeftButton)
    assert sectors.controls.isVisible() and sectors.follow_label.isVisible()
    one = make_main_window()
    assert one.docks["launch"].controls.isVisible(), "one panel keeps its controls beside it"


def test_f5_presents_one_panel_without_the_menu_bar_and_esc_leaves(make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    settle(qtbot)
    w.document.go_to_step(1)  # its focus: sectors
    w.action("present").trigger()
    settle(qtbot)
    assert w.presenting and w.isFullScreen()
    assert not w.menuBar().isVisible() and not w.step_bar.isVisible()
    assert w.presented_panels() == ["sectors"]
    assert w.caption_label.isVisible() and "Only lanes 0 and 1" in w.caption_label.text()
    assert w.caption_label.fontInfo().pixelSize() >= 20
    dock = w.docks["sectors"]
    assert abs(dock.px_per_mm() * w.theme.text_pt * PT_TO_MM - PRESENT_BODY_PX) < 1e-9
    w.document.go_to_step(2)
    assert w.presented_panels() == ["sectors"]
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    settle(qtbot)
    assert not w.presenting
    assert w.menuBar().isVisible() and w.step_bar.isVisible()
    assert sorted(w.presented_panels()) == ["launch", "sectors"]
    assert abs(dock.px_per_mm() * w.theme.text_pt * PT_TO_MM - 12.0) < 1e-9


def test_f5_without_a_step_focus_presents_the_focused_dock(make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    settle(qtbot)
    w.docks["sectors"].view.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.docks["sectors"].view)
    w.enter_presentation()
    assert w.presented_panels() == ["sectors"]
    w.leave_presentation()


def test_the_dark_theme_darkens_the_whole_window(make_main_window, qtbot):
    w = make_main_window()
    w.set_theme("dark")
    settle(qtbot, 50)  # the application palette reaches the widgets on the next turn
    for widget in (w, w.menuBar(), w.step_bar_widget, w.caption_label, w.docks["launch"].controls):
        assert widget.palette().window().color().lightnessF() < 0.3, type(widget).__name__
        assert widget.palette().windowText().color().lightnessF() > 0.7
    assert QApplication.palette().base().color().lightnessF() < 0.3
    w.set_theme("screen")
    settle(qtbot, 50)
    assert w.menuBar().palette().window().color().lightnessF() > 0.7


def write(tmp_path, data) -> object:
    path = tmp_path / "lecture.json"
    path.write_text(json.dumps(data))
    return path


LECTURE = {
    "version": 1, "launch": {"n": 130, "block": [64]},
    "steps": [
        {"title": "The tail", "caption": "N = {launch.n:,} outputs in blocks of {launch.block}.",
         "notes": "SECRET-NOTE: ask who has seen a bounds guard.",
         "changes": {"launch": {"selected_block": 2}}},
        {"title": "Bigger", "caption": "Now N = {launch.n:,}.", "changes": {"launch": {"n": 4000}}},
    ],
}


def test_caption_fields_follow_the_state_and_a_hand_edit_is_marked(make_main_window, tmp_path):
    from dataclasses import replace

    w = make_main_window(write(tmp_path, LECTURE))
    w.document.go_to_step(0)
    assert w.caption_label.text() == "N = 130 outputs in blocks of 64."
    assert w.caption_label.marker() == ""
    w.document.go_to_step(1)
    assert w.caption_label.text() == "Now N = 4,000."
    params = w.document.shown.section("launch")
    w.document.edit_section("launch", replace(params, n=8000))
    assert w.caption_label.text() == "Now N = 8,000."
    assert w.caption_label.marker() == "edited since step 2"
    w.action("undo").trigger()
    assert w.document.step == 1
    assert w.caption_label.marker() == ""
    assert w.caption_label.text() == "Now N = 4,000."


def test_notes_show_on_the_presenter_view_only(make_main_window, tmp_path, qtbot):
    from gpuviz.export.files import export_figure
    from gpuviz.scenario import dumps_scenario, load_scenario
    from gpuviz.ui.presenter import PresenterView

    path = write(tmp_path, LECTURE)
    scenario = load_scenario(path)
    assert scenario.steps[0].notes.startswith("SECRET-NOTE")
    assert "SECRET-NOTE" in dumps_scenario(scenario), "saving keeps the notes"
    presenter = PresenterView()
    qtbot.addWidget(presenter)
    presenter.show_step(scenario, 0)
    assert "SECRET-NOTE" in presenter.notes.text()
    assert presenter.next_title.text() == "Next: Bigger"
    w = make_main_window(path)
    w.document.go_to_step(0)
    w.enter_presentation()
    assert "SECRET-NOTE" not in w.caption_label.text()
    assert len(QGuiApplication.screens()) > 1 or w.presenter is None
    w.leave_presentation()
    for fmt in ("svg", "png"):
        out = tmp_path / f"figure.{fmt}"
        export_figure(w.document.shown, "launch", out, fmt=fmt)
        assert b"SECRET-NOTE" not in out.read_bytes()
        assert "SECRET-NOTE" not in " ".join(w.docks["launch"].current_figure().texts())


def test_an_unknown_caption_field_is_an_error_with_its_path(tmp_path):
    from gpuviz.scenario import ScenarioError, load_scenario

    data = json.loads(json.dumps(LECTURE))
    data["steps"][1]["caption"] = "Now {launch.tiles} tiles."
    try:
        load_scenario(write(tmp_path, data))
    except ScenarioError as err:
        assert any(line.endswith("steps[1].caption: {launch.tiles}: launch has no field 'tiles'"
                                 + line.split("'tiles'", 1)[1]) for line in err.lines())
        assert any("steps[1].caption" in line and "launch.tiles" in line for line in err.lines())
    else:
        raise AssertionError("an unknown field loaded")


def test_a_panel_laid_out_for_a_target_gets_its_view_shape_at_readable_scale(
        make_main_window, qtbot):
    """The target follows the view: width in mm at the scale that shows body type at 12 px (17
    px presenting: PRESENT_BODY_PX), the view's aspect; a resize lays the figure out again once it settles."""
    w = make_main_window()
    dock = w.docks["launch"]
    settle(qtbot)
    target = dock.target()
    ppm = 12.0 / (w.theme.text_pt * PT_TO_MM)
    assert target.name == "view"
    assert abs(target.width - dock.view.width() / ppm) <= 0.5
    assert abs(target.aspect - dock.view.width() / dock.view.height()) <= 0.01
    shown = dock.current_figure()
    w.resize(w.width() - 200, w.height())
    qtbot.waitUntil(lambda: dock.current_figure() is not shown, timeout=3000)
    assert dock.target().width < target.width
    w.enter_presentation()
    settle(qtbot)
    ppm = PRESENT_BODY_PX / (w.theme.text_pt * PT_TO_MM)
    assert abs(dock.target().width - dock.view.width() / ppm) <= 0.5
    w.leave_presentation()


TWO_SCREENS = r"""
import json, sys, tempfile, pathlib
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gpuviz.scenario import load_scenario
from gpuviz.ui.document import Document
from gpuviz.ui.main_window import MainWindow
path = pathlib.Path(sys.argv[1])
w = MainWindow(Document(load_scenario(path), path),
               settings=QSettings(sys.argv[2], QSettings.Format.IniFormat))
w.show(); app.processEvents()
w.document.go_to_step(0)
w.enter_presentation(); app.processEvents()
p = w.presenter
print(json.dumps({"room": w.screen().name(), "presenter": p.screen().name(),
                  "notes": p.notes.text(), "next": p.next_title.text(),
                  "caption": w.caption_label.text()}))
w.leave_presentation()
print(json.dumps({"after": w.presenter is None}))
w.document.undo_stack.setClean(); w.close()
"""


def test_with_a_second_screen_the_notes_go_there(tmp_path):
    import os
    import subprocess
    import sys

    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"screens": [
        {"name": "room", "x": 0, "y": 0, "width": 1280, "height": 720},
        {"name": "laptop", "x": 1280, "y": 0, "width": 1440, "height": 900}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    proc = subprocess.run([sys.executable, "-c", TWO_SCREENS, str(write(tmp_path, LECTURE)),
                           str(tmp_path / "s.ini")], env=env, capture_output=True, text=True,
                          timeout=120)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 2, proc.stderr[-2000:]
    shown, after = lines
    assert shown["room"] == "room" and shown["presenter"] == "laptop"
    assert shown["notes"].startswith("SECRET-NOTE") and shown["next"] == "Next: Bigger"
    assert "SECRET-NOTE" not in shown["caption"]
    assert after["after"]


def test_ctrl_tab_presents_the_next_panel(make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    settle(qtbot)
    w.docks["launch"].view.setFocus()
    w.enter_presentation()
    assert w.presented_panels() == ["launch"]
    w.action("next-panel").trigger()
    assert w.presented_panels() == ["sectors"]
    w.action("next-panel").trigger()
    assert w.presented_panels() == ["launch"]
    w.leave_presentation()
    assert sorted(w.presented_panels()) == ["launch", "sectors"]


def test_a_bundled_caption_never_says_six_tiles_after_the_user_set_eight(
        make_main_window, scenario_path, qtbot):
    from dataclasses import replace

    w = make_main_window(scenario_path("pipeline-double-buffer.json"))
    w.document.go_to_step(0)
    assert "6 × (2 + 3) = 30 units" in w.caption_label.text()
    params = w.document.shown.section("pipeline")
    w.document.edit_section("pipeline", replace(params, tiles=8))  # as the tiles control does
    assert "8 × (2 + 3) = 40 units" in w.caption_label.text()
    assert w.caption_label.marker() == "edited since step 1"


def test_f5_gives_the_scheduler_figure_the_whole_height(make_main_window, scenario_path, qtbot):
    """The zoomable timeline under the scheduler's figure goes with the controls when presenting:
    it took half of a 720-line projector, and the figure's type shrank to 8 px."""
    w = make_main_window(scenario_path("scheduler-memory-parallelism.json"))
    dock = w.docks["scheduler"]
    settle(qtbot)
    timeline = dock.extras.timeline
    assert dock.companion is timeline and timeline.isVisible()
    assert timeline.width() == dock.view.width()  # under the figure, with its width
    before = dock.view.height()
    w.action("present").trigger()
    settle(qtbot)
    assert w.presented_panels() == ["scheduler"]
    assert not timeline.isVisible() and dock.view.height() > before
    w.leave_presentation()
    settle(qtbot)
    assert timeline.isVisible()
