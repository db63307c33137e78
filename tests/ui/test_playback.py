"""The playback clock and its bar: stepping, seeking, playing, speed, loop and the scrubber."""

import pytest
from PySide6.QtCore import Qt

from gpuviz.scenario import compute_all, load_scenario
from gpuviz.ui.playback import MAX_SPEED, PlaybackClock, frame_count_for
from gpuviz.ui.playback_bar import PlaybackBar


@pytest.fixture
def clock(qtbot):
    c = PlaybackClock(frame_count=5, speed=50.0)
    yield c
    c.pause()
    c.deleteLater()


def test_step_forward_and_back_stop_at_the_ends(clock, qtbot):
    with qtbot.waitSignal(clock.frameChanged) as blocker:
        clock.step_forward()
    assert blocker.args == [1]
    clock.seek(4)
    clock.step_forward()
    assert clock.frame == 4
    clock.seek(0)
    clock.step_back()
    assert clock.frame == 0


def test_loop_wraps_steps_at_both_ends(clock):
    clock.set_loop(True)
    clock.seek(4)
    clock.step_forward()
    assert clock.frame == 0
    clock.step_back()
    assert clock.frame == 4


def test_seek_clamps_into_range(clock):
    clock.seek(99)
    assert clock.frame == 4
    clock.seek(-3)
    assert clock.frame == 0


def test_shrinking_the_frame_count_pulls_the_frame_back(clock):
    clock.seek(4)
    clock.set_frame_count(3)
    assert clock.frame == 2 and clock.last_frame == 2


def test_play_runs_to_the_last_frame_and_stops(clock, qtbot):
    frames = []
    clock.frameChanged.connect(frames.append)
    clock.play()
    assert clock.playing
    qtbot.waitUntil(lambda: not clock.playing, timeout=3000)
    assert frames == [1, 2, 3, 4]
    assert clock.frame == 4


def test_play_from_the_end_restarts_from_the_first_frame(clock, qtbot):
    clock.seek(4)
    clock.play()
    assert clock.frame == 0
    qtbot.waitUntil(lambda: not clock.playing, timeout=3000)


def test_looping_playback_keeps_going_until_paused(clock, qtbot):
    clock.set_loop(True)
    clock.seek(3)
    seen = []
    clock.frameChanged.connect(seen.append)
    clock.play()
    qtbot.waitUntil(lambda: len(seen) >= 4, timeout=3000)
    clock.pause()
    assert not clock.playing
    assert seen[:3] == [4, 0, 1]


def test_toggle_is_play_and_pause(clock):
    clock.toggle()
    assert clock.playing
    clock.toggle()
    assert not clock.playing


def test_a_still_figure_does_not_play(qtbot):
    c = PlaybackClock(frame_count=1)
    c.play()
    assert not c.playing


def test_speed_sets_the_timer_interval_and_is_clamped(clock):
    clock.set_speed(4.0)
    assert clock.interval_ms == 250
    clock.set_speed(10_000)
    assert clock.speed == MAX_SPEED


def test_bar_follows_the_clock(clock, qtbot):
    bar = PlaybackBar(clock)
    qtbot.addWidget(bar)
    clock.seek(2)
    assert bar.scrubber.value() == 2
    assert bar.frame_label.text() == "frame 2 / 4"  # as a step's "frame:2" names it
    clock.set_frame_count(8)
    assert bar.scrubber.maximum() == 7
    clock.play()
    assert bar.play_button.text() == "⏸"
    clock.pause()
    assert bar.play_button.text() == "▶"
    clock.set_loop(True)
    assert bar.loop_check.isChecked()


def test_bar_drives_the_clock(clock, qtbot):
    bar = PlaybackBar(clock)
    qtbot.addWidget(bar)
    bar.scrubber.setValue(3)
    assert clock.frame == 3
    qtbot.mouseClick(bar.forward_button, Qt.MouseButton.LeftButton)
    assert clock.frame == 4
    qtbot.mouseClick(bar.back_button, Qt.MouseButton.LeftButton)
    assert clock.frame == 3
    bar.speed_box.setValue(8.0)
    assert clock.speed == 8.0
    bar.loop_check.setChecked(True)
    assert clock.loop
    qtbot.mouseClick(bar.play_button, Qt.MouseButton.LeftButton)
    assert clock.playing
    qtbot.mouseClick(bar.play_button, Qt.MouseButton.LeftButton)
    assert not clock.playing


def test_bar_disables_transport_for_a_still_figure(qtbot):
    c = PlaybackClock(frame_count=1)
    bar = PlaybackBar(c)
    qtbot.addWidget(bar)
    assert not bar.play_button.isEnabled() and not bar.scrubber.isEnabled()


def test_frame_count_for_takes_the_longest_animation(scenario_path):
    s = load_scenario(scenario_path("reduction-warp-shfl-down.json"))
    assert frame_count_for(s, ["reduction"]) == 6
    p = load_scenario(scenario_path("pipeline-double-buffer.json"))
    assert frame_count_for(p, ["pipeline"]) == len(compute_all(p)["pipeline"].event_times)


@pytest.mark.parametrize(("name", "panel", "summary"), [
    ("pipeline-two-ahead.json", "pipeline", "load waits for a slot: 4"),
    ("barrier-missing-second.json", "barrier", "thread 3 overwrote slot 3"),
    ("reduction-block.json", "reduction", "Lane 0 holds 5050"),
])
def test_clock_drives_the_panel_docks(make_main_window, scenario_path, qtbot, name, panel,
                                      summary):
    from PySide6.QtWidgets import QLabel

    window = make_main_window(scenario_path(name))
    dock = window.dock(panel)
    label = dock.findChild(QLabel, f"{panel}-summary")
    assert summary in label.text()
    clock = PlaybackClock(frame_count=frame_count_for(window.document.shown, [panel]))
    clock.frameChanged.connect(window.document.set_frame)
    clock.seek(1)
    qtbot.waitUntil(lambda: "frame:1" in window.document.selection, timeout=2000)
    dock.refresh()
    figure = dock.current_figure()
    assert figure is not None and figure.height > 20
    assert dock.last_redraw_ms < 1000
    clock.deleteLater()
