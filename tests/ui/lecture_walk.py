"""The walk through a bundled lecture that tests/ui/test_lecture_walk*.py and
test_lecture_keys_at_ends.py share: the lecture the keys made (``Walk``), what the window shows
that the lecture model does not give it (``check``), the walk itself (forwards, backwards, by
jumping: ``walk_lecture``) and the controls' fields to leave the focus in."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QWidget,
)
from window_texts import texts

from gpuviz.keys import frame_of, without_frame
from gpuviz.lecture import VEILED_TITLE, Lecture, asked_ahead, listed_titles, show
from gpuviz.lecture.answer import carries_answer, veiled_answer
from gpuviz.scenario import bundled_scenarios
from gpuviz.scenario.compute import effective_params

NAMES = [p.stem for p in bundled_scenarios()]
CTRL = Qt.KeyboardModifier.ControlModifier


@dataclass
class Walk:
    """The lecture the keys made so far, as the lecture model makes it."""

    lecture: Lecture

    def next(self) -> None:
        lec = self.lecture
        self.lecture = lec.reveal() if lec.veiled else lec.at(lec.step + 1)

    def previous(self) -> None:
        self.lecture = self.lecture.at(self.lecture.step - 1)

    def jump(self, k: int) -> None:
        self.lecture = self.lecture.at(k)


def settle_docks(w, qtbot) -> None:
    qtbot.waitUntil(lambda: all(d.settled() and d.current_figure() is not None
                                for d in w.docks.values() if d.isVisible()), timeout=20000)


def check(w, walk: Walk, surface: str) -> list[str]:
    """What the window shows that the lecture model does not give ``walk``'s lecture."""
    lec = walk.lecture
    expected = show(lec, None, surface)
    doc = w.document
    veil = ", veiled" if expected.veiled else ""
    at = f"{lec.scenario.title!r} {expected.label} ({surface}{veil})"
    if doc.step != lec.step or doc.veiled != lec.veiled:
        return [f"{at}: the window is at step {doc.step + 1}, veiled {doc.veiled}"]
    bad = []
    visible = {pid for pid, d in w.docks.items() if d.isVisible()}
    # (F5's overview shows the dock the room was at)
    if (surface == "window" or expected.step >= 0) and visible != set(expected.panel_ids):
        bad.append(f"{at}: panels {sorted(visible)} != {sorted(expected.panel_ids)}")
    for p in expected.panels:
        dock = w.docks[p.id]
        if not dock.isVisible():
            continue
        if dock.parts != p.parts:
            bad.append(f"{at}: {p.id} parts {dock.parts} != {p.parts}")
        drawn = dock.current_figure()
        if p.parts is not None and drawn is not None and not set(drawn.parts) <= set(p.parts):
            bad.append(f"{at}: {p.id} draws {drawn.parts}, the step names {p.parts}")
        key = dock.shown_key()
        if key is None:
            bad.append(f"{at}: {p.id} shows an error figure")
            continue
        if key.params != effective_params(expected.state, p.id):
            bad.append(f"{at}: {p.id} is drawn for other parameters than the step's")
        want = expected.selection_for(p.id)
        if p.animated and w.clock.frame_count > 1:
            frame = p.frame if p.frame is not None else w.clock.last_frame
            if frame_of(key.selection) != frame or w.clock.frame != frame:
                bad.append(f"{at}: {p.id} at frame {frame_of(key.selection)} (clock "
                           f"{w.clock.frame}), the step's is {frame}")
        if without_frame(key.selection) != without_frame(want):
            bad.append(f"{at}: {p.id} selection {sorted(key.selection)} != {sorted(want)}")
        if bool(dock.view.veil()) != expected.veiled:
            bad.append(f"{at}: {p.id} veiled {bool(dock.view.veil())} != {expected.veiled}")
    text = w.caption_label.text()
    said = expected.question if expected.veiled else expected.caption
    if said and " ".join(said.split()) not in " ".join(text.split()):
        bad.append(f"{at}: caption {text[:60]!r} does not say {said[:60]!r}")
    if w.caption_label.marker() != expected.stale:
        bad.append(f"{at}: caption marked {w.caption_label.marker()!r}")
    bar = w.step_bar_widget
    listed = [bar.steps.itemText(i) for i in range(1, bar.steps.count())]
    titles = listed_titles(lec)
    if bar.steps.currentIndex() != lec.step + 1 \
            or [t.split(" · ", 1)[-1] for t in listed] != titles:
        bad.append(f"{at}: the step list shows item {bar.steps.currentIndex()} of {listed}")
    if expected.step >= 0 and bar.position.text() != f"step {expected.number} of {lec.steps}":
        bad.append(f"{at}: the step bar says {bar.position.text()!r}")
    if lec.veiled and titles[lec.step] != VEILED_TITLE:
        bad.append(f"{at}: the step list names the veiled step")
    if expected.veiled:  # a question's step, or the overview of a question about its picture
        asked = (lec.step,) if lec.veiled else asked_ahead(lec)
        answer = tuple(a for k in asked for a in veiled_answer(lec, k))
        bad += [f"{at}: {where} gives the answer {said!r}: {shown[:80]!r}"
                for where, shown in texts(w) if (said := carries_answer(shown, answer))]
    if doc.is_modified() or w.isWindowModified():
        bad.append(f"{at}: walking the lecture marked it modified")
    return bad


def _press(w, qtbot, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    target = QApplication.focusWidget() or w
    qtbot.keyClick(target, key, modifiers)


def jumps(n: int) -> list[int]:
    """Each of ``n`` steps once, from the ends inwards: n - 1, 0, n - 2, 1, …"""
    order = [k for pair in zip(range(n - 1, -1, -1), range(n), strict=True) for k in pair]
    return list(dict.fromkeys(order))[:n]


def walk_lecture(w, qtbot, surface: str) -> tuple[int, list[str]]:
    """The three walks of the lecture open in ``w``: (steps checked, what was wrong)."""
    doc = w.document
    n = len(doc.scenario.steps)
    walk = Walk(doc.lecture)
    bad: list[str] = []
    checked = 0

    def look() -> None:
        nonlocal checked
        settle_docks(w, qtbot)
        bad.extend(check(w, walk, surface))
        checked += 1

    look()  # the overview
    for _ in range(n + sum(walk.lecture.asks(k) for k in range(n))):  # forwards
        _press(w, qtbot, Qt.Key.Key_PageDown)
        walk.next()
        look()
    w.menus.action("reset-rehearsal").trigger()  # backwards, every question veiled again
    walk.lecture = walk.lecture.veil_all()
    look()
    for _ in range(n):
        _press(w, qtbot, Qt.Key.Key_PageUp)
        walk.previous()
        look()
    w.menus.action("reset-rehearsal").trigger()
    walk.lecture = walk.lecture.veil_all()
    bar = w.step_bar_widget.steps
    for k in [*jumps(n), -1]:  # from the step list: last, first, last but one, …, overview
        bar.activated.emit(k + 1)
        walk.jump(k)
        look()
    return checked, bad


FIELD_KINDS = (QAbstractSpinBox, QLineEdit, QComboBox, QAbstractItemView)


def control_fields(w) -> list[QWidget]:
    """The first enabled field of each kind in the shown docks' controls."""
    found = []
    for kind in FIELD_KINDS:
        found += [f for d in w.docks.values() if d.isVisible() for f in d.form.findChildren(kind)
                  if f.isVisible() and f.isEnabled() and not getattr(f, "isReadOnly", bool)()
                  and f.focusPolicy() != Qt.FocusPolicy.NoFocus
                  and not isinstance(f.parent(), QAbstractSpinBox | QComboBox)][:1]
    return found


def focus_on(qtbot, widget: QWidget) -> None:
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget)


def field_text(field: QWidget) -> str:
    if isinstance(field, QComboBox):
        return field.currentText()
    return field.text() if isinstance(field, QLineEdit | QAbstractSpinBox) else ""
