"""A lecture's title and description are on screen before any of its questions is asked (the
window's title bar all along, the overview's caption, F5's and the deck's title slide, the
handout's first page, the web page's head): neither may state a question's answer, as the
lecture model gives it (``lecture.answer.veiled_answer``: the step's title, the sentences of
its caption the question does not say, the model's value of the quantity it asks about)."""

from __future__ import annotations

import pytest

from gpuviz.lecture import Lecture
from gpuviz.lecture.answer import carries_answer, veiled_answer
from gpuviz.scenario import bundled_scenarios, load_scenario

QUESTIONS = [(path.stem, k) for path in bundled_scenarios()
             for k, step in enumerate(load_scenario(path).steps) if step.predict]


@pytest.mark.parametrize(("name", "k"), QUESTIONS)
def test_the_title_and_description_do_not_answer_a_question(name, k, scenario_path):
    scenario = load_scenario(scenario_path(f"{name}.json"))
    answer = veiled_answer(Lecture(scenario), k)
    assert answer
    told = [f"the {what} states step {k + 1}'s answer {said!r}: {text!r}"
            for what, text in (("title", scenario.title), ("description", scenario.description))
            if (said := carries_answer(text, answer))]
    assert not told, "\n".join(told)


def test_the_check_reads_an_answer_in_other_words(scenario_path):
    """"still 4 sectors" in a title is step 1's "Still four sectors." of sectors-reversed."""
    scenario = load_scenario(scenario_path("sectors-reversed.json"))
    answer = veiled_answer(Lecture(scenario), 0)
    assert carries_answer("Reversed lane order: still 4 sectors", answer) == \
        "Still four sectors."
    assert not carries_answer("Reversed lane order: how many sectors?", answer)
