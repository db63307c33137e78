"""What states a veiled step's answer, as texts: the step's title (beyond what the question
says), the sentences of its caption that the question does not, and the model's value of each
measured quantity the step's panels show, as the measured line gives it ("2 shared-memory
wavefronts", "H200 measured: 2 (agrees)"). A surface that shows text while a question is
open (a tooltip, a status tip, a hover) checks it against these; the tests check every such
text the window can show. Qt-free."""

from __future__ import annotations

import re

from gpuviz.lecture.show import shown_question, step_panels
from gpuviz.lecture.state import Lecture
from gpuviz.registry import panel
from gpuviz.scenario.fields import format_fields

_SENTENCE = re.compile(r"(?<=[.!?:;])\s+")
MIN_WORDS = 3  # a shorter piece of a caption ("Two rounds:") is checked inside the model values
_WORDS = re.compile(r"\w+")  # a caption's words: "lane < 4:" is two, the setup a table shows


def measured_phrase(panel_id: str, value: float) -> str:
    """The model's value of the panel's measured quantity in words, as the measured line under
    the dock's controls states it after "Model: " ("1 resident block per SM", "4 32-byte
    sectors")."""
    from gpuviz.measurements import format_value

    measured = panel(panel_id).measured
    assert measured is not None, panel_id
    unit = measured.unit
    if value == 1 and "÷" not in unit:  # "1 resident block per SM", not "… blocks"
        head, per, tail = unit.partition(" per ")
        unit = head.removesuffix("s") + per + tail
    return f"{format_value(panel_id, value)} {unit}"


def short_phrase(phrase: str) -> str:
    """A measured phrase as a title or a sentence says it: the number and the unit's noun
    ("5 32-byte sectors": "5 sectors"; "1 shared-memory wavefront": "1 wavefront")."""
    number, _, unit = phrase.partition(" ")
    noun = unit.split(" of ")[0].split(" per ")[0].split()
    return f"{number} {noun[-1]}" if noun else phrase


def veiled_answer(lecture: Lecture, step: int | None = None) -> tuple[str, ...]:
    """The texts that give step ``step``'s answer (None: the lecture's step) while it is
    veiled; empty for a step that is not (no question, or revealed)."""
    k = lecture.step if step is None else step
    if not lecture.is_veiled(k):
        return ()
    scenario = lecture.scenario
    s, state = scenario.steps[k], scenario.at_step(k)
    question = " ".join(shown_question(lecture, k).split())
    texts: list[str] = []
    title = " ".join(s.title.split())
    # a title the lecture's own title contains ("Reversed") says nothing that title, shown
    # all along, does not (the lecture's title is checked against the rest of the answer)
    if title and title not in question and said(title) not in said(scenario.title):
        texts.append(title)
    for sentence in _SENTENCE.split(" ".join(format_fields(s.caption, state).split())):
        sentence = sentence.strip()
        if len(_WORDS.findall(sentence)) >= MIN_WORDS and sentence not in question:
            texts.append(sentence)
    values = _model_values(state, step_panels(scenario, k))
    texts += values
    texts += _asked_counts(question, values)
    return tuple(dict.fromkeys(texts))


_HOW_MANY = re.compile(r"\bhow many (?:[a-z-]+ ){0,2}?([a-z-]+s)\b", re.IGNORECASE)


def _asked_counts(question: str, values: list[str]) -> list[str]:
    """The model's count in the question's own noun: "How many rounds now?" is answered by
    "1 round" where the model gives 1 shared-memory wavefront."""
    nouns = [m.group(1).lower() for m in _HOW_MANY.finditer(question)]
    counts = [v.partition(" ")[0] for v in values if v[:1].isdigit()]
    return [f"{n} {noun.removesuffix('s') if n == '1' else noun}"
            for noun in nouns for n in counts[:1]]


def _model_values(state, panel_ids: tuple[str, ...]) -> list[str]:
    from gpuviz.measurements import NOT_MEASURED, label
    from gpuviz.scenario.compute import compute_cached, effective_params

    values = []
    for pid in panel_ids:
        measured = panel(pid).measured
        if measured is None:
            continue
        try:
            params = effective_params(state, pid)
            value = measured.of(compute_cached(pid, params))
        except Exception:  # a section the model refuses: its problems are shown, no value
            continue
        phrase = measured_phrase(pid, value)
        values += [phrase, short_phrase(phrase)]
        if measured.by_section:
            said = label(pid, params, value)
            if said != NOT_MEASURED:
                values.append(said)
    return values


_NUMBER_WORDS = {w: str(n) for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"))}
_NUMBER_WORDS.update({"thirty-two": "32", "sixty-four": "64"})
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?")


def said(text: str) -> str:
    """``text`` as it is compared with an answer: lower case, whitespace collapsed, number
    words as digits ("Still four sectors." and "still 4 sectors" say the same), the end's
    punctuation dropped."""
    flat = " ".join(text.lower().split())
    return _WORD.sub(lambda m: _NUMBER_WORDS.get(m.group(0), m.group(0)), flat).strip(" .!?:;,")


def carries_answer(text: str, answer: tuple[str, ...]) -> str:
    """The first of ``answer`` that ``text`` states ("" when none), as :func:`said` reads
    both."""
    flat = said(text)
    return next((a for a in answer if (piece := said(a)) and re.search(
        rf"(?<!\w){re.escape(piece)}(?!\w)", flat)), "")  # whole words: "f32" is no "32"
