"""What a user reads cites real sources: no scenario, step, panel help or control text speaks of
"the seed" (that every panel has help with references: tests/test_panel_conformance.py)."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from gpuviz.help import HELP
from gpuviz.registry import PANELS
from gpuviz.scenario import bundled_scenarios, load_scenario


def _scenario_texts(path):
    s = load_scenario(path)
    yield "title", s.title
    yield "description", s.description
    for i, step in enumerate(s.steps):
        for name in ("title", "caption", "predict", "notes"):
            yield f"steps[{i}].{name}", getattr(step, name)


def _param_docs(cls, prefix):
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        yield prefix + f.name, f.metadata.get("doc", "")
        for tp in (hints[f.name], *typing.get_args(hints[f.name])):
            for inner in (tp, *typing.get_args(tp)):
                if dataclasses.is_dataclass(inner):
                    yield from _param_docs(inner, f"{prefix}{f.name}.")


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.stem)
def test_scenario_text_never_says_seed(path):
    found = [where for where, text in _scenario_texts(path) if "seed" in text.lower()]
    assert not found, f"{path.name}: {found}"


def test_help_and_controls_never_say_seed():
    texts = [(f"help.{pid}", h.text) for pid, h in HELP.items()]
    texts += [(f"help.{pid}.ref", r) for pid, h in HELP.items() for r in h.references]
    texts += [(f"panel.{p.id}", p.title + " " + p.summary) for p in PANELS]
    for p in PANELS:
        texts += list(_param_docs(p.params_type, f"{p.id}."))
    assert not [where for where, text in texts if "seed" in text.lower()]
