"""Fast evaluation of an expression, when it is provably safe: interval arithmetic over the
names' ranges shows that no lane can divide by zero, shift out of range or leave ±2**62, and
then plain int64 numpy closures compute it (see :func:`gpuviz.models.expr.evaluate`)."""

import ast
from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np

from gpuviz.models.expr_grammar import (
    ARITH,
    COMPARE,
    MAX_CONSTANT,
    MAX_SHIFT,
    ExprError,
    dotted_name,
)


class UnsafeOnSomeLane(Exception):
    """Some lane could divide by zero, shift out of range or leave ±2**62: take the checked path."""


def compile_bounds(node: ast.expr) -> Callable[[Mapping[str, tuple[int, int]]], Any]:
    """Interval arithmetic on Python integers, compiled once per expression: given the range of
    every name, the (low, high) range of the expression (None for a truth value), raising
    UnsafeOnSomeLane where some lane could divide by zero, shift out of range or leave ±2**62."""
    if isinstance(node, ast.Constant):
        const = (int(node.value), int(node.value))  # type: ignore[arg-type]
        return lambda r: const
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = cast(str, dotted_name(node))
        return lambda r: r[name]
    if isinstance(node, ast.UnaryOp):
        inner = compile_bounds(node.operand)
        if isinstance(node.op, (ast.UAdd, ast.Not)):
            return inner
        if isinstance(node.op, ast.USub):
            return lambda r: _fits((-inner(r)[1], -inner(r)[0]))
        return lambda r: _fits((~inner(r)[1], ~inner(r)[0]))
    if isinstance(node, ast.BinOp):
        op = type(node.op)
        left, right = compile_bounds(node.left), compile_bounds(node.right)
        return lambda r: _fits(_interval(op, left(r), right(r)))
    if isinstance(node, ast.Call):
        args = [compile_bounds(a) for a in node.args]
        pick = min if node.func.id == "min" else max  # type: ignore[attr-defined]

        def call(r: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
            got = [a(r) for a in args]
            return pick(g[0] for g in got), pick(g[1] for g in got)
        return call
    parts = ([node.left, *node.comparators] if isinstance(node, ast.Compare)
             else list(node.values) if isinstance(node, ast.BoolOp) else None)
    if parts is None:
        def unknown(r: Mapping[str, tuple[int, int]]) -> Any:
            raise UnsafeOnSomeLane
        return unknown
    compiled = [compile_bounds(p) for p in parts]

    def each(r: Mapping[str, tuple[int, int]]) -> None:
        for c in compiled:
            c(r)
    return each


def _interval(op: type, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (l1, h1), (l2, h2) = a, b
    if op is ast.Add:
        return l1 + l2, h1 + h2
    if op is ast.Sub:
        return l1 - h2, h1 - l2
    if op is ast.Mult:
        corners = (l1 * l2, l1 * h2, h1 * l2, h1 * h2)
        return min(corners), max(corners)
    if op in (ast.FloorDiv, ast.Mod):
        if l2 <= 0 <= h2:
            raise UnsafeOnSomeLane
        if op is ast.Mod:
            return min(0, l2 + 1), max(0, h2 - 1)
        corners = (l1 // l2, l1 // h2, h1 // l2, h1 // h2)
        return min(corners), max(corners)
    if op in (ast.LShift, ast.RShift):
        if l2 < 0 or h2 > MAX_SHIFT:
            raise UnsafeOnSomeLane
        if op is ast.LShift:
            corners = (l1 << l2, l1 << h2, h1 << l2, h1 << h2)
        else:
            corners = (l1 >> l2, l1 >> h2, h1 >> l2, h1 >> h2)
        return min(corners), max(corners)
    if op is ast.BitAnd and l1 >= 0 and l2 >= 0:
        return 0, min(h1, h2)
    # & | ^ in general: within the two's-complement width of the widest operand
    width = max(abs(v) for v in (l1, h1, l2, h2)).bit_length()
    return -(1 << width), (1 << width) - 1


def compile_fast(node: ast.expr) -> Callable[[Mapping[str, np.ndarray]], Any]:
    """Plain numpy evaluation without checks, compiled once per expression to closures; used
    only where :func:`compile_bounds` proved that nothing can fail or wrap."""
    if isinstance(node, ast.Constant):
        const = np.int64(node.value)  # type: ignore[arg-type]
        return lambda v: const
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = cast(str, dotted_name(node))
        return lambda v: v[name]
    if isinstance(node, ast.UnaryOp):
        inner = compile_fast(node.operand)
        fn: Any = {ast.Not: np.logical_not, ast.USub: np.negative, ast.Invert: np.invert}.get(
            type(node.op))
        return inner if fn is None else (lambda v: fn(inner(v)))
    if isinstance(node, ast.BinOp):
        arith: Any = ARITH[type(node.op)][1]
        left, right = compile_fast(node.left), compile_fast(node.right)
        return lambda v: arith(left(v), right(v))
    if isinstance(node, ast.Compare):
        first = compile_fast(node.left)
        rest = [(COMPARE[type(op)], compile_fast(c)) for op, c in zip(node.ops, node.comparators,
                                                                        strict=True)]

        def compare(v: Mapping[str, np.ndarray]) -> np.ndarray:
            left, out = first(v), None
            for fn, comp in rest:
                right = comp(v)
                part = fn(left, right)
                out = part if out is None else np.logical_and(out, part)
                left = right
            return out  # type: ignore[return-value]
        return compare
    if isinstance(node, (ast.BoolOp, ast.Call)):
        combine: Any
        if isinstance(node, ast.BoolOp):
            combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            items = [compile_fast(x) for x in node.values]
        else:
            combine = np.minimum if node.func.id == "min" else np.maximum  # type: ignore[attr-defined]
            items = [compile_fast(x) for x in node.args]

        def fold(v: Mapping[str, np.ndarray]) -> np.ndarray:
            out = items[0](v)
            for item in items[1:]:
                out = combine(out, item(v))
            return out
        return fold

    def unknown(v: Mapping[str, np.ndarray]) -> Any:
        raise ExprError("unexpected expression", getattr(node, "col_offset", 0))
    return unknown


def _fits(r: tuple[int, int]) -> tuple[int, int]:
    if r[0] < -MAX_CONSTANT or r[1] > MAX_CONSTANT:
        raise UnsafeOnSomeLane
    return r
