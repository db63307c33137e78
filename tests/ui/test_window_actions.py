"""The window's actions are declared once, by id (``window_menus.ACTIONS``: title, keys, menu,
callback): the menus are built from that table, every module reaches an action by its id, and
none is written onto the window as an ``act_*`` attribute. The keys are the ones the README
and Help ▸ Keys give."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from gpuviz.ui.window_menus import ACTIONS


def _ids(menu) -> list[str]:
    out = []
    for a in menu.actions():
        if a.menu() is not None:
            out.append(next((s.id for s in ACTIONS if s.submenu and s.title == a.text()), "?"))
        elif a.objectName().startswith("action-"):
            out.append(a.objectName().removeprefix("action-"))
    return out


def test_no_action_is_an_attribute_written_onto_the_window(make_main_window):
    w = make_main_window()
    w.complete()
    assert [name for name in vars(w) if name.startswith("act_")] == []
    assert not [name for name in dir(type(w)) if name.startswith("act_")]


def test_the_menus_hold_the_tables_actions_in_its_order(make_main_window):
    w = make_main_window()
    w.complete()
    for menu_id in {s.menu for s in ACTIONS if s.menu}:
        declared = [s.id for s in ACTIONS if s.menu == menu_id]
        shown = [i for i in _ids(w.menus.menu(menu_id)) if i in declared]
        if menu_id == "edit":  # the undo stack's actions carry no object name
            declared = [i for i in declared if i not in ("undo", "redo")]
        assert shown == declared, menu_id
    for s in ACTIONS:
        if not s.submenu:
            assert w.action(s.id).text() == s.title


def test_the_keys_are_unchanged(make_main_window):
    w = make_main_window()
    w.complete()

    def keys(action_id: str) -> list[str]:
        return [k.toString() for k in w.action(action_id).shortcuts()]

    assert keys("next-step") == ["PgDown", "Ctrl+Right"]
    assert keys("previous-step") == ["PgUp", "Ctrl+Left"]
    assert keys("present") == ["F5"] and keys("leave-presentation") == ["Esc"]
    assert keys("full-screen")[0] == "F11"
    assert keys("export") == ["Ctrl+E"] and keys("overview") == ["Ctrl+Home"]
    assert keys("play") == ["Space"]
    assert (keys("frame-back"), keys("frame-next")) == (["Left"], ["Right"])
    assert keys("controls") == ["Ctrl+Shift+C"] and keys("next-panel") == ["Ctrl+Tab"]
    assert "Ctrl+Z" in keys("undo") and "Ctrl+Shift+Z" in keys("redo")
    assert keys("open") == [QKeySequence(QKeySequence.StandardKey.Open).toString()]
    assert keys("add-step") == ["Ctrl+Shift+A"] and keys("gallery") == ["Ctrl+Shift+O"]
    assert keys("about-panel") == ["F1"]
    assert not w.action("leave-presentation").isEnabled()
    assert w.action("controls").isCheckable() and w.action("controls").isChecked()
