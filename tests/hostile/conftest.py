"""Some hostile cases paint PDF and PNG files in process (which makes a Qt application if none
exists), and the window's cases need a widgets application: make that one first, whatever runs
first in a test worker (a QGuiApplication made first aborts the next QMainWindow)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _widgets_application(qapp):
    return qapp
