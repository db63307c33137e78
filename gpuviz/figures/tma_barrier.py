"""The ``tma`` figure's ``barrier`` and ``ring`` parts, drawn.

- ``barrier``: the mbarrier's scripted events left to right (init first), and under each the
  state after it: phase, pending arrivals, the signed transaction count (negative where a
  complete-tx comes before its expect-tx) and each parity wait's answer, true or false. A thick
  line after an event marks a phase completing: pending arrivals and tx-count both 0
  (PTX ISA, mbarrier: "phase completion").
- ``ring``: the S-stage full/empty ring as the pipeline panel draws buffer ownership: a row per
  stage, a column per iteration, the stage's band split into the producer's copy and the
  consumer's read; under it the round and the parities the consumer (full barrier) and producer
  (empty barrier) wait on. An injected mistake is drawn where it first breaks: a stale read or
  an overwrite as a hazard, a hang as a wait that runs off the end with an arrow.

Both are tables of columns wrapped into bands of columns (never shrunk below legible type); an
event script longer than :data:`MAX_BANDS` bands is summarised: its first and last events with
one column saying how many lie between.

Keys: ``event:<i>`` (an event's column, init is -1 not keyed), ``iteration:<i>``,
``stage:<s>``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gpuviz.figures.bands import unhatched
from gpuviz.figures.display import Style
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    LegendEntry,
    format_number,
    legend_block,
    place,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.mma_cells import heading, tagged
from gpuviz.figures.pipeline import wait_style
from gpuviz.figures.spacing import ROOMY
from gpuviz.figures.text_blocks import line_step, table_block, text_block, wrap
from gpuviz.figures.theme import Theme, gray_of_lightness
from gpuviz.keys import key
from gpuviz.models.tma import TmaResult

MAX_BANDS = 2  # bands of columns a part wraps into before it summarises
#: Gray levels in a theme that must survive a grayscale print, 12.5 L* apart as printed (the
#: lint's ``lightness`` rule; at 0.11 gray apart a true wait and the load printed 10.1 apart),
#: so that the parts
#: drawn together tell their swatches apart: a true wait, the ring's load (the theme's own),
#: the cluster's A slices, the ring's consumer (compute's hue), the cluster's B slices.
TRUE_GRAY, LOAD_GRAY, A_GRAY, CONSUMER_GRAY, B_GRAY = (
    gray_of_lightness(v) for v in (96.5, 83.8, 71.0, 58.5, 46.0))
MAX_RING_COL = 8.0  # mm: an iteration's column where there is room
BAND_GAP = 2.4  # mm between bands
ROW_GAP = 0.3  # mm between rows


@dataclass(frozen=True)
class Columns:
    """Columns of ``width`` mm after a label column of ``label_w`` mm, ``per_band`` to a
    band; ``bands`` lists the column indices of each band (None: the elision column)."""

    label_w: float
    width: float
    bands: tuple[tuple[int | None, ...], ...]

    @property
    def per_band(self) -> int:
        return max(len(b) for b in self.bands)

    def x(self, j: int) -> float:
        return self.label_w + j * self.width


def columns(n: int, col_w: float, label_w: float, room: float, max_bands: int = MAX_BANDS,
            summarise: bool = True) -> Columns:
    """``n`` columns of at least ``col_w`` mm wrapped into bands of the ``room`` left after the
    labels. Where more than ``max_bands`` bands would be needed and ``summarise``: the first
    columns, one elision column (None) and the last ones; else as many bands as it takes."""
    per = max(1, int((room - label_w) // col_w))
    width = (room - label_w) / per if n > per else col_w
    order: list[int | None] = list(range(n))
    if summarise and n > per * max_bands:
        cap = per * max_bands
        tail = per - 1 if max_bands > 1 else max(1, cap // 2)
        order = [*range(cap - 1 - tail), None, *range(n - tail, n)]
    count = -(-len(order) // per)
    per = -(-len(order) // count) if count > 1 else per  # the bands balanced, none left short
    bands = tuple(tuple(order[i:i + per]) for i in range(0, len(order), per))
    return Columns(label_w, width, bands or ((),))


def _row_labels(c: BlockCanvas, labels: list[str], tops: list[float], h: float, size: float,
                color: str) -> None:
    for label, top in zip(labels, tops, strict=True):
        c.text(0.0, top + h / 2, label, size, color, baseline="middle")


# --- barrier -----------------------------------------------------------------------------------

#: The op's name in its column's head, on two lines
OP_LINES = {"init": ("init", ""), "arrive": ("arrive", ""), "expect_tx": ("expect", "-tx"),
            "arrive_expect_tx": ("arrive.", "expect_tx"), "copy": ("copy", "lands"),
            "complete_tx": ("complete", "-tx"), "test_wait": ("test_wait", "")}


def _signed(v: int) -> str:
    """A signed count with a true minus sign."""
    return format_number(v).replace("-", "−")


def event_head(op: str, e, copy_bytes: int, count: int) -> tuple[str, str, str]:
    """The two lines naming an event and its argument: what it adds or asks."""
    first, second = OP_LINES[op]
    if op == "init":
        arg = f"count {count}"
    elif op == "arrive":
        arg = f"×{e.count}"
    elif op in ("expect_tx", "arrive_expect_tx"):
        arg = f"tx +{format_number(e.bytes)}"
    elif op == "copy":
        arg = f"tx −{format_number(copy_bytes)}"
    elif op == "complete_tx":
        arg = f"tx −{format_number(e.bytes)}"
    else:
        arg = f"parity {e.parity}"
    return first, second, arg


def true_style(theme: Theme) -> Style:
    """A wait that returns true: the good state's green; in a theme that must survive a
    grayscale print, at a gray of its own (apart from the ring's load and compute)."""
    style = theme.fill("ok")
    if theme.hatches:
        return replace(style, fill=theme.at_gray(theme.color("ok"), TRUE_GRAY))
    return style


def consumer_style(theme: Theme) -> Style:
    """The consumer's read of a stage: the pipeline's compute, at a gray of its own in print."""
    style = theme.fill("compute")
    if theme.hatches:
        return replace(style, fill=theme.at_gray(theme.color("compute"), CONSUMER_GRAY))
    return style


def false_style(theme: Theme) -> Style:
    """A wait that returns false: not a fault, the waiter tries again; the palest wait (the
    pipeline's prefetch wait), apart from the ring's hazard."""
    style = wait_style(theme, "load_waits_for_prefetch")
    return style if theme.hatches else unhatched(style)  # a hatch in so small a cell is noise


#: Marks a state the copy's early completion may have changed.
UNSURE_MARK = "?"
UNSURE_NOTE = ("?, either: the copy's parts pass the count still expected, so the phase "
               "completes early or never (an H100 did both).")


def wait_legend(theme: Theme) -> list[LegendEntry]:
    part = ("barrier",)
    return [LegendEntry("test_wait true: that parity's phase has completed", true_style(theme),
                        parts=part),
            LegendEntry("test_wait false: the waiter keeps waiting", false_style(theme),
                        parts=part),
            LegendEntry("phase completes: pending arrivals and tx-count both 0",
                        theme.stroke("foreground", theme.thick_mm), "line", parts=part)]


def barrier_drawing(r: TmaResult, theme: Theme, width: float) -> Block:
    """The event timeline with the state under each event."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    size = theme.small_pt
    count = r.params.barrier.count
    events = r.params.barrier.events
    trace = r.barrier_trace
    heads = [event_head("init", None, r.transaction_bytes, count)]
    heads += [event_head(e.op, e, r.transaction_bytes, count) for e in events]
    # the state of column j: init's is the barrier as mbarrier.init leaves it
    states: list[tuple[int, int, int, bool, bool | None]] = [(0, count, 0, False, None)]
    unsure = [False]
    for s in trace:
        pending = 0 if s.completed else s.pending  # both reach 0; the next phase starts full
        states.append((s.phase - 1 if s.completed else s.phase, pending, s.tx, s.completed,
                       s.wait))
        unsure.append(s.uncertain)
    labels = ["event", "", "", "phase", "pending", "tx-count", "wait returns"]
    label_w = max(text_width(t, size) for t in labels) + 1.5
    values = [t for h in heads for t in h] + [_signed(s[2]) for s in states] + ["false"]
    col_w = max(text_width(t, size) for t in values) + 2.6
    cols = columns(len(heads), col_w, label_w, width)
    line = line_step(size, 1.15)
    cell_h = ink_height(size) + ROOMY.cell_pad
    head_h = 3 * line + 0.4
    band_h = head_h + 4 * (cell_h + ROW_GAP)
    ok, bad = true_style(theme), false_style(theme)
    plain = Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm)
    for b, band in enumerate(cols.bands):
        top = b * (band_h + BAND_GAP)
        rows = [top + head_h + k * (cell_h + ROW_GAP) for k in range(4)]
        c.text(0.0, top + cap_height(size), "event", size, fg)
        _row_labels(c, labels[3:], rows, cell_h, size, fg)
        for j, col in enumerate(band):
            x = cols.x(j)
            w = cols.width - 0.4
            if col is None:  # the elision column: how many events it stands for
                hidden = len(heads) - sum(1 for bb in cols.bands for cc in bb if cc is not None)
                c.text(x + w / 2, top + cap_height(size), "…", size, muted, anchor="middle")
                c.text(x + w / 2, top + cap_height(size) + line, f"{hidden}", size, muted,
                       anchor="middle")
                c.text(x + w / 2, top + cap_height(size) + 2 * line, "more", size, muted,
                       anchor="middle")
                continue
            ev = col - 1  # the event's index in the script (init: -1)
            k = key("event", ev) if ev >= 0 else None
            for i, head in enumerate(heads[col]):
                if head:
                    c.text(x + w / 2, top + cap_height(size) + i * line, head, size,
                           fg if i < 2 else muted, anchor="middle", key=k)
            phase, pending, tx, done, wait = states[col]
            mark = UNSURE_MARK if unsure[col] else ""  # the phase may have completed early
            cells = [((format_number(phase) if not done else f"{phase}→{phase + 1}") + mark,
                      plain), (_signed(pending) + mark, plain), (_signed(tx), plain)]
            for (text, style), y in zip(cells, rows, strict=False):
                c.rect(x, y, w, cell_h, style, key=k)
                c.value(x, y, w, cell_h, text, size, fg, floor=theme.small_pt, font="sans",
                        key=k)
            if wait is not None and unsure[col]:
                c.rect(x, rows[3], w, cell_h, plain, key=k)
                c.value(x, rows[3], w, cell_h, "either", size, fg, floor=theme.small_pt,
                        font="sans", key=k)
            elif wait is not None:
                style = ok if wait else bad
                # hatched where the theme hatches: the composer keeps it off the word
                # (bands.clear_glyphs)
                c.rect(x, rows[3], w, cell_h, style, key=k)
                c.value(x, rows[3], w, cell_h, "true" if wait else "false", size,
                        theme.ink_on(style.fill or theme.surface), floor=theme.small_pt,
                        font="sans", key=k)
            if done:  # the phase boundary after this event
                xe = x + w + 0.2
                c.line(xe, rows[0] - 0.6, xe, rows[3] + cell_h + 0.6,
                       theme.stroke("foreground", theme.thick_mm))
    bands = len(cols.bands)
    height = bands * band_h + (bands - 1) * BAND_GAP + descent(size)
    used = cols.label_w + cols.per_band * cols.width
    return c.block(min(width, used), height, "barrier-events")


def barrier_blocks(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    n = r.params.barrier.count
    text = ("A phase completes when pending arrivals and tx-count are both 0; "
            "complete-tx may come first, the count going negative; test_wait.parity "
            "p is true once the phase of parity p has completed, so parity 1 is true "
            "at once after init (PTX ISA, mbarrier).")
    if any(s.uncertain for s in r.barrier_trace):  # the rule, then why a state is open
        text = "A phase completes when pending arrivals and tx-count are both 0 (PTX ISA, " \
               "mbarrier). " + UNSURE_NOTE
    note = text_block(text, theme, width, color=theme.color("muted"), name="barrier-note")
    return tagged("barrier", heading(f"mbarrier, {n} expected arrival{'s' * (n != 1)}, "
                                     "state after each event", theme, width, "barrier-title"),
                  barrier_drawing(r, theme, width), None,
                  legend_block(wait_legend(theme), theme, width), note)


# --- ring --------------------------------------------------------------------------------------

#: Which half of a stage's column a mistake breaks, and the label it carries
HANG_SIDE = {"wrong_count": "producer", "expect_tx_large": "consumer",
             "expect_tx_twice": "consumer"}
RING_PART = ("ring",)


def ring_legend(r: TmaResult, theme: Theme) -> list[LegendEntry]:
    out = [LegendEntry("load: the producer's copy fills the stage", theme.fill("load"),
                       parts=RING_PART),
           LegendEntry("compute: the consumer reads the stage", consumer_style(theme),
                       parts=RING_PART)]
    outcomes = {s.outcome for s in r.ring}
    if "hang" in outcomes:
        producer = HANG_SIDE.get(r.params.pipeline.mistake) == "producer"
        out.append(LegendEntry("hang: the producer waits for a free stage forever" if producer
                               else "hang: the consumer waits for data forever",
                               hang_style(r, theme), parts=RING_PART))
    if outcomes & {"stale read", "overwrite under a reader"}:
        out.append(LegendEntry("hazard: a stale read or an overwrite under a reader",
                               theme.fill("hazard"), parts=RING_PART))
    if "undefined" in outcomes:
        out.append(LegendEntry("undefined: a copy signals an uninitialised barrier",
                               theme.fill("undefined"), parts=RING_PART))
    return out


def hang_style(r: TmaResult, theme: Theme) -> Style:
    """A hang is the pipeline panel's wait: the producer's for a slot, the consumer's for data."""
    side = HANG_SIDE.get(r.params.pipeline.mistake, "consumer")
    return wait_style(theme, "load_waits_for_slot" if side == "producer"
                      else "compute_waits_for_data")


def ring_drawing(r: TmaResult, theme: Theme, width: float) -> Block:
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    size = theme.small_pt
    pl = r.params.pipeline
    steps = r.ring
    hang = next((s for s in steps if s.outcome == "hang"), None)
    stage_labels = [f"stage {s}" for s in range(pl.stages)]
    labels = ["iteration", "round", *stage_labels, "consumer (full)", "producer (empty)"]
    label_w = max(text_width(t, size) for t in labels) + 1.5
    col_w = max(text_width(format_number(pl.iterations - 1), size) + 1.6, 5.0)
    col_w = max(col_w, min(MAX_RING_COL, (width - label_w) / pl.iterations))
    # one band: the parities repeat every two rounds, so the iterations past it are said,
    # not drawn (a mistake breaks the ring by its second round, within the band)
    per = max(1, int((width - label_w) // col_w))
    shown = min(pl.iterations, per)
    cols = columns(shown, col_w, label_w, width, max_bands=1, summarise=False)
    cell_h = ink_height(size) + 1.4
    stage_h = ink_height(size) + 0.9
    n_rows = 2 + pl.stages + 2
    tops_rel = []
    y = 0.0
    for k in range(n_rows):
        tops_rel.append(y)
        y += (stage_h if 2 <= k < 2 + pl.stages else cell_h) + ROW_GAP
        if k in (1, 1 + pl.stages):
            y += 0.5  # the stages set apart from the numbers above and below
    band_h = y - ROW_GAP
    plain = Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm)
    by_iter = {s.iteration: s for s in steps}
    for b, band in enumerate(cols.bands):
        top = b * (band_h + BAND_GAP)
        tops = [top + t for t in tops_rel]
        heights = [stage_h if 2 <= k < 2 + pl.stages else cell_h for k in range(n_rows)]
        for k, label in enumerate(labels):
            c.text(0.0, tops[k] + heights[k] / 2, label, size, fg, baseline="middle",
                   key=key("stage", k - 2) if 2 <= k < 2 + pl.stages else None)
        w = cols.width - 0.4
        band_w = len(band) * cols.width - 0.4
        for s in range(pl.stages):
            c.rect(label_w, tops[2 + s], band_w, stage_h, Style(fill=theme.surface),
                   key=key("stage", s))
        for j, i in enumerate(band):
            if i is None:
                continue
            x = cols.x(j)
            step = by_iter.get(i)
            k_it = key("iteration", i)
            c.value(x, tops[0], w, cell_h, format_number(i), size, fg if step else muted,
                    floor=size, font="sans", key=k_it)
            if step is None:  # not reached: the ring hung before it
                continue
            values = [format_number(step.round), format_number(step.waited),
                      format_number(step.empty_parity)]
            wrong = step.waited != step.full_parity  # a stale parity: the cell the mistake is
            for val, row in zip(values, (1, n_rows - 2, n_rows - 1), strict=True):
                hazard = wrong and row == n_rows - 2
                c.rect(x, tops[row], w, cell_h,
                       unhatched(theme.fill("hazard")) if hazard else plain, key=k_it)
                # the hazard's flat fill (a cell this small keeps no hatch clear of its digit)
                c.value(x, tops[row], w, cell_h, val, size, fg, floor=size, font="sans",
                        key=k_it, bold=hazard)
            sy = tops[2 + step.stage]
            half = w / 2
            copy_style, read_style = theme.fill("load"), consumer_style(theme)
            if step.outcome == "stale read":
                read_style = theme.fill("hazard")
            elif step.outcome == "overwrite under a reader":
                copy_style = theme.fill("hazard")
            elif step.outcome == "undefined":
                copy_style = theme.fill("undefined")
            hanging = step.outcome == "hang"
            side = HANG_SIDE.get(pl.mistake, "consumer")
            if not (hanging and side == "producer"):
                c.rect(x, sy, half, stage_h, copy_style, key=k_it)
            if not hanging:
                c.rect(x + half, sy, half, stage_h, read_style, key=k_it)
            if step.outcome == "overwrite under a reader" and i - pl.stages in band:
                # the last round's reader still reading when this copy lands: its read runs on
                # under the copy, in a strip along the row's foot
                j0 = band.index(i - pl.stages)
                x0 = cols.x(j0) + w
                c.rect(x0, sy + stage_h * 0.6, x + half - x0, stage_h * 0.4,
                       consumer_style(theme), key=k_it)
        if hang is not None and hang.iteration in band:
            _hang(c, r, theme, cols, band, hang, tops[2 + hang.stage], stage_h, w)
        # the rounds: a thin line where the ring wraps to stage 0
        for j, i in enumerate(band):
            if i is not None and i % pl.stages == 0 and j:
                xr = cols.x(j) - 0.2
                c.line(xr, tops[1], xr, tops[n_rows - 1] + cell_h,
                       theme.stroke("muted", theme.thin_mm, dash=(0.6, 0.4)))
    bands = len(cols.bands)
    height = bands * band_h + (bands - 1) * BAND_GAP + descent(size) * 0.3
    used = cols.label_w + cols.per_band * cols.width
    if shown < pl.iterations and hang is None:
        rest = (f"iteration {shown}" if shown == pl.iterations - 1
                else f"iterations {shown}–{pl.iterations - 1}")
        for ln in wrap(f"{rest}: stage i mod {pl.stages}, parity (i div {pl.stages}) mod 2",
                       size, width):
            height += line_step(size)
            c.text(0.0, height - descent(size), ln, size, muted)
            used = max(used, text_width(ln, size))
    return c.block(min(width, used), height, "ring-stages")


def _hang(c: BlockCanvas, r: TmaResult, theme: Theme, cols: Columns, band, hang, sy: float,
          h: float, w: float) -> None:
    """The hang: a wait from the half of the stage it stops in to the end of the band, with an
    arrow running on (it never ends)."""
    side = HANG_SIDE.get(r.params.pipeline.mistake, "consumer")
    j = band.index(hang.iteration)
    x0 = cols.x(j) + (w / 2 if side == "consumer" else 0.0)
    if side == "consumer":
        c.rect(cols.x(j), sy, w / 2, h, theme.fill("load"), key=key("iteration", hang.iteration))
    x1 = cols.label_w + len(band) * cols.width - 0.4
    style = hang_style(r, theme)
    c.rect(x0, sy, x1 - x0, h, style, key=key("iteration", hang.iteration))
    c.line(x0 + 0.4, sy + h / 2, x1 + 2.2, sy + h / 2, theme.stroke("foreground", theme.line_mm),
           arrow=True)


def ring_blocks(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    pl = r.params.pipeline
    mistake = "no mistake" if pl.mistake == "none" else f"mistake: {pl.mistake.replace('_', ' ')}"
    # what the run comes to, as a table's row: its name, then the outcome
    outcome = table_block(["", ""], [["outcome" if pl.mistake == "none" else "consequence",
                                      r.consequence]], theme, width, name="ring-consequence")
    note = text_block("Iteration i: stage i mod S, round i div S; the consumer waits on the "
                      "full barrier's parity round mod 2, the producer on the empty barrier's "
                      "(round + 1) mod 2, true at init (PTX ISA, mbarrier test_wait.parity).",
                      theme, width, color=theme.color("muted"), name="ring-note")
    # the outcome and the rule under it are the caption's where no chrome is drawn: the
    # drawing's marks show the outcome, and the outcome in words runs to sentences
    c = BlockCanvas()
    place(c, outcome, 0.0, 0.0)
    place(c, note, 0.0, outcome.height + 1.2)
    notes = c.block(max(outcome.width, note.width), outcome.height + 1.2 + note.height,
                    "ring-notes")
    return tagged("ring", heading(f"Stage ring: {pl.stages} stages, {mistake}; the parity each "
                                  "side waits on", theme, width,
                                  "ring-title"),
                  ring_drawing(r, theme, width), None,
                  legend_block(ring_legend(r, theme), theme, width), notes)
