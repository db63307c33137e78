"""What each panel's generated parameters need beyond their declaration (see
``param_strategies``): the values a declaration cannot state (expressions over the lane names,
permutations, a control-flow graph, a selection inside the launch drawn), and caps that keep one
example's cost to a fraction of a second. Everything else is drawn from the model's own
bounds and choices."""

from __future__ import annotations

import math
import string

from hypothesis import strategies as st
from param_strategies import declared

from gpuviz.models import expr_grammar
from gpuviz.models.expr import LANE_NAMES
from gpuviz.models.params import field_spec
from gpuviz.models.threads import MAX_BLOCK_THREADS

_ARITH = [symbol for symbol, _ in expr_grammar.ARITH.values()]
_COMPARE = ["<", "<=", "==", "!=", ">", ">="]  # the grammar's comparisons (expr_grammar.COMPARE)
assert len(_COMPARE) == len(expr_grammar.COMPARE)


def _term():
    return st.one_of(st.sampled_from(LANE_NAMES), st.integers(0, 64).map(str))


def index_expressions():
    """A whole-number expression of the lane names, one or two operators deep."""
    pair = st.tuples(_term(), st.sampled_from(_ARITH), _term()).map(" ".join)
    return st.one_of(_term(), pair,
                     st.tuples(pair, st.sampled_from(_ARITH), _term())
                     .map(lambda t: f"({t[0]}) {t[1]} {t[2]}"))


def conditions():
    """A lane predicate: a comparison of an index expression with a number."""
    return st.tuples(index_expressions(), st.sampled_from(_COMPARE),
                     st.integers(0, 64).map(str)).map(" ".join)


def _permutation(drawn, size_field="warp_size"):
    return st.permutations(range(drawn.get(size_field, 32))).map(tuple)


def _below(count_of):
    """A selection index below what the fields drawn so far make (mostly the first few)."""
    return lambda drawn: st.integers(0, max(0, min(count_of(drawn), 1 << 20) - 1))


def _launch_blocks(drawn) -> int:
    block = drawn["block"]
    if drawn.get("grid") is not None:
        return math.prod(drawn["grid"])
    if drawn.get("extent") is not None:
        ext = drawn["extent"]
        return math.prod(-(-e // b) for e, b in zip(ext, (*block, 1, 1), strict=False))
    return -(-(drawn.get("n") or 1) // math.prod(block))


def _launch_warps(drawn) -> int:
    return -(-math.prod(drawn["block"]) // drawn["warp_size"])


def _names():
    return st.text(string.ascii_lowercase, min_size=1, max_size=8)


def _nodes():
    from gpuviz.models.divergence import NodeParams

    spec = field_spec(NodeParams, "instructions")
    node = st.builds(NodeParams, name=_names(),
                     instructions=st.integers(int(spec.minimum), int(spec.maximum)))
    return st.lists(node, min_size=1, max_size=9, unique_by=lambda n: n.name).map(tuple)


@st.composite
def _edges(draw, nodes):
    """A loop-free control flow over ``nodes``: each block branches to at most two later blocks
    (the first edge with a lane predicate)."""
    from gpuviz.models.divergence import EdgeParams

    names = [n.name for n in nodes]
    edges = []
    for i in range(len(names) - 1):
        later = list(range(i + 1, len(names)))
        # the next block first, so that every block is reached from the entry
        targets = [i + 1] + (draw(st.lists(st.sampled_from(later[1:]), max_size=1))
                             if later[1:] else [])
        if len(targets) == 2 and draw(st.booleans()):
            targets.reverse()
        for j, t in enumerate(targets):
            predicate = draw(conditions()) if j == 0 and len(targets) == 2 else ""
            edges.append(EdgeParams(source=names[i], target=names[t], predicate=predicate))
    return tuple(edges)


def _traversal_explicit(drawn):
    return st.permutations(range(drawn["rows"] * drawn["cols"])).map(tuple)


def _unique(items):
    return st.lists(items, unique=True).map(tuple)


def _parts_shown(cls):
    """Some of the parts a ``show`` field declares, each once."""
    spec = field_spec(cls, "show")
    low, high = spec.length_range
    return st.lists(st.sampled_from(spec.choices), min_size=low, max_size=min(high, 4),
                    unique=True).map(tuple)


def _lane_list(spec_cls, name):
    """One entry per lane of a warp of 32 or 64 (the declared lengths), in declared bounds."""
    spec = field_spec(spec_cls, name)
    item = st.integers(int(spec.minimum), int(spec.maximum))
    return st.sampled_from(sorted(set(spec.length_range))).flatmap(
        lambda n: st.lists(item, min_size=n, max_size=n).map(tuple))


@st.composite
def _block(draw, max_threads=MAX_BLOCK_THREADS):
    """A block shape of one to three dimensions holding at most ``max_threads`` threads."""
    dims = []
    for _ in range(draw(st.integers(1, 3))):
        dims.append(draw(st.integers(1, max_threads // math.prod(dims or [1]))))
    return tuple(dims)


def _multiple(step, low, high):
    return st.integers(-(-low // step), high // step).map(lambda k: k * step)


def _one_per_tile(name):
    from gpuviz.models.pipeline import PipelineParams

    item = declared(PipelineParams, name).map(lambda t: t[0] if t else 0.0)
    return lambda d: st.one_of(st.just(()),
                               st.lists(item, min_size=d["tiles"], max_size=d["tiles"])
                               .map(tuple))


def shapes(panel_id):
    """The shapes of ``panel_id``'s generated parameters (``param_strategies``)."""
    from gpuviz.models import mma_fragments as frag
    from gpuviz.models.banks import BankPattern
    from gpuviz.models.launch import LaunchParams
    from gpuviz.models.mma import MmaParams
    from gpuviz.models.scheduler import SCHEDULERS_PER_SM
    from gpuviz.models.sectors import SectorPattern, SectorsParams
    from gpuviz.models.tma import TmaParams

    launch = {
        "n": lambda d: st.one_of(st.none(), declared(LaunchParams, "n")),
        "extent": lambda d: st.none() if d["n"] is not None else
        st.one_of(st.none(), declared(LaunchParams, "extent")),
        "grid": lambda d: declared(LaunchParams, "grid")
        if d["n"] is None and d["extent"] is None else st.none(),
        "block": _block(), "selected_block": _below(_launch_blocks),
        "selected_warp": _below(_launch_warps)}
    element_offset = field_spec(SectorsParams, "base_offset")
    return {
        "launch": launch,
        "sectors": {"base_offset": lambda d: _multiple(d["element_bytes"], 0,
                                                       int(element_offset.maximum)),
                    "pattern.permutation": st.sampled_from(
                        sorted(set(field_spec(SectorPattern, "permutation").length_range)))
                    .flatmap(lambda n: st.permutations(range(n)).map(tuple)),
                    "pattern.addresses": _lane_list(SectorPattern, "addresses"),
                    "pattern.expression": index_expressions(),
                    "active_lanes": st.one_of(st.none(), _unique(st.integers(0, 63))),
                    "block_dim": _block().map(lambda b: (*b, 1, 1)[:3]),
                    "warp": lambda d: _below(lambda _: -(-math.prod(d["block_dim"])
                                                        // d["warp_size"]))(d)},
        "banks": {"pattern.expression": index_expressions(),
                  "pattern.indices": _lane_list(BankPattern, "indices"),
                  "active_lanes": _unique(st.integers(0, 31))},
        "traversal": {"explicit": _traversal_explicit},
        "pipeline": {"load_times": _one_per_tile("load_times"),
                     "compute_times": _one_per_tile("compute_times")},
        "barrier": {"valid_threads": lambda d: st.integers(0, d["threads"]),
                    "neighbour_offset": lambda d: st.integers(1, d["threads"] - 1),
                    "picks": lambda d: st.lists(st.integers(0, d["threads"] - 1), max_size=64)
                    .map(tuple)},
        "divergence": {"nodes": _nodes(), "edges": lambda d: _edges(d["nodes"]),
                       "entry_mask": st.one_of(st.just(""), conditions()),
                       "warp": lambda d: st.integers(0, MAX_BLOCK_THREADS // d["warp_size"] - 1)},
        "scheduler": {"warps_per_sm": lambda d: st.one_of(
            st.none(), st.integers(1, SCHEDULERS_PER_SM * d["warp_slots"]))},
        "mma": {"show": _parts_shown(MmaParams),
                "dtype": lambda d: st.sampled_from(frag.INPUT_TYPES[d["shape"]]),
                "accumulator": lambda d: st.sampled_from(frag.ACCUMULATORS[d["dtype"]]),
                # ldmatrix row addresses are 16-byte aligned: whole 8-element rows
                "feed.row_elements": _multiple(8, 16, 512),
                "feed.padding": _multiple(8, 0, 64),
                "warpgroup.start_address": _multiple(16, 0, 1 << 17),
                "warpgroup.leading_byte_offset": st.one_of(st.none(), _multiple(16, 16, 1 << 14)),
                "warpgroup.stride_byte_offset": st.one_of(st.none(), _multiple(16, 16, 1 << 14)),
                "hierarchy.block_m": lambda d: _multiple(16, 16, 512),
                "hierarchy.warps_m": lambda d: st.sampled_from(
                    [w for w in range(1, 17) if d["block_m"] % (16 * w) == 0]),
                "hierarchy.block_n": _multiple(8, 8, 512),
                "hierarchy.warps_n": lambda d: st.sampled_from(
                    [w for w in range(1, 33 // d["warps_m"] + 1)
                     if d["block_n"] % (8 * w) == 0] or [1])},
        "tma": {"show": _parts_shown(TmaParams),
                "smem_offset": lambda d: _multiple(
                    16 if d["swizzle"] == "none" else 128, 0,
                    int(field_spec(TmaParams, "smem_offset").maximum)),
                "cp_async.wait_group": lambda d: st.integers(0, d["groups"])},
    }.get(panel_id, {})


def caps(panel_id):
    """Lower maxima, for cost only: one example stays well under a second."""
    return {
        # an explicit order is a permutation of every tile: a grid of at most 48 × 48
        "traversal": {"rows": 48, "cols": 48, "k_tiles": 64, "in_flight": 256,
                      "sweep_capacities[]": 8},
        # the cycle loop runs every cycle of the window
        "scheduler": {"cycles": 20000},
    }.get(panel_id, {})
