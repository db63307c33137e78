"""A step's ``parts``: the figure parts it shows, checked against the panels' own parts."""

from __future__ import annotations

from typing import Any

from gpuviz.registry import panel
from gpuviz.scenario.problems import Problem, describe, did_you_mean


def step_parts(value: Any, panels: str | tuple[str, ...], path: str,
               problems: list[Problem]) -> tuple[str, ...]:
    """``value`` as a step's parts: names of parts of ``panels`` (the step's focus panel, or
    the scenario's panels), each once; a problem for each name none of them has."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        problems.append(Problem(path, f"expected a list of part names such as [\"rack\"], got "
                                      f"{describe(value)}"))
        return ()
    ids = (panels,) if isinstance(panels, str) else panels
    known = [p for pid in ids for p in panel(pid).parts]
    out: list[str] = []
    for i, name in enumerate(value):
        if name not in known:
            which = " or ".join(ids)
            problems.append(Problem(f"{path}[{i}]", f"'{name}' is not a part of {which}"
                                    + did_you_mean(name, known, problems)
                                    + f" (parts: {', '.join(dict.fromkeys(known))})"))
        elif name not in out:
            out.append(name)
    return tuple(out)
