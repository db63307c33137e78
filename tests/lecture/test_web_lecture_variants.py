"""The web page's four layouts of each figure (wide and narrow, light and dark): a dark layout
built with the light one's kept design draws what a fresh layout search draws, and the work
budget counts four layouts a figure, not the builds that check a kept design."""

from __future__ import annotations

import pytest

from gpuviz.export.lecture import lecture_pages
from gpuviz.export.lecture_html import VARIANTS, _variants
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import scene
from gpuviz.figures.scene import built_items, drawn_items, figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

# a kept design that draws its figure again (gemm), and one that does not (the wave64 sectors
# figure's search shrinks the whole figure, which its design alone does not say)
SCENARIOS = ["gemm-walkthrough", "linked-launch-sectors-wave64", "banks-padded33"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_variant_is_what_a_fresh_search_draws(name):
    scenario = load_scenario(scenario_dir() / f"{name}.json")
    for page in lecture_pages(scenario, None, None, "html"):
        for pid in page.panels:
            before = built_items()
            made = _variants(page, pid)
            assert built_items() - before == sum(drawn_items(f.items) for f, _ in made)
            fresh = [figure_for(page.state, pid, theme(t), page.selection_for(pid),
                                page.target(pid, size)) for _, t, size in VARIANTS]
            assert [svg for _, svg in made] == [figure_to_svg(f) for f in fresh], (name, pid)


def test_a_dark_layout_keeps_the_light_ones_design(monkeypatch):
    scenario = load_scenario(scenario_dir() / "gemm-walkthrough.json")
    page = lecture_pages(scenario, None, None, "html")[1]
    searched = []
    build = scene.build_figure

    def spy(panel_id, result, selection, theme_, target=scene.NATURAL):
        searched.append((theme_.name, target.design is None))
        return build(panel_id, result, selection, theme_, target)

    monkeypatch.setattr(scene, "build_figure", spy)
    _variants(page, "gemm")
    # the wide layouts: light searched, checked with its design kept, dark built with it
    assert searched[:3] == [("screen", True), ("screen", False), ("dark", False)], searched
