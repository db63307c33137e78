"""The application's Save and Save As refuse what would lose a user's work, with a message."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QFileDialog, QMessageBox

from gpuviz.scenario.bundled import scenario_dir


def _warnings(monkeypatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    return shown


def test_save_as_onto_a_bundled_scenario_is_refused(make_main_window, monkeypatch):
    w = make_main_window(show=False)
    target = scenario_dir() / "launch-2d-block.json"
    before = target.read_bytes()
    shown = _warnings(monkeypatch)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert w.save_as() is False
    assert target.read_bytes() == before
    assert shown and "inside the installed gpuviz package" in shown[0]


def test_saving_text_that_is_not_unicode_shows_a_message(make_main_window, monkeypatch, tmp_path):
    w = make_main_window(show=False)
    path = tmp_path / "s.json"
    w.document.replace_scenario(replace(w.document.scenario, title="half \ud800 a pair"), path)
    shown = _warnings(monkeypatch)
    assert w.save() is False
    assert not path.exists()
    assert shown and "lone surrogate" in shown[0] and shown[0].isprintable()


def test_a_warning_shows_in_the_message_line_for_the_state_shown(make_main_window, monkeypatch,
                                                                 qtbot, tmp_path):
    path = tmp_path / "short.json"
    path.write_text('{"version": 1, "panels": ["launch"], "launch": {"n": 100000, "grid": [1], '
                    '"block": [32]}, "steps": [{"title": "covered", "changes": {"launch": '
                    '{"grid": [3125]}}}]}')
    shown = _warnings(monkeypatch)
    w = make_main_window(path, show=False)
    line = w.step_bar_widget.message
    assert line.text() == "Warning: the grid covers 32 of the 100,000 elements"
    assert "launch.grid: the grid covers" in line.toolTip() and "3,125 blocks" in line.toolTip()
    w.statusBar().showMessage("Saved", 1)  # a passing message gives the line back
    qtbot.waitUntil(lambda: line.text().startswith("Warning: the grid"), timeout=2000)
    w.document.go_to_step(0)  # a grid that covers every element
    assert line.text() == "" and line.toolTip() == ""
    w.document.go_to_step(-1)
    assert line.text().startswith("Warning: the grid")
    assert shown == []  # never a dialog
