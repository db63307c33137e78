"""The lecture model: what a lecture step shows, decided once and without Qt.

``Lecture`` is the plain state of a lecture being given or authored (the scenario, the step,
the selection, the playback frame, the questions revealed, the step edited since, each view's
page, presenting or not); ``show(lecture, step, surface)`` is the one answer to "what does this
step show here" that the window, F5, the presenter screen, the exports, the web page, the
deck, the handout and the Python API all read (``StepShow``)."""

from gpuviz.lecture.show import (
           VEIL_HIDES,
           VEILED_TITLE,
           PanelShow,
           StepShow,
           Surface,
           asked_ahead,
           listed_titles,
           names_panels,
           show,
           shown_parts,
           shown_question,
           shown_selection,
           step_panels,
)
from gpuviz.lecture.state import Lecture

__all__ = ["VEILED_TITLE", "VEIL_HIDES", "Lecture", "PanelShow", "StepShow", "Surface",
           "asked_ahead", "listed_titles", "names_panels", "show",
           "shown_parts", "shown_question", "shown_selection", "step_panels"]
