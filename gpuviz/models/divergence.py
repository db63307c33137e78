"""Branch divergence: immediate post-dominators, the pre-Volta SIMT stack, and lane efficiency.

Rules (source text "SIMT and GPUs", *Divergence mechanics* and section 3; Fung et al., "Dynamic Warp
Formation", MICRO 2007, for the stack):

- The kernel is a control-flow graph: nodes with instruction counts, edges with lane predicates
  in the safe expression language (``lane < 16``, ``lane % 2 == 0``). A node with one outgoing
  edge falls through; a node with two is a branch whose first edge's predicate selects the lanes
  that take it and whose second edge (predicate left empty) takes the rest. Nodes without
  outgoing edges exit. Loops are not modelled (the graph must be acyclic).
- The reconvergence point of a branch is its immediate post-dominator: the immediate dominator in
  the reversed graph, with a virtual exit joined from every exit node (networkx).
- Pre-Volta, one PC and an active mask per warp: a stack of (PC, reconvergence PC, mask). The top
  entry issues its node's instructions for its mask. At a branch whose lanes disagree, the top
  entry's PC becomes the reconvergence point and one entry per path is pushed (the not-taken path
  first, so the taken path runs first); an entry is popped when its PC reaches its reconvergence
  point. A branch whose active lanes all agree simply jumps. A path that begins at the
  reconvergence point itself (an ``if`` without ``else``) pushes nothing.
- Lane efficiency is active lane-instructions over ``warp size × issued instructions``. Over a
  branch's region (between the branch and its reconvergence point, both excluded) it is measured
  against the lanes active at the branch: ``(p·n_X + (1−p)·n_Y) / (n_X + n_Y)``, 50% for equal
  paths whatever the split; nested regions compound multiplicatively.
- Volta's independent thread scheduling is shown as the divergent paths interleaving, one
  instruction at a time, until they reach the reconvergence point; at any step the warp still
  issues one instruction for the active lanes of one path, so the issue count and the lane
  efficiency are those of the stack.

Both issue orders are kept as runs, never one entry per instruction: the stack trace issues a
block's instructions in one event, and the Volta order is a list of ``VoltaRun``s, each a block's
instructions ``start … start + count − 1`` issued at positions ``first, first + stride, …``
(interleaving two paths doubles the stride of the part that alternates). A warp's lanes visit
each block at most once, so there are at most blocks × lanes issue events, and a run splits at
most once per enclosing branch: the size of the result does not grow with instruction counts.
``volta_order`` reads the runs as (node, instruction index, mask) one instruction at a time.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from gpuviz.models.expr import LANE_NAMES, ExprError, evaluate, lane_environment, parse
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param
from gpuviz.models.threads import MAX_BLOCK_THREADS, warp_problems

EXIT = None


@dataclass(frozen=True)
class NodeParams:
    name: str = param("A", doc="Name of the basic block (a label such as 'then' or 'B').")
    instructions: int = param(1, doc="Instructions the block issues.", minimum=0, maximum=10_000)


@dataclass(frozen=True)
class EdgeParams:
    source: str = param("A", doc="Block the edge leaves.")
    target: str = param("B", doc="Block the edge enters.")
    predicate: str = param(
        "", doc="Lanes that take this edge (e.g. 'lane < 16'); empty for the other edge or a "
                "fall-through.")


def _default_nodes() -> tuple[NodeParams, ...]:
    return (NodeParams("entry", 2), NodeParams("then", 4), NodeParams("else", 4),
            NodeParams("join", 2))


def _default_edges() -> tuple[EdgeParams, ...]:
    return (EdgeParams("entry", "then", "lane < 16"), EdgeParams("entry", "else", ""),
            EdgeParams("then", "join", ""), EdgeParams("else", "join", ""))


@dataclass(frozen=True)
class DivergenceParams:
    nodes: tuple[NodeParams, ...] = param(
        doc="Basic blocks; the first is the entry.", default_factory=_default_nodes,
        length=(1, 64))
    edges: tuple[EdgeParams, ...] = param(
        doc="Control-flow edges with lane predicates.", default_factory=_default_edges,
        length=(0, 128))
    entry_mask: str = param("", doc="Lanes active at the entry (a predicate); empty for all.")
    warp_size: int = param(32, doc="Lanes per warp.", choices=(32, 64))
    warp: int = param(0, doc="Warp index, for predicates that read warp, tid or threadIdx.",
                      minimum=0, maximum=1023)


PARAMS = DivergenceParams


@dataclass(frozen=True)
class TraceEvent:
    step: int
    op: str  # "issue", "push", "pop", "jump"
    node: str | None  # the block issued, pushed (its PC) or reached; None = exit
    mask: int  # active lanes as a bit mask (bit i = lane i)
    active: int
    reconverge: str | None  # the entry's reconvergence PC
    instructions: int  # instructions issued by this event (issue only)
    depth: int  # stack depth after the event


@dataclass(frozen=True)
class Region:
    branch: str
    reconverge: str | None
    mask: int
    taken_mask: int
    issued: int
    lane_efficiency: float


@dataclass(frozen=True)
class VoltaRun:
    """Instructions ``start … start + count − 1`` of ``node`` for the lanes of ``mask``, issued
    at positions ``first, first + stride, …`` of the Volta issue order."""

    node: str
    start: int
    count: int
    mask: int
    first: int
    stride: int


class IssueOrder(Sequence):
    """The Volta issue order one instruction at a time, (node, instruction index, mask), read
    from the runs on demand (a long order is never built in full unless iterated)."""

    _WINDOW = 4096

    def __init__(self, runs: tuple[VoltaRun, ...], length: int) -> None:
        self._runs = runs
        self._length = length

    def __len__(self) -> int:
        return self._length

    def _window(self, lo: int, hi: int) -> list[tuple[str, int, int]]:
        out: list = [None] * max(hi - lo, 0)
        for run in self._runs:
            i = max(0, -(-(lo - run.first) // run.stride))
            end = min(run.count, -(-(hi - run.first) // run.stride))
            for k in range(i, end):
                out[run.first + k * run.stride - lo] = (run.node, run.start + k, run.mask)
        return out

    def __getitem__(self, index):
        if isinstance(index, slice):
            lo, hi, step = index.indices(self._length)
            if step != 1:
                return [self[i] for i in range(lo, hi, step)]
            return self._window(lo, hi)
        i = index + self._length if index < 0 else index
        if not 0 <= i < self._length:
            raise IndexError(index)
        return self._window(i, i + 1)[0]

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        for lo in range(0, self._length, self._WINDOW):
            yield from self._window(lo, min(lo + self._WINDOW, self._length))


@dataclass(frozen=True)
class DivergenceResult:
    nodes: tuple[str, ...]
    ipdom: dict  # node -> immediate post-dominator (None = exit)
    branches: tuple[str, ...]
    trace: tuple[TraceEvent, ...]
    issued: int
    lane_instructions: int
    lane_efficiency: float
    regions: tuple[Region, ...]
    max_depth: int
    volta_runs: tuple[VoltaRun, ...]
    warp_size: int
    layer: dict = not_in_json()  # node -> layer (longest path from the entry), for drawing
    edges: tuple[tuple[str, str, str], ...] = not_in_json()
    instructions: dict = not_in_json()

    @property
    def volta_order(self) -> IssueOrder:
        """(node, instruction index, mask) per issued instruction, in Volta's order."""
        return IssueOrder(self.volta_runs, self.issued)


def _successors(params: DivergenceParams) -> dict[str, list[EdgeParams]]:
    out: dict[str, list[EdgeParams]] = {n.name: [] for n in params.nodes}
    for e in params.edges:
        if e.source in out:
            out[e.source].append(e)
    return out


def _environment(params: DivergenceParams) -> dict:
    # the warp's block is 1-D and as large as a block may be, so that every warp index that
    # exists in some block has real coordinates (threadIdx.x = tid)
    return lane_environment(np.arange(params.warp_size), warp=params.warp,
                            warp_size=params.warp_size, block_dim=(MAX_BLOCK_THREADS, 1, 1))


def _mask_of(text: str, env: dict) -> int:
    values = evaluate(parse(text, LANE_NAMES, "bool"), env)
    return int(sum(1 << int(i) for i in np.flatnonzero(np.broadcast_to(values, env["lane"].shape))))


MAX_NAME = 64  # characters of a block's name: a label in a box (2 million took 2.2 s to draw)


def problems(params: DivergenceParams) -> list[tuple[str, str]]:
    import networkx as nx

    found: list[tuple[str, str]] = []
    names = [n.name for n in params.nodes]
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not name:
            found.append((f"nodes[{i}].name", "A block needs a name."))
        elif len(name) > MAX_NAME:
            found.append((f"nodes[{i}].name", f"A block's name has at most {MAX_NAME} characters "
                                              f"(it labels a box of the graph); this one has "
                                              f"{len(name):,}."))
        elif name in seen:
            found.append((f"nodes[{i}].name", f"The block name {name!r} is used twice."))
        seen.add(name)
    found += warp_problems(params.warp, params.warp_size, MAX_BLOCK_THREADS)
    if found:
        return found
    env = _environment(params)
    for i, e in enumerate(params.edges):
        for end in ("source", "target"):
            if getattr(e, end) not in seen:
                found.append((f"edges[{i}].{end}", f"There is no block named {getattr(e, end)!r}."))
        if e.predicate:
            try:
                expr = parse(e.predicate, LANE_NAMES)
                if expr.kind != "bool":
                    found.append((f"edges[{i}].predicate",
                                  "A branch condition must be a comparison such as 'lane < 16'."))
                else:
                    evaluate(expr, env)  # fails here, not in compute, for a lane it cannot serve
            except ExprError as err:
                found.append((f"edges[{i}].predicate", str(err)))
    if params.entry_mask:
        try:
            mask = parse(params.entry_mask, LANE_NAMES)
            if mask.kind != "bool":
                found.append(("entry_mask",
                              "The entry mask must be a condition such as 'lane < 20'."))
            else:
                evaluate(mask, env)
        except ExprError as err:
            found.append(("entry_mask", str(err)))
    if found:
        return found
    index = {id(e): i for i, e in enumerate(params.edges)}
    for name, out in _successors(params).items():
        if len(out) > 2:
            found.append((f"edges[{index[id(out[2])]}]",
                          f"Block {name!r} has {len(out)} outgoing edges; a branch has two."))
        elif len(out) == 2:
            if not out[0].predicate:
                found.append((f"edges[{index[id(out[0])]}].predicate",
                              f"The first edge out of branch {name!r} needs a lane predicate."))
            if out[1].predicate:
                found.append((f"edges[{index[id(out[1])]}].predicate",
                              f"The second edge out of {name!r} takes the other lanes; leave its "
                              "predicate empty."))
            if out[0].target == out[1].target:
                found.append((f"edges[{index[id(out[1])]}].target",
                              f"Both edges out of {name!r} go to {out[0].target!r}."))
        elif len(out) == 1 and out[0].predicate:
            found.append((f"edges[{index[id(out[0])]}].predicate",
                          f"A single edge out of {name!r} is taken by every lane; leave its "
                          "predicate empty."))
    graph = nx.DiGraph()
    graph.add_nodes_from(names)
    graph.add_edges_from((e.source, e.target) for e in params.edges)
    try:
        cycle = nx.find_cycle(graph, source=names[0])
        found.append(("edges", "The graph has a loop through "
                      + " → ".join(u for u, _ in cycle) + "; loops are not modelled."))
    except nx.NetworkXNoCycle:
        pass
    reached = nx.descendants(graph, names[0])
    unreachable = [n for n in names if n not in reached and n != names[0]]
    if unreachable:
        found.append(("nodes", f"Block {unreachable[0]!r} cannot be reached from the entry "
                               f"{names[0]!r}."))
    if not found and params.entry_mask and _mask_of(params.entry_mask, env) == 0:
        found.append(("entry_mask", "No lane is active at the entry."))
    return found


def immediate_post_dominators(names: list[str], edges: list[tuple[str, str]]) -> dict:
    """Each node's immediate post-dominator (None = the exit), via networkx: the immediate
    dominators of the reversed graph rooted at a virtual exit joined from every exit node."""
    import networkx as nx

    exit_node = object()
    reverse = nx.DiGraph()
    reverse.add_node(exit_node)
    reverse.add_nodes_from(names)
    reverse.add_edges_from((v, u) for u, v in edges)
    sources = {u for u, _ in edges}
    reverse.add_edges_from((exit_node, n) for n in names if n not in sources)
    idom = nx.immediate_dominators(reverse, exit_node)
    return {n: (None if idom.get(n, exit_node) is exit_node else idom[n]) for n in names}


def compute(params: DivergenceParams) -> DivergenceResult:
    import networkx as nx

    names = [n.name for n in params.nodes]
    count = {n.name: n.instructions for n in params.nodes}
    succ = _successors(params)
    edges = [(e.source, e.target) for e in params.edges]
    ipdom = immediate_post_dominators(names, edges)
    env = _environment(params)
    full = (1 << params.warp_size) - 1
    entry_mask = _mask_of(params.entry_mask, env) if params.entry_mask else full
    taken_mask = {name: _mask_of(out[0].predicate, env)
                  for name, out in succ.items() if len(out) == 2}

    trace: list[TraceEvent] = []
    stack: list[list] = [[names[0], EXIT, entry_mask]]  # [pc, reconvergence pc, mask]
    issued = lane_work = 0
    max_depth = 1
    open_regions: list[dict] = []
    regions: list[Region] = []

    def event(op: str, node, mask: int, rpc, n: int = 0) -> None:
        trace.append(TraceEvent(len(trace), op, node, mask, mask.bit_count(), rpc, n, len(stack)))

    while stack:
        pc, rpc, mask = stack[-1]
        if pc == rpc:
            stack.pop()
            event("pop", pc, mask, rpc)
            while open_regions and len(stack) <= open_regions[-1]["depth"]:
                regions.append(_region(open_regions.pop()))
            continue
        n = count[pc]
        if n:
            issued += n
            lane_work += n * mask.bit_count()
            for reg in open_regions:
                reg["issued"] += n
                reg["work"] += n * mask.bit_count()
            event("issue", pc, mask, rpc, n)
        out = succ[pc]
        if not out:
            stack[-1][0] = EXIT
            continue
        if len(out) == 1:
            stack[-1][0] = out[0].target
            continue
        taken = mask & taken_mask[pc]
        other = mask & ~taken_mask[pc]
        if not taken or not other:
            stack[-1][0] = out[0].target if taken else out[1].target
            event("jump", stack[-1][0], mask, rpc)
            continue
        join = ipdom[pc]
        stack[-1][0] = join
        region = {"branch": pc, "join": join, "mask": mask, "taken": taken, "issued": 0, "work": 0,
                  "depth": len(stack)}
        open_regions.append(region)
        for target, lanes in ((out[1].target, other), (out[0].target, taken)):
            if target != join:
                stack.append([target, join, lanes])
                event("push", target, lanes, join)
        max_depth = max(max_depth, len(stack))
    regions.sort(key=lambda r: names.index(r.branch))

    layer: dict[str, int] = {}
    graph = nx.DiGraph()
    graph.add_nodes_from(names)
    graph.add_edges_from(edges)
    for node in nx.topological_sort(graph):
        preds = list(graph.predecessors(node))
        layer[node] = 1 + max(layer[p] for p in preds) if preds else 0
    return DivergenceResult(
        nodes=tuple(names),
        ipdom=ipdom,
        branches=tuple(n for n in names if len(succ[n]) == 2),
        trace=tuple(trace),
        issued=issued,
        lane_instructions=lane_work,
        lane_efficiency=lane_work / (params.warp_size * issued) if issued else 1.0,
        regions=tuple(regions),
        max_depth=max_depth,
        volta_runs=tuple(_volta_runs(names[0], EXIT, entry_mask, count, succ, taken_mask,
                                     ipdom)[0]),
        warp_size=params.warp_size,
        layer=layer,
        edges=tuple((e.source, e.target, e.predicate) for e in params.edges),
        instructions=count,
    )


def _region(open_region: dict) -> Region:
    lanes = open_region["mask"].bit_count()
    issued = open_region["issued"]
    return Region(open_region["branch"], open_region["join"], open_region["mask"],
                  open_region["taken"], issued,
                  open_region["work"] / (issued * lanes) if issued else 1.0)


def _volta_runs(start, stop, mask, count, succ, taken_mask, ipdom) -> tuple[list[VoltaRun], int]:
    """The Volta view from ``start`` up to ``stop`` as runs (positions from 0) and its length:
    divergent paths alternate one instruction at a time until both reach the reconvergence
    point, then the longer one finishes alone."""
    runs: list[VoltaRun] = []
    length = 0
    node = start
    while node != stop and node is not EXIT:
        if count[node]:
            runs.append(VoltaRun(node, 0, count[node], mask, length, 1))
            length += count[node]
        out = succ[node]
        if not out:
            break
        if len(out) == 1:
            node = out[0].target
            continue
        taken, other = mask & taken_mask[node], mask & ~taken_mask[node]
        if not taken or not other:
            node = out[0].target if taken else out[1].target
            continue
        join = ipdom[node]
        first, n_first = _volta_runs(out[0].target, join, taken, count, succ, taken_mask, ipdom)
        second, n_second = _volta_runs(out[1].target, join, other, count, succ, taken_mask,
                                       ipdom)
        both = min(n_first, n_second)
        for slot, path in ((0, first), (1, second)):
            for run in path:
                runs.extend(_alternated(run, slot, both, length))
        length += n_first + n_second
        node = join
    return runs, length


def _alternated(run: VoltaRun, slot: int, both: int, offset: int) -> list[VoltaRun]:
    """Where a path's run lands when two paths alternate: its position k goes to 2k + slot
    while both paths have instructions left (k < both), then to both + k; then ``offset``."""
    alternating = min(run.count, max(0, -(-(both - run.first) // run.stride)))
    out = []
    if alternating:
        out.append(VoltaRun(run.node, run.start, alternating, run.mask,
                            offset + 2 * run.first + slot, 2 * run.stride))
    if alternating < run.count:
        out.append(VoltaRun(run.node, run.start + alternating, run.count - alternating,
                            run.mask, offset + both + run.first + alternating * run.stride,
                            run.stride))
    return out


def _ladder(instructions: int = 10_000, warp_size: int = 64) -> dict:
    """64 blocks, 124 edges: an entry, 31 layers of two blocks that each branch to both blocks
    of the next layer, and an exit block; the lanes split into ever smaller paths and every
    block runs once per path that reaches it."""
    nodes = [{"name": "entry", "instructions": instructions}]
    edges = []
    before = ["entry"]
    for i in range(1, 32):
        layer = [f"a{i}", f"c{i}"]
        nodes += [{"name": name, "instructions": instructions} for name in layer]
        for j, source in enumerate(before):
            edges.append({"source": source, "target": layer[0],
                          "predicate": f"lane // {2 ** ((i - 1 + j) % 6)} % 2 == 0"})
            edges.append({"source": source, "target": layer[1], "predicate": ""})
        before = layer
    nodes.append({"name": "end", "instructions": instructions})
    edges += [{"source": source, "target": "end", "predicate": ""} for source in before]
    return {"nodes": nodes, "edges": edges, "warp_size": warp_size}


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("ladder, 64 blocks × 10000 instr.", _ladder()),
        ("ladder, warp 32", _ladder(10_000, 32)),
    ]
