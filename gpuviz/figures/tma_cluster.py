"""The ``tma`` figure's ``cluster`` part, drawn: the cluster's CTAs as a grid, what reaches
each CTA's shared memory, the bytes each full barrier expects (written once), and resident
clusters beside the naive count.

Each CTA's box holds its shared-memory destination as two strips, A and B, cut into the slices
that reach it, each numbered by the CTA whose copy brings it. Under multicast (CUDA C++
Programming Guide, "Thread Block Clusters"; PTX ISA ``cp.async.bulk.tensor`` ``.multicast``)
CTA x of a row issues slice x of the row's A to every CTA of the row and CTA y of a column
slice y of the column's B to every CTA of the column: arrows between the boxes show A running
along the rows and B along the columns. Every destination's full barrier is signalled by all the
copies that reach it, so it expects the whole A and B tiles, not the bytes its CTA issued.

Keys: ``cta:<rank>`` (a CTA's box; rank x + y·dim x).
"""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.display import Style
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    LegendEntry,
    counted,
    format_number,
    legend_block,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.mma_cells import heading, tagged
from gpuviz.figures.text_blocks import line_step, text_block, wrap
from gpuviz.figures.theme import RoleName, Theme
from gpuviz.figures.tma_barrier import A_GRAY, B_GRAY
from gpuviz.keys import key
from gpuviz.models.tma import TmaResult

PART = ("cluster",)
MAX_CELL = 36.0  # mm: a CTA's box is at most this wide
GAP = 4.4  # mm between boxes: room for the multicast arrows
GAP_Y = 3.6  # mm between rows of boxes: a shorter arrow, the rows held close
BAR_H = 3.0
MIN_SLICE = 1.0  # mm: the narrowest slice drawn (unnumbered)
SLICE_TINT = 0.55  # of the operand's colour over the ground


def expected_sentence(r: TmaResult) -> str:
    """The bytes each full barrier expects, with where they come from: the part's one number."""
    c = r.params.cluster
    a = c.a_bytes if c.a_bytes is not None else r.transaction_bytes
    b = c.b_bytes if c.b_bytes is not None else r.transaction_bytes
    return (f"Each full barrier expects {format_number(r.expected_tx_per_cta)} bytes: A "
            f"{format_number(a)} + B {format_number(b)}, from "
            f"{counted(r.copies_per_barrier, 'copy', 'copies')}")


def issued_sentence(r: TmaResult) -> str:
    c = r.params.cluster
    cx, cy = c.dims[0], c.dims[1]
    a = c.a_bytes if c.a_bytes is not None else r.transaction_bytes
    b = c.b_bytes if c.b_bytes is not None else r.transaction_bytes
    if not c.multicast:
        return (f"each CTA issues its own A and B, {format_number(r.issued_bytes_per_cta)} "
                f"bytes: its barrier expects what it issued")
    return (f"each CTA issues only {format_number(r.issued_bytes_per_cta)} bytes "
            f"({format_number(a // cx)} of A, {format_number(b // cy)} of B): expecting only "
            f"those completes the phase early, a stale read")


def slice_style(theme: Theme, operand: str) -> Style:
    """A slice of A or B: a tint of the operand's colour (apart from the ring's compute, which
    shares A's colour on screen); in print at a gray of its own (:data:`tma_barrier.A_GRAY`)."""
    role: RoleName = "a_operand" if operand == "A" else "b_operand"
    style = theme.fill(role)
    if theme.hatches:
        gray = A_GRAY if operand == "A" else B_GRAY
        return replace(style, fill=theme.at_gray(theme.color(role), gray))
    return replace(style, fill=theme.mix(theme.color(role), SLICE_TINT))


def legend(r: TmaResult, theme: Theme, width: float) -> list[LegendEntry]:
    """The marks the grid draws at this width: slices (numbered or in rank order) and arrows."""
    _gap, _w, layout, numbered = plan(r, theme, width)
    if not layout:
        return []
    order = "numbered by" if numbered else "left to right in rank order of"
    out = [LegendEntry(f"A slice, {order} the CTA whose copy brings it",
                       slice_style(theme, "A"), parts=PART),
           LegendEntry("B slice, likewise", slice_style(theme, "B"), parts=PART)]
    if r.params.cluster.multicast:
        out.append(LegendEntry("multicast: one copy reaches every CTA along the arrow",
                               theme.stroke("muted", theme.thin_mm), "line", parts=PART))
    return out


def rank_w(digits: str, size: float) -> float:
    """The room of a box's rank at its left, where its strips stand one above the other."""
    return text_width(digits, size, bold=True) + 1.2


def _strips(cell_w: float, a: int, b: int, size: float, digits: str) -> tuple[int, bool]:
    """How the A and B strips fit a box ``cell_w`` wide: 1 (side by side), 2 (one above the
    other), 0 (not at all: the box shows its rank only); and whether each slice has room for
    its issuer's rank (else the slices are drawn unnumbered, in rank order)."""
    label_w = text_width("B", size) + 1.0
    least = text_width(digits, size) + 0.5
    if (cell_w - 1.6 - 2 * label_w - 1.0) / (a + b) >= least:
        return 1, True
    stacked = (cell_w - 1.6 - label_w - rank_w(digits, size)) / max(a, b)
    if stacked >= MIN_SLICE:
        return 2, stacked >= least
    return 0, False


def plan(r: TmaResult, theme: Theme, width: float) -> tuple[float, float, int, bool]:
    """The gap between boxes, a box's width, how its strips fit (:func:`_strips`) and whether
    its slices are numbered."""
    cl = r.params.cluster
    cx, cy = cl.dims[0], cl.dims[1]
    a_n, b_n = (cx, cy) if cl.multicast else (1, 1)
    digits = format_number(cx * cy - 1)
    cell_w = min(MAX_CELL, (width - (cx - 1) * GAP) / cx)
    layout, numbered = _strips(cell_w, a_n, b_n, theme.small_pt, digits)
    if layout:
        return GAP, cell_w, layout, numbered
    return 1.0, min(MAX_CELL, (width - (cx - 1)) / cx), 0, False


def grid_block(r: TmaResult, theme: Theme, width: float) -> Block:
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    size = theme.small_pt
    cl = r.params.cluster
    cx, cy, cz = cl.dims[0], cl.dims[1], cl.dims[2]
    gap, cell_w, layout, numbered = plan(r, theme, width)
    vgap = min(gap, GAP_Y)
    line = line_step(size, 1.15)
    strip_h = ink_height(size) + 1.0
    label_w = text_width("B", size) + 1.0
    cell_h = {0: line + 1.0, 1: line + strip_h + 1.2, 2: 2 * strip_h + 1.6}[layout]
    rw = rank_w(format_number(cx * cy - 1), size)
    a_style, b_style = slice_style(theme, "A"), slice_style(theme, "B")
    box = Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.line_mm)
    arrow = theme.stroke("muted", theme.thin_mm)
    for y in range(cy):
        for x in range(cx):
            rank = x + y * cx
            bx, by = x * (cell_w + gap), y * (cell_h + vgap)
            k = key("cta", rank)
            with c.group(k, name=f"CTA {rank}"):
                c.rect(bx, by, cell_w, cell_h, box, key=k)
                name = next((t for t in (f"CTA {rank} ({x},{y})", f"CTA {rank}", str(rank))
                             if text_width(t, size, bold=True) <= cell_w - 1.0), str(rank))
                if layout == 2:  # the rank at the left, the strips beside it
                    c.text(bx + 0.6, by + cell_h / 2, str(rank), size, fg, bold=True,
                           baseline="middle", key=k)
                else:
                    c.text(bx + cell_w / 2 if layout == 0 else bx + 0.8,
                           by + 0.5 + cap_height(size), name, size, fg, bold=True,
                           anchor="middle" if layout == 0 else "start", key=k)
                if not layout:
                    continue
                inner = cell_w - 1.6
                strips = (("A", a_style, [y * cx + i for i in range(cx)] if cl.multicast
                           else [rank]),
                          ("B", b_style, [x + i * cx for i in range(cy)] if cl.multicast
                           else [rank]))
                for row, (label, style, issuers) in enumerate(strips):
                    if layout == 1:
                        sx0 = bx + 0.8 + row * (inner / 2 + 0.5)
                        sw_all = inner / 2 - 0.5 - label_w
                        sy = by + line + 0.4
                    else:
                        sx0 = bx + 0.8 + rw
                        sw_all = inner - label_w - rw
                        sy = by + 0.8 + row * (strip_h + 0.4)
                    c.text(sx0, sy + strip_h / 2, label, size, fg, baseline="middle")
                    sw = sw_all / len(issuers)
                    for i, who in enumerate(issuers):
                        sx = sx0 + label_w + i * sw
                        c.rect(sx, sy, sw, strip_h, style, key=k)
                        if numbered:
                            c.value(sx, sy, sw, strip_h, format_number(who), size,
                                    theme.ink_on(style.fill or fg), floor=size, font="sans",
                                    key=k)
    if cl.multicast and layout:
        ay = (line + 0.4 if layout == 1 else 0.8) + strip_h / 2
        for y in range(cy):  # A along each row: arrows across the gaps between boxes
            for x in range(cx - 1):
                x0 = (x + 1) * (cell_w + gap) - gap
                yy = y * (cell_h + vgap) + ay
                c.line(x0 + 0.2, yy, x0 + gap - 0.2, yy, arrow, arrow=True)
                c.line(x0 + gap - 0.2, yy, x0 + 0.2, yy, arrow, arrow=True)
        bxo = (cell_w * 0.75) if layout == 1 else (cell_w + rw) / 2
        for x in range(cx):  # B along each column
            for y in range(cy - 1):
                y0 = (y + 1) * (cell_h + vgap) - vgap
                xx = x * (cell_w + gap) + bxo
                c.line(xx, y0 + 0.2, xx, y0 + vgap - 0.2, arrow, arrow=True)
                c.line(xx, y0 + vgap - 0.2, xx, y0 + 0.2, arrow, arrow=True)
    height = cy * cell_h + (cy - 1) * vgap
    used = cx * cell_w + (cx - 1) * gap
    notes = []
    if cl.multicast and not layout:
        notes.append(f"too many CTAs to draw their slices: A runs along each row of {cx}, B "
                     f"along each column of {cy}")
    if cz > 1:
        notes.append(f"× {cz} layers along z, each the same")
    for note in notes:
        for ln in wrap(note, size, width):
            height += line_step(size)
            c.text(0.0, height - descent(size), ln, size, muted)
            used = max(used, text_width(ln, size))
    return c.block(min(width, used), height + descent(size) * 0.3, "cluster-grid")


def receipt(r: TmaResult, theme: Theme, width: float) -> Block:
    """The bytes each barrier expects (bold, once), what each CTA issues, and resident
    clusters by the model beside SMs × blocks per SM ÷ cluster size, as bars."""
    c = BlockCanvas()
    fg = theme.color("foreground")
    size, big = theme.small_pt, theme.text_pt
    y = 0.0
    used = 0.0
    for text, pt, bold in ((expected_sentence(r), big, True),
                           (issued_sentence(r)[0].upper() + issued_sentence(r)[1:] + ".", size,
                            False)):
        for ln in wrap(text, pt, width, bold=bold):
            c.text(0.0, y + cap_height(pt), ln, pt, fg, bold=bold,
                   key="cluster:expected" if bold else None)
            used = max(used, text_width(ln, pt, bold=bold))
            y += line_step(pt)
    y += 0.4
    rows = [("resident clusters (model)", r.max_active_clusters, theme.fill("resident")),
            ("naive: SMs × blocks ÷ size", r.max_active_clusters_naive, theme.fill("faded"))]
    label_w = max(text_width(t, size) for t, _, _ in rows) + 1.5
    num_w = max(text_width(format_number(v), size) for _, v, _ in rows) + 1.0
    room = max(8.0, min(width, 110.0) - label_w - num_w)
    top = max(v for _, v, _ in rows) or 1
    step = max(BAR_H, ink_height(size) + 0.6) + 0.5
    for i, (label, value, style) in enumerate(rows):
        yy = y + i * step
        c.text(0.0, yy + BAR_H / 2, label, size, fg, baseline="middle")
        w = room * value / top
        if w > 0:
            c.rect(label_w, yy, w, BAR_H, style)
        c.text(label_w + w + 0.8, yy + BAR_H / 2, format_number(value), size, fg,
               baseline="middle")
        used = max(used, label_w + w + num_w)
    return c.block(min(width, used), y + 2 * step - 0.5 + descent(size) * 0.3,
                   "cluster-receipt")


def _runs(groups: tuple[int, ...]) -> str:
    """18, 18, 16 × 5, 8, 2 × 4: each group's SMs, equal neighbours counted."""
    out: list[str] = []
    i = 0
    while i < len(groups):
        j = i
        while j < len(groups) and groups[j] == groups[i]:
            j += 1
        n = j - i
        out += [f"{groups[i]} × {n}"] if n > 2 else [str(groups[i])] * n
        i = j
    return ", ".join(out)


def groups_sentence(r: TmaResult) -> str:
    """How resident clusters are counted, from the groups of SMs the model packs them into."""
    rule = "n SMs hold ⌊n × blocks ÷ size⌋ clusters, none larger than n"
    cite = "(CUDA C++ Programming Guide, Thread Block Clusters)"
    if not r.cluster_groups:
        return f"Thread-block clusters need compute capability 9.0 {cite}: this chip has none."
    if r.cluster_groups_measured:
        cap = (f"; at most {r.cluster_blocks_per_sm} CTAs an SM"
               if r.cluster_blocks_per_sm < r.params.cluster.blocks_per_sm else "")
        return (f"A cluster runs in one GPC {cite}. Measured on an H100: GPCs of "
                f"{_runs(r.cluster_groups)} SMs; {rule}{cap}.")
    return (f"A cluster runs in one GPC {cite}: {rule}, the SMs spread evenly over "
            f"{len(r.cluster_groups)} GPCs (an estimate).")


def cluster_blocks(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    cl = r.params.cluster
    dims = " × ".join(map(str, cl.dims))
    title = f"Cluster {dims}: " + ("multicast" if cl.multicast else "no multicast")
    note = text_block(groups_sentence(r), theme, width, color=theme.color("muted"),
                      name="cluster-note")
    return tagged("cluster", heading(title, theme, width, "cluster-title"),
                  grid_block(r, theme, width), receipt(r, theme, width),
                  legend_block(legend(r, theme, width), theme, width), note)
