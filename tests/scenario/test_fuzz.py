"""Whatever a scenario file says, loading it either succeeds or raises ScenarioError with JSON
paths; and whatever loads, computes and draws. Hypothesis mutates the bundled scenarios one
value at a time, with values a user might plausibly type (and some they might not)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import ScenarioError, bundled_scenarios, compute_all, loads_scenario

BUNDLED = [json.loads(p.read_text()) for p in bundled_scenarios()]

values = st.one_of(
    st.integers(-3, 3),
    st.integers(0, 70),
    st.sampled_from([127, 128, 129, 255, 256, 1023, 1024, 1025, 4096, 65535, 65536, 2**31, 2**40]),
    st.floats(-10, 1e6, allow_nan=False),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["lane", "lane * 2", "lane // 0", "31 - lane", "(", "row-major", "hilbert",
                     "stride", "column", "expression", "gto", "lrr", "128B", "none"]),
    st.lists(st.integers(-2, 40), max_size=40),
)


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(node, list) and node and not all(isinstance(x, (int, float)) for x in node):
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))
    else:
        yield path


def _set(node, path, value):
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_single_change_loads_with_a_clear_error_or_computes_and_draws(data):
    scenario = json.loads(json.dumps(data.draw(st.sampled_from(BUNDLED))))
    leaves = [p for p in _leaves(scenario) if p and p[0] not in ("title", "description")]
    path = data.draw(st.sampled_from(leaves))
    _set(scenario, path, data.draw(values))
    text = json.dumps(scenario)
    try:
        loaded = loads_scenario(text.encode(), "fuzz.json")
    except ScenarioError as err:
        assert err.lines() and all(line.startswith("fuzz.json: ") for line in err.lines())
        return
    for k in [-1, *range(len(loaded.steps))]:
        shown = loaded.at_step(k)
        compute_all(shown)
        for pid in shown.panels:
            figure_for(shown, pid, theme("screen"))


# --- structure-aware mutations: what a hostile file does to a scenario's shape ----------------

def _deep(depth: int):
    value: object = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


hostile_values = st.one_of(
    st.integers(min_value=10**18, max_value=10**399),
    st.integers(max_value=-(10**18), min_value=-(10**399)),
    st.sampled_from([1e308, -1e308, 3.5e38, 1e30, 5e-324, 2**62, 2**63, 2**64, -2**63]),
    st.integers(1, 200).map(_deep),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x2FFF), max_size=20),
    st.sampled_from(["lane // (lane - 3) < 2", f"{2**62} + lane", "(1 << (lane + 40)) > 0",
                     "lane % (warp + 0) == 0", "~lane < 0", "-" * 130 + "lane",
                     "+".join(["1"] * 200) + "+lane", "lane * 4611686018427387904",
                     "\x1b[31m", "a\x00b", "mi300x", None]),
)


def _sections(data):
    from gpuviz.registry import PANEL_IDS

    return [k for k in data if k in PANEL_IDS and isinstance(data[k], dict)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_structural_mutations_load_cleanly_or_compute_and_draw(data):
    scenario = json.loads(json.dumps(data.draw(st.sampled_from(BUNDLED))))
    kind = data.draw(st.sampled_from(["leaf", "step", "key", "deep-step", "many-steps"]))
    leaves = [p for p in _leaves(scenario) if p]
    if kind == "leaf":
        _set(scenario, data.draw(st.sampled_from(leaves)), data.draw(hostile_values))
    elif kind == "key":
        scenario[data.draw(st.text(max_size=8))] = data.draw(hostile_values)
    elif kind in ("step", "deep-step"):
        # a step that changes one setting of a section to a hostile value
        sections = _sections(scenario)
        if not sections:
            return
        pid = data.draw(st.sampled_from(sections))
        paths = [p for p in _leaves(scenario[pid]) if p]
        if not paths:
            return
        change = json.loads(json.dumps(scenario[pid]))
        _set(change, data.draw(st.sampled_from(paths)), data.draw(hostile_values))
        if kind == "deep-step":
            change = {"nested": change}
        scenario.setdefault("steps", []).append({"title": "hostile", "changes": {pid: change}})
    else:
        scenario["steps"] = [{"title": f"s{i}"} for i in range(data.draw(st.integers(240, 260)))]
    text = json.dumps(scenario, ensure_ascii=data.draw(st.booleans()))
    try:
        loaded = loads_scenario(text.encode("utf-8", "surrogatepass"), "fuzz.json")
    except ScenarioError as err:
        lines = err.lines()
        assert lines and len(lines) <= 51
        assert all(line.startswith("fuzz.json: ") and line.isprintable() for line in lines)
        return
    for k in [-1, *range(min(len(loaded.steps), 3)), len(loaded.steps) - 1]:
        shown = loaded.at_step(k)
        compute_all(shown)
        for pid in shown.panels:
            figure_for(shown, pid, theme("screen"))
