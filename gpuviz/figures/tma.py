"""Figure of the asynchronous copies, in parts (drawn by ``tma_space``, ``tma_barrier`` and
``tma_cluster``; the tensor map a receipt):

- ``tensor-map``: accepted or refused by ``cuTensorMapEncodeTiled``, with each rule broken;
- ``box``: the box in global memory, rows of elements, zero-filled ones marked;
- ``placement``: per row of the box, the physical 16-byte chunk each logical chunk lands in
  under the swizzle of the absolute shared address (the phase the offset shifts it by);
- ``barrier``: the mbarrier's phase, pending arrivals, tx-count and waits after each event;
- ``ring``: the stage ring's stage, round and parities per iteration, and a mistake's outcome;
- ``cluster``: the bytes each full barrier expects under multicast, and resident clusters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gpuviz.figures import tma_space
from gpuviz.figures.display import Figure, Rect, Rects, row_list, walk
from gpuviz.figures.layout import NATURAL, Block, BlockCanvas, Target, compose, receipt_block
from gpuviz.figures.mma_cells import heading, tagged
from gpuviz.figures.theme import Theme
from gpuviz.figures.tma_barrier import barrier_blocks, ring_blocks
from gpuviz.figures.tma_cluster import cluster_blocks
from gpuviz.models.tma import PARTS, TmaResult

NATURAL_WIDTH = 150.0


def _numbers(rows: list[str | tuple[str, str]], note: str, theme: Theme,
             width: float) -> Block:
    """The part's numbers with its note (the rule and its source) under them, one block."""
    return receipt_block([*rows, note], theme, width)


def _tensor_map(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    p = r.params
    rows: list[str | tuple[str, str]] = [
        ("element bytes", str(p.element_bytes)),
        ("global dims", " × ".join(map(str, p.global_dims))),
        ("box dims", " × ".join(map(str, p.box_dims))),
        ("swizzle / interleave", f"{p.swizzle} / {p.interleave}"),
        ("box bytes", f"{r.box_bytes:,}"),
    ]
    if p.interleave != "none" and r.tensor_map_valid:
        # the copy writes and signals whole chunks: what an expect-tx must count
        rows.append(("bytes copied", f"{r.transaction_bytes:,} (runs of {p.box_dims[0]} × "
                                     f"{p.interleave} chunks)"))
    rows += [f"refused: {m}" for m in r.tensor_map_problems] or ["accepted"]
    title = ("Tensor map: accepted" if r.tensor_map_valid else "Tensor map: refused")
    note = ("Rules of the CUDA Driver API's cuTensorMapEncodeTiled: rank 1–5, 16-byte "
                 "address and strides, box dimensions ≤ 256, inner box bytes a multiple of 16 "
                 "and within the swizzle span, element strides ≤ 8.")
    return tagged("tensor-map", heading(title, theme, width, "tensor-map-title"),
                  _numbers(rows, note, theme, width), None, None)








BUILDERS: dict[str, Callable[[TmaResult, Theme, float], list[Block]]] = {
    "tensor-map": _tensor_map, "box": tma_space.box, "placement": tma_space.placement,
    "barrier": barrier_blocks, "ring": ring_blocks, "cluster": cluster_blocks,
}

#: The parts that outline a selected key (``chunk:<row>,<col>``).
SELECTING = {"box": tma_space.box, "placement": tma_space.placement}


def outlined(blocks: list[Block], selection: frozenset[str], theme: Theme) -> list[Block]:
    """The drawings of ``blocks`` with the selection's double outline around the cells of each
    selected key they draw (``event:<i>``, ``iteration:<i>``, ``stage:<s>``, ``cta:<r>``): the
    box that holds every rectangle of the key, as a selected column or CTA reads."""
    if not selection:
        return blocks
    out = []
    for b in blocks:
        boxes: dict[str, list[float]] = {}
        for item in walk(b.items) if b.role == "drawing" else ():
            rows = ([(item.key, (item.x, item.y, item.w, item.h))] if isinstance(item, Rect)
                    else list(zip(item.keys or (), row_list(item.xywh), strict=False))
                    if isinstance(item, Rects) else [])
            for k, (x, y, w, h) in rows:
                if k in selection and w > 0 and h > 0:
                    box = boxes.setdefault(k, [x, y, x + w, y + h])
                    box[:] = [min(box[0], x), min(box[1], y), max(box[2], x + w),
                              max(box[3], y + h)]
        if not boxes:
            out.append(b)
            continue
        c = BlockCanvas()
        for k, (x0, y0, x1, y1) in sorted(boxes.items()):
            theme.select(c, x0 - 0.3, y0 - 0.3, x1 - x0 + 0.6, y1 - y0 + 0.6, key=k)
        out.append(replace(b, items=b.items + c.drawn()))
    return out


def build(result: TmaResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    asked = tuple(p for p in (target.parts or ()) if p in PARTS)
    shown = asked or result.params.show
    first = shown[0]

    def body(width: float) -> list[Block]:
        out: list[Block] = []
        for part in shown:
            out += (outlined(BUILDERS[part](result, theme, width), selection, theme)
                    if part not in SELECTING
                    else SELECTING[part](result, theme, width, selection))
        return [b for b in out if b.name != f"{first}-title"]

    return compose(target, theme, title=_title_text(result, first), body=body,
                   natural_width=NATURAL_WIDTH, figure_title="gpuviz asynchronous copies",
                   description=f"A TMA box of {result.box_bytes} bytes, "
                               f"{'accepted' if result.tensor_map_valid else 'refused'}; "
                               f"each full barrier expects {result.expected_tx_per_cta} bytes.")


def _title_text(r: TmaResult, first: str) -> str:
    p = r.params
    return {
        "tensor-map": "Tensor map: " + ("accepted" if r.tensor_map_valid else "refused"),
        "box": "Box in global memory",
        "placement": tma_space.placement_title(p),
        "barrier": "mbarrier trace",
        "ring": f"Stage ring: {p.pipeline.stages} stages" + (
            "" if p.pipeline.mistake == "none"
            else f", mistake: {p.pipeline.mistake.replace('_', ' ')}"),
        "cluster": "Cluster multicast: bytes each barrier expects",
    }[first]
