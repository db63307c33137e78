"""The expression evaluator never wraps around and never fails later than validation: compared
with an independent exact interpreter on Python integers, over random expressions."""

from __future__ import annotations

import ast
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.expr import MAX_TREE_DEPTH, ExprError, evaluate, parse

LIMIT = 2**62
LANES = np.arange(64, dtype=np.int64)
NAMES = ("lane", "warp")


class Fails(Exception):
    pass


def _fit(v: int) -> int:
    if abs(v) > LIMIT:
        raise Fails
    return v


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.LShift: operator.lshift,
        ast.RShift: operator.rshift, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
        ast.BitXor: operator.xor}
_CMP = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Eq: operator.eq, ast.NotEq: operator.ne,
        ast.Gt: operator.gt, ast.GtE: operator.ge}


def exact(node: ast.AST, env: dict[str, int]):
    """Python integers, every intermediate result within ±2**62, every part evaluated."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        v = exact(node.operand, env)
        if isinstance(node.op, ast.Not):
            return not v
        return _fit(-v) if isinstance(node.op, ast.USub) else _fit(~v) if isinstance(
            node.op, ast.Invert) else v
    if isinstance(node, ast.BinOp):
        a, b = exact(node.left, env), exact(node.right, env)
        op = type(node.op)
        if op in (ast.FloorDiv, ast.Mod) and b == 0:
            raise Fails
        if op in (ast.LShift, ast.RShift) and not 0 <= b <= 62:
            raise Fails
        return _fit(_OPS[op](a, b))
    if isinstance(node, ast.Compare):
        values = [exact(node.left, env)] + [exact(c, env) for c in node.comparators]
        return all(_CMP[type(op)](values[i], values[i + 1]) for i, op in enumerate(node.ops))
    if isinstance(node, ast.BoolOp):
        parts = [exact(v, env) for v in node.values]
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    if isinstance(node, ast.Call):
        args = [exact(a, env) for a in node.args]
        return min(args) if node.func.id == "min" else max(args)
    raise AssertionError(ast.dump(node))


def reference(text: str, warp: int) -> list | None:
    tree = ast.parse(text, mode="eval").body
    try:
        return [exact(tree, {"lane": lane, "warp": warp}) for lane in range(64)]
    except Fails:
        return None


leaves = st.one_of(
    st.sampled_from(["lane", "warp", "lane", "0", "1", "3", "62", "63"]),
    st.integers(-(2**62), 2**62).map(lambda v: f"({v})"),
    st.sampled_from([str(2**61), str(2**62), str(2**62 - 1), str(2**31)]),
)
OPS = ["+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^"]


def _binary(children):
    return st.tuples(children, st.sampled_from(OPS), children).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")


def _unary(children):
    return st.tuples(st.sampled_from(["-", "~"]), children).map(lambda t: f"{t[0]}{t[1]}")


def _call(children):
    return st.tuples(st.sampled_from(["min", "max"]), children, children).map(
        lambda t: f"{t[0]}({t[1]}, {t[2]})")


numbers = st.recursive(leaves, lambda c: st.one_of(_binary(c), _unary(c), _call(c)),
                       max_leaves=12)
predicates = st.tuples(numbers, st.sampled_from(["<", "<=", "==", "!=", ">", ">="]), numbers).map(
    lambda t: f"{t[0]} {t[1]} {t[2]}")


@settings(max_examples=400)
@given(text=st.one_of(numbers, predicates), warp=st.sampled_from([0, 1, 5, 1023]))
def test_matches_an_exact_interpreter_or_fails_exactly_when_it_does(text, warp):
    try:
        expr = parse(text, ("lane", "warp"))
    except ExprError:
        return  # refused as written (a constant shift or division by zero, a huge literal)
    want = reference(text, warp)
    env = {"lane": LANES, "warp": np.full(64, warp, dtype=np.int64)}
    if want is None:
        with pytest.raises(ExprError):
            evaluate(expr, env)
    else:
        got = np.broadcast_to(evaluate(expr, env), (64,)).tolist()
        assert got == want


@pytest.mark.parametrize("text", [
    f"{2**62} + lane",  # the sectors example: was 0 for every lane
    f"{2**62} | lane",
    f"~{2**62}",
    f"-(-{2**62}) + lane",
    f"-{2**62} - lane",
    f"lane * {2**61} * 4",
    "(lane + 1) << 62",
    f"-(-{2**62} - lane)",
    f"{2**62} - -lane",
    f"max(0, {2**61}) * max(0, {2**61})",  # constants folded by min/max are numpy scalars
    f"min({2**40}, lane + {2**40}) << 30",
])
def test_no_operator_wraps(text):
    with pytest.raises(ExprError, match="too large"):
        evaluate(text, {"lane": LANES})


@pytest.mark.parametrize("text,want", [
    (f"-{2**62} // -1", 2**62),
    (f"{2**62} % (lane + 1)", None),
    (f"{2**62 - 1} + 1", 2**62),
    (f"~(-{2**62})", 2**62 - 1),
])
def test_values_right_at_the_limit_are_exact(text, want):
    got = np.broadcast_to(evaluate(text, {"lane": LANES}), (64,)).tolist()
    want = [2 ** 62 % (i + 1) for i in range(64)] if want is None else [want] * 64
    assert got == want


@pytest.mark.parametrize("text,where", [
    ("lane // (lane - 7)", 5), ("lane % (lane & 1)", 5), ("1 << (lane + 40)", 2),
    ("lane >> (lane - 1)", 5),
])
def test_run_time_failures_say_where(text, where):  # where: 0-based offset of the operator
    with pytest.raises(ExprError, match="for some lanes") as info:
        evaluate(text, {"lane": LANES})
    assert info.value.position == where


def test_a_long_flat_sum_is_not_deep():
    text = "lane+" + "+".join(["1"] * 240)  # 241 terms: was "nested more than 120 deep"
    assert len(text) <= 500
    assert evaluate(text, {"lane": LANES}).tolist() == [i + 240 for i in range(64)]
    long_minus = "-".join(["1"] * 240)
    assert int(evaluate(long_minus, {})) == 1 - 239


def test_real_nesting_is_still_limited():
    with pytest.raises(ExprError, match=f"nested more than {MAX_TREE_DEPTH} deep"):
        parse("-" * (MAX_TREE_DEPTH + 5) + "lane", ("lane",))
    with pytest.raises(ExprError, match="brackets are nested"):
        parse("(" * 60 + "lane" + ")" * 60, ("lane",))
