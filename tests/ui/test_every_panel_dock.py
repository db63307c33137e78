"""Every bundled scenario opens in the application, every dock draws its figure (never the error
figure) beside controls that need no horizontal scroll bar, and stepping through the scenario
redraws without trouble."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from gpuviz.scenario import bundled_scenarios

SCENARIOS = bundled_scenarios()


def _texts(dock) -> str:
    QApplication.processEvents()
    figure = dock.current_figure()
    return " ".join(figure.texts()) if figure else ""


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_opens_and_steps_in_the_app(make_main_window, qtbot, path):
    w = make_main_window(path)
    docks = [w.docks[pid] for pid in w.document.scenario.panels]
    for dock in docks:
        qtbot.waitUntil(lambda d=dock: d.current_figure() is not None, timeout=5000)
        assert "could not be drawn" not in _texts(dock), dock.panel.id
        # the controls widen to their widest row: no horizontal bar hides the last one
        bar = dock.controls.horizontalScrollBar()
        qtbot.waitUntil(lambda b=bar: not b.isVisible(), timeout=2000)
    for _ in w.document.scenario.steps:
        w.next_step()
        for dock in docks:
            dock.refresh()
            qtbot.waitUntil(lambda d=dock: d.plan.computing is None, timeout=5000)
            assert "could not be drawn" not in _texts(dock), (dock.panel.id, w.document.step)
    assert not w.isWindowModified()


def test_every_panel_has_a_bundled_scenario():
    from gpuviz.registry import PANEL_IDS
    from gpuviz.scenario import load_scenario

    shown = {pid for path in SCENARIOS for pid in load_scenario(path).panels}
    assert set(PANEL_IDS) <= shown, set(PANEL_IDS) - shown
