"""Controls generated from a panel's parameter dataclass: one editor per field, ranges and
documentation from its field descriptions (``models.params.field_specs``). Every edit is
validated exactly as a scenario file would be; a rejected edit shows its message under the form
and changes nothing. A field that applies only to some values of its record's tag (a pattern's
``kind``) is shown only while the tag has one of them."""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gpuviz.models.params import FieldSpec, field_specs
from gpuviz.scenario.decode import encode
from gpuviz.scenario.io import decode_section

INT32 = (1 << 31) - 1


class _Editor(QObject):
    changed = Signal()
    widget: QWidget

    def get(self) -> Any:
        raise NotImplementedError

    def set(self, value: Any) -> None:
        raise NotImplementedError

    def mark(self, problems: list[tuple[str, str, str]]) -> None:
        """Show the problems found below this field (tables mark their cells; others rely on
        the message under the form)."""


class _IntEditor(_Editor):
    def __init__(self, spec: FieldSpec):
        super().__init__()
        lo, hi = spec.minimum, spec.maximum
        if (lo is None or lo >= -INT32) and (hi is None or hi <= INT32):
            box = QSpinBox()
            box.setRange(int(lo) if lo is not None else -INT32, int(hi) if hi is not None else INT32)
            box.setKeyboardTracking(False)
            box.setGroupSeparatorShown(True)
            box.valueChanged.connect(lambda _v: self.changed.emit())
            self.widget, self._spin = box, True
        else:
            edit = QLineEdit()
            edit.editingFinished.connect(self.changed.emit)
            self.widget, self._spin = edit, False

    def get(self) -> Any:
        if self._spin:
            return cast(QSpinBox, self.widget).value()
        text = cast(QLineEdit, self.widget).text().replace(",", "").replace("_", "").strip()
        try:
            return int(text)
        except ValueError:
            return text

    def set(self, value: Any) -> None:
        if self._spin:
            cast(QSpinBox, self.widget).setValue(int(value))
        else:
            cast(QLineEdit, self.widget).setText(str(value))


class _FloatEditor(_Editor):
    widget: QDoubleSpinBox

    def __init__(self, spec: FieldSpec):
        super().__init__()
        box = QDoubleSpinBox()
        box.setDecimals(3)
        box.setRange(spec.minimum if spec.minimum is not None else -1e12,
                     spec.maximum if spec.maximum is not None else 1e12)
        box.setKeyboardTracking(False)
        box.valueChanged.connect(lambda _v: self.changed.emit())
        self.widget = box

    def get(self) -> Any:
        return self.widget.value()

    def set(self, value: Any) -> None:
        self.widget.setValue(float(value))


class _BoolEditor(_Editor):
    widget: QCheckBox

    def __init__(self) -> None:
        super().__init__()
        self.widget = QCheckBox()
        self.widget.toggled.connect(lambda _v: self.changed.emit())

    def get(self) -> Any:
        return self.widget.isChecked()

    def set(self, value: Any) -> None:
        self.widget.setChecked(bool(value))


class _ChoiceEditor(_Editor):
    widget: QComboBox

    def __init__(self, choices: tuple[Any, ...]):
        super().__init__()
        self.choices = choices
        box = QComboBox()
        for c in choices:
            box.addItem(str(c))
        box.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.widget = box

    def get(self) -> Any:
        return self.choices[max(0, self.widget.currentIndex())]

    def set(self, value: Any) -> None:
        if value in self.choices:
            self.widget.setCurrentIndex(self.choices.index(value))


class _TextEditor(_Editor):
    """Strings, and lists of numbers or strings written as ``64, 1, 1``."""

    widget: QLineEdit

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind  # "str", "int-list", "float-list", "str-list"
        self.widget = QLineEdit()
        self.widget.editingFinished.connect(self.changed.emit)

    def get(self) -> Any:
        text = self.widget.text()
        if self.kind == "str":
            return text
        parts = [t.strip() for t in text.replace(";", ",").split(",") if t.strip()]
        if self.kind == "str-list":
            return parts
        out: list[int | float | str] = []  # a word that is not a number is kept, refused later
        for t in parts:
            try:
                out.append(int(t) if self.kind == "int-list" else float(t))
            except ValueError:
                out.append(t)
        return out

    def set(self, value: Any) -> None:
        text = str(value) if self.kind == "str" else ", ".join(str(v) for v in value)
        if text != self.widget.text():
            self.widget.setText(text)
            if not self.widget.hasFocus():  # a long list shows its start, not its tail
                self.widget.setCursorPosition(0)


class _OptionalEditor(_Editor):
    def __init__(self, inner: _Editor, default_json: Any):
        super().__init__()
        self.inner = inner
        self.default_json = default_json
        self.automatic: Any = None  # the value in use while unchecked, where the dock knows it
        self.check = QCheckBox()
        self.check.setToolTip("set this value (unchecked: automatic)")
        box = QWidget()
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.check)
        lay.addWidget(inner.widget, 1)
        self.widget = box
        self.check.toggled.connect(self._toggled)
        inner.changed.connect(self.changed.emit)

    def _toggled(self, on: bool) -> None:
        self.inner.widget.setEnabled(on)
        self.changed.emit()

    def get(self) -> Any:
        return self.inner.get() if self.check.isChecked() else None

    def set(self, value: Any) -> None:
        self.check.blockSignals(True)
        self.check.setChecked(value is not None)
        self.check.blockSignals(False)
        self.inner.widget.setEnabled(value is not None)
        if value is not None:
            self.inner.set(value)
        elif self.automatic is not None:
            self.inner.set(self.automatic)
        elif self.default_json is not None:
            self.inner.set(self.default_json)

    def show_automatic(self, value: Any) -> None:
        """What the model uses while this field is left automatic (unchecked): shown greyed
        out, and where an override starts when the box is checked."""
        self.automatic = value
        if not self.check.isChecked() and value is not None:
            self.inner.set(value)


class _TableListEditor(_Editor):
    """Lists of records (a CFG's nodes and edges) and long lists (a tile order, a barrier
    schedule): a table with typed cells, rows added, removed and moved with buttons."""

    def __init__(self, item: FieldSpec, name: str):
        super().__init__()
        from gpuviz.ui.table_editor import TableEditor

        self.table = TableEditor(item, name)
        self.table.changed.connect(self.changed.emit)
        self.widget = self.table

    def get(self) -> Any:
        return self.table.value()

    def set(self, value: Any) -> None:
        self.table.set_value(value)

    def mark(self, problems: list[tuple[str, str, str]]) -> None:
        self.table.show_problems(problems)


class _GroupEditor(_Editor):
    def __init__(self, cls: type, title: str | None):
        super().__init__()
        self.editors: dict[str, _Editor] = {}
        container = QGroupBox(title) if title else QWidget()
        form = QFormLayout(container)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        if not title:
            form.setContentsMargins(0, 0, 0, 0)
        self.form = form
        self.specs = field_specs(cls)
        defaults = encode(cls())
        for spec in self.specs:
            editor = _editor_for(spec, defaults.get(spec.name))
            editor.changed.connect(self.changed.emit)
            editor.widget.setToolTip(spec.doc)
            editor.widget.setObjectName(f"param-{spec.name}")
            if isinstance(editor, _GroupEditor):
                form.addRow(editor.widget)
            else:
                label = QLabel(spec.name.replace("_", " "))
                label.setToolTip(spec.doc)
                form.addRow(label, editor.widget)
            self.editors[spec.name] = editor
        # fields that apply to some values of a tag field only: shown while it has one of them
        self._tagged = [s for s in self.specs if s.applies_when is not None]
        for tag in {s.applies_when[0] for s in self._tagged if s.applies_when is not None}:
            self.editors[tag].changed.connect(self._show_applying)
        self.widget = container

    def get(self) -> Any:
        return {name: e.get() for name, e in self.editors.items()}

    def set(self, value: Any) -> None:
        for name, e in self.editors.items():
            if name in value:
                e.set(value[name])
        self._show_applying()

    def _show_applying(self) -> None:
        for spec in self._tagged:
            if spec.applies_when is not None:
                tag, values = spec.applies_when
                self.form.setRowVisible(self.editors[spec.name].widget,
                                        self.editors[tag].get() in values)

    def shown_fields(self) -> list[str]:
        """The fields whose rows are shown (those that apply to the record's tag)."""
        return [spec.name for spec in self.specs
                if spec.applies_when is None
                or self.editors[spec.applies_when[0]].get() in spec.applies_when[1]]

    def mark(self, problems: list[tuple[str, str, str]]) -> None:
        """Hand each problem (full path, path below this group, message) to the field it names."""
        for name, e in self.editors.items():
            inner = e.inner if isinstance(e, _OptionalEditor) else e
            mine = []
            for full, rest, message in problems:
                if rest == name or rest.startswith((f"{name}.", f"{name}[")):
                    mine.append((full, rest[len(name):].lstrip("."), message))
            inner.mark(mine)


def _editor_for(spec: FieldSpec, default_json: Any) -> _Editor:
    if spec.optional:
        inner = FieldSpec(spec.name, spec.type, doc=spec.doc, minimum=spec.minimum,
                          maximum=spec.maximum, choices=spec.choices, length=spec.length)
        return _OptionalEditor(_editor_for(inner, None), default_json)
    record = spec.record
    if record is not None:
        return _GroupEditor(record, spec.name.replace("_", " "))
    if spec.is_tuple:
        item = spec.item
        if wants_table(spec):
            return _TableListEditor(item, spec.name)
        return _TextEditor({int: "int-list", float: "float-list"}.get(item.type, "str-list"))
    if spec.choices is not None:
        return _ChoiceEditor(spec.choices)
    if spec.type is bool:
        return _BoolEditor()
    if spec.type is int:
        return _IntEditor(spec)
    if spec.type is float:
        return _FloatEditor(spec)
    return _TextEditor("str")


class ParamForm(QWidget):
    """Edits one panel's section. ``edited(params, field)`` fires after a valid edit."""

    edited = Signal(object, str)

    def __init__(self, panel_id: str, params_type: type, parent: QWidget | None = None):
        super().__init__(parent)
        self.panel_id = panel_id
        self._root = _GroupEditor(params_type, None)
        self._root.changed.connect(self._on_change)
        self._message = QLabel()
        self._message.setWordWrap(True)
        self._message.setObjectName("param-problems")
        self._message.setStyleSheet("color: #B00020;")
        self._message.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self._root.widget)
        lay.addWidget(self._message)
        lay.addStretch(1)
        self._current: Any = params_type()
        self._updating = False
        # editors holding a refused value: marked, and given the value in use back when the
        # keyboard focus leaves them (the figure shows that value all the while)
        self._refused: list[QWidget] = []
        # fields another field overrides, shown at the value that runs (not editable)
        self._fixed: dict[str, Any] = {}
        app = QApplication.instance()
        if app is not None:
            app.focusChanged.connect(self._on_focus_changed)  # type: ignore[attr-defined]

    def editor(self, name: str) -> QWidget:
        return self._root.editors[name].widget

    def problems_text(self) -> str:
        return self._message.text() if self._message.isVisible() else ""

    def field_names(self) -> list[str]:
        return list(self._root.editors)

    def shown_fields(self, group: str) -> list[str]:
        """The fields of the nested record ``group`` (a pattern) whose rows are shown."""
        editor = self._root.editors[group]
        assert isinstance(editor, _GroupEditor)
        return editor.shown_fields()

    def show_automatic(self, values: dict[str, Any]) -> None:
        """The values the model uses for fields left automatic (encoded as the editors take
        them): an override preset's register file, the grid a launch is given."""
        self._updating = True
        try:
            for name, value in values.items():
                editor = self._editor_at(name)
                if isinstance(editor, _OptionalEditor):
                    editor.show_automatic(value)
                elif editor is not None:  # a field another one overrides: what runs, fixed
                    editor.set(value)
                    editor.widget.setEnabled(False)
            own = encode(self._current)
            for name in [n for n in self._fixed if n not in values]:  # its own value again
                self._root.editors[name].set(own[name])
                self._root.editors[name].widget.setEnabled(True)
            self._fixed = {n: v for n, v in values.items()
                           if not isinstance(self._root.editors.get(n), _OptionalEditor)
                           and n in self._root.editors}
        finally:
            self._updating = False

    def _editor_at(self, name: str) -> _Editor | None:
        """The editor of a field, a nested record's field named by its dotted path
        (``cluster.a_bytes``)."""
        editor: _Editor | None = self._root
        for part in name.split("."):
            editor = editor.editors.get(part) if isinstance(editor, _GroupEditor) else None
        return editor

    def _optional_editors(self, group: _GroupEditor | None = None) -> list[_OptionalEditor]:
        """Every optional field's editor, nested records' included."""
        out: list[_OptionalEditor] = []
        for editor in (group or self._root).editors.values():
            if isinstance(editor, _OptionalEditor):
                out.append(editor)
            elif isinstance(editor, _GroupEditor):
                out += self._optional_editors(editor)
        return out

    def veil_automatic(self, veiled: bool) -> None:
        """A question step: the values left automatic (derived from the result, such as the
        grid a launch is given) are hidden until the reveal, keeping their place."""
        for editor in self._optional_editors():
            widget = editor.inner.widget
            policy = widget.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            widget.setSizePolicy(policy)
            widget.setVisible(not veiled or editor.check.isChecked())

    def set_params(self, params: Any) -> None:
        # every editor reports through ``changed`` to ``_on_change``, which ignores what is
        # set here (the editors' own signals are not blocked one by one: finding every child
        # widget cost the first frame 10-30 ms)
        self._current = params
        self._updating = True
        try:
            self._root.set(encode(params))
            for name, value in self._fixed.items():  # until the next result says otherwise
                self._root.editors[name].set(value)
        finally:
            self._updating = False
        self._message.hide()

    def _mark_refused(self, paths: list[str]) -> None:
        for name in {_field_of(p) for p in paths}:
            editor = self._root.editors.get(name)
            if editor is None:
                continue
            editor.widget.setProperty("refused", True)
            editor.widget.setStyleSheet("border: 2px solid #B00020;")
            self._refused.append(editor.widget)

    def _unmark(self) -> None:
        for widget in self._refused:
            widget.setProperty("refused", False)
            widget.setStyleSheet("")
        self._refused = []

    def refused_fields(self) -> list[str]:
        return [n for n, e in self._root.editors.items() if e.widget in self._refused]

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if not self._refused or old is None:
            return
        if not any(w is old or w.isAncestorOf(old) for w in self._refused):
            return
        if new is not None and any(w is new or w.isAncestorOf(new) for w in self._refused):
            return
        refused = self._message.text()
        self._unmark()
        self.set_params(self._current)  # the value in use is back in the field
        self._message.setText(f"Not applied (the value in use is back):\n{refused}")
        self._message.show()

    def _on_change(self) -> None:
        if self._updating:
            return
        raw = self._root.get()
        params, problems = decode_section(self.panel_id, raw)
        prefix = f"{self.panel_id}."
        self._root.mark([(p.path, p.path.removeprefix(prefix), p.message) for p in problems])
        self._unmark()
        if params is None:
            self._message.setText("\n".join(f"{p.path}: {p.message}" for p in problems))
            self._message.show()
            self._mark_refused([p.path.removeprefix(prefix) for p in problems])
            return
        self._message.hide()
        changed = [k for k, v in encode(params).items() if encode(self._current).get(k) != v]
        self._current = params
        self.edited.emit(params, ",".join(changed))


def _field_of(path: str) -> str:
    return path.split(".")[0].split("[")[0]


def wants_table(spec: FieldSpec) -> bool:
    """Lists of records, and scalar lists that can be long (a tile order, a schedule, per-tile
    times); short vectors such as a block shape stay one line of text."""
    if spec.item.record is not None:
        return True
    bounds = spec.length_range
    return bounds is None or bounds[1] > 32
