"""The mma figure: each part alone at single column (85 mm) passes the lint and carries the keys a
user points at; a selected lane is outlined in every operand and spelled out."""

from __future__ import annotations

import itertools

import pytest

from gpuviz.figures import mma as figure
from gpuviz.figures.display import Rect, Rects, Text, text_box, walk
from gpuviz.figures.lint import legend_marks, lint
from gpuviz.figures.targets import NATURAL, SINGLE, SLIDE
from gpuviz.figures.theme import theme
from gpuviz.models import mma

KEYS = {"fragment-a": ("a:9,3",), "fragment-b": ("b:15,7",), "fragment-c": ("c:9,3",), "feed": ("lane:31", "chunk:3,7"),
        "warpgroup": ("warp:3",), "descriptor": ("core:15,1",), "completion": ("step:0",),
        "hierarchy": ("tile:1,1",)}


@pytest.mark.parametrize("part", mma.PARTS)
def test_each_part_exports_legibly_at_single_column(part):
    r = mma.compute(mma.MmaParams(show=(part,), lane=5))
    fig = figure.build(r, frozenset({"c:9,3"}), theme("print"), SINGLE)
    assert fig.width == 85.0 and fig.height <= 120.0, (part, fig.height)
    assert not lint(fig, SINGLE)
    assert set(KEYS[part]) <= set(fig.keys())


@pytest.mark.parametrize("part", mma.PARTS)
def test_each_part_fits_a_single_column_in_the_largest_type(part):
    fig = figure.build(mma.compute(mma.MmaParams(show=(part,))), frozenset(),
                       theme("presentation"), SINGLE.showing([part]))
    assert fig.height <= 120.0, (part, fig.height)
    assert not lint(fig, SINGLE.showing([part]), budget=True)


def test_a_selected_lane_is_outlined_in_a_b_and_c_and_spelled_out():
    r = mma.compute(mma.MmaParams(lane=5))
    th = theme("screen")
    fig = figure.build(r, frozenset(), th, SINGLE)
    outlined = [i for i in walk(fig.items) if isinstance(i, Rect) and i.style == th.highlight()]
    assert len(outlined) == 8 + 4 + 4  # lane 5 holds 8 elements of A, 4 of B, 4 of C
    texts = fig.texts()
    assert any("c2–c3 [9][2–3]" in t for t in texts)  # groupID 1, threadID_in_group 1


def test_the_wide_k32_operand_folds_into_a_single_column():
    r = mma.compute(mma.MmaParams(shape="m16n8k32", dtype="s8", accumulator="s32"))
    fig = figure.build(r, frozenset(), theme("print"), SINGLE)
    assert not lint(fig, SINGLE)
    assert {"a:15,31", "b:31,7"} <= set(fig.keys())


def test_the_warpgroup_slide_keeps_its_receipt_clear_of_the_drawing():
    r = mma.compute(mma.MmaParams(show=("warpgroup",)))
    target = SLIDE.showing(["warpgroup"])
    fig = figure.build(r, frozenset(), theme("presentation"), target)
    assert not lint(fig, target, budget=True)


def test_each_bank_group_of_the_core_matrices_has_its_own_tint():
    """The note says eight tints, one per 16-byte bank group: four tints repeated drew rows 0
    and 4 of a core matrix alike."""
    r = mma.compute(mma.MmaParams(show=("descriptor",)))
    fills: dict[int, set[str]] = {}
    for item in walk(figure.build(r, frozenset(), theme("print"), SINGLE).items):
        if isinstance(item, Rect) and (item.key or "").startswith("core:"):
            row, chunk = (int(v) for v in item.key.split(":")[1].split(","))
            cm = next(m for m in r.warpgroup.b_core_matrices
                      if m.chunk == chunk and m.group == row // 8)
            fills.setdefault(cm.row_addresses[row % 8] // 16 % 8, set()).add(item.style.fill)
    assert sorted(fills) == list(range(8))
    assert all(len(f) == 1 for f in fills.values())
    assert len({next(iter(f)) for f in fills.values()}) == 8


@pytest.mark.parametrize("theme_name", ["print", "dark"])
def test_a_descriptor_slide_states_each_field_once(theme_name):
    """The fields stand beside the core matrices where there is room; the side of a slide is
    built at another width, where they must not appear a second time."""
    target = SLIDE.showing(["descriptor"])
    fig = figure.build(mma.compute(mma.MmaParams(show=("descriptor",))), frozenset(),
                       theme(theme_name), target)
    starts = [t for t in fig.texts() if t.lstrip().startswith("start address")]
    assert len(starts) == 1, starts


def test_column_indices_of_a_fragment_never_run_together():
    """At 9 pt in a column, "10111213" read as one number: every other index then."""
    t = theme("presentation")
    fig = figure.build(mma.compute(mma.MmaParams(show=("fragment-a",))), frozenset(), t,
                       SINGLE.showing(["fragment-a"]))
    first_row = min(i.y for i in walk(fig.items) if isinstance(i, Text) and i.text == "0"
                    and i.color == t.muted)
    heads = sorted(text_box(i) for i in walk(fig.items) if isinstance(i, Text)
                   and i.color == t.muted and abs(i.y - first_row) < 1e-6)
    assert len(heads) >= 8
    assert all(b[0] - a[2] >= 0.5 for a, b in itertools.pairwise(heads))


def _texts_by_key(fig) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for item in walk(fig.items):
        if isinstance(item, Text) and item.key:
            out.setdefault(item.key, []).append(item.text)
    return out


def test_a_print_fragment_names_each_cells_register_in_the_cell():
    """In print four register grays under the lane numbers read as one or two grays (and a
    pattern would read as part of a number): the cells name lane and register (A's row 8,
    columns 0 and 1 are lane 0's register 1, the PTX ISA's a2 and a3: "0" beside "r1"); B's
    registers run down its columns: the lane over them. Every cell prints (on a slide, one
    name a run of two left half the cells without a value)."""
    r = mma.compute(mma.MmaParams(show=("fragment-a", "fragment-b")))
    fig = figure.build(r, frozenset(), theme("print"), SINGLE)
    texts = _texts_by_key(fig)
    assert texts["a:8,0"] == ["0"] and texts["a:8,1"] == ["r1"]  # a run of two: side by side
    assert texts["a:0,8"] == ["0"] and texts["a:0,9"] == ["r2"]
    assert texts["b:0,0"] == ["0"] and texts["b:1,0"] == ["r0"] and texts["b:9,0"] == ["r1"]
    # B's two cells of one register outlined as one, as A's run of two columns is
    b_cells = [r for i in walk(fig.items) if isinstance(i, Rects) and i.keys
               and i.keys[0].startswith("b:") for r in i.xywh]
    outlines = [r for i in walk(fig.items) if isinstance(i, Rects) and not i.keys
                and i.style.fill is None and i.style.stroke for r in i.xywh]
    assert any(h > 1.9 * max(r[3] for r in b_cells) for *_, h in outlines)
    assert not [label for label in legend_marks(fig) if label.startswith("register")]
    assert not lint(fig, SINGLE, 1.0, theme("print"))
    slide = figure.build(r, frozenset(), theme("print"), SLIDE)
    assert not [f for f in lint(slide, SLIDE, 1.0, theme("print")) if f.rule == "missing-value"]
    # on a screen the tint tells the register: the lane alone
    screen = _texts_by_key(figure.build(r, frozenset(), theme("screen"), SINGLE))
    assert screen["a:8,0"] == ["0"]


#: A feed's bank conflict, an invalid warpgroup and a hazard read of D in one figure
THREE_BAD = mma.MmaParams(
    shape="m16n8k32", dtype="s8", accumulator="s32", lane=30,
    show=("fragment-b", "feed", "warpgroup", "completion"),
    feed=mma.MmaFeed(op="stmatrix", operand="a", matrices=2, trans=True, layout="swizzled",
                     row_elements=280, padding=24, swizzle="64B"),
    warpgroup=mma.MmaWarpgroup(n=8, first_warp=3, block_warps=19, a_source="registers",
                               swizzle="128B", k_steps=4, start_address=2864,
                               leading_byte_offset=6960, stride_byte_offset=3344, stages=4,
                               wait_pending=1))


@pytest.mark.parametrize("theme_name", ["screen", "print", "dark"])
def test_bad_states_of_several_parts_share_one_legend_entry(theme_name):
    """A conflict, a hazard and an invalid warpgroup are each a bad state, one vermillion:
    three legend entries drew three meanings with one mark; one entry names them once."""
    r = mma.compute(THREE_BAD)
    th = theme(theme_name)
    fig = figure.build(r, frozenset(), th, NATURAL)
    marks = legend_marks(fig)
    bad = [label for label in marks if label.startswith("a bad state")]
    assert bad == ["a bad state: a bank conflict, warps that are not a warpgroup, a hazard "
                   "read of D"]
    assert len(marks[bad[0]]) == 1  # in the first such part's legend, not in each
    assert not [label for label in marks if "(hazard)" in label or "(conflict)" in label]
    assert not [f for f in lint(fig, NATURAL, 1.0, th) if f.rule in ("legend", "swatch")]
    # a part alone keeps its own words
    alone = figure.build(r, frozenset(), th, NATURAL.showing(["completion"]))
    assert "D read while a group may still write it (hazard)" in legend_marks(alone)


def test_a_descriptor_too_long_for_the_room_beside_the_core_matrices_goes_under_them():
    """On a slide the hexadecimal descriptor beside the core matrices ran into the note."""
    r = mma.compute(mma.MmaParams(
        shape="m16n8k8", dtype="tf32", accumulator="f32", lane=8, show=("descriptor",),
        warpgroup=mma.MmaWarpgroup(n=256, first_warp=14, block_warps=31, a_source="registers",
                                   swizzle="128B", k_steps=2, start_address=4864, stages=2,
                                   wait_pending=0)))
    th = theme("presentation")
    fig = figure.build(r, frozenset(), th, SLIDE)
    assert not [f for f in lint(fig, SLIDE, 1.0, th) if f.rule in ("overlap", "crossing")]


def test_print_bad_cells_keep_their_pattern_to_a_band_clear_of_the_number():
    """A bad warp's, a conflict's and a hazard's cross-hatch beside or just over its number
    read as "X3X": in print the pattern keeps to a band along the cell's bottom edge, every
    text at least 0.5 mm from it."""
    th = theme("print")
    fig = figure.build(mma.compute(THREE_BAD), frozenset(), th, SINGLE)
    hatched = [r for i in walk(fig.items) if isinstance(i, (Rect, Rects)) and i.style.hatch
               for r in ([(i.x, i.y, i.w, i.h)] if isinstance(i, Rect) else i.xywh)]
    assert hatched
    texts = [text_box(t) for t in walk(fig.items) if isinstance(t, Text) and t.text.strip()]
    near = [(b, (x, y, w, h)) for x, y, w, h in hatched for b in texts
            if b[0] < x + w + 0.5 and b[2] > x - 0.5 and b[1] < y + h + 0.5 and b[3] > y - 0.5]
    assert not near, near[:3]
