"""The step list's popup, made when it first opens, is wide enough for every step's title."""

from __future__ import annotations

from gpuviz.ui.step_bar import StepBar


def test_the_step_list_opens_wide_enough_for_every_title(qtbot):
    from PySide6.QtGui import QAction

    bar = StepBar(QAction("prev"), QAction("next"))
    qtbot.addWidget(bar)
    titles = ["short", "a much longer step title that needs a wide list to be read whole"]
    bar.set_steps(titles, -1)
    bar.show()
    bar.steps.showPopup()
    view = bar.steps.view()
    widest = max(view.fontMetrics().horizontalAdvance(bar.steps.itemText(i))
                 for i in range(bar.steps.count()))
    assert view.minimumWidth() >= widest
    bar.steps.hidePopup()
