"""A step's ``parts``: the figure parts it shows, checked against the panels' own parts."""

from __future__ import annotations

from typing import Any

from gpuviz.registry import panel
from gpuviz.scenario.problems import Problem, describe, did_you_mean


def step_parts(value: Any, panels: str | tuple[str, ...], path: str,
               problems: list[Problem]) -> tuple[str, ...]:
    """``value`` as a step's parts: names of parts of ``panels`` (the step's focus panel, or
    the scenario's panels), each once (as the schema's ``uniqueItems`` says); a problem for
    each name none of them has or named twice, or one for a list longer than their parts."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        problems.append(Problem(path, f"expected a list of part names such as [\"rack\"], got "
                                      f"{describe(value)}"))
        return ()
    ids = (panels,) if isinstance(panels, str) else panels
    known = [p for pid in ids for p in panel(pid).parts]
    distinct = len(set(known))
    if len(value) > distinct:  # each part once: a longer list repeats one or names others
        problems.append(Problem(path, f"lists {len(value):,} part names; "
                                      f"{' and '.join(ids)} {'has' if len(ids) == 1 else 'have'} "
                                      f"{distinct} parts, each named at most once"))
        return ()
    out: list[str] = []
    for i, name in enumerate(value):
        if name in out:
            problems.append(Problem(f"{path}[{i}]", f"'{name}' is named twice (each part is "
                                                    "shown once)"))
        elif name not in known:
            which = " or ".join(ids)
            problems.append(Problem(f"{path}[{i}]", f"'{name}' is not a part of {which}"
                                    + did_you_mean(name, known, problems)
                                    + f" (parts: {', '.join(dict.fromkeys(known))})"))
        else:
            out.append(name)
    return tuple(out)
