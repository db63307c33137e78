"""The divergence model keeps issue orders as runs: the Volta runs read back one instruction at a
time equal a plain interleaving, and the result stays small however many instructions a block
has."""

from collections import Counter
from itertools import zip_longest

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gpuviz.models.divergence import (
    DivergenceParams,
    EdgeParams,
    NodeParams,
    compute,
    problems,
)
from gpuviz.models.jsonable import to_jsonable

PREDICATES = ("lane < 16", "lane % 2 == 0", "lane % 3 == 1", "lane >= 5", "lane < 40",
              "lane // 4 % 2 == 0", "lane == 7")


def plain_volta_order(r, params):
    """The Volta order written out instruction by instruction: a block's instructions, then at a
    divergent branch both paths alternating one instruction at a time up to the reconvergence
    point, the longer one finishing alone."""
    count = {n.name: n.instructions for n in params.nodes}
    succ: dict[str, list] = {n.name: [] for n in params.nodes}
    for e in params.edges:
        succ[e.source].append(e)
    from gpuviz.models.divergence import _environment, _mask_of

    env = _environment(params)

    def walk(node, stop, mask):
        out = []
        while node != stop and node is not None:
            out += [(node, i, mask) for i in range(count[node])]
            edges = succ[node]
            if not edges:
                break
            if len(edges) == 1:
                node = edges[0].target
                continue
            sel = _mask_of(edges[0].predicate, env)
            taken, other = mask & sel, mask & ~sel
            if not taken or not other:
                node = edges[0].target if taken else edges[1].target
                continue
            join = r.ipdom[node]
            a, b = walk(edges[0].target, join, taken), walk(edges[1].target, join, other)
            for pair in zip_longest(a, b):
                out += [item for item in pair if item is not None]
            node = join
        return out

    full = (1 << params.warp_size) - 1
    entry = _mask_of(params.entry_mask, env) if params.entry_mask else full
    return walk(params.nodes[0].name, None, entry)


@st.composite
def acyclic_graphs(draw):
    n = draw(st.integers(2, 9))
    names = [f"n{i}" for i in range(n)]
    nodes = tuple(NodeParams(name, draw(st.integers(0, 5))) for name in names)
    edges = []
    for i in range(n - 1):
        # the next block is always a target, so that every block is reachable
        second = draw(st.one_of(st.none(), st.sampled_from(names[i + 1:])))
        if second is None or second == names[i + 1]:
            edges.append(EdgeParams(names[i], names[i + 1], ""))
        else:
            pair = [names[i + 1], second]
            if draw(st.booleans()):
                pair.reverse()
            edges.append(EdgeParams(names[i], pair[0], draw(st.sampled_from(PREDICATES))))
            edges.append(EdgeParams(names[i], pair[1], ""))
    warp = draw(st.sampled_from((32, 64)))
    params = DivergenceParams(nodes=nodes, edges=tuple(edges), warp_size=warp,
                              entry_mask=draw(st.sampled_from(("", "lane < 20", "lane % 5 != 0"))))
    assume(not problems(params))
    return params


@settings(max_examples=80, deadline=None)
@given(acyclic_graphs(), st.integers(0, 40), st.integers(0, 40))
def test_volta_runs_read_back_as_the_plain_interleaving(params, lo, width):
    r = compute(params)
    want = plain_volta_order(r, params)
    assert list(r.volta_order) == want
    assert len(r.volta_order) == r.issued == len(want)
    assert r.volta_order[lo:lo + width] == want[lo:lo + width]
    # every run lies inside its block and the runs cover each position exactly once
    positions = Counter()
    for run in r.volta_runs:
        block = params.nodes[[n.name for n in params.nodes].index(run.node)]
        assert run.start >= 0 and run.start + run.count <= block.instructions
        positions.update(run.first + k * run.stride for k in range(run.count))
    assert positions == Counter(range(r.issued))


def ladder(instructions: int, layers: int = 31, warp_size: int = 64) -> DivergenceParams:
    """Two blocks per layer, each branching to both blocks of the next layer: the lanes split
    into ever smaller paths, and every block runs once per path reaching it."""
    nodes = [NodeParams("entry", instructions)]
    edges = []
    before = ["entry"]
    for i in range(1, layers + 1):
        layer = [f"a{i}", f"c{i}"]
        nodes += [NodeParams(name, instructions) for name in layer]
        for j, source in enumerate(before):
            edges.append(EdgeParams(source, layer[0], f"lane // {2 ** ((i - 1 + j) % 6)} % 2 == 0"))
            edges.append(EdgeParams(source, layer[1], ""))
        before = layer
    nodes.append(NodeParams("end", instructions))
    edges += [EdgeParams(source, "end", "") for source in before]
    return DivergenceParams(nodes=tuple(nodes), edges=tuple(edges), warp_size=warp_size)


def test_more_instructions_per_block_scale_the_counts_not_the_result():
    small, large = ladder(3), ladder(10_000)
    assert not problems(large)
    a, b = compute(small), compute(large)
    assert b.issued == a.issued // 3 * 10_000
    assert b.lane_instructions == a.lane_instructions // 3 * 10_000
    assert b.lane_efficiency == a.lane_efficiency
    assert len(b.trace) == len(a.trace)
    # each issue event starts one run, split at most once per enclosing divergent branch
    issues = sum(1 for e in b.trace if e.op == "issue")
    assert len(b.volta_runs) <= issues * (b.max_depth + 1)
    assert [(e.op, e.node, e.mask, e.depth) for e in b.trace] == \
           [(e.op, e.node, e.mask, e.depth) for e in a.trace]
    # the JSON of the result holds runs, not one entry per instruction
    out = to_jsonable(b)
    assert "volta_order" not in out
    assert len(out["volta_runs"]) == len(b.volta_runs)
