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
    i = [c.name for c in table.columns].index(column)
    table.table.item(row, i).setData(Qt.ItemDataRole.EditRole, value)


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
    assert "divergence.edges[1].target" in edges.table.item(1, 1).toolTip()
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

    table.table.setCurrentCell(0, 0)
    table.move_row(1)  # swap the first two tiles
    assert doc.shown.section("traversal").explicit[:3] == (order[1], order[0], order[2])
    table.table.setCurrentCell(n - 1, 0)
    table.add_row()  # a tile that does not exist: refused, listed under the table
    assert len(doc.shown.section("traversal").explicit) == n
    assert table.table.rowCount() == n + 1
    assert "traversal.explicit" in table.message.text()
    table.remove_row()
    assert table.message.isHidden() and table.table.rowCount() == n


def test_barrier_schedule_is_a_table(make_main_window, scenario_path):
    w = make_main_window(scenario_path("barrier-two-barriers.json"))
    table = _table(w.docks["barrier"], "picks")
    assert table is not None and [c.name for c in table.columns] == ["value"]
    assert table.value() == list(w.document.shown.section("barrier").picks)


def test_a_table_of_65536_rows_is_filled_at_once_and_numbered_from_0(qapp):
    # an explicit traversal order of 256×256 tiles: rows inserted one by one and a label item
    # per row took 4 s on the window's thread as the dock was built
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.models.params import field_specs
    from gpuviz.models.traversal import TraversalParams

    spec = next(f for f in field_specs(TraversalParams) if f.name == "explicit")
    table = TableEditor(spec, "explicit")
    order = list(range(65536))[::-1]
    table.set_value(order)
    assert table.value() == order and table.count_label.text() == "65536 rows"
    assert table.table.verticalHeaderItem(0) is None  # numbers are painted, not items
    header = table.table.verticalHeader()
    assert header.model().headerData(0, Qt.Orientation.Vertical) == 1  # Qt's own count
    image = QImage(40, 22, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    header.paintSection(painter, image.rect(), 0)
    painter.end()
    assert header.label(0) == "0" and len({image.pixel(x, y) for x in range(40)
                                             for y in range(22)}) > 2  # a number drawn
    table.deleteLater()
