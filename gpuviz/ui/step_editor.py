"""Authoring a lecture in the application: add a step from the current state, edit its title,
caption, question and presenter notes, reorder and delete steps; each is one undo step.

The step model (what changed, reordering) lives in :mod:`gpuviz.scenario.authoring`. This module
keeps the *anchor*: the scenario and step the lecturer started from before exploring. Editing a
parameter while a step is shown leaves step mode and makes the edited state the document's own
sections; "Add Step from Current State" inserts the new step after the anchor step, records the
difference from that step's state, and restores the anchor's overview, so the lecture's start is
not changed by the exploring.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gpuviz.keys import without_frame
from gpuviz.registry import PANELS, panel
from gpuviz.scenario import Scenario, ScenarioError
from gpuviz.scenario.authoring import (
    add_step,
    check_selection,
    default_focus,
    delete_step,
    describe_changes,
    edit_step,
    move_step,
    section_changes,
)
from gpuviz.scenario.document import Step
from gpuviz.ui.document import Document

StandardKey = QKeySequence.StandardKey


class StepDialog(QDialog):
    """Title, caption, question (predict), presenter notes, focus, selection and the figure
    parts of one step; the changes it records are listed, read-only. ``panels``: the
    lecture's panels, whose parts a step without a focus may name."""

    def __init__(self, heading: str, step: Step, changes: dict[str, Any],
                 can_rerecord: dict[str, Any] | None = None, parent: QWidget | None = None,
                 panels: tuple[str, ...] = ()):
        super().__init__(parent)
        self.setObjectName("step-editor")
        self.setWindowTitle(heading)
        self.title = QLineEdit(step.title)
        self.title.setPlaceholderText("what the room sees in the step bar")
        self.caption = QPlainTextEdit(step.caption)
        self.caption.setPlaceholderText("one or two sentences under the figure")
        self.caption.setMaximumHeight(80)
        self.predict = QLineEdit(step.predict)
        self.predict.setPlaceholderText("optional: a question; the picture waits for the answer")
        self.notes = QPlainTextEdit(step.notes)
        self.notes.setPlaceholderText("optional: presenter notes, never exported")
        self.notes.setMaximumHeight(80)
        self.focus = QComboBox()
        self.focus.addItem("(keep the current panel)", None)
        for p in PANELS:
            self.focus.addItem(p.title, p.id)
        self.focus.setCurrentIndex(max(0, self.focus.findData(step.focus)))
        self.select = QLineEdit(" ".join(step.select))
        self.select.setPlaceholderText("optional: keys such as block:2 warp:2,0 (space between)")
        # the parts the step shows: one idea a slide, large in F5; none ticked, the whole
        # figure (a page of it where it does not fit the view)
        self.panels = panels
        self.parts = QListWidget()
        self.parts.setObjectName("step-parts")
        self.parts.setMaximumHeight(110)
        self.parts.setToolTip("The figure parts this step shows, in the window and large in "
                              "presentation mode (F5); none ticked: the whole figure, or the "
                              "parts that fit")
        self._fill_parts(step.parts)
        self.focus.currentIndexChanged.connect(lambda _i: self._fill_parts(self.chosen_parts()))
        self.changes_list = QListWidget()
        self.changes_list.setObjectName("step-changes")
        self.changes_list.setMaximumHeight(110)
        self._changes = changes
        self._fill_changes(changes)
        self.rerecord: QCheckBox | None = None
        if can_rerecord is not None:
            self.rerecord = QCheckBox("Replace its changes with the current state")
            self.rerecord.toggled.connect(
                lambda on: self._fill_changes(can_rerecord if on else changes))
        self.error = QLabel()
        self.error.setObjectName("step-editor-error")
        self.error.setStyleSheet("color: #B00020;")
        self.error.setWordWrap(True)

        form = QFormLayout()
        form.addRow("&Title", self.title)
        form.addRow("&Caption", self.caption)
        form.addRow("&Question", self.predict)
        form.addRow("&Notes", self.notes)
        form.addRow("&Focus", self.focus)
        form.addRow("&Select", self.select)
        form.addRow("&Parts", self.parts)
        form.addRow("Changes", self.changes_list)
        if self.rerecord is not None:
            form.addRow("", self.rerecord)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.title.textChanged.connect(self._validate)
        self.select.textChanged.connect(self._validate)
        self._validate()
        self.resize(520, self.sizeHint().height())

    def _fill_changes(self, changes: dict[str, Any]) -> None:
        self.changes_list.clear()
        lines = describe_changes(changes) or ["(none: the state of the step before)"]
        self.changes_list.addItems(lines)

    def _fill_parts(self, ticked: tuple[str, ...] | list[str]) -> None:
        """A check box for each part of the step's panels (its focus, else the lecture's), in
        each figure's order, named with the panels that have it; ``ticked`` stay ticked."""
        focus = self.focus.currentData()
        ids = (focus,) if focus else self.panels
        offered: dict[str, list[str]] = {}
        for pid in ids:
            for part in panel(pid).parts:
                offered.setdefault(part, []).append(panel(pid).title.split(":")[0])
        self.parts.clear()
        for part, owners in offered.items():
            item = QListWidgetItem(f"{part} ({', '.join(owners)})" if len(ids) > 1 else part)
            item.setData(Qt.ItemDataRole.UserRole, part)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if part in ticked
                               else Qt.CheckState.Unchecked)
            self.parts.addItem(item)

    def chosen_parts(self) -> list[str]:
        """The parts ticked, in the order offered."""
        items = [self.parts.item(i) for i in range(self.parts.count())]
        return [str(i.data(Qt.ItemDataRole.UserRole)) for i in items
                if i.checkState() == Qt.CheckState.Checked]

    def _keys(self) -> list[str]:
        return [k for k in re.split(r"[\s;]+", self.select.text()) if k]

    def _validate(self) -> None:
        problems = []
        if not self.title.text().strip():
            problems.append("A step needs a title.")
        bad = check_selection(self._keys())
        if bad:
            problems.append(f"Not selection keys: {', '.join(bad)} (write kind:value, e.g. lane:3)")
        self.error.setText(" ".join(problems))
        self.error.setVisible(bool(problems))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problems)

    def show_refusal(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(True)

    def is_valid(self) -> bool:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "title": self.title.text().strip(),
            "caption": self.caption.toPlainText().strip(),
            "predict": self.predict.text().strip(),
            "notes": self.notes.toPlainText().strip(),
            "focus": self.focus.currentData(),
            "select": self._keys(),
            "parts": self.chosen_parts(),
        }
        if self.rerecord is not None and self.rerecord.isChecked():
            out["rerecord"] = True
        return out


class StepAuthoring(QObject):
    """The authoring commands of one window; every change is one undo step of the document."""

    def __init__(self, document: Document, focused_panel=lambda: None, parent: QObject | None = None):
        super().__init__(parent)
        self.document = document
        self.focused_panel = focused_panel
        self._anchor: tuple[Scenario, int] = (document.scenario, document.step)
        document.scenario_changed.connect(self._on_scenario_changed)
        for moved in (document.step_changed, document.path_changed, document.scenario_replaced):
            moved.connect(self._reanchor)

    # --- where the lecturer started from ---------------------------------------------------
    def _reanchor(self) -> None:
        self._anchor = (self.document.scenario, self.document.step)

    def _on_scenario_changed(self) -> None:
        # an edit made while a step is shown, or one that changed the steps themselves, starts
        # from here; an edit of the overview keeps the step the lecturer explored from
        doc = self.document
        if doc.step >= 0 or doc.scenario.steps != self._anchor[0].steps:
            self._reanchor()

    def anchor(self) -> tuple[Scenario, int]:
        """The scenario (with the document's current panels and title) and the step that the
        current state was explored from."""
        doc = self.document
        scenario, step = self._anchor
        if scenario.steps != doc.scenario.steps:
            return doc.scenario, doc.step
        return replace(scenario, title=doc.scenario.title, description=doc.scenario.description,
                       panels=doc.scenario.panels), step

    def pending_changes(self) -> dict[str, Any]:
        scenario, step = self.anchor()
        return section_changes(scenario.at_step(step), self.document.shown)

    # --- dialogs -------------------------------------------------------------------------
    def add_dialog(self, parent: QWidget | None = None) -> StepDialog:
        changes = self.pending_changes()
        scenario, step = self.anchor()
        where = (f"after “{scenario.steps[step].title}”" if 0 <= step < len(scenario.steps)
                 else "before the first step" if scenario.steps else "the first step")
        blank = Step(title=f"Step {step + 2}",
                     focus=default_focus(changes, self.focused_panel()),
                     select=tuple(sorted(without_frame(self.document.selection))))
        return StepDialog(f"Add Step {step + 2} from Current State ({where})", blank, changes,
                          None, parent, self.document.shown.panels)

    def edit_dialog(self, index: int, parent: QWidget | None = None) -> StepDialog:
        step = self.document.scenario.steps[index]
        anchor, _ = self.anchor()
        fresh = section_changes(anchor.at_step(index - 1), self.document.shown)
        return StepDialog(f"Edit Step {index + 1}", step,
                          {k: dict(v) for k, v in step.changes.items()}, fresh, parent,
                          self.document.shown.panels)

    # --- commands --------------------------------------------------------------------------
    def add(self, values: dict[str, Any]) -> int:
        scenario, step = self.anchor()
        new, index = add_step(scenario, self.document.shown, step, values["title"],
                              values.get("caption", ""), values.get("predict", ""),
                              values.get("notes", ""), values.get("focus"),
                              values.get("select", ()), values.get("parts", ()))
        self.document.edit_steps(new, f"Add step “{values['title']}”", index)
        return index

    def edit(self, index: int, values: dict[str, Any]) -> None:
        fields = {k: v for k, v in values.items() if k != "rerecord"}
        scenario = self.document.scenario
        if values.get("rerecord"):
            scenario, _ = self.anchor()
            fields["changes"] = section_changes(scenario.at_step(index - 1), self.document.shown)
        new = edit_step(scenario, index, **fields)
        self.document.edit_steps(new, f"Edit step {index + 1}", index)

    def move(self, index: int, to: int) -> int:
        steps = self.document.scenario.steps
        if not (0 <= index < len(steps)) or not (0 <= to < len(steps)) or to == index:
            return index
        new = move_step(self.document.scenario, index, to)
        self.document.edit_steps(new, f"Move step {index + 1} to {to + 1}", to)
        return to

    def delete(self, index: int) -> None:
        new = delete_step(self.document.scenario, index)
        title = self.document.scenario.steps[index].title
        self.document.edit_steps(new, f"Delete step “{title}”", min(index, len(new.steps) - 1))

    # --- menu slots (they ask) ------------------------------------------------------------------
    def add_from_current(self, parent: QWidget | None = None) -> None:
        d = self.add_dialog(parent)
        self._until_accepted(d, lambda: self.add(d.values()))

    def edit_current(self, parent: QWidget | None = None) -> None:
        index = self.current_index()
        if index is None:
            return
        d = self.edit_dialog(index, parent)
        self._until_accepted(d, lambda: self.edit(index, d.values()))

    @staticmethod
    def _until_accepted(d: StepDialog, action) -> None:
        """Run the dialog until what it holds is taken or it is cancelled: a refused step
        (a caption naming a field that does not exist) keeps everything typed, with the
        reason shown in the dialog."""
        while d.exec() == QDialog.DialogCode.Accepted:
            try:
                action()
            except ScenarioError as err:
                d.show_refusal("\n".join(err.lines()[:8]))
            else:
                return

    def current_index(self) -> int | None:
        """The step shown, else the step the current state was explored from."""
        step = self.document.step if self.document.step >= 0 else self.anchor()[1]
        return step if 0 <= step < len(self.document.scenario.steps) else None

    def _guard(self, parent: QWidget | None, action) -> None:
        try:
            action()
        except ScenarioError as err:
            QMessageBox.warning(parent, "The step cannot be used", "\n".join(err.lines()[:8]))


class StepListDialog(QDialog):
    """Every step of the lecture: select to show it, Add, Edit, Move Up/Down, Delete."""

    def __init__(self, authoring: StepAuthoring, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("step-list")
        self.setWindowTitle("Lecture Steps")
        self.authoring = authoring
        self.document = authoring.document
        self.list = QListWidget()
        self.list.setObjectName("step-list-items")
        self.list.currentRowChanged.connect(self._on_row)
        self.list.itemDoubleClicked.connect(lambda _item: self._edit())
        buttons = QVBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for name, slot in (("Add from Current State…", lambda: authoring.add_from_current(self)),
                           ("Edit…", self._edit), ("Move Up", lambda: self._move(-1)),
                           ("Move Down", lambda: self._move(1)), ("Delete", self._delete)):
            b = QPushButton(name)
            b.clicked.connect(slot)
            buttons.addWidget(b)
            self.buttons[name] = b
        buttons.addStretch(1)
        hint = QLabel("Steps accumulate: each step's changes apply on top of the steps before "
                      "it. Undo (Ctrl+Z) takes back any change here.")
        hint.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addLayout(buttons)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(hint)
        lay.addWidget(close)
        self._filling = False
        # Undo and Redo work while this window has the focus, too
        for action, keys in ((self.document.undo_stack.createUndoAction(self), StandardKey.Undo),
                             (self.document.undo_stack.createRedoAction(self), StandardKey.Redo)):
            action.setShortcuts(QKeySequence.keyBindings(keys))
            self.addAction(action)
        for refilled in (self.document.scenario_changed, self.document.step_changed,
                         self.document.path_changed, self.document.scenario_replaced,
                         self.document.revealed):
            refilled.connect(self.refill)
        self.refill()
        self.resize(560, 360)

    def refill(self) -> None:
        self._filling = True
        self.list.clear()
        from gpuviz.lecture import listed_titles, shown_question

        lecture = self.document.lecture
        # a question the room has not seen answered keeps its title back here too (the
        # window may be on the projector); Edit… shows it to the author
        titles = listed_titles(lecture)
        for i, s in enumerate(self.document.scenario.steps):
            item = QListWidgetItem(f"{i + 1}. {titles[i]}"
                                   + ("  (asks a question first)" if s.predict else ""))
            # a question the room has not answered: its question, never its caption
            item.setToolTip("\n".join([shown_question(lecture, i), "(answered when revealed)"])
                            if lecture.is_veiled(i)
                            else "\n".join([s.caption, *describe_changes(s.changes)]))
            self.list.addItem(item)
        self.list.setCurrentRow(self.document.step)
        self._filling = False
        has = self.list.currentRow() >= 0
        for name in ("Edit…", "Move Up", "Move Down", "Delete"):
            self.buttons[name].setEnabled(has)

    def _on_row(self, row: int) -> None:
        if not self._filling and row >= 0:
            self.document.go_to_step(row)

    def _edit(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            d = self.authoring.edit_dialog(row, self)
            self.authoring._until_accepted(d, lambda: self.authoring.edit(row, d.values()))

    def _move(self, delta: int) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.authoring._guard(self, lambda: self.authoring.move(row, row + delta))

    def _delete(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.authoring._guard(self, lambda: self.authoring.delete(row))

