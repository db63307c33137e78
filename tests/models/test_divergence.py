"""Divergence: immediate post-dominators, the SIMT stack, and lane efficiency."""

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gpuviz.models.divergence import (
    DivergenceParams,
    EdgeParams,
    NodeParams,
    compute,
    immediate_post_dominators,
    problems,
)

N, E = NodeParams, EdgeParams


def if_else(predicate: str, n_then: int = 4, n_else: int = 4, head: int = 0, tail: int = 0):
    return DivergenceParams(
        nodes=(N("entry", head), N("then", n_then), N("else", n_else), N("join", tail)),
        edges=(E("entry", "then", predicate), E("entry", "else"), E("then", "join"),
               E("else", "join")))


def lanes_of(mask: int) -> str:
    return f"({mask} >> lane) & 1 == 1"


def nest(outer: str, inner_x: str, inner_y: str, n: int = 3) -> DivergenceParams:
    return DivergenceParams(
        nodes=(N("outer", 0), N("x", 0), N("x1", n), N("x2", n), N("xj", 0), N("y", 0),
               N("y1", n), N("y2", n), N("yj", 0), N("join", 0)),
        edges=(E("outer", "x", outer), E("outer", "y"), E("x", "x1", inner_x), E("x", "x2"),
               E("x1", "xj"), E("x2", "xj"), E("xj", "join"), E("y", "y1", inner_y),
               E("y", "y2"), E("y1", "yj"), E("y2", "yj"), E("yj", "join")))


def test_ipdom_of_a_diamond_is_its_join():
    ipdom = immediate_post_dominators(["a", "b", "c", "d"],
                                      [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
    assert ipdom == {"a": "d", "b": "d", "c": "d", "d": None}


def test_ipdom_of_an_if_without_else_is_the_fall_through():
    ipdom = immediate_post_dominators(["a", "b", "c"], [("a", "b"), ("a", "c"), ("b", "c")])
    assert ipdom["a"] == "c"


def test_paths_that_exit_separately_reconverge_at_the_exit():
    ipdom = immediate_post_dominators(["a", "b", "c"], [("a", "b"), ("a", "c")])
    assert ipdom["a"] is None


def test_half_split_pushes_two_entries_and_pops_them_at_the_join():
    r = compute(if_else("lane < 16"))
    ops = [(e.op, e.node) for e in r.trace]
    assert ops == [("push", "else"), ("push", "then"), ("issue", "then"), ("pop", "join"),
                   ("issue", "else"), ("pop", "join"), ("pop", None)]
    pushes = [e for e in r.trace if e.op == "push"]
    assert [e.reconverge for e in pushes] == ["join", "join"]
    assert [e.mask for e in pushes] == [0xFFFF0000, 0x0000FFFF]
    assert r.max_depth == 3


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 2**32 - 2), st.integers(1, 20))
def test_equal_paths_give_50_percent_whatever_the_split(mask, n):
    r = compute(if_else(lanes_of(mask), n, n))
    assert r.issued == 2 * n
    assert r.lane_efficiency == 0.5
    assert r.regions[0].lane_efficiency == 0.5


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2**32 - 2), st.integers(0, 12), st.integers(0, 12))
def test_region_efficiency_follows_the_seed_formula(mask, nx, ny):
    r = compute(if_else(lanes_of(mask), nx, ny, head=3, tail=2))
    if nx + ny == 0:
        return
    p = mask.bit_count() / 32
    assert r.regions[0].lane_efficiency == pytest.approx((p * nx + (1 - p) * ny) / (nx + ny))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 31), st.integers(1, 2**32 - 2))
def test_two_level_nest_compounds_multiplicatively(split, inner):
    x_lanes = (1 << split) - 1
    y_lanes = 0xFFFFFFFF ^ x_lanes
    assume(0 < inner & x_lanes < x_lanes and 0 < inner & y_lanes < y_lanes)
    r = compute(nest(f"lane < {split}", lanes_of(inner), lanes_of(inner)))
    regions = {g.branch: g for g in r.regions}
    assert regions["x"].lane_efficiency == 0.5
    assert regions["y"].lane_efficiency == 0.5
    assert regions["outer"].lane_efficiency == 0.5 * 0.5
    assert r.lane_efficiency == 0.25


def test_nest_of_halves_is_a_quarter():
    r = compute(nest("lane < 16", "lane % 2 == 0", "lane % 2 == 0"))
    assert r.lane_efficiency == 0.25
    assert {g.branch: g.lane_efficiency for g in r.regions} == {"outer": 0.25, "x": 0.5, "y": 0.5}


def test_uniform_branch_jumps_without_pushing():
    r = compute(if_else("warp < 1"))
    assert [e.op for e in r.trace] == ["jump", "issue", "pop"]
    assert r.lane_efficiency == 1.0
    assert r.regions == ()


def test_entry_mask_limits_the_active_lanes():
    r = compute(DivergenceParams(nodes=(N("a", 2),), edges=(), entry_mask="lane < 20"))
    assert r.trace[0].active == 20
    assert r.lane_efficiency == 20 / 32


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 2**32 - 2), st.integers(1, 2**32 - 1), st.integers(0, 5))
def test_volta_interleaving_issues_the_same_work(outer, inner, n):
    r = compute(nest(lanes_of(outer), lanes_of(inner), lanes_of(inner ^ 0xFFFF), n))
    stack_work = Counter()
    for e in r.trace:
        if e.op == "issue":
            stack_work[(e.node, e.mask)] += e.instructions
    volta_work = Counter((node, mask) for node, _, mask in r.volta_order)
    assert volta_work == stack_work
    assert len(r.volta_order) == r.issued


def test_volta_view_alternates_the_two_paths():
    r = compute(if_else("lane < 16", 3, 3))
    assert [node for node, _, _ in r.volta_order] == ["then", "else"] * 3


def test_problems_name_the_json_path():
    bad = DivergenceParams(
        nodes=(N("a", 1), N("b", 1), N("c", 1)),
        edges=(E("a", "b", "lane <"), E("a", "c"), E("b", "zz")))
    paths = [p for p, _ in problems(bad)]
    assert "edges[0].predicate" in paths
    assert "edges[2].target" in paths


def test_loops_and_wide_branches_are_refused():
    loop = DivergenceParams(nodes=(N("a", 1), N("b", 1)), edges=(E("a", "b"), E("b", "a")))
    assert any("loop" in msg for _, msg in problems(loop))
    wide = DivergenceParams(nodes=(N("a", 1), N("b", 1), N("c", 1), N("d", 1)),
                            edges=(E("a", "b", "lane < 3"), E("a", "c"), E("a", "d")))
    assert any("three" in msg or "3 outgoing" in msg for _, msg in problems(wide))


def test_predicates_must_be_conditions():
    p = if_else("lane + 1")
    assert problems(p)[0][0] == "edges[0].predicate"
