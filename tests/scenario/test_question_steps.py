"""A bundled step that asks the room to predict is a question step: its picture and answer wait
for the reveal (``predict``), and the caption shown afterwards is the answer, not the question
again."""

from __future__ import annotations

import pytest

from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import bundled_scenarios


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.stem)
def test_a_step_that_asks_for_a_prediction_is_a_question(path):
    for k, step in enumerate(load_scenario(path).steps):
        assert not step.caption.lower().startswith("predict first"), \
            (f"step {k + 1}: its caption asks for a prediction" +
             (" after the reveal" if step.predict else ", but it is not a question step"))
