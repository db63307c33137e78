"""A student finds a scenario in the gallery and reads the panel's help."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gpuviz.help import TOPICS, help_for
from gpuviz.registry import panel
from gpuviz.scenario import bundled_scenarios, load_scenario


@pytest.fixture
def gallery(qtbot, tmp_path):
    from gpuviz.ui import gallery as module

    made = []

    def make(**kw):
        g = module.Gallery(cache_dir=tmp_path / "thumbs", **kw)
        qtbot.addWidget(g)
        made.append(g)
        return g

    module._MEMORY.clear()
    yield make
    for g in made:
        g.wait_for_thumbnails()
    module._MEMORY.clear()


def _distinct_colours(icon):
    img = icon.pixmap(64, 40).toImage()
    return len({img.pixel(x, y) for x in range(0, img.width(), 3) for y in range(0, img.height(), 3)})


def test_gallery_groups_every_bundled_scenario_by_topic_with_painted_thumbnails(gallery, tmp_path):
    g = gallery()
    shown = {}
    for name, lst in g.lists.items():
        for i in range(lst.count()):
            item = lst.item(i)
            shown[item.data(Qt.ItemDataRole.UserRole)] = (name, item)
    paths = bundled_scenarios()
    assert sorted(shown) == sorted(str(p) for p in paths)
    for p in paths:
        s = load_scenario(p)
        name, item = shown[str(p)]
        assert item.text() == s.title and item.toolTip() == s.description
        assert s.panels[0] in dict(TOPICS)[name]
    assert list(g.lists) == [name for name, _ids in TOPICS if name in g.lists]
    assert g.wait_for_thumbnails()
    for _name, item in shown.values():
        assert _distinct_colours(item.icon()) > 3  # a painted figure, not the grey placeholder
    assert len(list((tmp_path / "thumbs").glob("*.png"))) == len({str(p) for p in paths})


def test_thumbnails_come_from_the_cache_the_second_time(gallery, monkeypatch):
    from gpuviz.ui import gallery as module

    first = gallery()
    assert first.wait_for_thumbnails()
    module._MEMORY.clear()  # a new session: only the files remain

    def no_painting(_scenario):
        raise AssertionError("painted again")

    monkeypatch.setattr(module, "render_thumbnail", no_painting)
    second = gallery()
    assert second.wait_for_thumbnails()
    item = next(iter(second.lists.values())).item(0)
    assert _distinct_colours(item.icon()) > 3
    third = gallery()  # in the same session nothing is even read
    assert third.pending == 0


def test_double_click_opens_the_scenario_in_the_window(make_main_window, scenario_path, monkeypatch,
                                                       tmp_path):
    from gpuviz.ui import gallery as module
    from gpuviz.ui import lecture_menus

    monkeypatch.setattr(module, "default_cache_dir", lambda: tmp_path / "thumbs")
    w = make_main_window()
    w.action("gallery").trigger()
    g = w.gallery
    assert g.isVisible()
    target = str(scenario_path("sectors-stride8.json"))
    lst = g.lists["Memory access"]
    item = next(lst.item(i) for i in range(lst.count())
                if lst.item(i).data(Qt.ItemDataRole.UserRole) == target)
    lst.setCurrentItem(item)
    assert "stride of 8" in g.description.text().lower() or item.text() in g.description.text()
    lst.itemDoubleClicked.emit(item)
    assert w.document.path.name == "sectors-stride8.json"
    assert not g.isVisible()
    g.wait_for_thumbnails()
    lecture_menus.show_gallery(w)
    assert w.gallery is g and g.isVisible()
    g.hide()


def test_about_this_panel_shows_the_focused_panels_help(make_main_window, scenario_path):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    w.docks["sectors"].view.setFocus()
    w.action("about-panel").trigger()
    d = w.about_dialog
    assert d.isVisible() and d.panel_id() == "sectors"
    text = d.text.toPlainText()
    assert panel("sectors").title in text
    for ref in help_for("sectors").references:
        assert ref in text
    d.choice.setCurrentIndex(d.choice.findData("divergence"))
    assert "Dynamic Warp Formation" in d.text.toPlainText()
    d.hide()
