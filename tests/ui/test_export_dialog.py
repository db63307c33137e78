"""File ▸ Export Figure…: the preview is the file Save writes and follows every choice; the
choices are remembered; a question step exports veiled or revealed."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from gpuviz.figures.theme import THEMES


def _pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    raw = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())
    return raw[:, : w * 3].reshape(h, w, 3).astype(float)


def _settled(qtbot, dialog) -> QImage | None:
    qtbot.waitUntil(dialog.preview.is_current, timeout=20000)
    return dialog.preview.image


def test_the_preview_is_what_save_writes_and_the_choices_are_remembered(
        make_main_window, scenario_path, qtbot, monkeypatch, tmp_path):
    from gpuviz.ui.export_dialog import ExportDialog

    w = make_main_window(scenario_path("pipeline-double-buffer.json"))
    seen = {}

    def exec_(dialog):
        if "light" in seen:  # the second time: what the first one chose
            seen["again"] = (dialog.format_box.currentText(), dialog.theme_box.currentText(),
                             dialog.chosen_parts(), dialog.text_box.currentData())
            return ExportDialog.DialogCode.Rejected
        seen["light"] = _pixels(_settled(qtbot, dialog))
        dialog.format_box.setCurrentText("png")
        dialog.theme_box.setCurrentText("dark")
        for i in range(1, dialog.parts_list.count()):
            dialog.parts_list.item(i).setCheckState(Qt.CheckState.Unchecked)
        seen["parts"] = dialog.chosen_parts()
        seen["dark"] = _settled(qtbot, dialog)
        assert dialog.preview.figure is not None
        assert dialog.preview.figure.parts == seen["parts"]
        dialog.path.setText(str(tmp_path / "fig.png"))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", exec_)
    w.export_dialog()
    preview = seen["dark"]
    written = QImage(str(tmp_path / "fig.png"))
    assert abs(written.width() / written.height() - preview.width() / preview.height()) < 0.02
    shrunk = _pixels(written.scaled(preview.size(), Qt.AspectRatioMode.IgnoreAspectRatio,
                                    Qt.TransformationMode.SmoothTransformation))
    dark = _pixels(preview)
    assert np.abs(shrunk - dark).mean() < 10, "the preview is not the file written"
    # the preview followed the choices: the dark theme's ground, another shape for one part
    ground = np.array([int(THEMES["dark"].background[i:i + 2], 16) for i in (1, 3, 5)])
    assert np.abs(dark[2, 2] - ground).sum() < 12
    assert dark.shape != seen["light"].shape or np.abs(dark - seen["light"]).mean() > 40
    w.export_dialog()
    assert seen["again"] == ("png", "dark", seen["parts"], "text")


def test_a_question_step_exports_veiled_or_revealed_from_the_dialog(
        make_main_window, scenario_path, qtbot, monkeypatch, tmp_path):
    from gpuviz.ui.export_dialog import ExportDialog

    w = make_main_window(scenario_path("banks-stride1.json"))
    doc = w.document
    k = next(i for i, s in enumerate(doc.scenario.steps) if s.predict)
    doc.go_to_step(k)
    assert doc.veiled
    chosen = iter(["veiled", "revealed"])
    previews = []

    def exec_(dialog):
        assert dialog.chosen_step() == k
        which = next(chosen)
        if which == "veiled":
            assert dialog.question_box.currentData() == "veiled", "the room sees it veiled"
            assert "(predict first)" in dialog.step_box.currentText(), "the title may answer"
        dialog.question_box.setCurrentIndex(dialog.question_box.findData(which))
        _settled(qtbot, dialog)
        previews.append(dialog.preview.figure)
        dialog.path.setText(str(tmp_path / dialog.path.text().rsplit("/", 1)[-1]))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", exec_)
    w.export_dialog()
    w.export_dialog()
    stem = f"banks-stride1-banks-step{k + 1:02d}"
    veiled, revealed = tmp_path / f"{stem}-veiled.svg", tmp_path / f"{stem}.svg"
    assert veiled.exists() and revealed.exists()
    answer = set(previews[1].texts())
    assert answer and not set(previews[0].texts()) & answer, "the veiled picture shows the answer"
    assert doc.scenario.steps[k].predict.split()[0] in veiled.read_text()
    assert previews[1].description in revealed.read_text()
    assert previews[1].description not in veiled.read_text()
    assert doc.veiled, "exporting revealed the question in the hall"


def test_a_steps_figure_carries_its_title_and_caption_as_the_command_line_writes_it(
        make_main_window, scenario_path, qtbot, monkeypatch, tmp_path):
    from gpuviz.lecture import show
    from gpuviz.ui.export_dialog import ExportDialog

    w = make_main_window(scenario_path("traversal-grouped.json"))
    doc = w.document
    doc.go_to_step(0)
    shown = show(doc.lecture, 0, "export")
    heading = f"Step 1 · {shown.title}"
    texts = {}

    def exec_(dialog):
        for chrome in ("none", "full"):
            dialog.chrome_box.setCurrentIndex(dialog.chrome_box.findData(chrome))
            _settled(qtbot, dialog)
            texts[chrome] = " ".join(dialog.preview.figure.texts())
        dialog.path.setText(str(tmp_path / "step1.svg"))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", exec_)
    w.export_dialog()
    assert heading in texts["full"] and heading not in texts["none"]
    assert " ".join(shown.caption.split()) in " ".join(texts["full"].split())
    assert heading in (tmp_path / "step1.svg").read_text(encoding="utf-8")


def test_every_step_from_the_dialog_is_the_file_the_command_line_writes(
        make_main_window, scenario_path, tmp_path, capsys):
    # traversal-grouped's steps 3-5 show one part each: the dialog wrote the whole figure
    from gpuviz.cli import main
    from gpuviz.ui.export_dialog import ExportChoice, run_export

    path = scenario_path("traversal-grouped.json")
    w = make_main_window(path)
    ours, cli = tmp_path / "dialog", tmp_path / "cli"
    ours.mkdir()
    choice = ExportChoice("traversal", ours / "traversal-grouped-traversal-steps.svg", "svg",
                          "screen", "natural", 200, "steps")
    assert run_export(w.document, choice) == " … 6 files"
    assert main(["export", str(path), "--all-steps", "--out", str(cli)]) == 0
    written = sorted(cli.glob("*-step*.svg"))
    assert len(written) == 5
    for f in written:
        assert (ours / f.name).read_bytes() == f.read_bytes(), f.name
