"""Figure of the asynchronous copies, in parts, each a heading, its numbers and a note:

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

from gpuviz.figures import tma_space
from gpuviz.figures.display import Figure
from gpuviz.figures.layout import NATURAL, Block, Target, compose, receipt_block
from gpuviz.figures.mma_cells import heading, tagged
from gpuviz.figures.theme import Theme
from gpuviz.models.tma import PARTS, TmaResult

NATURAL_WIDTH = 150.0
MAX_ROWS = 16


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
    rows += [f"refused: {m}" for m in r.tensor_map_problems] or ["accepted"]
    title = ("Tensor map: accepted" if r.tensor_map_valid else "Tensor map: refused")
    note = ("Rules of the CUDA Driver API's cuTensorMapEncodeTiled: rank 1–5, 16-byte "
                 "address and strides, box dimensions ≤ 256, inner box bytes a multiple of 16 "
                 "and within the swizzle span, element strides ≤ 8.")
    return tagged("tensor-map", heading(title, theme, width, "tensor-map-title"),
                  _numbers(rows, note, theme, width), None, None)


def _barrier(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    rows: list[str | tuple[str, str]] = []
    for s in r.barrier_trace:
        wait = "" if s.wait is None else f", wait {'true' if s.wait else 'false'}"
        done = ", completes" if s.completed else ""
        rows.append((s.op, f"phase {s.phase}, pending {s.pending}, tx {s.tx}{done}{wait}"))
    note = ("A phase completes when pending arrivals and tx-count are both 0 "
                      "(PTX ISA, mbarrier).")
    return tagged("barrier", heading(f"mbarrier, {r.params.barrier.count} expected arrival(s)",
                                     theme, width, "barrier-title"),
                  _numbers(rows, note, theme, width), None, None)


def _ring(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    rows: list[str | tuple[str, str]] = [
        (f"iteration {s.iteration}", f"stage {s.stage}, round {s.round}, full parity "
                                     f"{s.full_parity}, empty parity {s.empty_parity}: "
                                     f"{s.outcome}") for s in r.ring[:MAX_ROWS]]
    pl = r.params.pipeline
    return tagged("ring", heading(f"Stage ring: {pl.stages} stages, mistake {pl.mistake}",
                                  theme, width, "ring-title"),
                  _numbers(rows, r.consequence, theme, width), None, None)


def _cluster(r: TmaResult, theme: Theme, width: float) -> list[Block]:
    c = r.params.cluster
    rows: list[str | tuple[str, str]] = [
        ("cluster", " × ".join(map(str, c.dims)) + f" = {r.cluster_size} CTAs"),
        ("bytes each CTA issues", f"{r.issued_bytes_per_cta:,}"),
        ("copies reaching a barrier", str(r.copies_per_barrier)),
        ("bytes each barrier expects", f"{r.expected_tx_per_cta:,}"),
        ("resident clusters (model)", str(r.max_active_clusters)),
        ("SMs × blocks ÷ size", str(r.max_active_clusters_naive)),
    ]
    note = ("A cluster's CTAs share one GPC: resident clusters are GPCs × "
                      "⌊SMs per GPC × blocks per SM ÷ size⌋ in the model, to be checked "
                      "against cudaOccupancyMaxActiveClusters (CUDA C++ Programming Guide, "
                      "Thread Block Clusters).")
    return tagged("cluster", heading("Cluster multicast: bytes each barrier expects", theme,
                                     width, "cluster-title"),
                  _numbers(rows, note, theme, width), None, None)


BUILDERS: dict[str, Callable[[TmaResult, Theme, float], list[Block]]] = {
    "tensor-map": _tensor_map, "box": tma_space.box, "placement": tma_space.placement,
    "barrier": _barrier,
    "ring": _ring, "cluster": _cluster,
}

#: The parts that outline a selected key (``chunk:<row>,<col>``).
SELECTING = {"box": tma_space.box, "placement": tma_space.placement}


def build(result: TmaResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    asked = tuple(p for p in (target.parts or ()) if p in PARTS)
    shown = asked or result.params.show
    first = shown[0]

    def body(width: float) -> list[Block]:
        out: list[Block] = []
        for part in shown:
            out += (BUILDERS[part](result, theme, width) if part not in SELECTING
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
        "placement": f"Placement, {p.swizzle} swizzle at offset {p.smem_offset}",
        "barrier": "mbarrier trace",
        "ring": f"Stage ring: {p.pipeline.stages} stages",
        "cluster": "Cluster multicast: bytes each barrier expects",
    }[first]
