"""The application as a user drives it: load, edit, click, step, undo, open, save, export, close."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox

from gpuviz import keys
from gpuviz.figures.display import Rect, walk


def launch_dock(window):
    return window.docks["launch"]


def texts(dock):
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()  # the dock redraws on the next event-loop turn
    figure = dock.current_figure()
    return " ".join(figure.texts()) if figure else ""


def click_key(qtbot, dock, key, modifier=None):
    """Click the centre of the first rectangle that carries ``key`` (or sits in its group);
    ``modifier`` Ctrl applies what is clicked to the parameters (a plain click only selects)."""
    from gpuviz.figures.display import Group

    texts(dock)
    fig = dock.current_figure()
    target = None
    for item in walk(fig.items):
        if isinstance(item, Group) and item.key == key:
            target = next(r for r in walk(item.items) if isinstance(r, Rect))
            break
        if isinstance(item, Rect) and item.key == key:
            target = item
            break
    assert target is not None, key
    view = dock.view
    x = view._origin.x() + (target.x + target.w / 2) * view._scale
    y = view._origin.y() + (target.y + target.h / 2) * view._scale
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, modifier or Qt.KeyboardModifier.NoModifier,
                     QPointF(x, y).toPoint())


def test_opens_on_the_default_scenario_with_the_launch_figure(make_main_window):
    w = make_main_window()
    assert "N = 130" in w.windowTitle() and "launch-n130.json" in w.windowTitle()
    dock = launch_dock(w)
    assert dock.isVisible()
    assert "192 threads for 130 valid outputs" in texts(dock)
    assert not w.isWindowModified()


def test_editing_a_parameter_redraws_marks_modified_and_undoes(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    editor = dock.form.editor("block")
    editor.setText("32")
    editor.editingFinished.emit()
    qtbot.waitUntil(lambda: "160 threads for 130 valid" in texts(dock))
    assert w.document.scenario.section("launch").block == (32,)
    assert w.isWindowModified()
    w.action("undo").trigger()
    qtbot.waitUntil(lambda: "192 threads for 130 valid" in texts(dock))
    assert dock.form.editor("block").text() == "64"
    assert not w.isWindowModified()
    w.action("redo").trigger()
    qtbot.waitUntil(lambda: "160 threads" in texts(dock))


def test_an_invalid_edit_is_explained_and_changes_nothing(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    editor = dock.form.editor("block")
    editor.setText("64, 32")
    editor.editingFinished.emit()
    assert "at most 1024 threads" in dock.form.problems_text()
    assert w.document.scenario.section("launch").block == (64,)
    assert not w.isWindowModified()


def test_ctrl_clicking_a_block_then_a_warp_selects_them(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    qtbot.waitUntil(lambda: dock.current_figure() is not None)
    ctrl = Qt.KeyboardModifier.ControlModifier
    click_key(qtbot, dock, "block:2", ctrl)
    qtbot.waitUntil(lambda: "Warp 0 of block 2: 2 lanes valid, 30 masked" in texts(dock))
    click_key(qtbot, dock, "warp:2,1", ctrl)
    qtbot.waitUntil(lambda: "Warp 1 of block 2: 0 lanes valid, 32 masked" in texts(dock))
    assert w.document.selection == frozenset({"warp:2,1"})
    w.action("undo").trigger()
    qtbot.waitUntil(lambda: "Warp 0 of block 2" in texts(dock))


def test_clicking_a_lane_highlights_it(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    qtbot.waitUntil(lambda: dock.current_figure() is not None)
    click_key(qtbot, dock, "lane:5")
    assert w.document.selection == frozenset({"lane:5"})
    accent = w.theme.accent
    qtbot.waitUntil(lambda: any(isinstance(i, Rect) and i.style.stroke == accent and i.w < 12
                                for i in walk(dock.current_figure().items)))


def test_page_down_and_page_up_walk_the_steps(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    for _ in range(3):
        qtbot.keyClick(w, Qt.Key.Key_PageDown)
    assert w.document.step == 2
    assert "Warp 0 of block 2" in w.step_bar_widget.text()
    assert "step 3 of 4" in w.step_bar_widget.text()
    qtbot.waitUntil(lambda: "Warp 0 of block 2: 2 lanes valid" in texts(dock))
    qtbot.keyClick(w, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: "Warp 1 of block 2" in texts(dock))
    qtbot.keyClick(w, Qt.Key.Key_PageUp)
    assert w.document.step == 2
    assert not w.isWindowModified()


def test_opening_a_bad_file_shows_the_problem_and_keeps_the_scenario(make_main_window, tmp_path, monkeypatch):
    w = make_main_window()
    shown = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "launch": {"warp_size": 0}}')
    before = w.document.scenario
    assert w.open_path(bad) is False
    assert shown and f"{bad}: launch.warp_size: must be one of 32, 64; got 0" in shown[0]
    assert w.document.scenario is before


def test_save_as_writes_the_file_and_clears_the_modified_mark(make_main_window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    w = make_main_window()
    editor = launch_dock(w).form.editor("sm_count")
    editor.setValue(4)
    assert w.isWindowModified()
    target = tmp_path / "mine"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert w.save()  # the bundled file is never overwritten: Save becomes Save As
    saved = json.loads((tmp_path / "mine.json").read_text())
    assert saved["launch"]["sm_count"] == 4
    assert not w.isWindowModified()
    assert w.document.path == tmp_path / "mine.json"
    assert "mine.json" in w.windowTitle()


def test_closing_with_unsaved_changes_asks_first(make_main_window, monkeypatch):
    w = make_main_window()
    launch_dock(w).form.editor("sm_count").setValue(3)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)
    assert not w.close()
    assert w.isVisible()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert w.close()


def test_dropping_a_json_file_opens_it(make_main_window, scenario_path, qtbot):
    w = make_main_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(scenario_path("launch-2d-block.json")))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    w.dropEvent(event)
    assert w.document.path.name == "launch-2d-block.json"
    qtbot.waitUntil(lambda: "block (16, 16)" in texts(launch_dock(w)))


def test_panels_close_and_come_back_and_layout_resets(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    w.panel_actions["launch"].setChecked(False)
    assert not dock.isVisible()
    w.panel_actions["launch"].setChecked(True)
    assert dock.isVisible()
    dock.setFloating(True)
    w.reset_layout()
    assert not dock.isFloating() and dock.isVisible()


def test_layout_is_remembered_between_runs(make_main_window, settings, qtbot):
    w = make_main_window()
    launch_dock(w).setFloating(True)
    w.close()
    assert settings.value("window/state") is not None
    w2 = make_main_window()
    assert launch_dock(w2).isFloating()


def test_export_from_the_gui_writes_the_figure(make_main_window, tmp_path, monkeypatch):
    from gpuviz.ui import export_dialog

    w = make_main_window()
    target = tmp_path / "fig.svg"

    def accept(dialog):
        dialog.path.setText(str(target))
        return export_dialog.ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(export_dialog.ExportDialog, "exec", accept)
    w.export_dialog()
    assert target.read_text().startswith("<?xml")
    assert "192 threads" in target.read_text()


def test_theme_switch_repaints_every_dock(make_main_window, qtbot):
    w = make_main_window()
    w.set_theme("dark")
    # once the view's layout in the new theme is known (tests/ui/test_theme_switch.py)
    qtbot.waitUntil(lambda: launch_dock(w).current_figure().background == "#16191D",
                    timeout=10000)


def test_recent_files_are_remembered(make_main_window, tmp_path, scenario_path, settings):
    w = make_main_window()
    copy = tmp_path / "copy.json"
    copy.write_bytes(scenario_path("launch-2d-block.json").read_bytes())
    assert w.open_path(copy)
    assert settings.value("files/recent")[0] == str(copy)
    assert [a.text() for a in w.recent_menu.actions()] == [str(copy)]


def test_a_file_given_on_the_command_line_that_is_bad_opens_the_default(tmp_path, qapp):
    from gpuviz.ui.app import create_window

    bad = tmp_path / "bad.json"
    bad.write_text("{")
    window, error = create_window(bad)
    try:
        assert error is not None and error.lines()[0].startswith(f"{bad}: line 1, column 2")
        assert window.document.path.name == "launch-n130.json"
    finally:
        window.close()
        window.deleteLater()


def test_a_large_grid_redraws_without_trouble(make_main_window, qtbot, tmp_path):
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"version": 1, "launch": {"n": 65536 * 256, "block": [256]}}))
    w = make_main_window(big)
    dock = launch_dock(w)
    qtbot.waitUntil(lambda: dock.current_figure() is not None and "65,536 blocks" in texts(dock))
    assert Path(w.document.path) == big


def test_controls_can_be_folded_to_give_the_figure_the_whole_dock(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    before = dock.view.width()
    w.action("controls").trigger()
    qtbot.waitUntil(lambda: dock.view.width() > before)
    assert not dock.controls.isVisible()
    assert dock.strip.isVisible() and dock.strip.width() < 30
    qtbot.mouseClick(dock.strip, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.controls.isVisible())
    assert dock.view.width() <= before + 2


def test_playback_follows_the_clock_for_animated_panels(make_main_window, scenario_path, qtbot):
    from gpuviz.figures.scene import frame_count

    path = scenario_path("pipeline-double-buffer.json")
    w = make_main_window(path)
    frames = frame_count(w.document.shown, "pipeline")
    assert frames > 1
    assert w.playback_toolbar.isVisible()
    assert w.clock.frame == frames - 1, "a new picture opens on its final state"
    qtbot.keyClick(w, Qt.Key.Key_Left)
    assert w.clock.frame == frames - 2
    assert keys.frame_of(w.document.selection) == frames - 2
    qtbot.keyClick(w, Qt.Key.Key_Space)
    assert w.clock.playing
    qtbot.keyClick(w, Qt.Key.Key_Space)
    assert not w.clock.playing


def test_a_still_scenario_hides_the_playback_bar(make_main_window):
    w = make_main_window()
    assert not w.playback_toolbar.isVisible()
    assert not any(k.startswith("frame:") for k in w.document.selection)


def test_the_clock_frame_replaces_a_frame_named_by_a_step(qapp):
    from gpuviz.scenario import loads_scenario
    from gpuviz.ui.document import Document

    s = loads_scenario('{"version": 1, "steps": [{"title": "a", "select": ["frame:2", "lane:1"]}]}')
    doc = Document(s)
    doc.go_to_step(0)
    assert doc.selection == frozenset({"frame:2", "lane:1"})
    doc.set_frame(5)
    assert doc.selection == frozenset({"frame:5", "lane:1"})


def test_presentation_mode_enlarges_and_restores(make_main_window, qtbot):
    w = make_main_window()
    size = w.caption_label.fontInfo().pixelSize()
    w.action("present").trigger()
    assert w.theme.name == "presentation"
    assert not launch_dock(w).controls.isVisible()
    assert w.caption_label.fontInfo().pixelSize() > size
    assert launch_dock(w).current_figure() is None or texts(launch_dock(w))
    assert launch_dock(w).current_figure().items  # repainted in the presentation theme
    w.action("present").trigger()
    assert w.theme.name == "screen"
    assert launch_dock(w).controls.isVisible()
    assert w.caption_label.fontInfo().pixelSize() == size


def test_a_slow_panel_computes_off_the_gui_thread_and_drops_stale_results(make_main_window, qtbot):
    w = make_main_window()
    dock = launch_dock(w)
    texts(dock)
    dock.plan.slow = True  # as after a model took longer than a frame
    for n in (100, 200, 300):
        params = w.document.shown.section("launch")
        from dataclasses import replace

        w.document.edit_section("launch", replace(params, n=n))
        dock.refresh()
    # the last edit's figure, once nothing is computing (the dock's layout for the edited
    # lecture, worked out once the edits settle, may draw it once more): never 100's or 200's
    qtbot.waitUntil(lambda: dock.plan.computing is None and dock.settled()
                    and "for 300 valid outputs" in texts(dock), timeout=10000)
    assert "for 100 valid outputs" not in texts(dock)
    assert "for 200 valid outputs" not in texts(dock)


def test_selecting_a_warp_in_launch_drives_the_sector_map(make_main_window, scenario_path, qtbot):
    from gpuviz.scenario import compute_all

    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    launch, sectors = w.docks["launch"], w.docks["sectors"]
    texts(launch)
    ctrl = Qt.KeyboardModifier.ControlModifier
    click_key(qtbot, launch, "block:2", ctrl)
    qtbot.waitUntil(lambda: "Warp 0 of block 2" in texts(launch))
    result = compute_all(w.document.shown, ("sectors",))["sectors"]
    assert result.sector_count == 1
    qtbot.waitUntil(lambda: "touches 1 sector" in texts(sectors))
    click_key(qtbot, launch, "warp:2,1", ctrl)
    assert compute_all(w.document.shown, ("sectors",))["sectors"].sector_count == 0
    click_key(qtbot, launch, "lane:1")
    assert "lane:1" in w.document.selection


def test_predict_then_reveal(make_main_window, tmp_path, qtbot):
    path = tmp_path / "predict.json"
    path.write_text(json.dumps({
        "version": 1, "launch": {"n": 130},
        "steps": [{"title": "Block 2", "predict": "How many lanes of warp 0 are valid?",
                   "caption": "Two: lanes 0 and 1.", "changes": {"launch": {"selected_block": 2}}},
                  {"title": "Next"}]}))
    w = make_main_window(path)
    dock = launch_dock(w)
    w.next_step()
    assert w.document.step == 0 and w.document.veiled
    assert "Predict:" in w.caption_label.text() and "How many lanes" in w.caption_label.text()
    assert "Two: lanes 0 and 1." not in w.caption_label.text()
    assert dock.view.veil()
    assert dock.view.key_at(QPointF(400, 300)) == ""  # nothing to point at under the veil
    w.next_step()  # reveals, stays on the step
    assert w.document.step == 0 and not w.document.veiled
    assert not dock.view.veil()
    assert "Two: lanes 0 and 1." in w.caption_label.text()
    w.next_step()
    assert w.document.step == 1
    w.previous_step()
    assert not w.document.veiled, "a revealed step stays revealed"


def test_export_every_frame_from_the_gui(make_main_window, scenario_path, tmp_path, monkeypatch):
    from gpuviz.figures.scene import frame_count
    from gpuviz.ui import export_dialog

    w = make_main_window(scenario_path("pipeline-double-buffer.json"))

    def accept(dialog):
        dialog.path.setText(str(tmp_path / "slides.svg"))
        dialog.path.setModified(True)  # as typed
        dialog.what_box.setCurrentIndex(dialog.what_box.findData("frames"))
        return export_dialog.ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(export_dialog.ExportDialog, "exec", accept)
    w.export_dialog()
    files = sorted(tmp_path.glob("*.svg"))
    assert len(files) == frame_count(w.document.shown, "pipeline")
    assert files[0].name.startswith("slides-pipeline-0001")


def test_dragging_a_slider_is_one_undo_step_and_follows_the_document(make_main_window, scenario_path):
    w = make_main_window(scenario_path("sectors-aligned.json"))
    controls = w.docks["sectors"].extras.drag_controls
    for value in range(2, 9):
        controls.stride.setValue(value)
    assert w.document.scenario.section("sectors").pattern.stride == 8
    w.action("undo").trigger()
    assert w.document.scenario.section("sectors").pattern.stride == 1
    assert controls.stride.value() == 1 and controls.stride_label.text() == "stride: 1"


def test_the_padding_slider_reads_a_padded_column(make_main_window, scenario_path):
    w = make_main_window(scenario_path("banks-column32.json"))
    control = w.docks["banks"].extras.padding_control
    control.slider.setValue(1)
    pattern = w.document.scenario.section("banks").pattern
    assert (pattern.kind, pattern.padding) == ("column", 1)
    assert control.label.text() == f"row {pattern.row_width} + 1"


def test_an_edit_keeps_the_views_design_and_the_lecture_layout_follows_once_edits_settle(
        make_main_window, qtbot):
    from dataclasses import replace

    from gpuviz.export.svg import figure_to_svg
    from gpuviz.figures.scene import figure_for

    w = make_main_window()
    dock = launch_dock(w)
    texts(dock)
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    layout = dock.view_layout()
    assert layout is not None and dock.current_figure().design == layout.design
    w.document.edit_section("launch", replace(w.document.shown.section("launch"), n=200))
    assert "for 200 valid outputs" in texts(dock)
    # drawn at once with the design kept for the view; its layout is asked once edits settle
    assert dock.current_figure().design == layout.design and not dock.settled()
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    final = figure_for(w.document.shown, "launch", dock.theme,
                       target=replace(dock.target(), design=dock.view_layout().design))
    assert figure_to_svg(dock.current_figure()) == figure_to_svg(final)


def test_the_application_paints_its_first_figure_before_building_menus_and_hidden_docks(
        tmp_path):
    """`gpuviz` as started (as its entry points do: the cycle collector off, then ui.app.start,
    in a fresh interpreter with its own settings): the first figure is painted before the menus'
    items, the shortcuts, the measured line and the measurements dock exist; then they all do,
    and the collector is on again."""
    import os
    import subprocess
    import sys

    script = r'''
import gc, json
gc.disable()
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from gpuviz.ui.app import start
w = start(None, show=False)
seen = {"before": {"complete": w.is_complete(), "menu items": len(w.menus.menu("file").actions()),
                   "docks": sorted(w.docks)}}
view = w.docks["launch"].view
view.painted.connect(lambda: seen.setdefault("painted", {
    "complete": w.is_complete(), "figure": view.figure() is not None,
    "measured held": w.docks["launch"].measured.held,
    "next step keys": [k.toString() for k in w.action("next-step").shortcuts()]}))
def done():
    seen["completed"] = {"painted first": "painted" in seen,
                         "file menu": [a.text() for a in w.menus.menu("file").actions()],
                         "measurements": w.measurements_dock.isHidden(),
                         "F5": w.action("present").shortcut().toString(),
                         "next step keys": [k.toString() for k in w.action("next-step").shortcuts()],
                         "measured held": w.docks["launch"].measured.held,
                         "collector on": gc.isenabled(),
                         "frozen": gc.get_freeze_count() > 1000}
    print(json.dumps(seen)); QApplication.quit()
w.completed.connect(lambda: QTimer.singleShot(0, done))
w.show()
QApplication.exec()
'''
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["before"] == {"complete": False, "menu items": 0, "docks": ["launch"]}
    assert seen["painted"] == {"complete": False, "figure": True, "measured held": True,
                               "next step keys": []}
    done = seen["completed"]
    assert done["painted first"] and done["measurements"] and done["F5"] == "F5"
    assert done["next step keys"] == ["PgDown", "Ctrl+Right"] and not done["measured held"]
    assert done["frozen"]  # start-up's objects are out of the cycle collector's sweeps
    assert done["collector on"]
    assert "&Open…" in done["file menu"] and "Export &Kernel…" in done["file menu"]


def test_a_new_view_shape_is_laid_out_off_the_gui_thread_and_an_edit_meanwhile_wins(
        make_main_window, qtbot):
    from dataclasses import replace

    from PySide6.QtWidgets import QApplication

    from gpuviz.export.svg import figure_to_svg
    from gpuviz.figures.scene import figure_for

    w = make_main_window()
    dock = launch_dock(w)
    texts(dock)
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    before = dock.current_figure()
    w.resize(w.width() - 300, w.height())  # a new view shape, the same content
    qtbot.waitUntil(lambda: dock.target() != dock.shown_key().target)
    dock.refresh()  # as the resize's settle timer does
    assert dock.current_figure() is before  # still up, scaled, while its layout is worked out
    assert dock.layouts.pending()
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    laid_out = figure_for(w.document.shown, "launch", dock.theme,
                          target=replace(dock.target(), design=dock.view_layout().design))
    assert figure_to_svg(dock.current_figure()) == figure_to_svg(laid_out)
    # a new shape again, and an edit before its layout arrives: the edit's picture stays
    w.resize(w.width() + 200, w.height())
    qtbot.waitUntil(lambda: dock.target() != dock.shown_key().target)
    dock.refresh()
    assert dock.layouts.pending()
    dock.plan.slow = False  # the edit computes and draws at once, before the layout's result
    w.document.edit_section("launch", replace(w.document.shown.section("launch"), n=200))
    dock.refresh()
    assert "for 200 valid outputs" in texts(dock)
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    QApplication.processEvents()
    assert "for 200 valid outputs" in texts(dock)


def test_a_views_design_is_remembered_and_the_next_session_draws_it_first(
        make_main_window, settings, qtbot):
    """The next session draws a view first with the design its layout chose last time (one
    build, not a dozen); the layout is still worked out after it and replaces the picture if
    the content now calls for another design, and that is remembered in turn."""
    from gpuviz.figures.targets import DESIGN_FACTORS
    from gpuviz.ui.design_memory import DesignMemory

    w = make_main_window()
    dock = launch_dock(w)
    texts(dock)
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    w.resize(1600, 1000)  # the launch figure legible whole
    qtbot.waitUntil(lambda: dock.settled() and dock.target().whole, timeout=10000)
    target, searched = dock.target(), dock.current_figure().design
    assert DesignMemory(settings).recall("launch", dock.theme.name, target) == searched
    w.close()
    # as if the last session had chosen another design for this view
    other = next(("stacked", f) for f in DESIGN_FACTORS if ("stacked", f) != searched)
    DesignMemory(settings).keep("launch", dock.theme.name, target, other)
    w2 = make_main_window(show=False)
    w2.resize(1600, 1000)
    w2.show()
    dock2 = launch_dock(w2)
    texts(dock2)
    qtbot.waitUntil(lambda: dock2.shown_key() is not None and dock2.shown_key().target == target)
    assert dock2.current_figure().design == other  # drawn first with the remembered design
    qtbot.waitUntil(lambda: dock2.current_figure().design == searched, timeout=10000)
    assert DesignMemory(settings).recall("launch", dock2.theme.name, target) == searched


def test_the_first_figure_is_laid_out_for_the_size_it_is_first_painted_at(
        make_main_window, qtbot):
    """A window settles into its size in steps at start-up (restored, then maximized): the first
    figure on screen is laid out for the size it is painted at, not painted scaled from a size
    the view had on the way and laid out again a moment later."""
    from gpuviz.figures.scene import figure_for

    w = make_main_window(show=False)
    dock = launch_dock(w)
    painted = []
    dock.view.painted.connect(lambda: painted.append((dock.current_figure(), dock.target())))
    w.setWindowState(w.windowState() & ~Qt.WindowState.WindowMaximized)
    w.resize(1300, 850)
    w.show()
    dock.refresh()  # a refresh queued before the window settled
    w.resize(1000, 700)  # the window settles into another size before its first paint
    qtbot.waitUntil(lambda: bool(painted))
    figure, target = painted[0]
    assert dock.shown_key().target == target  # laid out for the size it was painted at
    assert figure.design == figure_for(w.document.shown, "launch", dock.theme,
                                       target=target).design
