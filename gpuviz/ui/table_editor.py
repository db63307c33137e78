"""A table for a list field of a panel section: one row per entry, one typed column per field of
the entry (a CFG's nodes and edges) or one ``value`` column (a tile order, a barrier schedule).

Rows are added, removed and moved with buttons; cells are edited with editors of their type
(whole numbers and numbers within the field's range, choices as a list). The table does not
validate by itself: the form decodes the whole section as a scenario file would and hands back
the problems, which are marked on their cells (with the JSON path and message as a tooltip).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionHeader,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuviz.models.params import FieldSpec, field_specs
from gpuviz.scenario.decode import encode

INT32 = (1 << 31) - 1
ERROR_BG = QColor("#F8D0D0")
_INDEX = re.compile(r"^\[(\d+)\](?:\.(\w+))?")


def columns_for(item: FieldSpec) -> list[FieldSpec]:
    """One column per field of a record entry (int, float, str or bool), else one ``value``
    column with the list's bounds and choices."""
    if item.record is not None:
        return list(field_specs(item.record))
    return [item._replace(name="value")]


class _Delegate(QStyledItemDelegate):
    """Editors of each column's type and range."""

    def __init__(self, columns: list[FieldSpec], parent: QWidget):
        super().__init__(parent)
        self.columns = columns

    def createEditor(self, parent: QWidget, option, index: QModelIndex) -> QWidget:
        col = self.columns[index.column()]
        lo, hi, choices = col.minimum, col.maximum, col.choices
        if choices is not None:
            box = QComboBox(parent)
            box.addItems([str(c) for c in choices])
            return box
        if col.type is int:
            spin = QSpinBox(parent)
            spin.setRange(int(lo) if lo is not None else -INT32,
                          int(min(hi, INT32)) if hi is not None else INT32)
            return spin
        if col.type is float:
            spin = QDoubleSpinBox(parent)
            spin.setDecimals(3)
            spin.setRange(lo if lo is not None else -1e12, hi if hi is not None else 1e12)
            return spin
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(value))
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            try:
                editor.setValue(int(value) if isinstance(editor, QSpinBox) else float(value))
            except (TypeError, ValueError):
                editor.setValue(editor.minimum())
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model, index: QModelIndex) -> None:
        col = self.columns[index.column()]
        if isinstance(editor, QComboBox):
            choice = (col.choices or ())[editor.currentIndex()]
            model.setData(index, choice, Qt.ItemDataRole.EditRole)
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)


class _RowNumbers(QHeaderView):
    """The vertical header, numbering rows from 0."""

    def __init__(self, parent: QWidget):
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setSectionsClickable(True)
        self.setHighlightSections(True)

    @staticmethod
    def label(logical: int) -> str:
        return str(logical)

    def paintSection(self, painter, rect, logical: int) -> None:
        option = QStyleOptionHeader()
        self.initStyleOption(option)
        option.rect, option.section, option.text = rect, logical, self.label(logical)
        option.textAlignment = Qt.AlignmentFlag.AlignCenter
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)


class TableEditor(QWidget):
    """Edits a list of entries; ``changed`` fires after every committed edit or row change."""

    changed = Signal()

    def __init__(self, item: FieldSpec, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.item_type = item.type
        self.is_records = item.record is not None
        self.columns = columns_for(item)
        self.table = QTableWidget(0, len(self.columns))
        self.table.setObjectName(f"table-{name}")
        self.table.setHorizontalHeaderLabels([c.name.replace("_", " ") for c in self.columns])
        for i, c in enumerate(self.columns):
            self.table.horizontalHeaderItem(i).setToolTip(c.doc)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # rows numbered from 0, as the JSON paths of problems count them (painted: a label
        # item per row cost 1 s for 65,536 rows)
        self.table.setVerticalHeader(_RowNumbers(self.table))
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegate(_Delegate(self.columns, self.table))
        self.table.itemChanged.connect(self._on_item_changed)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for label, tip, slot in (("+", "Add a row after the selected one", self.add_row),
                                 ("−", "Remove the selected row", self.remove_row),
                                 ("↑", "Move the selected row up", lambda: self.move_row(-1)),
                                 ("↓", "Move the selected row down", lambda: self.move_row(1))):
            b = QPushButton(label)
            b.setToolTip(tip)
            b.setFixedWidth(30)
            b.clicked.connect(slot)
            row.addWidget(b)
            self.buttons[label] = b
        row.addStretch(1)
        self.count_label = QLabel()
        row.addWidget(self.count_label)
        self.message = QLabel()
        self.message.setObjectName(f"table-{name}-problems")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #B00020;")
        self.message.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table)
        lay.addLayout(row)
        lay.addWidget(self.message)
        self._filling = False
        self._marked: set[tuple[int, int]] = set()

    # --- values ------------------------------------------------------------------------------
    def value(self) -> list[Any]:
        out = []
        for r in range(self.table.rowCount()):
            cells = {c.name: self._cell(r, i) for i, c in enumerate(self.columns)}
            out.append(cells if self.is_records else cells["value"])
        return out

    def _cell(self, r: int, i: int) -> Any:
        item = self.table.item(r, i)
        col = self.columns[i]
        value = item.data(Qt.ItemDataRole.EditRole) if item is not None else None
        if col.type is bool:
            return item is not None and item.checkState() == Qt.CheckState.Checked
        if value is None or value == "":
            return None if col.optional else ("" if col.type is str else None)
        return value

    def set_value(self, value: list[Any]) -> None:
        self._filling = True
        self.table.setUpdatesEnabled(False)
        try:  # every row at once: inserted one by one, 65,536 rows (an explicit order) took 3 s
            self.table.setRowCount(0)
            self._marked.clear()
            self.table.setRowCount(len(value or []))
            for r, entry in enumerate(value or []):
                self._fill(r, entry)
        finally:
            self.table.setUpdatesEnabled(True)
            self._filling = False
        self.clear_problems()
        self._update_count()

    def _append(self, entry: Any, at: int | None = None) -> None:
        r = self.table.rowCount() if at is None else at
        self.table.insertRow(r)
        self._marked.clear()  # rows below moved; the form marks its problems again
        self._fill(r, entry)

    def _fill(self, r: int, entry: Any) -> None:
        record = entry if self.is_records else {"value": entry}
        for i, c in enumerate(self.columns):
            v = record.get(c.name) if isinstance(record, dict) else None
            item = QTableWidgetItem()
            if c.type is bool:
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if v else Qt.CheckState.Unchecked)
            else:
                item.setData(Qt.ItemDataRole.EditRole, "" if v is None else v)
            self.table.setItem(r, i, item)

    def _default_entry(self, r: int) -> Any:
        if 0 <= r < self.table.rowCount():
            current = self.value()[r]
            if not self.is_records and self.columns[0].type is int and current is not None:
                return int(current) + 1
            return current
        if self.is_records:
            return encode(self.item_type())
        lo = self.columns[0].minimum
        return (lo if lo is not None else 0) if self.columns[0].type in (int, float) else ""

    # --- rows ----------------------------------------------------------------------------------
    def add_row(self) -> None:
        r = self.table.currentRow()
        entry = self._default_entry(r if r >= 0 else self.table.rowCount() - 1)
        at = r + 1 if r >= 0 else self.table.rowCount()
        self._filling = True
        self._append(entry, at)
        self._filling = False
        self.table.setCurrentCell(at, 0)
        self._emit()

    def remove_row(self) -> None:
        r = self.table.currentRow()
        if r < 0:
            return
        self.table.removeRow(r)
        if self.table.rowCount():
            self.table.setCurrentCell(min(r, self.table.rowCount() - 1), 0)
        self._emit()

    def move_row(self, delta: int) -> None:
        r = self.table.currentRow()
        to = r + delta
        if r < 0 or not 0 <= to < self.table.rowCount():
            return
        values = self.value()
        values.insert(to, values.pop(r))
        self.set_value(values)
        self.table.setCurrentCell(to, 0)
        self._emit()

    def _on_item_changed(self, _item: QTableWidgetItem) -> None:
        if not self._filling:
            self._emit()

    def _emit(self) -> None:
        self._update_count()
        self.changed.emit()

    def _update_count(self) -> None:
        n = self.table.rowCount()
        self.count_label.setText(f"{n} {'row' if n == 1 else 'rows'}")
        rows = self.table.verticalHeader().defaultSectionSize() * min(max(n, 2), 8)
        self.table.setFixedHeight(rows + self.table.horizontalHeader().height()
                                  + 2 * self.table.frameWidth() + 6)

    # --- problems from the form ----------------------------------------------------------------
    def clear_problems(self) -> None:
        self._filling = True
        for r, i in self._marked:  # only the cells marked: a table may have 65,536 rows
            item = self.table.item(r, i)
            if item is not None:
                item.setBackground(QBrush())
                item.setToolTip("")
        self._marked.clear()
        self._filling = False
        self.message.hide()

    def show_problems(self, problems: list[tuple[str, str, str]]) -> None:
        """``problems``: (full JSON path, path after this field, message). A path that names a
        row (``[3]``) or a cell (``[3].target``) marks it; the rest are listed under the table."""
        self.clear_problems()
        loose = []
        self._filling = True
        for full, rest, message in problems:
            m = _INDEX.match(rest)
            if m and int(m.group(1)) < self.table.rowCount():
                r = int(m.group(1))
                names = [c.name for c in self.columns]
                cols = [names.index(m.group(2))] if m.group(2) in names else range(len(names))
                for i in cols:
                    item = self.table.item(r, i)
                    if item is not None:
                        item.setBackground(QBrush(ERROR_BG))
                        item.setToolTip(f"{full}: {message}")
                        self._marked.add((r, i))
            else:
                loose.append(f"{full}: {message}")
        self._filling = False
        if loose:
            self.message.setText("\n".join(loose))
            self.message.show()

    def marked_cells(self) -> list[tuple[int, int]]:
        return [(r, i) for r, i in sorted(self._marked) if self.table.item(r, i) is not None
                and self.table.item(r, i).background().color() == ERROR_BG]
