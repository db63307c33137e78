"""The generated controls: what the document sets is shown without being sent back as an edit,
and what a user types is."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.models.launch import LaunchParams
from gpuviz.models.traversal import TraversalParams
from gpuviz.scenario.decode import encode
from gpuviz.ui.param_form import ParamForm


def test_setting_params_shows_them_and_emits_no_edit(qtbot):
    for pid, params in (("launch", replace(LaunchParams(), n=None, extent=(40, 9), block=(8, 4))),
                        ("traversal", replace(TraversalParams(), explicit=(3, 1, 0, 2),
                                              rows=2, cols=2, order="explicit"))):
        form = ParamForm(pid, type(params))
        qtbot.addWidget(form)
        edits: list[tuple[object, str]] = []
        form.edited.connect(lambda p, f, seen=edits: seen.append((p, f)))
        form.set_params(params)
        form.set_params(type(params)())  # and back: every control and optional field changes
        form.set_params(params)
        assert edits == []
        assert form._root.get() == encode(params) and form.problems_text() == ""


def test_a_typed_value_is_one_edit(qtbot):
    form = ParamForm("launch", LaunchParams)
    qtbot.addWidget(form)
    form.set_params(LaunchParams())
    edits = []
    form.edited.connect(lambda p, f: edits.append((p, f)))
    form.editor("sm_count").setValue(7)
    assert [(p.sm_count, f) for p, f in edits] == [(7, "sm_count")]


def test_a_field_left_automatic_shows_the_value_in_use_and_an_override_starts_there(qtbot):
    from gpuviz.models.occupancy import OccupancyParams

    form = ParamForm("occupancy", OccupancyParams)
    qtbot.addWidget(form)
    form.set_params(OccupancyParams())
    form.show_automatic({"max_warps_per_sm": 64, "arch": "h100-sxm"})
    warps = form._root.editors["max_warps_per_sm"]
    assert not warps.check.isChecked() and not warps.inner.widget.isEnabled()
    assert warps.inner.widget.value() == 64  # was the field's minimum, 1
    assert form._root.editors["arch"].inner.widget.currentText() == "h100-sxm"
    form.set_params(OccupancyParams(threads_per_block=256))  # another edit: still shown
    assert warps.inner.widget.value() == 64
    edits = []
    form.edited.connect(lambda p, f: edits.append((p, f)))
    warps.check.setChecked(True)  # overriding starts from the value in use: nothing changes yet
    assert [(p.max_warps_per_sm, f) for p, f in edits] == [(64, "max_warps_per_sm")]


def test_a_pattern_shows_only_the_fields_of_its_kind(qtbot):
    from PySide6.QtWidgets import QComboBox, QWidget

    from gpuviz.models.banks import BankPattern, BanksParams

    form = ParamForm("banks", BanksParams)
    qtbot.addWidget(form)
    form.show()
    form.set_params(replace(BanksParams(), pattern=replace(BankPattern(), kind="column")))
    assert form.shown_fields("pattern") == ["kind", "row_width", "padding", "column"]
    pattern = form.editor("pattern")
    stride, index = (pattern.findChild(QWidget, f"param-{n}") for n in ("stride", "index"))
    assert not stride.isVisible() and not index.isVisible()
    assert pattern.findChild(QWidget, "param-padding").isVisible()
    edits = []
    form.edited.connect(lambda p, f: edits.append(p))
    pattern.findChild(QComboBox, "param-kind").setCurrentText("broadcast")  # another kind
    assert form.shown_fields("pattern") == ["kind", "index"]
    assert index.isVisible() and not stride.isVisible()
    assert [p.pattern.kind for p in edits] == ["broadcast"]


def test_a_nested_field_left_automatic_shows_the_value_in_use_and_is_veiled(qtbot):
    """tma's cluster tiles left empty are the box's 1,024 bytes, not the spin box's minimum of
    16; a question step hides them with the panel's other automatic values."""
    from gpuviz.models import tma
    from gpuviz.ui.panels.tma import TmaExtras

    form = ParamForm("tma", tma.TmaParams)
    qtbot.addWidget(form)
    form.show()
    form.set_params(tma.TmaParams())
    values = TmaExtras.automatic(TmaExtras.__new__(TmaExtras), tma.compute(tma.TmaParams()))
    assert values == {"cluster.a_bytes": 1024, "cluster.b_bytes": 1024}
    form.show_automatic(values)
    a_bytes = form._editor_at("cluster.a_bytes")
    assert not a_bytes.check.isChecked() and a_bytes.inner.widget.value() == 1024
    form.veil_automatic(True)
    assert not a_bytes.inner.widget.isVisible()
    form.veil_automatic(False)
    assert a_bytes.inner.widget.isVisible()


def test_a_long_list_shows_its_start_in_a_narrow_field(qtbot):
    """banks-padded33's active lanes, 0 … 31, showed "24, 25, …, 31" in the controls column:
    the text was set with the cursor at its end, and the field scrolled to the tail."""
    from gpuviz.models.banks import BanksParams

    form = ParamForm("banks", BanksParams)
    qtbot.addWidget(form)
    lanes = tuple(range(32))
    form.set_params(replace(BanksParams(), active_lanes=lanes))
    field = form.editor("active_lanes")
    assert field.text().startswith("0, 1, 2")
    assert field.cursorPosition() == 0
