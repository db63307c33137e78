"""Layout designs remembered across sessions: per panel, theme and view shape, bounded, and a
damaged entry is forgotten rather than an error."""

from __future__ import annotations

from gpuviz.figures.targets import view_target
from gpuviz.ui.design_memory import KEPT, DesignMemory


def test_a_design_is_recalled_for_its_panel_theme_and_view_shape_only(settings):
    target = view_target(290, 1.4)
    DesignMemory(settings).keep("launch", "screen", target, ("beside", 1.25))
    later = DesignMemory(settings)  # the next session reads the settings afresh
    assert later.recall("launch", "screen", target) == ("beside", 1.25)
    assert later.recall("launch", "print", target) is None
    assert later.recall("banks", "screen", target) is None
    assert later.recall("launch", "screen", view_target(291, 1.4)) is None
    assert later.recall("launch", "screen", view_target(290, 1.41)) is None


def test_the_newest_design_wins_and_only_the_most_recent_are_kept(settings):
    memory = DesignMemory(settings)
    targets = [view_target(100 + k, 1.5) for k in range(KEPT + 5)]
    for t in targets:
        memory.keep("gemm", "screen", t, ("stacked", 0.8))
    memory.keep("gemm", "screen", targets[-1], ("stacked", 2.0))
    later = DesignMemory(settings)
    assert later.recall("gemm", "screen", targets[-1]) == ("stacked", 2.0)
    assert [later.recall("gemm", "screen", t) for t in targets[:5]] == [None] * 5
    assert later.recall("gemm", "screen", targets[5]) == ("stacked", 0.8)
    assert len(str(settings.value("designs/gemm")).split(";")) == KEPT


def test_damaged_entries_are_forgotten(settings):
    target = view_target(290, 1.4)
    good = "screen 290 1.4=stacked:0.8"
    settings.setValue("designs/launch", f"garbage;screen 290 1.4=sideways:1;{good};=:;x=stacked:7")
    assert DesignMemory(settings).recall("launch", "screen", target) == ("stacked", 0.8)
    settings.setValue("designs/launch", 42)
    assert DesignMemory(settings).recall("launch", "screen", target) is None
