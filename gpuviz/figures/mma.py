"""Figure of the tensor-core fragments, in parts: one builder per part.

- ``fragments``: A, B and C/D of the warp-level ``mma.sync`` as grids in the PTX ISA's style,
  each cell printing the lane that holds it and tinted by the register (the element within the
  register follows from the column: the legend says how); a selected lane or cell is spelled out
  in a receipt (lane, element, register, half or byte).
- ``feed``: ``ldmatrix``/``stmatrix``: per 8 × 8 matrix, the eight lanes that give row addresses
  (with the address), and the 16-byte bank groups those rows hit (four banks each) with how many
  rows each must serve: the wavefronts of that matrix.
- ``warpgroup``: the block's warps grouped in fours, the four chosen warps, whether they form a
  warpgroup, and which warp owns which rows of the wgmma accumulator D.
- ``descriptor``: the matrix descriptor's fields and the core matrices it selects: the physical
  address of each 16-byte row of B's first rows, tinted by its 16-byte bank group.
- ``completion``: the fence / commit / wait steps and whether D may be read.
- ``hierarchy``: block tile → warp tiles → m16n8 tiles, and what the accumulators cost in
  registers and resident blocks.

Keys: ``a:<row>,<col>``, ``b:<k>,<n>``, ``c:<row>,<col>`` (fragment cells), ``lane:<l>`` (a lane
giving an ldmatrix row), ``chunk:<matrix>,<group>`` (a 16-byte bank group), ``warp:<w>``,
``core:<row>,<chunk>`` (a core-matrix row), ``step:<i>`` (a completion step), ``tile:<r>,<c>``
(a warp tile).
"""

from __future__ import annotations

from collections.abc import Callable

from gpuviz import keys
from gpuviz.figures.display import Figure
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    Target,
    compose,
    counted,
    format_number,
)
from gpuviz.figures.mma_cells import BAD_STATES, merged_bad
from gpuviz.figures.mma_feed import feed, feed_conflicts
from gpuviz.figures.mma_fragments import fragments
from gpuviz.figures.mma_hierarchy import hierarchy
from gpuviz.figures.mma_warpgroup import completion, descriptor, warpgroup
from gpuviz.figures.theme import Theme
from gpuviz.models.mma import FRAGMENT_PARTS, PARTS, MmaResult

NATURAL_WIDTH = 172.0
SIDE = ("legend", "receipt", "hierarchy-note")  # blocks that may stand beside the drawing


def owner_keys(r: MmaResult, selection: frozenset[str]) -> frozenset[str]:
    """``lane:<l>`` for the lane that holds each selected fragment cell (``c:9,3`` → ``lane:5``):
    pointing at an element shows its owner and the owner's other elements in A, B and C."""
    out = set()
    for f in (r.a, r.b, r.c):
        for row, col in keys.of_kind(selection, f.operand, 2):
            if 0 <= row < f.rows and 0 <= col < f.cols:
                out.add(keys.key("lane", f.lane_of(row, col)))
    return frozenset(out)


def build(result: MmaResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    selection = selection | owner_keys(result, selection)
    r = result
    # the parts an export asks for, else those the scenario shows
    asked = tuple(p for p in (target.parts or ()) if p in PARTS)
    shown = asked or r.show or FRAGMENT_PARTS

    merged = merged_bad([p for p in shown if p in BAD_STATES and draws_bad(r, p)])
    made: dict[float, list[Block]] = {}  # body and side of one width: one build
    grids: dict = {}  # fragment grids by layout, across the widths tried
    operands = tuple(p[-1] for p in shown if p in FRAGMENT_PARTS)

    def blocks(width: float) -> list[Block]:
        if width not in made:
            out: list[Block] = []
            fragments_done = False
            for part in shown:  # in the order shown; the three fragment parts as one group
                if part in FRAGMENT_PARTS:
                    if not fragments_done:
                        out += fragments(r, selection, theme, width, target, grids, operands)
                        fragments_done = True
                else:
                    extra = {"merged": merged} if part in BAD_STATES else {}
                    out += BUILDERS[part](r, selection, theme, width, target, **extra)
            # the first part's heading is the figure's title
            made[width] = [b for b in out if b.name != f"{_first(shown)}-title"]
        return made[width]

    def body(width: float) -> list[Block]:
        return [b for b in blocks(width) if b.name not in SIDE]

    def side(width: float) -> list[Block]:
        return [b for b in blocks(width) if b.name in SIDE]

    regs = r.registers_per_thread
    title, subtitle = _titles(r)[_first(shown)]
    column_title = (f"{r.shape} {r.dtype} → {r.accumulator} fragments"
                    if _first(shown) == "fragments" else "")
    return compose(
        target, theme, title=title, subtitle=subtitle, body=body, side=side,
        natural_width=NATURAL_WIDTH, column_title=column_title,
        figure_title="gpuviz tensor-core fragments",
        description=f"The fragments of an mma.sync {r.shape} with {r.dtype} operands "
                    f"accumulated in {r.accumulator}, each lane's registers "
                    f"({', '.join(f'{k.upper()} {v}' for k, v in regs.items())} per thread), "
                    f"fed by ldmatrix in {counted(r.feed.wavefronts, 'wavefront')}, with a "
                    f"{'valid' if r.warpgroup_valid else 'invalid'} warpgroup.")



def draws_bad(r: MmaResult, part: str) -> bool:
    """Whether ``part`` of ``r`` draws its bad state (:data:`~mma_cells.BAD_STATES`)."""
    if part == "feed":
        return feed_conflicts(r.feed)
    if part == "warpgroup":
        return not r.warpgroup.valid
    return part == "completion" and not r.warpgroup.async_steps[-1].d_readable


def _first(shown: tuple[str, ...]) -> str:
    return "fragments" if shown[0] in FRAGMENT_PARTS else shown[0]


def _titles(r: MmaResult) -> dict[str, tuple[str, str]]:
    """Per first part: the figure's title (the part's heading) and subtitle."""
    fr, g, h = r.feed, r.warpgroup, r.hierarchy
    regs = r.registers_per_thread
    layout = {"row-major": "row-major", "padded": "padded",
              "swizzled": f"{fr.swizzle}-swizzled"}[fr.layout]
    return {
        "fragments": (f"mma.sync.{r.shape} {r.dtype} → {r.accumulator}: which lane holds "
                      "each element",
                      f"One warp; {regs['a']} + {regs['b']} + {regs['c']} registers per lane "
                      "(A + B + C) · PTX ISA, Matrix Fragments for mma." + r.shape),
        "feed": (f"Loading {fr.operand.upper()} with {fr.op}.x{fr.matrices}"
                 f"{'.trans' if fr.trans else ''} from a {layout} tile: "
                 f"{format_number(fr.wavefronts)} wavefront"
                 f"{'s' if fr.wavefronts != 1 else ''}",
                 f"{fr.row_bytes}-byte rows · PTX ISA, ldmatrix/stmatrix · wavefronts by the "
                 "banks model (H200-measured)"),
        "warpgroup": (f"wgmma m64n{g.n}k16 on warps {g.warps[0]}–{g.warps[-1]}: "
                      + ("an aligned warpgroup" if g.valid else "not a warpgroup"),
                      "PTX ISA, Asynchronous Warpgroup Level Matrix Multiply-Accumulate"),
        # the descriptor's value is in its receipt, in the mono face
        "descriptor": ("wgmma descriptor: B's core matrices",
                       f"{g.swizzle} swizzle · PTX ISA, Matrix Descriptor Format"),
        "completion": (f"wgmma completion: commit, {g.async_steps[-2].event}, read D",
                       "PTX ISA: wgmma.fence, commit_group, wait_group"),
        "hierarchy": (f"{h.block_m} × {h.block_n} block → {h.warp_m} × {h.warp_n} warp tiles: "
                      f"{h.accumulator_registers} accumulators per thread",
                      "m16n8k16 tiles, f32 accumulators · CUDA C++ Programming Guide, "
                      "Occupancy"),
    }



BUILDERS: dict[str, Callable[..., list[Block]]] = {
    "feed": feed, "warpgroup": warpgroup,
    "descriptor": descriptor, "completion": completion, "hierarchy": hierarchy,
}

