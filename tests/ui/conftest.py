"""The main window as a user first sees it: every shown dock's first figure painted. A dock
whose layout for the lecture shows a page of parts paints nothing until that layout is known
(its first frame is the final one), so a test that reads a figure waits for it here."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_main_window(make_main_window, qtbot):
    def make(path=None, show: bool = True):
        w = make_main_window(path, show)
        if show:
            qtbot.waitUntil(lambda: all(d.current_figure() is not None
                                        for d in w.docks.values() if d.isVisible()),
                            timeout=10000)
        return w

    return make
