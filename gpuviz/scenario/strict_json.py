"""Strict JSON: the standard library's parser with what a scenario may not contain refused at the
line and column where it stands: duplicate keys, NaN and Infinity, numbers that do not fit a
float or have too many digits, lone surrogates, nesting deeper than :data:`MAX_NESTING`."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from gpuviz.scenario.problems import Problem, ScenarioError, join

MAX_NESTING = 64  # lists and objects inside one another (a scenario needs about 6)
MAX_DIGITS = 400  # digits of one number literal (a double has at most 17 significant ones)


def parse_json(text: str, source: str) -> Any:
    """JSON data from ``text``, or a ScenarioError at the line and column of the first fault.
    Beyond plain JSON syntax: no duplicate keys, no NaN or Infinity, no number that does not fit
    a float or has more than :data:`MAX_DIGITS` digits, nothing nested deeper than
    :data:`MAX_NESTING` (checked before parsing, so the parser never recurses that deep)."""
    deep = _too_deep_at(text)
    if deep is not None:
        raise ScenarioError(source, [Problem(_position(text, deep), f"lists and objects are "
                                             f"nested more than {MAX_NESTING} deep")])
    try:
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                         parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as e:
        raise ScenarioError(source, [Problem(f"line {e.lineno}, column {e.colno}",
                                             f"this is not valid JSON: {e.msg}")]) from None
    except _DuplicateKey as e:
        raise ScenarioError(source, [Problem("$", str(e))]) from None
    except _BadNumber as e:
        at = _find_number(_blank_strings(text), e.literal)
        raise ScenarioError(source, [Problem(_position(text, at), e.reason)]) from None
    except RecursionError:  # not reached after the nesting check; kept as a last guard
        raise ScenarioError(source, [Problem("$", "lists and objects are nested too deeply")]) \
            from None
    if _MAYBE_SURROGATE.search(text):
        found = _lone_surrogate(raw, "$")
        if found is not None:
            raise ScenarioError(source, [Problem(found, "a \\u escape names half of a surrogate "
                                                        "pair (U+D800…U+DFFF) on its own, which is "
                                                        "not a character")])
    return raw


_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _lone_surrogate(node: Any, path: str) -> str | None:
    """The path of the first string (or key) holding a lone surrogate, or None."""
    if isinstance(node, str):
        return path if _SURROGATE.search(node) else None
    if isinstance(node, dict):
        for k, v in node.items():
            if _SURROGATE.search(k):
                return join(path, k)
            found = _lone_surrogate(v, join(path, k))
            if found is not None:
                return found
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found = _lone_surrogate(v, join(path, i))
            if found is not None:
                return found
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _blank_strings(text: str) -> str:
    """``text`` with every string literal's contents replaced by spaces (same length), so that
    brackets and words inside strings are not mistaken for structure."""
    if '"' not in text:
        return text
    return _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


def _too_deep_at(text: str) -> int | None:
    """The offset where nesting first exceeds :data:`MAX_NESTING`, or None."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None
    blanked = _blank_strings(text)
    import numpy as np

    codes = np.frombuffer(blanked.encode("utf-32-le"), dtype=np.uint32)
    step = (np.isin(codes, (ord("["), ord("{"))).astype(np.int32)
            - np.isin(codes, (ord("]"), ord("}"))).astype(np.int32))
    depth = np.cumsum(step)
    over = np.flatnonzero(depth > MAX_NESTING)
    return int(over[0]) if len(over) else None


def _position(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


class _BadNumber(ValueError):
    def __init__(self, literal: str, reason: str):
        super().__init__(reason)
        self.literal = literal
        self.reason = reason


def _int(literal: str) -> int:
    if len(literal) <= MAX_DIGITS:
        return int(literal)
    digits = len(literal.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _BadNumber(literal, f"this number has {digits:,} digits; numbers in a scenario "
                                  f"have at most {MAX_DIGITS}")
    return int(literal)


def _float(literal: str) -> float:
    if len(literal) > MAX_DIGITS + 20:
        raise _BadNumber(literal, f"this number is {len(literal):,} characters long; numbers in "
                                  f"a scenario have at most {MAX_DIGITS} digits")
    value = float(literal)
    if not math.isfinite(value):
        raise _BadNumber(literal, f"the number {literal} is too large to represent "
                                  "(beyond ±1.8e308)")
    if value == 0.0 and any(c in "123456789" for c in literal.lower().partition("e")[0]):
        raise _BadNumber(literal, f"the number {literal} is too small to represent (closer to 0 "
                                  "than ±4.9e-324, it would be read as 0); write 0 if 0 is meant")
    return value


def _find_number(blanked: str, literal: str) -> int:
    """Where ``literal`` (a number, NaN or Infinity) first stands as a value, not inside a word
    or a string; 0 when it cannot be found."""
    pattern = re.compile(r"(?<![\w.+-])" + re.escape(literal) + r"(?![\w.])")
    found = pattern.search(blanked)
    return found.start() if found else 0


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(f'the key "{k}" appears twice in one object')
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise _BadNumber(name, f"this is not valid JSON: {name} is not a JSON number")
