"""The shuffle reduction tree: one row per level, one column per lane.

Each level's active prefix (the lanes that hold current partial sums) is drawn solid, the
suffix that only keeps historic values is faded, and the shuffles feeding a level are drawn as
lines from the source lane above. Values that are undefined (a read from outside the mask, or of
an uninitialised shared entry) are hatched and shown as "?". Selecting a partial outlines its
contributor set: the input cells and every partial beneath it in the tree. At block scope the
warp partials and the 32 shared entries the final warp reads are drawn above its tree.

Keys: ``lane:<l>`` (a column header), ``partial:<level>,<lane>`` (one cell of the tree),
``warp:<w>`` (a warp's partial at block scope), ``shared:<i>`` (a shared-memory entry).
Selection may carry ``frame:<n>``: levels after n are faded (warp scope: n = level shown;
block scope: 0 inputs, 1 warp partials stored, 2 + k final level k).
"""

from __future__ import annotations

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, text_width, wrap_text
from gpuviz.figures.plot import format_tick
from gpuviz.figures.theme import Theme
from gpuviz.models.reduction import WARP, ReductionResult

WIDTH = 170.0
LEFT = 26.0
MAX_WIDTH = 180.0
RIGHT = 3.0
CELL_H = 4.2
GAP = 4.5
FUTURE_OPACITY = 0.22


def frame_count(result: ReductionResult) -> int:
    levels = len(result.levels)
    return levels + 2 if result.contributor_unit == "warp" else levels


def frame_of(selection: frozenset[str]) -> int | None:
    """The playback frame carried by the selection; the earliest if several are present."""
    frames = [int(k[6:]) for k in selection if k.startswith("frame:") and k[6:].isdigit()]
    return min(frames) if frames else None


def _fmt(v: float | None) -> str:
    if v is None:
        return "?"
    return format_tick(v).replace("\u2009", "")


def build(result: ReductionResult, selection: frozenset[str], theme: Theme) -> Figure:
    c = Canvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = theme.small_pt
    block = result.contributor_unit == "warp"
    frame = frame_of(selection)
    last = frame_count(result) - 1
    frame = last if frame is None else max(0, min(frame, last))
    level_shown = frame - 2 if block else frame  # final-tree levels visible

    title_y = 2.0 + theme.title_pt * PT_TO_MM
    pattern = ("__shfl_xor_sync butterfly" if result.active_prefix[-1] == WARP
               else "__shfl_down_sync")
    scope = f"block of {result.warps} warps" if block else "one warp"
    c.text(1.0, title_y, f"Reduction: {pattern}, {scope}", theme.title_pt, fg, bold=True)
    caption_y = title_y + small * PT_TO_MM + 1.5
    caption = ("lanes below the offset add the value of lane + offset; the faded suffix keeps "
               "historic values" if pattern == "__shfl_down_sync" else
               "lanes l and l xor offset exchange and add; every lane stays active")
    c.text(1.0, caption_y, f"Offsets 16, 8, 4, 2, 1: {caption}", small, muted)

    # Cells hold three digits at the theme's value size; a large-type theme widens the figure.
    value_pt = small * 0.85
    cell_w = max((WIDTH - LEFT - RIGHT) / WARP, text_width("000", value_pt, "mono") + 0.5)
    cell_w = min(cell_w, (MAX_WIDTH - LEFT - RIGHT) / WARP)
    width = LEFT + RIGHT + WARP * cell_w
    y = caption_y + 5.0

    shared_y = None
    if block:
        y = _block_stage(c, result, theme, y, cell_w, frame, selection)
        shared_y = y - CELL_H - GAP - 1.0

    # Lane numbers.
    with c.group(name="lanes"):
        for lane in range(WARP):
            c.text(LEFT + (lane + 0.5) * cell_w, y, str(lane), small * 0.85, muted,
                   anchor="middle", key=f"lane:{lane}")
    c.text(1.0, y, "lane", small * 0.9, muted)
    y += 1.2

    levels = result.levels
    row_y = [y + k * (CELL_H + GAP) for k in range(len(levels))]
    undefined_cells = {(k, lane) for k, row in enumerate(levels) for lane, v in enumerate(row)
                       if v is None}
    buckets: dict[tuple[str, bool], tuple[list, list]] = {}
    for k in range(len(levels)):
        active = result.active_prefix[k]
        for lane in range(WARP):
            if (k, lane) in undefined_cells:
                role = "warn"
            elif lane < active:
                role = "owned" if k == 0 else "active"
            else:
                role = "faded"
            future = k > level_shown
            bucket = buckets.setdefault((role, future), ([], []))
            bucket[0].append((LEFT + lane * cell_w + 0.15, row_y[k], cell_w - 0.3, CELL_H))
            bucket[1].append(f"partial:{k},{lane}")
    with c.group(name="tree"):
        for (role, future), (xywh, keys) in sorted(buckets.items()):
            style = _cell_style(theme, role)
            c.rects(xywh, theme.faded(style, FUTURE_OPACITY) if future else style, keys)
        for k in range(len(levels)):
            label = "input" if k == 0 else f"offset {result.offsets[k - 1]}"
            if block and k == 0:
                label = "shared read"
            c.text(1.0, row_y[k] + CELL_H / 2, label, small, fg, baseline="middle")
        # Shuffle lines from the source lane above.
        for k in range(1, len(levels)):
            off = result.offsets[k - 1]
            segs = []
            for lane in range(result.active_prefix[k]):
                src = lane ^ off if result.active_prefix[k] == WARP else lane + off
                segs.append((LEFT + (src + 0.5) * cell_w, row_y[k - 1] + CELL_H + 0.2,
                             LEFT + (lane + 0.5) * cell_w, row_y[k] - 0.2))
            style = theme.stroke("muted", theme.thin_mm)
            c.segments(segs, theme.faded(style, FUTURE_OPACITY) if k > level_shown else style)
    with c.group(name="values"):
        for k, row in enumerate(levels):
            for lane, v in enumerate(row):
                if text_width(_fmt(v), value_pt, "mono") > cell_w - 0.3:
                    continue  # too wide for its cell: the detail line and receipt carry it
                historic = lane >= result.active_prefix[k] or k > level_shown
                c.text(LEFT + (lane + 0.5) * cell_w, row_y[k] + CELL_H / 2, _fmt(v),
                       value_pt, muted if historic else fg, anchor="middle",
                       baseline="middle", font="mono", key=f"partial:{k},{lane}")

    # Selected partial: its contributor set outlined through the tree.
    y = row_y[-1] + CELL_H + 5.0
    hl = theme.highlight()
    detail = None
    for key in sorted(selection):
        kind, _, value = key.partition(":")
        if kind == "partial":
            try:
                k, lane = (int(p) for p in value.split(","))
            except ValueError:
                continue
            if not (0 <= k < len(levels) and 0 <= lane < WARP):
                continue
            members = set(result.contributors[k][lane])
            cells = []
            for j in range(k + 1):
                for m in range(min(result.active_prefix[j], WARP)):
                    s = set(result.contributors[j][m])
                    if s and s <= members:
                        cells.append((LEFT + m * cell_w, row_y[j] - 0.2, cell_w, CELL_H + 0.4))
            c.rects(cells, Style(stroke=theme.accent, stroke_width=theme.line_mm), None)
            c.rect(LEFT + lane * cell_w, row_y[k] - 0.2, cell_w, CELL_H + 0.4, hl, key=key)
            unit = "warp partials" if block else "inputs"
            detail = (f"partial at level {k}, lane {lane} = {_fmt(levels[k][lane])}: "
                      f"{len(members)} {unit} {_ranges(sorted(members))}")
        elif kind == "lane" and value.isdigit() and int(value) < WARP:
            lane = int(value)
            c.rect(LEFT + lane * cell_w, row_y[0] - 0.2, cell_w,
                   row_y[-1] + CELL_H + 0.4 - row_y[0], hl, key=key)
        elif kind == "shared" and value.isdigit() and shared_y is not None and int(value) < WARP:
            i = int(value)
            c.rect(LEFT + i * cell_w, shared_y - 0.2, cell_w, CELL_H + 0.4, hl, key=key)

    # Result, flags and float32 receipt.
    verdict_role = "ok" if result.correct else "warn"
    c.rect(1.0, y - 2.6, 2.6, 2.6, theme.fill(verdict_role))
    head = (f"lane 0 holds {_fmt(result.result)}" if result.result is not None
            else "lane 0's result is undefined")
    c.text(4.6, y, f"{head}   (exact sum {_fmt(result.exact_sum)})", theme.text_pt, fg,
           bold=True)
    for flag in result.flags:
        for line in wrap_text(flag, small, width - RIGHT - 4.6):
            y += small * PT_TO_MM + 1.3
            c.text(4.6, y, line, small, fg)
    if detail:
        y += small * PT_TO_MM + 1.3
        c.text(4.6, y, detail, small, theme.accent)
    y += small * PT_TO_MM + 1.3
    order = ("differ" if result.order_dependent else "agree")
    c.text(4.6, y, f"float32: tree order {_fmt(result.float32_tree_sum)}, left to right "
                   f"{_fmt(result.float32_sequential_sum)}: the two orders {order}", small,
           fg if result.order_dependent else muted, font="mono")

    # Legend.
    y += small * PT_TO_MM + 3.5
    lx = 4.6
    with c.group(name="legend"):
        for label, role in (("input owner", "owned"), ("current partial (active prefix)",
                                                        "active"),
                            ("historic value (faded suffix)", "faded"), ("undefined", "warn")):
            need = 3.4 + text_width(label, small) + 3.0
            if lx + need > width - RIGHT:
                lx, y = 4.6, y + small * PT_TO_MM + 2.0
            c.rect(lx, y - 2.6, 2.6, 2.6, _cell_style(theme, role))
            c.text(lx + 3.4, y, label, small, fg)
            lx += need
    return c.figure(width, y + 3.0, theme.background, title="Reduction tree",
                    description=f"result {_fmt(result.result)}")


def _cell_style(theme: Theme, role: str) -> Style:
    base = theme.fill(role)
    if role == "active":
        return theme.faded(base, 0.45)
    if role == "warn":
        # Hatched where the theme hatches warnings (print); the "?" marks it everywhere.
        return Style(fill=theme.mix(theme.color("warn"), 0.7), stroke=theme.outline,
                     stroke_width=theme.thin_mm, hatch=base.hatch, hatch_color=base.hatch_color)
    return base


def _block_stage(c: Canvas, result: ReductionResult, theme: Theme, y: float, cell_w: float,
                 frame: int, selection: frozenset[str]) -> float:
    """Warp partials, then the 32 shared entries the final warp reads. Returns the next y."""
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = theme.small_pt
    c.text(1.0, y + CELL_H / 2, "warp partials", small, fg, baseline="middle")
    box_w = min(18.0, WARP * cell_w / max(1, result.warps))
    fits = box_w >= 9.0
    with c.group(name="warp partials"):
        for w, v in enumerate(result.warp_partials):
            style = theme.faded(theme.fill("active"), 0.45 if frame >= 1 else FUTURE_OPACITY)
            c.rect(LEFT + w * box_w + 0.2, y, box_w - 0.4, CELL_H, style, key=f"warp:{w}")
            if fits:
                c.text(LEFT + (w + 0.5) * box_w, y + CELL_H / 2,
                       f"w{w}: {_fmt(v)}" if frame >= 1 else f"warp {w}", small * 0.85,
                       fg if frame >= 1 else muted, anchor="middle", baseline="middle",
                       font="mono", key=f"warp:{w}")
    hl = theme.highlight()
    for key in sorted(selection):
        kind, _, value = key.partition(":")
        if kind == "warp" and value.isdigit() and int(value) < result.warps:
            c.rect(LEFT + int(value) * box_w, y - 0.2, box_w, CELL_H + 0.4, hl, key=key)
    y += CELL_H + GAP + 1.0
    c.text(1.0, y + CELL_H / 2, "shared entries", small, fg, baseline="middle")
    entries = result.shared_partials
    with c.group(name="shared entries"):
        for i, v in enumerate(entries):
            if v is None:
                role = "warn"
            elif i < result.warps:
                role = "active"
            else:
                role = "absent"
            style = _cell_style(theme, role)
            if frame < 1:
                style = theme.faded(style, FUTURE_OPACITY)
            c.rect(LEFT + i * cell_w + 0.15, y, cell_w - 0.3, CELL_H, style, key=f"shared:{i}")
            fits = text_width(_fmt(v), small * 0.85, "mono") <= cell_w - 0.3
            if fits and frame >= 1:
                c.text(LEFT + (i + 0.5) * cell_w, y + CELL_H / 2, _fmt(v), small * 0.85,
                       fg if i < result.warps else muted, anchor="middle", baseline="middle",
                       font="mono", key=f"shared:{i}")
    barrier_y = y + CELL_H + 2.2
    style = theme.stroke("accent", theme.line_mm, dash=(0.8, 0.5))
    c.line(LEFT, barrier_y, LEFT + WARP * cell_w, barrier_y,
           style if frame >= 2 else theme.faded(style, FUTURE_OPACITY))
    c.text(1.0, barrier_y + 0.9, "block barrier", small, theme.accent if frame >= 2 else muted)
    return barrier_y + 5.5


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
