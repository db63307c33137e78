"""Errors as values: every complaint about a scenario names the file and the JSON path."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    path: str  # "launch.block[0]", "steps[2].caption", "$" for the whole document
    message: str

    def line(self, source: str) -> str:
        return f"{source}: {self.path}: {self.message}"


class ScenarioError(Exception):
    """A scenario that cannot be used, with every problem found (not only the first)."""

    def __init__(self, source: str, problems: Iterable[Problem]):
        self.source = source
        self.problems = tuple(problems)
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        return [p.line(self.source) for p in self.problems]


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{'' if path == '$' else path}[{key}]"
    return key if path in ("", "$") else f"{path}.{key}"


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def describe(value: object) -> str:
    """How a student would name a JSON value they wrote."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:27] + "…"
        return f'the string "{shown}"'
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
