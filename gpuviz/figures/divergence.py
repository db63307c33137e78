"""The divergence figure: the control-flow graph with each branch's reconvergence point, the
pre-Volta SIMT stack trace with every active mask, and the issue order before and after Volta.

Left: the CFG, blocks in layers from the entry, edges labelled with their lane predicates; a
branch names its immediate post-dominator and that block is outlined as a reconvergence point.
Right: the stack trace, one row per push, issue, pop or jump, with the mask as a strip of lanes.
Bottom: one cell per issued instruction in issue order, pre-Volta (one path after the other) and
Volta (paths interleaved), coloured by block; then the lane-efficiency receipt.

Keys: ``node:<name>`` (a block, and every issued instruction of it), ``edge:<source>-><target>``,
``step:<i>`` (a row of the stack trace), ``lane:<l>`` (a lane column of the mask strips).
"""

from __future__ import annotations

from itertools import islice

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, paragraph, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.divergence import DivergenceResult

WIDTH = 172.0
MARGIN = 5.0


def _paragraph(c: Canvas, x: float, y: float, text: str, size: float, color: str,
               font: str = "sans", bold: bool = False) -> float:
    return paragraph(c, x, y, text, size, color, WIDTH - 2 * MARGIN, font, bold)
CFG_W = 62.0
NODE_W, NODE_H = 20.0, 6.5
LAYER_GAP = 12.0
MAX_ROWS = 36
MAX_CELLS = 160


def build(result: DivergenceResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    y = MARGIN + theme.title_pt * PT_TO_MM
    y = _paragraph(c, MARGIN, y, f"Divergence: {r.issued} instructions issued, lane efficiency "
                   f"{r.lane_efficiency:.1%}", theme.title_pt, theme.foreground, bold=True)
    y += em * 0.4
    joins = ", ".join(f"{b} → {r.ipdom[b] or 'exit'}" for b in r.branches) or "no branches"
    y = _paragraph(c, MARGIN, y, f"A branch reconverges at its immediate post-dominator "
                   f"({joins}). Pre-Volta, a per-warp stack runs one path, then the other.",
                   theme.small_pt, theme.muted)
    top = y
    colour = {name: theme.category(i) for i, name in enumerate(r.nodes)}
    cfg_bottom = _cfg(c, r, selection, theme, top, colour)
    trace_bottom = _trace(c, r, selection, theme, top, colour)
    y = max(cfg_bottom, trace_bottom)
    y = _orders(c, r, selection, theme, y, colour)
    y = _receipt(c, r, theme, y)
    return c.figure(WIDTH, y + MARGIN, theme.background, title="gpuviz divergence",
                    description=f"{r.issued} issued, lane efficiency {r.lane_efficiency:.4f}, "
                                f"ipdom {r.ipdom}")


def _node_width(r: DivergenceResult) -> float:
    widest = max(sum(1 for n in r.nodes if r._layer[n] == layer) for layer in set(r._layer.values()))
    return min(NODE_W, CFG_W / widest - 1.2)


def _fitting_size(text: str, width: float) -> float:
    """The type size (pt) at which ``text`` fits ``width`` mm by the conservative budget."""
    return 0.85 * width / max(text_width(text, 1.0), 1e-9)


def _positions(r: DivergenceResult, top: float) -> dict[str, tuple[float, float]]:
    layers: dict[int, list[str]] = {}
    for name in r.nodes:
        layers.setdefault(r._layer[name], []).append(name)
    pos = {}
    for layer, names in layers.items():
        step = CFG_W / len(names)
        for i, name in enumerate(names):
            pos[name] = (MARGIN + step * (i + 0.5), top + layer * (NODE_H + LAYER_GAP))
    return pos


def _cfg(c: Canvas, r: DivergenceResult, selection: frozenset[str], theme: Theme, top: float,
         colour: dict[str, str]) -> float:
    em = theme.text_pt * PT_TO_MM
    c.text(MARGIN, top + em, "Control-flow graph", theme.text_pt, theme.foreground, bold=True)
    top += em * 3.0
    pos = _positions(r, top)
    node_w = _node_width(r)
    reconvergence = {r.ipdom[b] for b in r.branches if r.ipdom[b]}
    first_edge = {}
    for src, tgt, pred in r._edges:
        first_edge.setdefault(src, (tgt, pred))
    labels = []
    for src, tgt, pred in r._edges:
        (sx, sy), (tx, ty) = pos[src], pos[tgt]
        key = f"edge:{src}->{tgt}"
        style = theme.stroke("foreground", theme.line_mm)
        with c.group(key):
            c.polyline([(sx, sy + NODE_H), (tx, ty)], style, arrow_end=True)
        if key in selection:
            c.polyline([(sx, sy + NODE_H), (tx, ty)], theme.highlight())
        if src in r.branches:
            # the predicate near the branch, "otherwise" further down: they never collide
            t = 0.3 if pred else 0.68
            labels.append((key, pred or "otherwise", sx + (tx - sx) * t,
                           sy + NODE_H + (ty - sy - NODE_H) * t))
    size = theme.small_pt * 0.9
    for key, label, mx, my in labels:
        lw = text_width(label, size, "mono")
        with c.group(key):
            c.rect(mx - lw / 2 - 0.4, my - size * PT_TO_MM * 0.6, lw + 0.8,
                   size * PT_TO_MM * 1.2, Style(fill=theme.background))
            c.text(mx, my, label, size, theme.foreground, anchor="middle", baseline="middle",
                   font="mono")
    bottom = top
    for name in r.nodes:
        x, y = pos[name]
        key = f"node:{name}"
        x0 = x - node_w / 2
        with c.group(key):
            c.rect(x0, y, node_w, NODE_H, Style(fill=colour[name], stroke=theme.outline,
                                                 stroke_width=theme.thin_mm), radius=1.0)
            ink = theme.ink_on(colour[name])
            count = f"{r._instructions[name]} instr."
            size = min(theme.small_pt, _fitting_size(name, node_w - 1.0))
            c.text(x, y + NODE_H * 0.4, name, size, ink, anchor="middle",
                   baseline="middle", bold=True)
            c.text(x, y + NODE_H * 0.8, count, min(theme.small_pt * 0.8,
                                                   _fitting_size(count, node_w - 1.0)),
                   ink, anchor="middle", baseline="middle")
        if name in reconvergence:
            c.rect(x0 - 0.8, y - 0.8, node_w + 1.6, NODE_H + 1.6,
                   theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5)), radius=1.5)
        if name in r.branches:
            note = f"ipdom: {r.ipdom[name] or 'exit'}"
            size = theme.small_pt * 0.85
            c.rect(x0 - 0.3, y - 0.9 - size * PT_TO_MM * 0.9, text_width(note, size) + 0.6,
                   size * PT_TO_MM * 1.15, Style(fill=theme.background))
            c.text(x0, y - 0.9, note, size, theme.muted)
        if key in selection:
            c.rect(x0 - 1.2, y - 1.2, node_w + 2.4, NODE_H + 2.4, theme.highlight(), radius=1.8)
        bottom = max(bottom, y + NODE_H)
    c.text(MARGIN, bottom + em * 1.4, "dashed outline: a reconvergence point", theme.small_pt,
           theme.muted)
    return bottom + em * 1.4


def _trace(c: Canvas, r: DivergenceResult, selection: frozenset[str], theme: Theme, top: float,
           colour: dict[str, str]) -> float:
    em = theme.text_pt * PT_TO_MM
    x0 = MARGIN + CFG_W + 4.0
    c.text(x0, top + em, "Pre-Volta SIMT stack", theme.text_pt, theme.foreground, bold=True)
    top += em * 2.0
    size = theme.small_pt * 0.9
    events = r.trace[:MAX_ROWS]
    gap = 2.0

    def column(title: str, values: list[str], font: str = "mono") -> float:
        return max(text_width(v, size, font) for v in [title, *values]) + gap

    w_step = column("#", [str(e.step) for e in events])
    w_op = column("action", [e.op + (f" ×{e.instructions}" if e.instructions else "")
                             for e in events], "sans")
    w_pc = column("PC", [e.node or "exit" for e in events])
    w_rpc = column("reconv.", [e.reconverge or "exit" for e in events])
    w_depth = column("depth", [str(e.depth) for e in events])
    mask_w = WIDTH - MARGIN - x0 - (w_step + w_op + w_pc + w_rpc + w_depth) - gap
    lane_w = max(mask_w, 8.0) / r.warp_size
    cols = {"step": x0}
    cols["op"] = cols["step"] + w_step
    cols["pc"] = cols["op"] + w_op
    cols["mask"] = cols["pc"] + w_pc
    cols["rpc"] = cols["mask"] + lane_w * r.warp_size + gap
    cols["depth"] = cols["rpc"] + w_rpc
    for name, title in (("step", "#"), ("op", "action"), ("pc", "PC"), ("mask", "active lanes"),
                        ("rpc", "reconv."), ("depth", "depth")):
        c.text(cols[name], top, title, size, theme.muted, bold=True)
    row = em * 1.05
    y = top + row * 0.4
    on, off, on_keys = [], [], []
    for e in events:
        key = f"step:{e.step}"
        with c.group(key):
            c.text(cols["step"], y + row * 0.72, str(e.step), size, theme.foreground, font="mono")
            c.text(cols["op"], y + row * 0.72, e.op + (f" ×{e.instructions}" if e.instructions
                                                       else ""), size, theme.foreground)
            c.text(cols["pc"], y + row * 0.72, e.node or "exit", size, theme.foreground,
                   font="mono", bold=e.op == "issue")
            c.text(cols["rpc"], y + row * 0.72, e.reconverge or "exit", size, theme.muted,
                   font="mono")
            c.text(cols["depth"], y + row * 0.72, str(e.depth), size, theme.foreground,
                   font="mono")
        for lane in range(r.warp_size):
            cell = (cols["mask"] + lane * lane_w, y + row * 0.15, lane_w * 0.85, row * 0.7)
            if (e.mask >> lane) & 1:
                on.append(cell)
                on_keys.append(f"lane:{lane}")
            else:
                off.append(cell)
        if key in selection:
            c.rect(x0 - 0.5, y, cols["depth"] + 6.0 - x0, row, theme.highlight())
        y += row
    c.rects(on, theme.fill("active", outline=False), keys=on_keys)
    c.rects(off, theme.fill("inactive", outline=False))
    lanes_selected = [k for k in selection if k.startswith("lane:")]
    for k in lanes_selected:
        lane = int(k.split(":")[1])
        if 0 <= lane < r.warp_size:
            c.rect(cols["mask"] + lane * lane_w, top + row * 0.4, lane_w * 0.85,
                   row * len(events), theme.highlight())
    if len(r.trace) > MAX_ROWS:
        c.text(x0, y + row * 0.8, f"… {len(r.trace) - MAX_ROWS} more events", size, theme.muted)
        y += row
    return y + em * 0.5


def _orders(c: Canvas, r: DivergenceResult, selection: frozenset[str], theme: Theme, y: float,
            colour: dict[str, str]) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.8
    c.text(MARGIN, y, "Issue order, one cell per instruction (height: active lanes)",
           theme.text_pt, theme.foreground, bold=True)
    y += em * 0.8
    stack_order = list(islice(((e.node, e.mask) for e in r.trace if e.op == "issue"
                               for _ in range(e.instructions)), MAX_CELLS))
    volta_order = [(node, mask) for node, _, mask in r.volta_order[:MAX_CELLS]]
    label_w = text_width("Volta interleaved", theme.small_pt) + 2.0
    shown = min(len(stack_order), MAX_CELLS)
    cell = (WIDTH - 2 * MARGIN - label_w) / max(shown, 1)
    cell = min(cell, 6.0)
    h = 5.0
    for title, order in (("pre-Volta stack", stack_order), ("Volta interleaved", volta_order)):
        c.text(MARGIN, y + h * 0.6, title, theme.small_pt, theme.foreground, baseline="middle")
        by_node: dict[str, list[tuple[float, float, float, float]]] = {}
        for i, (node, mask) in enumerate(order[:shown]):
            frac = mask.bit_count() / r.warp_size
            x = MARGIN + label_w + i * cell
            by_node.setdefault(node, []).append((x, y + h * (1 - frac), cell * 0.85, h * frac))
        c.rect(MARGIN + label_w, y, cell * shown, h, Style(fill=theme.surface))
        for node, cells in by_node.items():
            key = f"node:{node}"
            c.rects(cells, Style(fill=colour[node], stroke=None), keys=[key] * len(cells))
            if key in selection:
                for x, cy, w, ch in cells:
                    c.rect(x, cy, w, ch, theme.highlight())
        y += h + 2.0
    if r.issued > shown:
        c.text(MARGIN + label_w, y + em * 0.4, f"first {shown} of {r.issued} "
               "instructions", theme.small_pt, theme.muted)
        y += em
    # block colour legend
    x = MARGIN + label_w
    y += em * 0.9
    for node in r.nodes:
        c.rect(x, y - em * 0.75, em * 1.1, em * 0.9, Style(fill=colour[node], stroke=theme.outline,
                                                           stroke_width=theme.thin_mm))
        c.text(x + em * 1.4, y, node, theme.small_pt, theme.foreground)
        x += em * 2.2 + len(node) * em * 0.55
        if x > WIDTH - MARGIN - 15:
            x = MARGIN + label_w
            y += em * 1.3
    return y


def _receipt(c: Canvas, r: DivergenceResult, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.8
    lines = [f"issued {r.issued} instructions; {r.lane_instructions} lane-instructions of "
             f"{r.issued * r.warp_size} lane slots: lane efficiency {r.lane_efficiency:.1%}; "
             f"deepest stack {r.max_depth}"]
    for g in r.regions:
        lines.append(f"region {g.branch} → {g.reconverge or 'exit'}: {g.issued} issued, "
                     f"{g.lane_efficiency:.1%} of the {g.mask.bit_count()} lanes active at the "
                     "branch")
    for line in lines:
        y = _paragraph(c, MARGIN, y, line, theme.small_pt, theme.foreground, font="mono")
    return y
