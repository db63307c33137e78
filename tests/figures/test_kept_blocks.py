"""Blocks kept between builds (``figures/kept.py``): a layout search builds one result's figure
in a dozen designs, so what does not depend on the design is made once per result."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures import launch
from gpuviz.figures.kept import Kept
from gpuviz.figures.metrics import fallback_room
from gpuviz.figures.targets import DESIGN_FACTORS, view_target
from gpuviz.figures.theme import theme
from gpuviz.scenario import compute_all, loads_scenario


def test_kept_is_per_owner_identity_and_fallback_room():
    kept: Kept[list[int]] = Kept(2)
    a, b = object(), object()
    made: list[int] = []

    def make(n: int):
        return lambda: made.append(n) or [n]

    first = kept.get((a,), "k", make(1))
    assert kept.get((a,), "k", make(2)) is first and made == [1]
    assert kept.get((b,), "k", make(3)) == [3]  # another owner, another entry
    with fallback_room(True):
        assert kept.get((a,), "k", make(4)) == [4]  # laid out with room: another entry
    assert kept.get((a,), "k", make(5)) == [5]  # the oldest went (two are kept)


def test_a_dense_launch_grid_is_coloured_once_for_every_design(monkeypatch):
    scenario = loads_scenario('{"version": 1, "panels": ["launch"], "launch": '
                              '{"grid": [1024, 32, 32], "block": [16, 8, 8]}}')
    r = compute_all(scenario, ("launch",))["launch"]
    made = []
    real = launch._grid_pixels
    monkeypatch.setattr(launch, "_grid_pixels", lambda r, t: made.append(1) or real(r, t))
    th = theme("screen")
    base = view_target(300, 1.7)
    figures = [launch.build(r, frozenset(), th, replace(base, design=(kind, f)))
               for f in DESIGN_FACTORS for kind in ("stacked", "beside")]
    assert len(made) == 1 and all(f.width > 0 for f in figures)


def test_the_scheduler_timeline_is_rastered_once_per_window(monkeypatch):
    from gpuviz.figures import scheduler

    scenario = loads_scenario('{"version": 1, "panels": ["scheduler"], "scheduler": '
                              '{"warps": 16, "cycles": 3000}}')
    r = compute_all(scenario, ("scheduler",))["scheduler"]
    windows = []
    real = scheduler.timeline_rgb
    monkeypatch.setattr(scheduler, "timeline_rgb",
                        lambda r, t, a=0, b=None: windows.append((a, b)) or real(r, t, a, b))
    th = theme("screen")
    base = view_target(300, 1.7)
    for f in DESIGN_FACTORS:
        for kind in ("stacked", "beside"):
            scheduler.build(r, frozenset(), th, replace(base, design=(kind, f)))
    assert windows and len(windows) == len(set(windows))


def test_a_dense_traversal_grid_is_rastered_once_per_step_and_order(monkeypatch):
    from gpuviz.figures import traversal, traversal_path

    scenario = loads_scenario('{"version": 1, "panels": ["traversal"], "traversal": '
                              '{"rows": 200, "cols": 200, "order": "hilbert", '
                              '"compare_order": "row-major", "sweep": false}}')
    r = compute_all(scenario, ("traversal",))["traversal"]
    rasters = []
    kept = traversal_path._PIXELS
    real = kept.get
    monkeypatch.setattr(kept, "get", lambda owners, key, make: real(
        owners, key, lambda: rasters.append(key) or make()))
    th = theme("screen")
    base = view_target(300, 1.7)
    for f in DESIGN_FACTORS:
        for kind in ("stacked", "beside"):
            traversal.build(r, frozenset(), th, replace(base, design=(kind, f)))
    assert len(rasters) == 2  # the two orders' grids, at the last step
