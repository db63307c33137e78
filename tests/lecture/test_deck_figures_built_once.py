"""A deck's slide figures: those budget_pages built to try a step's pages are taken, not built
again, and they are what a fresh build of each slide draws."""

from __future__ import annotations

from gpuviz.export.deck import CHROME, step_figures
from gpuviz.export.lecture import lecture_pages
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import scene
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_a_slide_is_built_once_and_as_a_fresh_build_draws_it(monkeypatch):
    scenario = load_scenario(scenario_dir() / "gemm-walkthrough.json")
    built = []
    build = scene.build_figure

    def counted(panel_id, result, selection, theme_, target=scene.NATURAL):
        built.append((panel_id, selection, theme_.name, target))
        return build(panel_id, result, selection, theme_, target)

    for page in lecture_pages(scenario, None, None, "deck")[1:]:
        built.clear()
        monkeypatch.setattr(scene, "build_figure", counted)
        figures = step_figures(page)
        monkeypatch.setattr(scene, "build_figure", build)
        assert len(built) == len(set(built)), "no slide figure is built twice"
        for figure in figures:
            fresh = figure_for(page.state, "gemm", theme("screen"), page.selection_for("gemm"),
                               TARGETS["slide"].showing(figure.parts if page.parts("gemm")
                                                        or len(figures) > 1 else None, CHROME))
            assert figure_to_svg(figure) == figure_to_svg(fresh)
