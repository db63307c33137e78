"""The lecture tests paint figures (which makes a Qt application if none exists) and also open
the main window, which needs a widgets application: make that one first, whatever runs first."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _widgets_application(qapp):
    return qapp
