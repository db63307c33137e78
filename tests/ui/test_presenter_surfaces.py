"""The presenter's surfaces: captions that no longer describe the figure say so with one mark
wherever they show, the step bar names the step a caption belongs to, and in the dark theme
the buttons a presenter reaches for are legible (measured contrast, WCAG 2.1 § 1.4.11)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QAbstractButton

# WCAG 2.1 success criterion 1.4.11: the parts of a control needed to see it, 3:1 against
# what is next to them
NON_TEXT_CONTRAST = 3.0


def _luminance(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    raw = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())
    c = raw[:, : w * 3].reshape(h, w, 3) / 255.0
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)  # sRGB to linear
    return 0.2126 * c[..., 0] + 0.7152 * c[..., 1] + 0.0722 * c[..., 2]


def contrast_in(window, widget) -> float:
    """The contrast ratio of a button's glyph against its ground, as the window draws it: the
    ground is the grab's median, the glyph the pixels farthest from it (the top 1 %)."""
    top_left = widget.mapTo(window, widget.rect().topLeft())
    lum = _luminance(window.grab(QRect(top_left, widget.size())).toImage()).ravel()
    ground = float(np.median(lum))
    far = np.abs(lum - ground)
    glyph = float(lum[np.argsort(far)[int(far.size * 0.99)]])
    hi, lo = max(ground, glyph), min(ground, glyph)
    return (hi + 0.05) / (lo + 0.05)


def test_in_the_dark_theme_the_presenters_buttons_are_legible(
        make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path("pipeline-double-buffer.json"))
    w.document.go_to_step(0)  # both step arrows enabled
    w.set_theme("dark")
    qtbot.wait(100)
    dock = w.docks["pipeline"]
    buttons = {"previous step": w.step_bar_widget.prev_button,
               "next step": w.step_bar_widget.next_button}
    for b in dock.findChildren(QAbstractButton):
        if b.objectName() in ("qt_dockwidget_floatbutton", "qt_dockwidget_closebutton"):
            buttons[b.objectName()] = b
    for b in w.playback_bar.findChildren(QAbstractButton):
        buttons[b.toolTip() or b.objectName()] = b
    assert len(buttons) >= 6, sorted(buttons)
    measured = {name: round(contrast_in(w, b), 2) for name, b in buttons.items()
                if b.isVisible()}
    low = {name: c for name, c in measured.items() if c < NON_TEXT_CONTRAST}
    assert not low, f"dark on dark (contrast below 3:1): {low}"


def test_a_caption_made_stale_anywhere_is_marked_and_the_bar_names_its_step(
        make_main_window, scenario_path, qtbot, tmp_path):
    w = make_main_window(scenario_path("launch-n130.json"))
    doc, bar, caption = w.document, w.step_bar_widget, w.caption_label
    doc.go_to_step(0)
    doc.edit_section("launch", replace(doc.shown.section("launch"), n=131))
    assert doc.step == -1 and caption.marker() == "edited since step 1"
    assert bar.steps.currentText().startswith("1 · "), "the bar says overview under step 1"
    assert "(edited)" in bar.steps.currentText() and "overview" not in bar.text().lower()
    marked_pixels = _marker_pixels(caption)
    # step 2 builds on the edited state: its caption was written for N = 130
    doc.go_to_step(1)
    assert caption.marker(), "a step whose state an edit changed keeps an unmarked caption"
    assert _marker_pixels(caption) > 0 and marked_pixels > 0, "the marker is not drawn"
    # saved, the lecture's captions are the author's again; a step the edit leaves alone
    # (it sets n itself) is never marked
    doc.save(tmp_path / "mine.json")
    assert caption.marker() == ""


def _marker_pixels(caption) -> int:
    """Pixels of the highlight colour (the marker's pill) in the caption strip."""
    image = caption.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    raw = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())
    px = raw[:, : w * 3].reshape(h, w, 3).astype(int)
    hl = caption.palette().highlight().color()
    return int((np.abs(px - np.array([hl.red(), hl.green(), hl.blue()])).sum(axis=2) < 24).sum())


def test_the_step_box_shows_every_title_whole_and_keeps_its_width(
        make_main_window, scenario_path):
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    w = make_main_window(scenario_path("pipeline-double-buffer.json"))
    doc, box = w.document, w.step_bar_widget.steps
    widths = set()
    for k in range(len(doc.scenario.steps)):
        doc.go_to_step(k)
        option = QStyleOptionComboBox()
        box.initStyleOption(option)
        field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                           QStyle.SubControl.SC_ComboBoxEditField, box)
        title = box.currentText()
        assert box.fontMetrics().horizontalAdvance(title) <= field.width(), f"cut: {title!r}"
        widths.add(box.width())
    assert len(widths) == 1, "the step box changes width from step to step"


def test_after_a_what_if_edit_at_a_step_the_step_keys_go_on_from_that_step(
        make_main_window, scenario_path, qtbot):
    from PySide6.QtCore import Qt

    w = make_main_window(scenario_path("launch-n130.json"))
    doc = w.document
    for k, key, expected in ((2, Qt.Key.Key_PageDown, 3), (2, Qt.Key.Key_PageUp, 2),
                             (0, Qt.Key.Key_PageUp, 0)):
        doc.go_to_step(k)
        doc.edit_section("launch", replace(doc.shown.section("launch"),
                                           sm_count=doc.shown.section("launch").sm_count + 1))
        assert doc.step == -1
        qtbot.keyClick(w.step_bar_widget, key)
        assert doc.step == expected, f"{key!r} after an edit at step {k + 1}"


def test_the_step_list_keeps_every_unanswered_questions_title_back(
        make_main_window, scenario_path):
    w = make_main_window(scenario_path("occupancy-register-cliff.json"))
    doc, box = w.document, w.step_bar_widget.steps
    k = next(i for i, s in enumerate(doc.scenario.steps) if s.predict)
    title = doc.scenario.steps[k].title
    assert doc.step == -1 and title not in box.itemText(k + 1), "the list shows the answer"
    doc.go_to_step(k)
    w.next_step()  # the reveal
    doc.go_to_step(-1)
    assert title in box.itemText(k + 1), "an answered question's title stays hidden"
