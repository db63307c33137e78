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

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
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
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from gpuviz.models.params import FieldSpec, field_specs
from gpuviz.scenario.decode import encode

INT32 = (1 << 31) - 1
ERROR_BG = QColor("#F8D0D0")
Index = QModelIndex | QPersistentModelIndex  # what Qt passes for a cell
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

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:
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
            dspin = QDoubleSpinBox(parent)
            dspin.setDecimals(3)
            dspin.setRange(lo if lo is not None else -1e12, hi if hi is not None else 1e12)
            return dspin
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(value))
        elif isinstance(editor, QSpinBox):
            try:
                editor.setValue(int(value))
            except (TypeError, ValueError):
                editor.setValue(editor.minimum())
        elif isinstance(editor, QDoubleSpinBox):
            try:
                editor.setValue(float(value))
            except (TypeError, ValueError):
                editor.setValue(editor.minimum())
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        col = self.columns[index.column()]
        if isinstance(editor, QComboBox):
            choice = (col.choices or ())[editor.currentIndex()]
            model.setData(index, choice, Qt.ItemDataRole.EditRole)
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)


class _Rows(QAbstractTableModel):
    """The table's entries as data: one list of cell values per row, drawn only as rows come
    on screen (an explicit order of 256×256 tiles is 65,536 rows; a widget item per cell took
    0.5 s to fill and 0.26 s to read back on every edit). Rows are numbered from 0, as the JSON
    paths of problems count them; a cell marked by a problem carries its message."""

    def __init__(self, columns: list[FieldSpec], parent: QWidget):
        super().__init__(parent)
        self.columns = columns
        self.rows: list[list[Any]] = []
        self.marks: dict[tuple[int, int], str] = {}  # (row, column) -> the problem's text
        self.marking = False  # cells repainted for their marks: not an edit
        # a column that means something only for some values of the row's tag column (an
        # event's bytes, not its count, under op expect_tx): left blank and not editable in
        # the rows whose tag it does not apply to, as the form hides such a field
        names = [c.name for c in columns]
        self.tags = {i: (names.index(c.applies_when[0]), c.applies_when[1])
                     for i, c in enumerate(columns)
                     if c.applies_when is not None and c.applies_when[0] in names}

    def applies(self, r: int, i: int) -> bool:
        """Whether column ``i`` means something in row ``r`` (its tag's value)."""
        if i not in self.tags:
            return True
        tag, values = self.tags[i]
        return self.rows[r][tag] in values

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's API)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return str(section) if role == Qt.ItemDataRole.DisplayRole else None
        col = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.name.replace("_", " ")
        return col.doc if role == Qt.ItemDataRole.ToolTipRole else None

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if 0 <= index.row() < len(self.rows) and not self.applies(index.row(), index.column()):
            return f
        if self.columns[index.column()].type is bool:
            return f | Qt.ItemFlag.ItemIsUserCheckable
        return f | Qt.ItemFlag.ItemIsEditable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        r, i = index.row(), index.column()
        if not 0 <= r < len(self.rows):
            return None
        value, is_bool = self.rows[r][i], self.columns[i].type is bool
        if not self.applies(r, i):
            tag = self.columns[self.tags[i][0]].name
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"not used when {tag} is {self.rows[r][self.tags[i][0]]}"
            return "" if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.CheckStateRole:
            return (Qt.CheckState.Checked if value else Qt.CheckState.Unchecked) if is_bool \
                else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return None if is_bool else ("" if value is None else value)
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(ERROR_BG) if (r, i) in self.marks else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.marks.get((r, i))
        return None

    def setData(self, index: Index, value: Any,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        r, i = index.row(), index.column()
        if not 0 <= r < len(self.rows):
            return False
        if role == Qt.ItemDataRole.CheckStateRole:
            value = Qt.CheckState(value) == Qt.CheckState.Checked
        elif role != Qt.ItemDataRole.EditRole:
            return False
        self.rows[r][i] = value
        if any(tag == i for tag, _values in self.tags.values()):  # its row's blanks change
            self.dataChanged.emit(self.index(r, 0), self.index(r, len(self.columns) - 1), [role])
        else:
            self.dataChanged.emit(index, index, [role])
        return True

    def reset(self, rows: list[list[Any]]) -> None:
        self.beginResetModel()
        self.rows, self.marks = rows, {}
        self.endResetModel()

    def insert(self, r: int, row: list[Any]) -> None:
        self.beginInsertRows(QModelIndex(), r, r)
        self.rows.insert(r, row)
        self.marks = {}  # rows below moved; the form marks its problems again
        self.endInsertRows()

    def remove(self, r: int) -> None:
        self.beginRemoveRows(QModelIndex(), r, r)
        del self.rows[r]
        self.marks = {}
        self.endRemoveRows()

    def mark(self, marks: dict[tuple[int, int], str]) -> None:
        """Cells marked by problems (only those cells repainted: a table may have 65,536
        rows)."""
        changed = set(self.marks) | set(marks)
        self.marks, self.marking = marks, True
        try:
            for r, i in changed:
                if r < len(self.rows):
                    at = self.index(r, i)
                    self.dataChanged.emit(at, at, [Qt.ItemDataRole.BackgroundRole,
                                                   Qt.ItemDataRole.ToolTipRole])
        finally:
            self.marking = False


class TableEditor(QWidget):
    """Edits a list of entries; ``changed`` fires after every committed edit or row change."""

    changed = Signal()

    def __init__(self, item: FieldSpec, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.item_type = item.type
        self.is_records = item.record is not None
        self.columns = columns_for(item)
        self.rows = _Rows(self.columns, self)
        self.table = QTableView()
        self.table.setObjectName(f"table-{name}")
        self.table.setModel(self.rows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegate(_Delegate(self.columns, self.table))
        self.rows.dataChanged.connect(self._on_data_changed)
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

    # --- values ------------------------------------------------------------------------------
    def value(self) -> list[Any]:
        if not self.is_records:
            return [self._cell(v, 0) for v, in self.rows.rows]
        names = [c.name for c in self.columns]
        return [{n: self._cell(v, i) for i, (n, v) in enumerate(zip(names, row, strict=True))}
                for row in self.rows.rows]

    def _cell(self, value: Any, i: int) -> Any:
        col = self.columns[i]
        if col.type is bool:
            return bool(value)
        if value is None or value == "":
            return None if col.optional else ("" if col.type is str else None)
        return value

    def set_value(self, value: list[Any]) -> None:
        self.rows.reset([self._row(entry) for entry in value or []])
        self.clear_problems()
        self._update_count()

    def _row(self, entry: Any) -> list[Any]:
        record = entry if self.is_records else {"value": entry}
        return [record.get(c.name) if isinstance(record, dict) else None for c in self.columns]

    def row_count(self) -> int:
        return len(self.rows.rows)

    def current_row(self) -> int:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    def set_current_row(self, r: int) -> None:
        self.table.setCurrentIndex(self.rows.index(r, 0))

    def _default_entry(self, r: int) -> Any:
        if 0 <= r < self.row_count():
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
        r = self.current_row()
        entry = self._default_entry(r if r >= 0 else self.row_count() - 1)
        at = r + 1 if r >= 0 else self.row_count()
        self.rows.insert(at, self._row(entry))
        self.set_current_row(at)
        self._emit()

    def remove_row(self) -> None:
        r = self.current_row()
        if r < 0:
            return
        self.rows.remove(r)
        if self.row_count():
            self.set_current_row(min(r, self.row_count() - 1))
        self._emit()

    def move_row(self, delta: int) -> None:
        r = self.current_row()
        to = r + delta
        if r < 0 or not 0 <= to < self.row_count():
            return
        rows = list(self.rows.rows)
        rows.insert(to, rows.pop(r))
        self.rows.reset(rows)
        self.clear_problems()
        self.set_current_row(to)
        self._emit()

    def _on_data_changed(self, *_changed: object) -> None:
        if not self.rows.marking:  # a cell edited (a mark is not an edit)
            self._emit()

    def _emit(self) -> None:
        self._update_count()
        self.changed.emit()

    def _update_count(self) -> None:
        n = self.row_count()
        self.count_label.setText(f"{n} {'row' if n == 1 else 'rows'}")
        rows = self.table.verticalHeader().defaultSectionSize() * min(max(n, 2), 8)
        self.table.setFixedHeight(rows + self.table.horizontalHeader().height()
                                  + 2 * self.table.frameWidth() + 6)

    # --- problems from the form ----------------------------------------------------------------
    def clear_problems(self) -> None:
        self.rows.mark({})
        self.message.hide()

    def show_problems(self, problems: list[tuple[str, str, str]]) -> None:
        """``problems``: (full JSON path, path after this field, message). A path that names a
        row (``[3]``) or a cell (``[3].target``) marks it; the rest are listed under the table."""
        loose, marks = [], {}
        names = [c.name for c in self.columns]
        for full, rest, message in problems:
            m = _INDEX.match(rest)
            if m and int(m.group(1)) < self.row_count():
                r = int(m.group(1))
                cols = [names.index(m.group(2))] if m.group(2) in names else range(len(names))
                for i in cols:
                    marks[(r, i)] = f"{full}: {message}"
            else:
                loose.append(f"{full}: {message}")
        self.rows.mark(marks)
        self.message.setVisible(bool(loose))
        self.message.setText("\n".join(loose))

    def marked_cells(self) -> list[tuple[int, int]]:
        return sorted(self.rows.marks)

    def tooltip(self, r: int, i: int) -> str:
        return self.rows.data(self.rows.index(r, i), Qt.ItemDataRole.ToolTipRole) or ""

    def set_cell(self, r: int, i: int, value: Any) -> None:
        """A cell's value, as typed into it."""
        self.rows.setData(self.rows.index(r, i), value, Qt.ItemDataRole.EditRole)
