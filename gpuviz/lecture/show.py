"""``show(lecture, step, surface)``: what one step of a lecture shows on one surface — its
panels (focus first), each panel's parts and playback frame, the selection, the veil and what
it hides, the title, the question and the caption (stale or not). Pure and Qt-free: every
surface renders this answer and none works it out again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

from gpuviz.keys import at_frame, frame_of, without_frame
from gpuviz.lecture.state import Lecture
from gpuviz.registry import panel
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.fields import format_fields

Surface = Literal["window", "present", "presenter", "export", "html", "deck", "handout", "api"]
SURFACES: tuple[str, ...] = get_args(Surface)
# the surfaces of a lecture being given: they follow the lecture's own state (the clock's
# frame, the hand selection, the questions revealed); an export shows each step as written
LIVE: frozenset[str] = frozenset({"window", "present", "presenter", "api"})
# the surfaces the room watches a lecture on, step after step: its overview keeps back the
# picture a question after it asks about (``asked_ahead``)
ROOM: frozenset[str] = frozenset({"window", "present", "presenter"})

# What a veiled step keeps from the room, on every surface: the figure itself, the step's
# title (it often states the answer), the measured line and the readouts of the controls
# column, the strips under the figure (the scheduler's whole-run timeline), the figure's
# tooltips, and the lecture's description.
VEIL_HIDES = ("figure", "title", "measured", "readouts", "strips", "tooltips", "description")


@dataclass(frozen=True)
class PanelShow:
    """One panel as a step shows it: its parts (None: the whole figure), its playback frame
    (animated panels only; None: the last, as a still export draws it) and its view's
    page."""

    id: str
    parts: tuple[str, ...] | None
    frame: int | None
    animated: bool
    page: int | None


@dataclass(frozen=True)
class StepShow:
    step: int  # 0-based; -1 the overview
    surface: str
    panels: tuple[PanelShow, ...]
    selection: frozenset[str]
    veiled: bool
    hides: tuple[str, ...]  # what the veil keeps from the room (empty when revealed)
    title: str
    question: str  # "" for a step that asks none
    caption: str
    stale: str  # why the caption may not describe the figure ("" when it does)
    notes: str
    state: Scenario  # the sections this step shows
    edited_from: int | None = None  # the step an edit left for the overview (its caption shown)
    # the overview veiled for the questions after it that ask about its picture (asked_ahead)
    asked_ahead: tuple[int, ...] = ()

    @property
    def number(self) -> int:
        """The page number every surface shows: 0 the overview, step k is k + 1."""
        return self.step + 1

    @property
    def label(self) -> str:
        return "Overview" if self.step < 0 else f"Step {self.number}"

    @property
    def panel_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.panels)

    def panel(self, panel_id: str) -> PanelShow:
        for p in self.panels:
            if p.id == panel_id:
                return p
        raise KeyError(panel_id)

    def parts(self, panel_id: str) -> tuple[str, ...] | None:
        return self.panel(panel_id).parts

    def frames(self) -> Mapping[str, int | None]:
        return MappingProxyType({p.id: p.frame for p in self.panels if p.animated})

    def selection_for(self, panel_id: str) -> frozenset[str]:
        """The selection a panel's figure is built with: the step's, at the panel's frame."""
        frame = self.panel(panel_id).frame
        return self.selection if frame is None else at_frame(self.selection, frame)

    def hidden(self, what: str) -> bool:
        """Whether the veil keeps ``what`` (one of ``VEIL_HIDES``) from the room."""
        return what in self.hides


def step_panels(scenario: Scenario, k: int) -> tuple[str, ...]:
    """The panels step ``k`` shows, wherever it is reached from: its focus, else the panels
    whose parts it names, else the lecture's panels (the overview shows those)."""
    if 0 <= k < len(scenario.steps):
        step = scenario.steps[k]
        if step.focus:
            return (step.focus,)
        named = tuple(pid for pid in scenario.panels if scenario.step_parts(k, pid))
        if named:
            return named
    return tuple(scenario.panels)


def _panels(scenario: Scenario, k: int, surface: str) -> tuple[str, ...]:
    """The window keeps the lecture's panels beside the step's (nothing moves as the lecturer
    steps); the room and the exports see the step's alone."""
    own = step_panels(scenario, k)
    if surface != "window":
        return own
    return (*own, *(pid for pid in scenario.panels if pid not in own))


def names_panels(scenario: Scenario, k: int) -> bool:
    """Whether step ``k`` names what it shows (a focus, or parts of some panel): F5 shows
    those; elsewhere (the overview) the panel the lecturer was looking at."""
    return 0 <= k < len(scenario.steps) and (bool(scenario.steps[k].focus) or any(
        scenario.step_parts(k, pid) for pid in scenario.panels))


def show(lecture: Lecture, step: int | None = None, surface: Surface = "window") -> StepShow:
    """What step ``step`` (0-based, -1 the overview; None: the lecture's own step) of
    ``lecture`` shows on ``surface``."""
    if surface not in SURFACES:
        raise ValueError(f"unknown surface {surface!r} (one of {', '.join(SURFACES)})")
    scenario = lecture.scenario
    k = _step(lecture, step)
    live = surface in LIVE and k == lecture.step
    basis = _basis(lecture, k, surface)
    edited = basis != k
    state = scenario.at_step(k)
    selection = scenario.step_selection(k)
    step_frame = frame_of(selection)
    if live:
        selection = selection | lecture.selection
    if live and lecture.frame is not None:
        selection = at_frame(selection, lecture.frame)
    frame = frame_of(selection) if live and lecture.frame is not None else step_frame
    panels = tuple(PanelShow(pid, scenario.step_parts(basis, pid),
                             frame if panel(pid).animated else None, panel(pid).animated,
                             lecture.pages.get(pid) if live else None)
                   for pid in _panels(scenario, basis, surface))
    selection = without_frame(selection) if frame is None else at_frame(selection, frame)
    ahead = asked_ahead(lecture) if k < 0 and surface in ROOM and not edited else ()
    veiled = lecture.is_veiled(k) or bool(ahead)
    if k >= 0:
        s = scenario.steps[k]
        title, caption = s.title, format_fields(s.caption, state)
        question, notes = _question(s.predict, state), s.notes
        stale = _stale(lecture, k, state) if live else ""
    elif edited:
        s = scenario.steps[basis]
        title, caption, question, notes = s.title, format_fields(s.caption, state), "", ""
        stale = f"edited since step {basis + 1}"
    else:
        title, caption, question, notes = (scenario.title, format_fields(scenario.description,
                                                                         state), "", "")
        saved = lecture.saved
        stale = "edited since the overview" if live and k < 0 and saved is not None \
            and not same_state(saved.at_step(-1), state) else ""
    return StepShow(k, surface, panels, selection, veiled, VEIL_HIDES if veiled else (),
                    title, question, caption, stale, notes, state,
                    basis if edited else None, ahead)


def shown_parts(lecture: Lecture, step: int | None, panel_id: str,
                surface: Surface = "window") -> tuple[str, ...] | None:
    """``show(lecture, step, surface).parts(panel_id)`` without working out the rest (a
    view asks it of every step as it is laid out); None also where the step does not show
    the panel."""
    k = _step(lecture, step)
    basis = _basis(lecture, k, surface)
    if panel_id not in _panels(lecture.scenario, basis, surface):
        return None
    return lecture.scenario.step_parts(basis, panel_id)


def shown_selection(lecture: Lecture, step: int | None, panel_id: str,
                    surface: Surface = "export") -> frozenset[str]:
    """``show(lecture, step, surface).selection_for(panel_id)`` of a step as written (an
    export, or a step the lecture is not at), without the captions' live values that ``show``
    works out: what a view is laid out for at every step asks it of each."""
    k = _step(lecture, step)
    if surface in LIVE and k == lecture.step:
        return show(lecture, k, surface).selection_for(panel_id)
    selection = lecture.scenario.step_selection(k)
    frame = frame_of(selection)
    return without_frame(selection) if frame is None else at_frame(selection, frame)


def asked_ahead(lecture: Lecture) -> tuple[int, ...]:
    """The questions the room has not seen answered whose picture the overview already shows
    (step k's panels in the state the overview shows them: the question asks about the
    lecture's opening picture): the overview keeps its figures veiled until they are
    answered, or the room would read the answer before it is asked."""
    return tuple(k for k in _same_as_overview(lecture.scenario) if lecture.is_veiled(k))


_SAME_AS_OVERVIEW: dict[int, tuple[Scenario, tuple[int, ...]]] = {}  # by the scenario's id


def _same_as_overview(scenario: Scenario) -> tuple[int, ...]:
    kept = _SAME_AS_OVERVIEW.get(id(scenario))
    if kept is not None and kept[0] is scenario:  # a frozen scenario's steps never change
        return kept[1]
    same = tuple(k for k, step in enumerate(scenario.steps) if step.predict and all(
        scenario.at_step(k).section(pid) == scenario.section(pid)
        for pid in step_panels(scenario, k)))
    if len(_SAME_AS_OVERVIEW) >= 16:
        _SAME_AS_OVERVIEW.clear()
    _SAME_AS_OVERVIEW[id(scenario)] = (scenario, same)
    return same


VEILED_TITLE = "(predict first)"  # a veiled step's title in every list of steps


def listed_titles(lecture: Lecture) -> list[str]:
    """Each step's title as a list of the lecture's steps shows it (the step bar, the Lecture
    Steps window, the export dialog): a step whose question the room has not seen answered is
    listed as :data:`VEILED_TITLE`, since its title often gives the answer."""
    return [VEILED_TITLE if lecture.is_veiled(k) else s.title
            for k, s in enumerate(lecture.scenario.steps)]


def shown_question(lecture: Lecture, step: int | None) -> str:
    """``show(lecture, step).question`` alone: step ``step``'s question, its live fields filled
    in ("" for a step that asks none and for the overview)."""
    k = _step(lecture, step)
    if k < 0:
        return ""
    return _question(lecture.scenario.steps[k].predict, lecture.scenario.at_step(k))


def _question(predict: str, state: Scenario) -> str:
    return format_fields(predict, state) if predict else ""


def _step(lecture: Lecture, step: int | None) -> int:
    return lecture.step if step is None else max(-1, min(step, lecture.steps - 1))


def _basis(lecture: Lecture, k: int, surface: str) -> int:
    """The step whose panels, parts and pages step ``k`` shows: itself, or, at the overview
    a live surface shows after an edit at a step, that step (the edit is shown as the step
    showed it)."""
    edited = lecture.edited_from
    if surface in LIVE and k == lecture.step and k < 0 and edited is not None \
            and edited < lecture.steps:
        return edited
    return k


def _stale(lecture: Lecture, k: int, state: Scenario) -> str:
    """"edited since saved" where step ``k`` no longer shows what it showed in the lecture as
    saved (found there by its title and caption); "" otherwise, or for a step authored
    since."""
    saved = lecture.saved
    if saved is None:
        return ""
    step = lecture.scenario.steps[k]
    for j, was in enumerate(saved.steps):
        if (was.title, was.caption) == (step.title, step.caption):
            return "" if same_state(saved.at_step(j), state) else "edited since saved"
    return ""


def same_state(a: Scenario, b: Scenario) -> bool:
    """Whether two scenarios show the same sections (a section left out is its defaults)."""
    return all(a.section(pid) == b.section(pid) for pid in set(a.sections) | set(b.sections))
