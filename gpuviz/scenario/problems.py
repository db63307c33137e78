"""Errors as values: every complaint about a scenario names the file and the JSON path."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

#: Problems reported in full; past this many, one line says how many more there are (a file of
#: a million unknown keys must not print a million lines).
MAX_REPORTED = 50


@dataclass(frozen=True)
class Problem:
    path: str  # "launch.block[0]", "steps[2].caption", "$" for the whole document
    message: str

    def line(self, source: str) -> str:
        # Keys, values and file names come from the file: never let them drive the terminal,
        # and never let one of them fill it (a key or a value may be megabytes long).
        return (f"{printable(_shorten(source, 500))}: {printable(_shorten(self.path, 200))}: "
                f"{printable(_shorten(self.message, 1000))}")


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit - 1]}… ({len(text):,} characters)"


def printable(text: str) -> str:
    """``text`` with control characters, lone surrogates and other unprintable characters
    written as escapes (``\\x1b``, ``\\ud800``), so that a message can neither move the
    cursor nor fail to encode."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


class ScenarioError(Exception):
    """A scenario that cannot be used, with every problem found (not only the first)."""

    def __init__(self, source: str, problems: Iterable[Problem]):
        self.source = source
        self.problems = tuple(problems)
        super().__init__("\n".join(self.lines()))

    def lines(self, limit: int | None = MAX_REPORTED) -> list[str]:
        """One line per problem; past ``limit`` (None: no limit), one line saying how many
        more were found."""
        return report_lines(self.source, self.problems, limit)


def report_lines(source: str, found: tuple[Problem, ...], limit: int | None = MAX_REPORTED, *,
                 noun: str = "problem", prefix: str = "") -> list[str]:
    """``source: path: prefix message`` for each of ``found`` (escaped and shortened as
    :meth:`Problem.line` does); past ``limit``, one line saying how many more there are."""
    shown = found if limit is None else found[:limit]
    out = [Problem(p.path, prefix + p.message).line(source) for p in shown]
    if len(shown) < len(found):
        more = len(found) - len(shown)
        out.append(Problem("$", f"{prefix}and {more:,} more {noun}{'s' if more != 1 else ''}")
                   .line(source))
    return out


def warning_lines(source: str, found: tuple[Problem, ...],
                  limit: int | None = MAX_REPORTED) -> list[str]:
    """The lines of a scenario's warnings: ``file: json.path: warning: message``, capped and
    escaped as problems are."""
    return report_lines(source, found, limit, noun="warning", prefix="warning: ")


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{'' if path == '$' else path}[{key}]"
    return key if path in ("", "$") else f"{path}.{key}"


def did_you_mean(word: str, candidates: Iterable[str], problems: list[Problem] | None = None) -> str:
    """"; did you mean 'x'?" for the closest candidate, or "". Given the problems found so far,
    no hint once more are found than are reported (each costs a fuzzy match)."""
    if problems is not None and len(problems) >= MAX_REPORTED:
        return ""
    if len(word) > 64:  # no key that long is close to a known one; difflib would be slow
        return ""
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
    if isinstance(value, int) and abs(value) >= 10**24:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
