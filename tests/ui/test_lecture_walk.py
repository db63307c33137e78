"""Every bundled lecture walked step by step, forwards, backwards and by jumping: the window
(and F5, on a sample) shows what the lecture model gives each step (``gpuviz.lecture.show``),
computed here from the step alone, on panels, parts, frame, selection, veil and caption."""

from __future__ import annotations

import time

from gpuviz.keys import frame_of
from gpuviz.lecture import Lecture, show
from gpuviz.scenario import bundled_scenarios, load_scenario

F5_SAMPLE = ("traversal-grouped", "reduction-warp-shfl-down", "scheduler-h200-l1",
             "linked-launch-sectors", "banks-swizzled-columns")


def _path(n: int) -> list[int]:
    forwards = list(range(n))
    jumps = [k for pair in zip(range(n - 1, -1, -2), range(0, n, 2), strict=False)
             for k in pair]
    return [*forwards, *reversed(forwards), -1, *jumps]


def _check(w, scenario, k: int, surface: str) -> list[str]:
    expected = show(Lecture(scenario), k, surface)
    at = f"{scenario.title!r} step {k + 1} ({surface})"
    bad = []
    visible = tuple(pid for pid, d in w.docks.items() if d.isVisible())
    if set(visible) != set(expected.panel_ids):
        bad.append(f"{at}: panels {visible} != {expected.panel_ids}")
    for p in expected.panels:
        dock = w.docks[p.id]
        if dock.parts != p.parts:
            bad.append(f"{at}: {p.id} parts {dock.parts} != {p.parts}")
        if p.animated and w.clock.frame_count > 1:
            want = p.frame if p.frame is not None else w.clock.last_frame
            if frame_of(w.document.selection) != want:
                bad.append(f"{at}: {p.id} frame {frame_of(w.document.selection)} != {want}")
        if bool(dock.view.veil()) != expected.veiled:
            bad.append(f"{at}: {p.id} veiled {bool(dock.view.veil())} != {expected.veiled}")
    keys = expected.selection - {f"frame:{frame_of(expected.selection)}"}
    if not keys <= w.document.selection:
        bad.append(f"{at}: selection {sorted(w.document.selection)} lacks {sorted(keys)}")
    text = w.caption_label.text()
    said = expected.question if expected.veiled else expected.caption
    if said and said not in text:
        bad.append(f"{at}: caption {text[:60]!r} does not say {said[:60]!r}")
    return bad


def test_every_bundled_step_shows_what_the_lecture_model_says(make_main_window, qtbot):
    start = time.monotonic()
    w = make_main_window(show=True)
    bad: list[str] = []
    walked = 0
    for path in bundled_scenarios():
        assert w.open_path(path)
        scenario = load_scenario(path)
        for k in _path(len(scenario.steps)):
            w.document.go_to_step(k)
            bad += _check(w, scenario, k, "window")
            walked += 1
        if path.stem in F5_SAMPLE:
            w.document.go_to_step(-1)
            w.enter_presentation()
            for k in _path(len(scenario.steps)):
                w.document.go_to_step(k)
                if k >= 0:
                    bad += _check(w, scenario, k, "present")
            w.leave_presentation()
    assert walked > 300
    assert not bad, "\n".join(bad[:20])
    assert time.monotonic() - start < 90
