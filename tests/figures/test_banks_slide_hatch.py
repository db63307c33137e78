"""A bank conflict keeps its cross-hatch on a slide: a queue slot there has no room above or
below its word (the slide's height is fixed), so the hatch runs in bands beside the word,
along the slot's left and right edges (``bands.bands``), never under a glyph. Before, every
conflict slot of the bundled banks scenarios' print slides was told by its tint alone."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.bands import GAP, MIN_BAND, bands
from gpuviz.figures.display import Rect, Rects, Text, text_box, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import PRINT
from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario


def _rows(item):
    if isinstance(item, Rect):
        return np.array([[item.x, item.y, item.w, item.h]])
    return np.asarray(item.xywh, dtype=float).reshape(-1, 4)


def _overlaps(a, b):
    return ((b[:, 0] < a[0] + a[2]) & (b[:, 0] + b[:, 2] > a[0])
            & (b[:, 1] < a[1] + a[3]) & (b[:, 1] + b[:, 3] > a[1])).any()


def test_a_cell_without_room_above_or_below_keeps_edge_bands():
    glyph = (2.0, 0.2, 4.0, 1.8)  # the word fills the cell's height, not its width
    side = bands(0.0, 0.0, 6.0, 2.0, [glyph])
    assert np.allclose(side, [(0.0, 0.0, 1.85, 2.0), (4.15, 0.0, 1.85, 2.0)])
    assert np.allclose(bands(0.0, 0.0, 6.0, 4.0, [glyph]), [(0.0, 1.95, 6.0, 2.05)])  # a row


def test_conflict_slots_on_a_print_slide_keep_a_hatch_beside_a_short_word():
    """A slot whose word leaves a band's width beside it keeps the hatch there; a word as wide
    as its slot (three digits at the slide's floor) still has its tint alone."""
    conflict = PRINT.color("conflict")
    slots = kept = 0
    for path in bundled_scenarios():
        if not path.stem.startswith("banks-"):
            continue
        scenario = load_scenario(path)
        for k in range(len(scenario.steps)):
            state = scenario.at_step(k)
            if "banks" not in state.panels:
                continue
            result = compute_all(state, ("banks",))["banks"]
            figure = build_figure("banks", result, scenario.step_selection(k), PRINT,
                                  TARGETS["slide"])
            items = [i for i in walk(figure.items) if isinstance(i, (Rect, Rects))]
            hatched = [r for i in items if i.style.hatch for r in _rows(i)]
            words = [text_box(t) for t in walk(figure.items) if isinstance(t, Text)
                     and t.text.strip()]
            h = np.array(hatched).reshape(-1, 4)
            for item in items:
                if item.style.fill == conflict and not item.style.hatch:
                    for cell in _rows(item):
                        x, y, w, hh = cell
                        inside = [b for b in words if x <= (b[0] + b[2]) / 2 <= x + w
                                  and y <= (b[1] + b[3]) / 2 <= y + hh]
                        room = bool(inside) and max(min(b[0] for b in inside) - x,
                                                    x + w - max(b[2] for b in inside)) \
                            >= GAP + MIN_BAND
                        slots += room
                        kept += room and bool(_overlaps(cell, h))
            assert not [f for f in lint(figure, TARGETS["slide"]) if f.rule == "hatch-glyph"]
    assert slots and kept == slots, (kept, slots)


def test_every_conflict_slot_on_a_print_slide_keeps_a_mark_that_survives_grayscale():
    """A conflict's word is bold where the theme hatches it (print), so a slot whose word
    leaves its hatch no band (three digits at the slide's floor) is still told from a slot
    without conflict in grayscale; the legend says so. Before, 414 of the bundled scenarios'
    672 conflict slots on print slides were told by their tint alone."""
    conflict = PRINT.color("conflict")
    slots = marked = 0
    for path in bundled_scenarios():
        if not path.stem.startswith("banks-"):
            continue
        scenario = load_scenario(path)
        for k in range(len(scenario.steps)):
            state = scenario.at_step(k)
            if "banks" not in state.panels:
                continue
            result = compute_all(state, ("banks",))["banks"]
            figure = build_figure("banks", result, scenario.step_selection(k), PRINT,
                                  TARGETS["slide"])
            items = [i for i in walk(figure.items) if isinstance(i, (Rect, Rects))]
            words = [t for t in walk(figure.items) if isinstance(t, Text) and t.text.strip()]
            for item in items:
                if item.style.fill != conflict or item.style.hatch:
                    continue
                for x, y, w, h in _rows(item):
                    inside = [t for t in words if x <= (text_box(t)[0] + text_box(t)[2]) / 2
                              <= x + w and y <= (text_box(t)[1] + text_box(t)[3]) / 2 <= y + h]
                    slots += 1
                    marked += bool(inside) and all(t.bold for t in inside)
            if any(i.style.fill == conflict for i in items):
                assert "(conflict), its word bold" in " ".join(t.text for t in words)
            # a slot without conflict keeps its word regular: the bold is the class
            assert not any(t.bold and t.font == "mono" and t.key and t.key.startswith("word:")
                           and t.color == PRINT.ink_on(PRINT.color("owned"))
                           and _in_fill(t, items, PRINT.color("owned")) for t in words)
    assert slots and marked == slots, (marked, slots)


def _in_fill(t, items, fill):
    box = text_box(t)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(x <= cx <= x + w and y <= cy <= y + h for i in items if i.style.fill == fill
               for x, y, w, h in _rows(i))
