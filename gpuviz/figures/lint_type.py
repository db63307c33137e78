"""Typography rules of the figure lint, one text at a time (:func:`type_findings`, run by
:func:`gpuviz.figures.lint.lint` over every text):

- ``hex-face``: a hexadecimal literal set in the sans face. Inter's contextual alternates set
  the "x" between digits as a multiplication sign ("0x4000" reads "0×4000"); hexadecimal and
  code go in the mono face.
- ``code-start``: a sans text, or a sentence in it, that starts with a lower-case "l" and a
  consonant: a code word such as "ldmatrix", which a sans face sets as "Idmatrix" (lower-case l
  and capital I alike). Reword so that the sentence starts with another word."""

from __future__ import annotations

import re

from gpuviz.figures.display import Text

HEX = re.compile(r"(?<![0-9A-Za-z])0[xX][0-9A-Fa-f]")
# a sentence's first word: "l" then a letter no English word puts there (not a vowel or y)
CODE_START = re.compile(r"(?:^|[.!?:;]\s+)l(?![aeiouyAEIOUY])[A-Za-z]")


def type_findings(t: Text) -> list[tuple[str, str]]:
    """``(rule, message)`` for each typography rule ``t`` breaks."""
    if t.font != "sans":
        return []
    out = []
    if HEX.search(t.text):
        out.append(("hex-face", "a hexadecimal value in the sans face (Inter sets 0x as 0×); "
                                "set it in the mono face"))
    if CODE_START.search(t.text):
        out.append(("code-start", "a sentence starts with a lower-case code word that a sans "
                                  "face sets like a capital I; reword"))
    return out
