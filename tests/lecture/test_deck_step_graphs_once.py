"""A deck step over a large control-flow graph: its slide's design search and the pages of
parts it tries draw each graph (a width, staggered or not, layers grown or kept short) once,
and each width's body once per composition, and the slides are what they were when every
search drew its own (the same SVG as a build with nothing kept)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from gpuviz.export.deck import step_figures
from gpuviz.export.lecture import lecture_pages
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures import composition, divergence, divergence_graph
from gpuviz.figures.metrics import leaves_room
from gpuviz.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from hostile_corpus import steps


def _lecture(tmp_path: Path, count: int = 2):
    [case] = [c for c in steps() if c.name == "250-steps-over-a-big-divergence"]
    data = json.loads(case.content or b"")
    data["steps"] = data["steps"][:count]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    return load_scenario(path)


def test_a_deck_step_draws_each_graph_once(monkeypatch, tmp_path):
    page = lecture_pages(_lecture(tmp_path), None, None, "deck")[1]
    drawn: list[tuple[str, float, bool, bool]] = []
    real = divergence_graph._cfg_drawn

    def counted(r, selection, th, marks, width, stagger, grow=True):
        if stagger:  # (a plain drawing stops at its first crowded label, for either grow)
            drawn.append((th.name, width, grow, leaves_room()))
        return real(r, selection, th, marks, width, stagger, grow)

    monkeypatch.setattr(divergence_graph, "_cfg_drawn", counted)
    figures = step_figures(page)
    assert len(figures) > 1  # the whole figure misses the slide's budget: pages of parts
    assert len(set(drawn)) > 32  # more graphs than the 32 once kept …
    assert max(Counter(drawn).values()) == 1  # … and none drawn twice


def _spy(monkeypatch, keep: bool) -> list[list[float]]:
    """The widths each composition's body and side were built for (a list per by_width)."""
    asked: list[list[float]] = []
    real = composition.by_width

    def spying(blocks_for):
        widths: list[float] = []
        asked.append(widths)

        def counted(width):
            widths.append(width)
            return blocks_for(width)

        return real(counted) if keep else counted

    monkeypatch.setattr(divergence, "by_width", spying)
    return asked


def _cleared() -> None:
    for table in (divergence_graph._DRAWN, divergence._TRACES, divergence._ORDERS):
        table.clear()


def test_each_width_of_a_composition_is_built_once_and_draws_as_before(monkeypatch, tmp_path):
    page = lecture_pages(_lecture(tmp_path), None, None, "deck")[2]
    asked = _spy(monkeypatch, keep=False)
    _cleared()
    every = [figure_to_svg(f) for f in step_figures(page)]
    assert any(len(ws) > len(set(ws)) for ws in asked)  # a search asks widths again …
    asked = _spy(monkeypatch, keep=True)
    _cleared()
    once = [figure_to_svg(f) for f in step_figures(page)]
    assert asked and all(len(ws) == len(set(ws)) for ws in asked)  # … built once each
    assert once == every
