"""The shuffle reduction tree: one track per level, one cell per lane.

Each level's active prefix (the lanes that hold current partial sums) is drawn solid, the
suffix that only keeps historic values is faded, and the shuffles feeding a level are drawn as
lines from the source lane. Values that are undefined (a read from outside the mask, or of an
uninitialised shared entry) are hatched and shown as "?". Selecting a partial outlines its
contributor set: the input cells and every partial beneath it in the tree. At block scope the
warp partials and the 32 shared entries the final warp reads are drawn before its tree.

The grid (:mod:`gpuviz.figures.reduction_tree`): where the 32 lanes fit the width side by side,
levels run down the page; where they do not, lanes run down and levels across, folded to 16
rows in a sized target (lanes 16–31 beside lanes 0–15 where they hold values of their own).
Parts: "tree" (the grid and its legend), "block" (the warp partials at block scope),
"receipt" (the result, the two float32 orders, a selected partial's contributors).

Keys: ``lane:<l>`` (a lane's label), ``partial:<level>,<lane>`` (one cell of the tree),
``warp:<w>`` (a warp's partial at block scope), ``shared:<i>`` (a shared-memory entry).
Selection may carry ``frame:<n>``: levels after n are faded (warp scope: n = level shown;
block scope: 0 inputs, 1 warp partials stored, 2 + k final level k).
"""

from __future__ import annotations

import re

from gpuviz.figures.display import Figure
from gpuviz.figures.layout import (
    MARGIN,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Shortened,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    legend_block,
    line_step,
    receipt_block,
    shortened_note,
    table_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, text_width
from gpuviz.figures.reduction_fold import fold_note
from gpuviz.figures.reduction_styles import cell_style, contributor_style, own_style
from gpuviz.figures.reduction_tree import (
    FUTURE_OPACITY,
    PAD,
    State,
    cell_h,
    fmt,
    tracks,
    tree,
    value_w,
    wide_need,
)
from gpuviz.figures.theme import Theme
from gpuviz.keys import frame_of, key, numbers, of_kind
from gpuviz.models.reduction import WARP, ReductionResult


def frame_count(result: ReductionResult) -> int:
    levels = len(result.levels)
    return levels + 2 if result.contributor_unit == "warp" else levels


def build(result: ReductionResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    block = result.contributor_unit == "warp"
    frame = frame_of(selection)
    last = frame_count(result) - 1
    frame = last if frame is None else max(0, min(frame, last))
    st = State(result, selection, theme, target, block, frame, frame - 2 if block else frame)

    pattern = ("__shfl_xor_sync butterfly" if result.active_prefix[-1] == WARP
               else "__shfl_down_sync")
    scope = f"block of {counted(result.warps, 'warp')}" if block else "one warp"
    caption = ("a lane below the offset adds lane + offset's value; the faded lanes keep "
               "theirs" if pattern == "__shfl_down_sync" else
               "lanes l and l xor offset exchange and add; every lane stays active")
    shortened: list[Shortened] = []

    def body(width: float) -> list[Block]:
        blocks = []
        if block:
            blocks.append(as_part("block", _warp_partials(st, width)))
        blocks.append(as_part("tree", tree(st, width)))
        shortened[:] = [p for b in blocks if target.shows(*b.parts) for p in b.shortened]
        return blocks

    def side(width: float) -> list[Block]:
        return [_legend(st, width, shortened),
                *(as_part("receipt", b) for b in _receipt(st, width))]

    need = wide_need(st, theme.small_pt)
    return compose(target, theme, title=_title(pattern, scope, result, theme, target),
                   subtitle=f"Offsets 16, 8, 4, 2, 1: {caption}.", body=body, side=side,
                   natural_width=min(200.0, max(150.0, need)), figure_title="Reduction tree",
                   description=f"A {pattern} reduction over {'a ' * block}{scope}, partial sums level by "
                               f"level, with the result {fmt(result.result)}.")


def _title(pattern: str, scope: str, r: ReductionResult, theme: Theme, target: Target) -> str:
    """"Reduction: <pattern>, <scope>", or in a column where that wraps, the first shorter form
    that keeps to one line ("Sum by __shfl_down_sync, 4 warps"): a line less for the tree."""
    title = f"Reduction: {pattern}, {scope}"
    if target.kind != "column":
        return title
    short = counted(r.warps, "warp") if r.contributor_unit == "warp" else scope
    room = target.width_mm - 2 * MARGIN
    return next((t for t in (title, f"Sum by {pattern}, {scope}", f"Sum by {pattern}, {short}",
                             f"{pattern}, {short}")
                 if len(wrap(t, theme.title_pt, room, bold=True)) == 1), title)


def _warp_partials(st: State, width: float) -> Block:
    """Each warp's partial (lane 0 of its tree), flowed in rows, before the shared entries."""
    theme, r = st.theme, st.result
    pt = theme.small_pt
    fg, muted = theme.color("foreground"), theme.color("muted")
    c = BlockCanvas()
    title = wrap("warp partials (lane 0 of each warp, stored to shared memory)", pt, width)
    for i, line in enumerate(title):
        c.text(0.0, cap_height(pt) + i * line_step(pt), line, pt, fg)
    ch = cell_h(pt)
    texts = [f"w{w}: {fmt(v)}" if st.frame >= 1 else f"warp {w}"
             for w, v in enumerate(r.warp_partials)]
    box_w = max(value_w(t, pt) for t in texts) + 1.0
    box_w = min(box_w, width)
    per_row = max(1, int((width + 0.4) // (box_w + 0.4)))
    top = cap_height(pt) + (len(title) - 1) * line_step(pt) + 1.5
    style = cell_style(theme, "active")
    if st.frame < 1:
        style = theme.faded(style, FUTURE_OPACITY)
    chosen = numbers(st.selection, "warp")
    bottom = top
    for w, text in enumerate(texts):
        x = (w % per_row) * (box_w + 0.4)
        y = top + (w // per_row) * (ch + 0.6)
        c.rect(x, y, box_w, ch, style, key=key("warp", w))
        c.value(x, y, box_w, ch, text, pt, fg if st.frame >= 1 else muted,
                floor=min(pt, st.target.min_pt), key=key("warp", w), pad=PAD)
        if w in chosen:
            theme.select(c, x - 0.2, y - 0.2, box_w + 0.4, ch + 0.4, key=key("warp", w))
        bottom = y + ch
    used = min(width, max(max(text_width(t, pt) for t in title),
                          min(len(texts), per_row) * (box_w + 0.4) - 0.4))
    return c.block(used, bottom + 0.2, "warp partials")


def _legend(st: State, width: float, shortened: list[Shortened]) -> Block:
    theme, r = st.theme, st.result
    grid = ("tree",)  # the warp partials (part "block") are current partials only
    entries = [LegendEntry("input", cell_style(theme, "owned"), parts=grid),
               LegendEntry("current partial", cell_style(theme, "active"),
                           parts=("tree", "block"))]  # the receipt draws no cell
    # an entry for each kind of cell the tree drew (a butterfly keeps every lane active; a
    # folded block tree may draw no entry that no warp stores to)
    drawn = set(st.roles)
    if "faded" in drawn:
        entries.append(LegendEntry("historic value", cell_style(theme, "faded"), parts=grid))
    if "absent" in drawn:
        entries.append(LegendEntry("entry no warp stores to", cell_style(theme, "absent"),
                                   parts=grid))
    if "warn" in drawn:
        entries.append(LegendEntry("undefined value (?)", cell_style(theme, "warn"), parts=grid))
    entries.append(LegendEntry("+ value shuffled in",
                               theme.stroke("muted", theme.thin_mm), "line", parts=grid))
    entries.append(LegendEntry("+ own value", own_style(theme), "line", parts=grid))
    if st.block:
        entries.append(LegendEntry("block barrier (__syncthreads)",
                                   theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5)),
                                   "line", parts=grid))
    if any(k.split(":")[0] in ("partial", "lane", "shared", "warp") for k in st.selection):
        entries.append(LegendEntry("selected", theme.highlight(), "selection"))
    if any(k.startswith("partial:") for k in st.selection):
        entries.append(LegendEntry("its contributors", contributor_style(theme)))
    notes: list[Note] = []
    if st.folded:
        notes.append((fold_note(st, tracks(st)), grid))
    if st.frame < frame_count(r) - 1:
        notes.append("Faded tracks are still to come: their values appear as the steps "
                     "compute them.")
    note = shortened_note(shortened)
    powers = [short for _, short, _ in shortened if "e" in short]
    if note and powers and not note.startswith("Shortened to fit:"):
        # the rule names 2ⁿ and k, M, G; a value shortened to a power of ten is rounded too
        note += f" {powers[0]} = {_power_text(powers[0])}, rounded."
    if note:
        notes.append(note)
    target = st.target
    if target.parts is not None and len(target.parts) == 1 and target.chrome == "full":
        # a part alone: its notes run on as one paragraph (no gap between paragraphs)
        notes = [" ".join(n if isinstance(n, str) else n[0] for n in notes
                          if isinstance(n, str) or target.shows(*n[1]))] if notes else []
    return legend_block(entries, theme, width, notes=notes, target=target)


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power_text(short: str) -> str:
    """``-4e29`` as ``-4 × 10²⁹``."""
    mantissa, _, exponent = short.partition("e")
    return f"{mantissa} × 10{exponent.translate(_SUPERSCRIPT)}"


def _receipt(st: State, width: float) -> list[Block]:
    theme, r = st.theme, st.result
    head = (f"{fmt(r.result)}" if r.result is not None else "undefined")
    if st.frame < frame_count(r) - 1:  # the sum is lane 0's only after the last level
        head = "its sum, after the last level"
    order = "differ" if r.order_dependent else "agree"
    rows: list[str | tuple[str, str]] = [
        ("lane 0 holds", head + ("" if r.correct or r.result is None
                                 or st.frame < frame_count(r) - 1 else "  ≠ exact sum")),
        ("exact sum", fmt(r.exact_sum)),
        ("float32, tree order", fmt(r.float32_tree_sum)),
        ("float32, left to right", fmt(r.float32_sequential_sum)),
        ("the two orders", order),
    ]
    out = [receipt_block(rows, theme, width, title="Result")]
    for flag in r.flags:  # a table: each clause of the model's flag a row of its own
        clauses = _grouped(flag).split("; ")
        out.append(table_block(["", ""], [["flagged" if i == 0 else "", clause]
                                          for i, clause in enumerate(clauses)],
                               theme, width, name="flag"))
    for k, lane in of_kind(st.selection, "partial", 2):
        if 0 <= k < len(r.levels) and 0 <= lane < WARP:
            members = sorted(r.contributors[k][lane])
            unit = "warp partials" if st.block else "inputs"
            out.append(table_block(["", ""], [
                [f"partial at level {k}, lane {lane}",
                 f"{fmt(r.levels[k][lane])}: {len(members)} {unit} {_ranges(members)}"]],
                theme, width, name="detail"))
    return out


def _grouped(text: str) -> str:
    """The model's sentence with its long integers in the figure's one number format."""
    return re.sub(r"(?<![\d.,x])\d{4,}(?![\d.])", lambda m: format_number(int(m.group())), text)


def _ranges(values: list[int]) -> str:
    """{0–15, 17} style listing of sorted integers."""
    if not values:
        return "{}"
    parts, start, prev = [], values[0], values[0]
    for v in [*values[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else
                     (f"{start}, {prev}" if prev == start + 1 else f"{start}–{prev}"))
        if v is not None:
            start = prev = v
    return "{" + ", ".join(parts) + "}"
