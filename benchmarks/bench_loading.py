"""Loading scenario files: time and peak memory of ``loads_scenario`` on the largest inputs the
loader accepts or must refuse (many steps over a large divergence section, a file of unknown
keys at the size limit, the deepest nesting, the widest expression). Each case runs in a fresh
process. Prints figures; asserts nothing about time.

    .venv/bin/python benchmarks/bench_loading.py
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

from gpuviz.scenario import ScenarioError, loads_scenario
from gpuviz.scenario.io import MAX_BYTES, MAX_NESTING, MAX_STEPS


def divergence_ladder(steps: int, distinct: bool) -> bytes:
    """20 branches whose predicates read warp (distinct: each different), and ``steps`` steps
    that each change the warp, so every predicate is evaluated again in every state."""
    nodes, edges = [], []
    for i in range(20):
        after = f"b{i + 1}" if i < 19 else "end"
        salt = f" + {i}" if distinct else ""
        predicate = " and ".join([f"(lane * 7 + warp{salt}) % 5 != 3"] * 14)
        nodes += [{"name": f"b{i}", "instructions": 100}, {"name": f"t{i}", "instructions": 100}]
        edges += [{"source": f"b{i}", "target": f"t{i}", "predicate": predicate},
                  {"source": f"b{i}", "target": after, "predicate": ""},
                  {"source": f"t{i}", "target": after, "predicate": ""}]
    nodes.append({"name": "end", "instructions": 1})
    return json.dumps({
        "version": 1, "panels": ["divergence"],
        "divergence": {"nodes": nodes, "edges": edges, "warp_size": 64},
        "steps": [{"title": f"warp {k}", "changes": {"divergence": {"warp": k}}}
                  for k in range(steps)],
    }).encode()


def traversal_explicit(steps: int) -> bytes:
    """The largest explicit tile order (every tile of a 512 × 512 grid, listed) and ``steps``
    steps that each change another setting of that section to a new value (no state repeats,
    so no check is reused)."""
    side = 512
    return json.dumps({
        "version": 1, "panels": ["traversal"],
        "traversal": {"rows": side, "cols": side, "order": "explicit",
                      "explicit": list(range(side * side))[::-1]},
        "steps": [{"title": f"s{k}", "changes": {"traversal": {"capacity": 1 + k}}}
                  for k in range(steps)],
    }).encode()


def unknown_keys() -> bytes:
    keys, size = {}, 20
    while size < MAX_BYTES - 64:
        key = f"k{len(keys)}"
        keys[key] = 1
        size += len(key) + 7
    return json.dumps({"version": 1, **keys}).encode()


CASES = {
    f"{MAX_STEPS} steps, one predicate text": lambda: divergence_ladder(MAX_STEPS, False),
    f"{MAX_STEPS} steps, 20 distinct predicates": lambda: divergence_ladder(MAX_STEPS, True),
    f"{MAX_STEPS} steps over a 262,144-tile explicit order":
        lambda: traversal_explicit(MAX_STEPS),
    "unknown keys up to the size limit": unknown_keys,
    "nesting 10x the limit": lambda: (b'{"version": 1, "title": ' + b"[" * (10 * MAX_NESTING)
                                      + b"]" * (10 * MAX_NESTING) + b"}"),
    "200k unbalanced brackets": lambda: b'{"version": 1, "title": ' + b"[" * 200_000,
}


def measure(name: str) -> None:
    """One case, in this (fresh) process: wall and CPU seconds, and the growth of the peak
    resident set while loading."""
    data = CASES[name]()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        loads_scenario(data, name)
        outcome = "loads"
    except ScenarioError as err:
        outcome = f"refused ({len(err.problems):,} problems)"
    except Exception as exc:
        outcome = f"crashed ({type(exc).__name__})"
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    print(f"{name:<44} {len(data) / 1e6:7.2f} MB {wall:7.2f} s {cpu:7.2f} s {grown:8.1f} MiB  "
          f"{outcome}", flush=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        measure(sys.argv[2])
        return
    print(f"{'input':<44} {'size':>10} {'wall':>9} {'CPU':>9} {'peak +':>12}", flush=True)
    for name in CASES:
        subprocess.run([sys.executable, __file__, "--case", name], check=False)


if __name__ == "__main__":
    main()
