"""The document: the one mutable thing in the application.

It holds one :class:`gpuviz.lecture.Lecture` (the scenario, the step, the hand selection
(keys such as ``lane:3``), the playback frame, the questions revealed, the step an edit left,
the lecture as saved: the only copy of that state, every derived value asked of it), the file
it came from, and an undo stack whose commands swap whole scenarios. It emits one signal per topic:

- ``section_changed(panel_id)``: that panel's shown section changed (an edit, undo or redo, a
  step), emitted before the signal of what caused it;
- ``scenario_changed()``: the scenario was edited, or an edit undone or redone;
- ``scenario_replaced()``: another file was opened (fresh history, step, selection, frame);
- ``step_changed()``, ``revealed()`` (a veiled step's picture shown, or every question veiled
  again for a rehearsal), ``selection_changed()``,
  ``frame_changed()``;
- ``shown_changed()``: after each of ``scenario_changed``, ``scenario_replaced`` and
  ``step_changed``, for views that only redraw what is shown;
- ``path_changed()``: saved under another name; ``clean_changed(clean)``: saved or edited.

Steps: the document shows ``scenario.at_step(step)``. A step with a ``predict`` question is
*veiled* until ``reveal()``, and stays revealed (stepping away and back, editing, undoing)
until ``reset_rehearsal()`` veils every question again: the docks cover their figures and the caption asks the question. Editing a parameter while a step is shown
applies the edit on top of that step's state and leaves step mode, so "what if" exploration
during a lecture starts from what the room is looking at.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from gpuviz.lecture import Lecture, show
from gpuviz.scenario import Scenario, save_scenario
from gpuviz.scenario.decode import encode_changes

_MERGE_ID = 0x6770


class _SwapScenario(QUndoCommand):
    def __init__(self, doc: Document, before: Scenario, after: Scenario, text: str,
                 merge_key: str | None, before_step: int, after_step: int = -1):
        super().__init__(text)
        self.doc, self.before, self.after = doc, before, after
        self.merge_key = merge_key
        self.before_step = before_step
        self.after_step = after_step

    def redo(self) -> None:
        self.doc._set(self.after, self.after_step)

    def undo(self) -> None:
        self.doc._set(self.before, self.before_step)

    def id(self) -> int:
        return _MERGE_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        # consecutive edits of one field (a dragged slider) become one undo step
        if isinstance(other, _SwapScenario) and other.merge_key == self.merge_key:
            self.after = other.after
            return True
        return False


class Document(QObject):
    section_changed = Signal(str)
    scenario_changed = Signal()
    scenario_replaced = Signal()
    step_changed = Signal()
    revealed = Signal()
    selection_changed = Signal()
    frame_changed = Signal()
    shown_changed = Signal()
    path_changed = Signal()
    clean_changed = Signal(bool)

    def __init__(self, scenario: Scenario, path: Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        # the one state of the lecture (``gpuviz.lecture.Lecture``): the scenario, the step,
        # the hand selection, the clock's frame, the questions revealed, the step edited
        # since and the lecture as saved; everything shown is derived from it
        self._lecture = Lecture(scenario, saved=scenario)
        self._path = path
        self.undo_stack = QUndoStack(self)
        # through a method of the document, so the connection ends with it (the stack it owns
        # reports "clean" once more as it is destroyed: "Signal source has been deleted")
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, clean: bool) -> None:
        self.clean_changed.emit(clean)

    # --- reading -------------------------------------------------------------------------
    @property
    def lecture(self) -> Lecture:
        """The lecture model's state (``gpuviz.lecture``), the document's only copy of it:
        what a step shows is ``show(document.lecture, …)``."""
        return self._lecture

    @property
    def scenario(self) -> Scenario:
        """The scenario as a file would save it."""
        return self._lecture.scenario

    @property
    def shown(self) -> Scenario:
        """The scenario as shown: at the current step, if one is selected."""
        return self.scenario.at_step(self.step)

    @property
    def saved(self) -> Scenario:
        """The scenario as it was opened or last saved (what its captions were written for)."""
        saved = self._lecture.saved
        return self.scenario if saved is None else saved

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def step(self) -> int:
        return self._lecture.step

    @property
    def edited_from(self) -> int | None:
        """The step whose state was edited by hand (the overview then shows the edit)."""
        return self._lecture.edited_from

    @property
    def selection(self) -> frozenset[str]:
        """The keys the shown figures are built with: the step's and the hand's, at the
        clock's frame (the lecture model's answer)."""
        return show(self._lecture).selection

    @property
    def frame(self) -> int | None:
        return self._lecture.frame

    @property
    def veiled(self) -> bool:
        """The current step asks the room to predict before its picture is shown."""
        return self._lecture.veiled

    def hides(self, what: str) -> bool:
        """Whether the veil keeps ``what`` (one of ``lecture.VEIL_HIDES``) from the room now:
        a question's step, or the overview of a question about its picture."""
        return show(self._lecture).hidden(what)

    def veiled_steps(self) -> frozenset[int]:
        """The steps whose questions the room has not seen answered (this rehearsal)."""
        lecture = self._lecture
        return frozenset(k for k in range(lecture.steps) if lecture.is_veiled(k))

    def is_veiled(self, k: int) -> bool:
        """Step ``k`` asks a question the room has not seen answered yet (this rehearsal): the
        lecture model's rule."""
        return self._lecture.is_veiled(k)

    def reveal(self) -> None:
        if self.veiled:
            self._lecture = self._lecture.reveal()
            self.revealed.emit()

    def reset_rehearsal(self) -> None:
        """Veil every question again (a rehearsal run through, the lecture about to start)."""
        if self._lecture.revealed:
            self._lecture = self._lecture.veil_all()
            self.revealed.emit()

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    # --- editing (undoable) ----------------------------------------------------------------
    def edit_section(self, panel_id: str, params: Any, text: str | None = None,
                     merge_key: str | None = None) -> None:
        """Replace one panel's parameters (undoable). ``merge_key`` merges a run of edits of the
        same control into one undo step."""
        base = self.shown
        if base.section(panel_id) == params and panel_id in base.sections:
            return
        after = _leave_steps(self.scenario, base).with_section(panel_id, params)
        if text is None:
            text = edit_text(panel_id, list(encode_changes(base.section(panel_id), params)))
        self.undo_stack.push(_SwapScenario(self, self.scenario, after, text,
                                           f"{panel_id}:{merge_key}" if merge_key else None,
                                           self.step))

    def open_panel(self, panel_id: str, params: Any, text: str) -> None:
        """Show ``panel_id`` with ``params`` as its section, one undoable edit (a neighbour
        opened from a link): the section set as ``edit_section`` sets it, the panel added to
        the lecture's panels if it is not among them."""
        base = self.shown
        if base.section(panel_id) == params and panel_id in base.sections \
                and panel_id in self.scenario.panels:
            return
        after = _leave_steps(self.scenario, base).with_section(panel_id, params)
        if panel_id not in after.panels:
            after = replace(after, panels=(*after.panels, panel_id))
        self.undo_stack.push(_SwapScenario(self, self.scenario, after, text, None, self.step))

    def set_panels(self, panels: tuple[str, ...]) -> None:
        if panels == self.scenario.panels:
            return
        self.undo_stack.push(_SwapScenario(self, self.scenario,
                                           self._lecture.with_panels(panels).scenario,
                                           "Change shown panels", None, self.step, self.step))

    def set_title(self, title: str, description: str) -> None:
        """The lecture's title and its overview caption (undoable)."""
        s = self.scenario
        if (title, description) != (s.title, s.description):
            self.undo_stack.push(_SwapScenario(self, s, replace(s, title=title,
                                                               description=description),
                                               "Edit the lecture's title", None, self.step,
                                               self.step))

    def edit_steps(self, after: Scenario, text: str, show_step: int = -1) -> None:
        """Replace the scenario by one with authored steps (undoable), showing ``show_step``."""
        self.undo_stack.push(_SwapScenario(self, self.scenario, after, text, None, self.step,
                                           show_step))

    def _set(self, scenario: Scenario, step: int) -> None:
        old, was = self.shown, self._lecture
        # an edit that leaves a step for the overview shows the edit with the step's caption,
        # marked; going back to a step (undo) ends that; edits at the overview keep it
        edited_from = None if step >= 0 else was.step if was.step >= 0 else was.edited_from
        self._lecture = replace(was, scenario=scenario, step=step, edited_from=edited_from)
        new = self.shown
        self._emit_sections(old, new)
        self.scenario_changed.emit()
        self.shown_changed.emit()

    def _emit_sections(self, old: Scenario, new: Scenario) -> None:
        for pid in sorted(set(old.sections) | set(new.sections)):
            if old.section(pid) != new.section(pid):
                self.section_changed.emit(pid)

    # --- not undoable: where we are looking ---------------------------------------------------
    def replace_scenario(self, scenario: Scenario, path: Path | None) -> None:
        """A newly opened file: a fresh history."""
        self._lecture = Lecture(scenario, saved=scenario)
        self._path = path
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.scenario_replaced.emit()
        self.shown_changed.emit()

    def select(self, keys: frozenset[str] | set[str]) -> None:
        keys = frozenset(keys)
        if keys != self._lecture.selection:
            self._lecture = self._lecture.with_selection(keys)
            self.selection_changed.emit()

    def go_to_step(self, k: int) -> None:
        k = max(-1, min(k, self._lecture.steps - 1))
        if k != self.step:
            old = self.shown
            # the step's own frame; the clock's was kept by the clock through set_frame
            self._lecture = replace(self._lecture.at(k), frame=self._lecture.frame)
            self._emit_sections(old, self.shown)
            self.step_changed.emit()
            self.shown_changed.emit()

    def set_frame(self, frame: int | None) -> None:
        if frame != self._lecture.frame:
            self._lecture = self._lecture.with_frame(frame)
            self.frame_changed.emit()

    def save(self, path: Path | None = None) -> Path:
        target = Path(path) if path is not None else self._path
        if target is None:
            raise ValueError("no file name yet; use Save As")
        save_scenario(self.scenario, target)
        # what the captions are written for now; an edit since a step is no longer marked
        self._lecture = replace(self._lecture, saved=self.scenario, edited_from=None)
        self._path = target
        self.undo_stack.setClean()
        self.path_changed.emit()
        return target


def _leave_steps(scenario: Scenario, shown: Scenario) -> Scenario:
    """The scenario whose own sections are what is shown (steps kept for the lecture)."""
    if shown is scenario:
        return scenario
    return replace(scenario, sections=shown.sections)


def edit_text(panel_id: str, fields: list[str]) -> str:
    """An undo entry in the words of the controls: "Change Launch: threads per block"."""
    from gpuviz.registry import panel

    try:
        title = panel(panel_id).title.split(":")[0]  # "Launch", not its subtitle
    except KeyError:
        title = panel_id
    names = ", ".join(f.replace("_", " ") for f in fields)
    return f"Change {title}: {names}" if names else f"Change {title}"
