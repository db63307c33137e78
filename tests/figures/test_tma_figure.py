"""The tma figure draws the model: the box's elements against the tensor's edge, the physical
slot each logical chunk lands in, the refused rule, the bytes each barrier expects."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpuviz.figures import tma as figure
from gpuviz.figures import tma_space
from gpuviz.figures.display import Group, Rect, Rects, Text, key_at, text_box, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import theme
from gpuviz.models import tma

PRINT = theme("print")
SHIFTED = replace(tma.TmaParams(), smem_offset=384)  # the bundled question's state
# a 64 × 8 box of 2-byte elements hanging over the tensor's left… right edge and both rows
OUT_OF_BOUNDS = replace(tma.TmaParams(), global_dims=(104, 6), box_start=(56, -1))
BIG = replace(tma.TmaParams(), element_bytes=1, global_dims=(4096, 4096), box_dims=(128, 256),
              box_start=(-64, 4000))
REFUSED = replace(tma.TmaParams(), box_dims=(128, 8))  # 256 inner bytes over the 128B span


def build(params, part, selection=frozenset(), target=SINGLE, t=PRINT):
    return figure.build(tma.compute(params), frozenset(selection), t,
                        replace(target, parts=(part,)))


def texts(params, part, target=SINGLE):
    return " ".join(build(params, part, target=target).texts())


def cell_rects(fig):
    """Every (x, y, w, h) of the batched cells, with its key (None for a slot not written)."""
    out = []
    for item in walk(fig.items):
        if isinstance(item, Rects):
            for i, row in enumerate(item.xywh):
                out.append((tuple(float(v) for v in row), item.keys[i] if item.keys else None))
    return out


def slot_of(fig):
    """key → (line, slot) read from where the placement grid draws each cell."""
    cells = cell_rects(fig)
    xs = sorted({round(r[0], 6) for r, _ in cells})
    ys = sorted({round(r[1], 6) for r, _ in cells})
    assert len(xs) == tma_space.SLOTS
    return {k: (ys.index(round(r[1], 6)), xs.index(round(r[0], 6))) for r, k in cells if k}


def outlines(fig, t=PRINT):
    """The selection's outlines in the drawing (not the legend's swatch of one)."""
    def drawn(items):
        for i in items:
            if isinstance(i, Group):
                if not (i.name or "").startswith("legend:"):
                    yield from drawn(i.items)
            else:
                yield i
    return [(i.x, i.y, i.w, i.h) for i in drawn(fig.items)
            if isinstance(i, Rect) and i.style == t.highlight()]


def test_chunk_3_of_row_5_lands_in_slot_3_at_offset_384_and_in_slot_6_at_0():
    """The bundled question: at offset 384 row 5 sits at A = 1024, phase 0, so chunk 3 stays
    in slot 3; aligned to 1024 it is XORed with 5 into slot 6."""
    for params, slot in ((SHIFTED, 3), (tma.TmaParams(), 3 ^ 5)):
        fig = build(params, "placement", {"chunk:5,3"})
        assert slot_of(fig)["chunk:5,3"] == (5, slot)
        [label] = [i for i in walk(fig.items) if isinstance(i, Text) and i.key == "chunk:5,3"]
        assert label.text == "3"
        [(rect, _)] = [(r, k) for r, k in cell_rects(fig) if k == "chunk:5,3"]
        [outline] = outlines(fig)
        assert outline == pytest.approx(rect)
        assert rect[0] <= label.x <= rect[0] + rect[2] and rect[1] <= label.y <= rect[1] + rect[3]
    assert not outlines(build(SHIFTED, "placement"))


def test_rows_are_labelled_with_address_and_phase():
    words = texts(SHIFTED, "placement").split()
    i = words.index("1024")  # line 5's address past the 1024-byte base
    assert words[i - 2:i + 2] == ["row", "5", "1024", "0"]
    i = words.index("384", words.index("phase"))
    assert words[i - 2:i + 2] == ["row", "0", "384", "3"]  # line 0 starts in phase 3


@pytest.mark.parametrize("params", [
    SHIFTED, tma.TmaParams(),
    replace(tma.TmaParams(), element_bytes=4, box_dims=(8, 12), swizzle="32B", smem_offset=128),
    replace(tma.TmaParams(), box_dims=(24, 8), smem_offset=256),  # 48 of 128 bytes a row
    replace(tma.TmaParams(), box_dims=(24, 8), swizzle="none", box_start=(-8, 0)),
    replace(tma.TmaParams(), swizzle="64B", box_dims=(32, 8), smem_offset=128),
], ids=["128B-384", "128B-0", "32B-128", "128B-inner48", "none-inner48", "64B-128"])
def test_drawn_slots_are_the_models_placement(params):
    r = tma.compute(params)
    step = 16 // params.element_bytes
    drawn = slot_of(build(params, "placement"))
    want = {f"chunk:{row},{j // step}": divmod(offsets[j] // 16, 8)
            for row, offsets in enumerate(r.placement) for j in range(0, len(offsets), step)}
    assert drawn == want


def test_box_draws_as_many_zero_filled_elements_as_the_model_fills():
    r = tma.compute(OUT_OF_BOUNDS)
    fig = build(OUT_OF_BOUNDS, "box", {"chunk:5,3"})
    zero = tma_space.zero_style(PRINT)
    widths = {True: 0.0, False: 0.0}
    for group in walk(fig.items):  # each chunk's elements, in a group keyed by the chunk
        if isinstance(group, Group) and (group.key or "").startswith("chunk:"):
            for item in group.items:
                if isinstance(item, Rects):
                    widths[item.style == zero] += sum(float(row[2]) for row in item.xywh)
    total = sum(len(row) for row in r.zero_filled)
    zeros = sum(map(sum, r.zero_filled))
    assert 0 < zeros < total
    assert widths[True] / (widths[True] + widths[False]) * total == pytest.approx(zeros)
    assert f"{zeros} of {total} elements" in " ".join(fig.texts())
    assert outlines(fig)  # the selected chunk
    assert "zero-filled: outside the tensor" in fig.texts()


def test_a_256_row_box_is_summarised_not_drawn_cell_by_cell():
    r = tma.compute(BIG)
    for part in ("box", "placement"):
        fig = build(BIG, part)
        assert len(cell_rects(fig)) <= 8 * 8 * 2
        assert len(set(fig.keys())) <= 8 * 8
    said = texts(BIG, "box")
    assert "the first 8 of 256 rows" in said
    assert f"{sum(map(sum, r.zero_filled)):,} of 32,768 elements" in said
    assert "the first 8 of 256 lines" in texts(BIG, "placement")


def test_a_selected_chunk_past_the_drawn_lines_is_drawn_after_them():
    fig = build(BIG, "placement", {"chunk:200,3"})
    assert "row 200" in fig.texts() and len(outlines(fig)) == 1
    assert fig.keys().count("chunk:200,3") >= 2  # its cell and its number


def test_refused_map_names_its_rule_and_cluster_its_bytes():
    assert "refused: box_dims[0]" in texts(REFUSED, "tensor-map")
    for part in ("box", "placement"):
        assert "refused: box_dims[0]" in texts(REFUSED, part)
    assert "2,048" in texts(tma.TmaParams(), "cluster", SLIDE)


@pytest.mark.parametrize("name", ["print", "screen", "dark"])
@pytest.mark.parametrize("params", [SHIFTED, OUT_OF_BOUNDS, BIG, REFUSED],
                         ids=["shifted", "out-of-bounds", "big", "refused"])
def test_box_and_placement_are_lint_clean_at_single_column_and_slide(params, name):
    t = theme(name)
    for part in ("box", "placement"):
        for target in (SINGLE, SLIDE):
            fig = build(params, part, {"chunk:5,3"}, target, t)
            found = lint(fig, target, theme=t, budget=True)
            assert not found, [str(f) for f in found]


@pytest.mark.parametrize("params", [
    OUT_OF_BOUNDS, BIG,
    replace(tma.TmaParams(), element_bytes=8, box_dims=(256, 4), swizzle="none",
            box_start=(-8, 0)),  # 2,048-byte rows: the box draws chunks the placement leaves out
    replace(tma.TmaParams(), global_dims=(104, 6), box_dims=(24, 8), swizzle="none",
            box_start=(-8, -1)),  # 48-byte rows: box rows meet inside a line, and the edge
], ids=["out-of-bounds", "big", "wide-rows", "rows-meet-in-a-line"])
def test_box_and_placement_drawn_together_keep_one_mark_per_meaning(params):
    """Both parts in one figure: one legend entry for a chunk's tint, a row boundary drawn unlike
    the tensor's edge, and the box's chunks (no room for their numbers) not counted as value
    cells the placement leaves blank."""
    both = replace(params, show=("box", "placement"))
    for target in (figure.NATURAL, SINGLE):
        fig = figure.build(tma.compute(both), frozenset({"chunk:5,3"}), PRINT, target)
        found = lint(fig, target, theme=PRINT)
        assert not found, [str(f) for f in found]


def test_pointing_at_a_chunk_in_either_grid_finds_its_key():
    for part in ("box", "placement"):
        fig = build(OUT_OF_BOUNDS, part)
        groups = [g for g in walk(fig.items) if isinstance(g, Group) and g.key == "chunk:5,3"]
        rects = [(r, k) for r, k in cell_rects(fig) if k == "chunk:5,3"]
        if part == "box":  # the chunk's elements, keyed by their group
            [group] = groups
            [x, y, w, h] = next(row for i in group.items if isinstance(i, Rects) for row in i.xywh)
        else:
            [((x, y, w, h), _)] = rects
        assert key_at(fig, x + w / 2, y + h / 2) == "chunk:5,3"


def test_placement_marks_the_slots_that_receive_a_chunk_of_zeros():
    r = tma.compute(OUT_OF_BOUNDS)
    fig = build(OUT_OF_BOUNDS, "placement")
    zeros = tma_space.zeros_style(PRINT)
    drawn = {k for item in walk(fig.items) if isinstance(item, Rects) and item.style == zeros
             for k in item.keys}
    want = {f"chunk:{row},{c}" for row, filled in enumerate(r.zero_filled)
            for c in range(len(filled) // 8) if all(filled[8 * c:8 * c + 8])}
    assert drawn == want and len(want) == 8 + 8 + 6 * 2  # rows -1 and 6, x 104–119 of the rest
    assert "a chunk of zeros: its elements lie outside the tensor" in fig.texts()


# the bundled interleave lecture's state: a 16B-interleaved box of 2 × 8 chunks
INTERLEAVED = replace(tma.TmaParams(), element_bytes=2, global_dims=(8, 12, 6),
                      box_dims=(8, 4, 2), interleave="16B", swizzle="32B", box_start=(0, 1, 1))


def _box_labels(fig):
    """The chunk numbers above the box grid and the x coordinates under it: (centre x, text)
    of each mono digit string, by row (top first)."""
    grid = next(g for g in walk(fig.items) if isinstance(g, Group) and g.name == "box-grid")
    cells = [row for i in walk(grid.items) if isinstance(i, Rects) for row in i.xywh]
    top = min(float(r[1]) for r in cells)
    bottom = max(float(r[1] + r[3]) for r in cells)
    above, below = [], []
    for t in walk(grid.items):
        if isinstance(t, Text) and t.text.isdigit() and t.font == "mono":
            x0, _, x1, _ = text_box(t)
            (above if t.y < top else below if t.y > bottom else []).append(
                (round((x0 + x1) / 2, 3), t.text))
    return above, below


@pytest.mark.parametrize("name", ["print", "screen", "presentation", "dark"])
def test_box_labels_its_chunks_alike_above_and_below(name):
    """Each chunk's number above the grid and its x coordinate under it stand at one place:
    centred on the chunk (the x labels stood at the chunks' edges, half a chunk left of the
    numbers they repeat under 16B interleave)."""
    for target in (SINGLE, SLIDE, figure.NATURAL):
        above, below = _box_labels(build(INTERLEAVED, "box", target=target, t=theme(name)))
        assert len(above) == 8 and [t for _, t in below] == [str(k) for k in range(8)]
        assert [x for x, _ in above] == pytest.approx([x for x, _ in below], abs=1e-6)


@pytest.mark.parametrize("name", ["print", "screen", "presentation", "dark"])
def test_box_legend_shows_every_chunk_tint_it_draws(name):
    """The legend names what the eight tints mean: a numbered swatch for each chunk column,
    the tints the box draws among them (one swatch stood for eight colours)."""
    t = theme(name)
    fig = build(INTERLEAVED, "box", t=t)
    grid = next(g for g in walk(fig.items) if isinstance(g, Group) and g.name == "box-grid")
    drawn = {i.style.fill for i in walk(grid.items) if isinstance(i, Rects)}
    key = next(g for g in walk(fig.items) if isinstance(g, Group)
               and g.name == f"legend:{tma_space.CHUNK_LABEL}")
    swatches = [i for i in walk(key.items) if isinstance(i, Rect)]
    numbers = [i.text for i in walk(key.items) if isinstance(i, Text) and i.text.isdigit()]
    assert len(drawn) == 8
    assert drawn <= {s.style.fill for s in swatches}
    assert numbers == [str(k) for k in range(8)]
