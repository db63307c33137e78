"""The divergence graph's cost in a layout search: each width's graph is drawn once (a view's
search builds the figure in a dozen designs, many giving the graph one width), and a label's
candidate places are tested against the edges all at once, as one box at a time would."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import divergence, divergence_graph, divergence_labels
from gpuviz.figures.divergence import build
from gpuviz.figures.geometry import segment_hits_box, segments_hit_boxes
from gpuviz.figures.metrics import fallback_room
from gpuviz.figures.targets import DESIGN_FACTORS, view_target
from gpuviz.figures.theme import theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir


def _drawings(monkeypatch) -> list[float]:
    widths: list[float] = []
    real = divergence_graph._cfg_drawn

    def counted(r, selection, th, marks, width, stagger, **grow):
        widths.append(width)
        return real(r, selection, th, marks, width, stagger, **grow)

    monkeypatch.setattr(divergence_graph, "_cfg_drawn", counted)
    return widths


def test_a_layout_search_draws_each_width_of_the_graph_once(monkeypatch):
    r = compute_all(load_scenario(scenario_dir() / "divergence-nested.json"),
                    ("divergence",))["divergence"]
    th = theme("screen")
    widths = _drawings(monkeypatch)
    asked: list[float] = []
    real = divergence.graph_block
    monkeypatch.setattr(divergence, "graph_block",
                        lambda r, s, t, m, w, *grow: asked.append(w) or real(r, s, t, m, w, *grow))
    base = view_target(301, 1.61)
    figures = [build(r, frozenset(), th, replace(base, design=(kind, f)))
               for f in DESIGN_FACTORS for kind in ("stacked", "beside")]
    for f in DESIGN_FACTORS:  # the pages of a view too small for the whole figure
        for page in (("graph",), ("graph", "stack"), ("stack", "issue", "efficiency")):
            build(r, frozenset(), th, replace(base.showing(page, "full"), design=("beside", f)))
    assert max(Counter(asked).values()) >= 3  # the layout asks for some widths again …
    assert max(Counter(widths).values()) <= 2  # … and each is drawn once (twice if staggered)
    drawn = len(widths)
    again = build(r, frozenset(), th, replace(base, design=("stacked", 1.0)))
    assert len(widths) == drawn
    assert figure_to_svg(again) == figure_to_svg(figures[DESIGN_FACTORS.index(1.0) * 2])
    # a layout with room for a wider fallback face (an SVG's) is another graph
    build(r, frozenset(), th)
    drawn = len(widths)
    with fallback_room(True):
        build(r, frozenset(), th)
    assert len(widths) > drawn


box = st.tuples(*[st.floats(-20, 120, allow_nan=False)] * 2,
                *[st.floats(0, 60, allow_nan=False)] * 2)
segment = st.tuples(*[st.floats(-20, 120, allow_nan=False)] * 4)


@settings(max_examples=60, deadline=None)
@given(st.lists(segment, min_size=1, max_size=12), st.lists(box, min_size=1, max_size=6))
def test_pairs_of_segments_and_boxes_hit_as_each_box_alone(segments, boxes):
    s = np.asarray(segments, dtype=float)
    b = np.asarray([(x, y, x + w, y + h) for x, y, w, h in boxes])
    at, seg = np.divmod(np.arange(len(b) * len(s)), len(s))
    pairs = segments_hit_boxes(s[seg], b[at])
    alone = np.concatenate([segment_hits_box(s, tuple(row)) for row in b])
    assert np.array_equal(pairs, alone)


def test_a_crowded_plain_layout_is_given_up_at_its_first_crowded_label(monkeypatch):
    """The staggered layout replaces the plain one when any label is crowded, so the plain one
    stops there instead of placing the rest of its labels."""
    from gpuviz.figures.divergence import _marks
    from gpuviz.scenario import loads_scenario

    # a ladder: every block of a layer branches to both blocks of the next
    nodes = [{"name": "entry", "instructions": 4}]
    edges, before = [], ["entry"]
    for i in range(1, 9):
        layer = [f"a{i}", f"c{i}"]
        nodes += [{"name": n, "instructions": 4} for n in layer]
        for j, source in enumerate(before):
            edges += [{"source": source, "target": layer[0],
                       "predicate": f"lane // {2 ** ((i - 1 + j) % 5)} % 2 == 0"},
                      {"source": source, "target": layer[1], "predicate": ""}]
        before = layer
    nodes.append({"name": "end", "instructions": 4})
    edges += [{"source": s, "target": "end", "predicate": ""} for s in before]
    scenario = loads_scenario(json.dumps({"version": 1, "panels": ["divergence"], "divergence": {
        "nodes": nodes, "edges": edges}}))
    r = compute_all(scenario, ("divergence",))["divergence"]
    th = theme("screen")
    placed: list[str] = []
    real = divergence_labels._label_boxes
    monkeypatch.setattr(divergence_labels, "_label_boxes",
                        lambda text, *a: placed.append(text) or real(text, *a))
    with pytest.raises(divergence_labels.Crowded):
        divergence_graph._cfg_drawn(r, frozenset(), th, _marks(r, th), 40.0, stagger=False)
    plain = len(placed)
    divergence_graph._cfg_drawn(r, frozenset(), th, _marks(r, th), 40.0, stagger=True)
    assert plain < len(placed) - plain  # fewer labels tried than the staggered layout places
