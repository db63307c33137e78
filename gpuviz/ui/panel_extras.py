"""What a panel adds to its generated dock, as one typed contract.

A panel's registry entry names its ``PanelExtras`` subclass in ``gpuviz.ui.panels.<id>``; the
dock makes one per dock and calls every hook below, each a no-op by default, without probing
for names. Widgets an extras object makes are its own state (``BanksExtras.padding_control``),
never attributes set on the dock. ``tests/ui/test_panel_extras.py`` fails on a registry entry
that names a missing class, or on a subclass method that looks like a hook and is not one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

from gpuviz.registry import Panel

if TYPE_CHECKING:  # the base imports no Qt: it is imported with the core, before Qt
    from PySide6.QtCore import QObject, SignalInstance
    from PySide6.QtWidgets import QWidget

    from gpuviz.figures.theme import Theme
    from gpuviz.ui.document import Document


class DockHost(Protocol):
    """What an extras object uses of its dock (a ``PanelDock``, which makes it)."""

    document: Document
    theme: Theme
    visibilityChanged: SignalInstance

    def isVisible(self) -> bool: ...

    def parent(self) -> QObject | None: ...


class PanelExtras:
    """The generated dock alone; subclasses override the hooks their panel needs."""

    def __init__(self, dock: DockHost):
        self.dock = dock

    @property
    def document(self):
        return self.dock.document

    def summary_text(self, result: Any) -> str:
        """The result in words under the controls ("" for none), refreshed with the figure."""
        return ""

    def widgets(self) -> list[QWidget]:
        """Widgets added under the generated controls (sliders, an interactive plot)."""
        return []

    def under_figure(self) -> QWidget | None:
        """A widget given the figure's width, in a splitter under it (the scheduler's zoomable
        timeline). It goes with the controls: hidden with them when presenting."""
        return None

    def automatic(self, result: Any) -> dict[str, Any]:
        """The values in use for optional fields left empty that the result derives (a preset's
        limits, the grid given): shown greyed in the controls."""
        return {}

    def activate(self, key: str) -> None:
        """What a click on ``key`` does beside selecting it (the dock selects it after)."""

    def theme_changed(self, theme: Theme) -> None:
        """The dock's theme changed (the dock redraws its own figure)."""


HOOKS = frozenset(name for name in vars(PanelExtras) if not name.startswith("_"))


def extras_class(panel: Panel) -> type[PanelExtras]:
    """The class the panel's registry entry names, or the base for the generated dock alone."""
    path = panel.extras_path
    if path is None:
        return PanelExtras
    module, name = path
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, PanelExtras)):
        raise TypeError(f"{module}.{name} is not a PanelExtras")
    return cls
