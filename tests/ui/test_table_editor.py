"""List fields are edited as tables: typed cells, rows added, removed and moved, and problems
marked on their cells with the loader's JSON path; nothing invalid reaches the document."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSpinBox, QStyleOptionViewItem

from gpuviz.scenario.decode import encode
from gpuviz.ui.table_editor import TableEditor


def _table(dock, name) -> TableEditor:
    widget = dock.form.editor(name)
    return widget if isinstance(widget, TableEditor) else widget.findChild(TableEditor)


def _set_cell(table: TableEditor, row: int, column: str, value):
    table.set_cell(row, [c.name for c in table.columns].index(column), value)


def test_cfg_nodes_and_edges_are_tables_whose_edits_are_undoable(make_main_window, scenario_path):
    w = make_main_window(scenario_path("divergence-if-else.json"))
    dock = w.docks["divergence"]
    doc = w.document
    before = doc.shown.section("divergence")
    nodes, edges = _table(dock, "nodes"), _table(dock, "edges")
    assert [c.name for c in nodes.columns] == ["name", "instructions"]
    assert [c.name for c in edges.columns] == ["source", "target", "predicate"]
    assert nodes.value() == encode(before)["nodes"]
    assert edges.value() == encode(before)["edges"]

    _set_cell(nodes, 1, "instructions", 8)  # the "then" block grows
    after = doc.shown.section("divergence")
    assert after.nodes[1].instructions == 8 and after.nodes[0] == before.nodes[0]
    doc.undo_stack.undo()
    assert doc.shown.section("divergence") == before
    assert nodes.value() == encode(before)["nodes"]  # the table follows the document


def test_a_bad_cell_is_marked_with_the_loaders_path_and_changes_nothing(make_main_window,
                                                                        scenario_path):
    w = make_main_window(scenario_path("divergence-if-else.json"))
    dock = w.docks["divergence"]
    before = w.document.shown.section("divergence")
    edges = _table(dock, "edges")
    _set_cell(edges, 1, "target", "Z")
    assert w.document.shown.section("divergence") == before
    assert "divergence.edges[1].target: There is no block named 'Z'." in dock.form.problems_text()
    assert edges.marked_cells() == [(1, 1)]
    assert "divergence.edges[1].target" in edges.tooltip(1, 1)
    _set_cell(edges, 1, "target", "else")  # fixed: the marks go, the document is unchanged
    assert edges.marked_cells() == [] and not dock.form.problems_text()


def test_cells_are_edited_with_editors_of_their_type_and_range(make_main_window, scenario_path):
    w = make_main_window(scenario_path("divergence-if-else.json"))
    nodes = _table(w.docks["divergence"], "nodes")
    index = nodes.table.model().index(0, 1)
    editor = nodes.table.itemDelegate().createEditor(nodes.table.viewport(), QStyleOptionViewItem(),
                                                     index)
    assert isinstance(editor, QSpinBox) and (editor.minimum(), editor.maximum()) == (0, 10_000)
    editor.deleteLater()


def test_explicit_tile_order_rows_add_move_remove(make_main_window, scenario_path):
    from dataclasses import replace

    w = make_main_window(scenario_path("traversal-grouped.json"))
    doc = w.document
    dock = w.docks["traversal"]
    section = doc.shown.section("traversal")
    n = section.rows * section.cols
    order = tuple(reversed(range(n)))
    doc.edit_section("traversal", replace(section, order="explicit", explicit=order))
    QApplication.processEvents()
    table = _table(dock, "explicit")
    assert table.value() == list(order)

    table.set_current_row(0)
    table.move_row(1)  # swap the first two tiles
    assert doc.shown.section("traversal").explicit[:3] == (order[1], order[0], order[2])
    table.set_current_row(n - 1)
    table.add_row()  # a tile that does not exist: refused, listed under the table
    assert len(doc.shown.section("traversal").explicit) == n
    assert table.row_count() == n + 1
    assert "traversal.explicit" in table.message.text()
    table.remove_row()
    assert table.message.isHidden() and table.row_count() == n


def test_barrier_schedule_is_a_table(make_main_window, scenario_path):
    w = make_main_window(scenario_path("barrier-two-barriers.json"))
    table = _table(w.docks["barrier"], "picks")
    assert table is not None and [c.name for c in table.columns] == ["value"]
    assert table.value() == list(w.document.shown.section("barrier").picks)


def test_a_table_of_65536_rows_draws_only_the_rows_on_screen_numbered_from_0(qapp,
                                                                              monkeypatch):
    # an explicit traversal order of 256×256 tiles: a widget item per cell took 0.5 s to fill
    # and 0.26 s to read back on every edit, on the window's thread
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.models.params import field_specs
    from gpuviz.models.traversal import TraversalParams
    from gpuviz.ui import table_editor

    asked: set[int] = set()  # the rows whose cells were asked for
    data = table_editor._Rows.data
    monkeypatch.setattr(table_editor._Rows, "data",
                        lambda self, index, role=Qt.ItemDataRole.DisplayRole:
                        (asked.add(index.row()), data(self, index, role))[1])
    spec = next(f for f in field_specs(TraversalParams) if f.name == "explicit")
    table = TableEditor(spec, "explicit")
    table.resize(300, 400)
    order = list(range(65536))[::-1]
    table.set_value(order)
    assert table.value() == order and table.count_label.text() == "65536 rows"
    table.grab()  # painted
    assert asked and max(asked) < 20  # the rows on screen, not 65,536
    table.show_problems([("traversal.explicit[60000]", "[60000]", "no such tile")])
    assert table.marked_cells() == [(60000, 0)] and max(asked) < 20
    assert table.tooltip(60000, 0) == "traversal.explicit[60000]: no such tile"
    table.set_cell(60000, 0, 7)  # an edit reaches the value, and only that cell changed
    assert table.value()[60000] == 7 and table.value()[:3] == order[:3]
    header = table.table.verticalHeader()
    assert header.model().headerData(0, Qt.Orientation.Vertical) == "0"
    image = QImage(40, 22, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    header.paintSection(painter, image.rect(), 0)
    painter.end()
    assert len({image.pixel(x, y) for x in range(40) for y in range(22)}) > 2  # a number drawn
    table.deleteLater()


def test_a_cell_whose_field_does_not_apply_to_its_row_is_blank_and_locked(make_main_window,
                                                                          scenario_path):
    """tma's barrier events: count means something for arrive only, bytes for the expect-tx
    and complete-tx ops, parity for test_wait; the other cells show nothing a reader could
    take for a value the model uses."""
    w = make_main_window(scenario_path("tma-ring-parity.json"))
    events = _table(w.docks["tma"], "barrier")
    names = [c.name for c in events.columns]
    model = events.table.model()

    def shown(r, name):
        return model.data(model.index(r, names.index(name)), Qt.ItemDataRole.DisplayRole)

    def editable(r, name):
        return bool(model.flags(model.index(r, names.index(name))) & Qt.ItemFlag.ItemIsEditable)

    ops = [row["op"] for row in events.value()]
    assert ops == ["test_wait", "test_wait", "arrive_expect_tx", "copy", "test_wait"]
    assert (shown(0, "parity"), shown(0, "count"), shown(0, "bytes")) == (1, "", "")
    assert (shown(2, "bytes"), shown(2, "count"), shown(2, "parity")) == (1024, "", "")
    assert all(shown(3, n) == "" for n in ("count", "bytes", "parity"))  # the copy's own bytes
    assert not editable(0, "count") and editable(0, "parity") and editable(2, "bytes")
    assert "not used when op is test_wait" in model.data(model.index(0, names.index("count")),
                                                         Qt.ItemDataRole.ToolTipRole)
    _set_cell(events, 0, "op", "arrive")  # the row's count now applies, its parity not
    assert shown(0, "count") == 1 and editable(0, "count") and shown(0, "parity") == ""
    assert w.document.shown.section("tma").barrier.events[0].op == "arrive"
