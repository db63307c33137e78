"""Each panel is declared once: its registry entry names what it has, and what a panel adds to
its dock is a ``PanelExtras`` whose hooks the dock calls by their declared names."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import gpuviz.ui.panels
from gpuviz.help import HELP, TOPICS
from gpuviz.registry import PANELS, Panel
from gpuviz.ui.panel_extras import HOOKS, PanelExtras, extras_class


def _overridden(cls: type[PanelExtras]) -> set[str]:
    """The public methods a subclass defines (its helpers start with an underscore)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is PanelExtras:
            break
        names |= {n for n, v in vars(klass).items()
                  if not n.startswith("_") and inspect.isfunction(v)}
    return names


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.id)
def test_every_registry_entry_names_what_the_panel_has(panel: Panel):
    assert panel.topic and panel.id in dict(TOPICS)[panel.topic]
    assert panel.id in HELP
    cls = extras_class(panel)
    assert _overridden(cls) <= HOOKS, f"{cls.__name__}: not a hook: {_overridden(cls) - HOOKS}"
    if panel.extras:
        assert cls is not PanelExtras and _overridden(cls)
    if panel.kernel:
        assert callable(panel.kernel_module.render)
    if panel.measured is not None and panel.measured.by_section:  # read from the result
        assert hasattr(panel.compute(panel.params_type()), panel.measured.quantity)


def test_every_extras_class_in_ui_panels_is_named_by_its_panel():
    named = {(p.extras_path or ("", ""))[1] for p in PANELS}
    for info in pkgutil.iter_modules(gpuviz.ui.panels.__path__):
        module = importlib.import_module(f"gpuviz.ui.panels.{info.name}")
        for name, cls in vars(module).items():
            if isinstance(cls, type) and issubclass(cls, PanelExtras) and cls is not PanelExtras \
                    and cls.__module__ == module.__name__:
                assert name in named, f"{module.__name__}.{name} is named by no registry entry"


def test_a_misspelt_hook_is_caught():
    class Misspelt(PanelExtras):
        def summary(self, result) -> str:  # the hook is summary_text
            return "never shown"

    assert _overridden(Misspelt) - HOOKS == {"summary"}


def test_clicking_a_chunk_or_a_warp_edits_its_section(qapp):
    from types import SimpleNamespace

    from gpuviz.scenario import Scenario
    from gpuviz.ui.document import Document
    from gpuviz.ui.panels.launch import LaunchExtras
    from gpuviz.ui.panels.swizzle import SwizzleExtras

    doc = Document(Scenario(panels=("launch", "swizzle")))
    holder = SimpleNamespace(document=doc)
    SwizzleExtras(holder).activate("chunk:1,5")  # type: ignore[arg-type]
    SwizzleExtras(holder).activate("chunk:x")  # type: ignore[arg-type]  # not a chunk's key
    LaunchExtras(holder).activate("warp:1,1")  # type: ignore[arg-type]
    assert doc.scenario.section("swizzle").column == 5
    launch = doc.scenario.section("launch")
    assert (launch.selected_block, launch.selected_warp) == (1, 1)
    assert doc.undo_stack.count() == 2
