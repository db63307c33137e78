"""The dock's remembered figures (``dock_layout.built_figure``): the same arguments give the same
figure object without building it again, and it is the figure a fresh build draws; new
parameters (a new result), another selection, theme or target, or a change of typeface build
anew."""

from __future__ import annotations

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import scene
from gpuviz.figures.metrics import fallback_room, use_typeface
from gpuviz.figures.targets import view_target
from gpuviz.figures.theme import theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.ui import dock_layout


def _counting(monkeypatch) -> list[str]:
    built: list[str] = []
    real = scene.build_figure

    def counted(panel_id, result, selection, th, target=scene.NATURAL):
        built.append(panel_id)
        return real(panel_id, result, selection, th, target)

    monkeypatch.setattr(dock_layout, "build_figure", counted)
    return built


def test_a_figure_is_remembered_and_rebuilt_when_its_parameters_change(monkeypatch):
    scenario = load_scenario(scenario_dir() / "occupancy-block-size.json")
    th, target = theme("screen"), view_target(200, 1.4)
    result = compute_all(scenario, ("occupancy",))["occupancy"]
    built = _counting(monkeypatch)
    first = dock_layout.built_figure("occupancy", result, frozenset(), th, target)
    again = dock_layout.built_figure("occupancy", result, frozenset(), th, target)
    assert again is first and len(built) == 1
    assert figure_to_svg(first) == figure_to_svg(
        scene.build_figure("occupancy", result, frozenset(), th, target))

    step = next(k for k in range(len(scenario.steps))
                if scenario.at_step(k).section("occupancy") != scenario.section("occupancy"))
    other = compute_all(scenario.at_step(step), ("occupancy",))["occupancy"]
    moved = dock_layout.built_figure("occupancy", other, frozenset(), th, target)
    assert len(built) == 2 and figure_to_svg(moved) != figure_to_svg(first)
    for asked in (dict(selection=frozenset({"block"})), dict(th=theme("print")),
                  dict(target=view_target(120, 1.4))):
        args = dict(selection=frozenset(), th=th, target=target) | asked
        dock_layout.built_figure("occupancy", result, args["selection"], args["th"],
                                 args["target"])
    assert len(built) == 5  # each another figure
    with fallback_room(True):  # room for a wider face: another layout
        dock_layout.built_figure("occupancy", result, frozenset(), th, target)
    assert len(built) == 6
    use_typeface(None)  # a change of typeface (here back to the bundled faces) forgets all
    dock_layout.built_figure("occupancy", result, frozenset(), th, target)
    assert len(built) == 7
