"""File ▸ Export Lecture… writes the lecture the window shows, edits included, in the format
the file dialog's filter names."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("filter_index", "head"), [(0, b"<!DOCTYPE html>"), (1, b"%PDF"),
                                                    (2, b"PK")])
def test_export_lecture_writes_the_shown_lecture(make_main_window, scenario_path, tmp_path,
                                                 monkeypatch, qtbot, filter_index, head):
    from PySide6.QtWidgets import QFileDialog

    from gpuviz.ui import lecture_export

    w = make_main_window(scenario_path("banks-padded33.json"))
    qtbot.waitUntil(w.is_complete, timeout=10000)
    action = w.menus.action("export-lecture")
    assert action in w.menus.menu("file").actions()
    w.document.set_title("Padding, as taught today", w.document.scenario.description)
    out = tmp_path / "out"
    out.mkdir()
    target = out / "lecture"
    chosen = lecture_export.FILTERS[filter_index][0]
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), chosen)))
    action.trigger()
    (written,) = out.iterdir()
    assert written.suffix == "." + lecture_export.FILTERS[filter_index][1]
    data = written.read_bytes()
    assert data.startswith(head)
    if filter_index == 0:
        assert b"<title>Padding, as taught today</title>" in data
