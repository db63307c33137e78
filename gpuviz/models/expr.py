"""A small, safe language for per-lane address expressions and lane predicates.

Scenarios describe custom access patterns as arithmetic over lane coordinates
(``lane * 8 + (warp << 5)``, ``threadIdx.y * 33 + threadIdx.x``) and branch conditions as
predicates (``lane < 16``, ``lane % 2 == 0 and not lane < 4``). A scenario never executes code:
the text is parsed with :mod:`ast` and only a whitelist of node types is accepted, then the tree
is evaluated with numpy over whole arrays of lanes at once.

Grammar (Python syntax, a strict subset):

- integer literals (decimal, ``0x``, ``0b``, ``0o``) of magnitude at most 2**62;
- the names the caller allows, dotted ones such as ``threadIdx.x`` included;
- ``+ - * // % << >> & | ^``, unary ``-``, ``+`` and ``~``, parentheses;
- ``min(a, b, …)`` and ``max(a, b, …)``;
- for predicates: ``< <= == != > >=`` (chains such as ``4 <= lane < 12`` included) and
  ``and``, ``or``, ``not``.

Arithmetic is on int64; predicates are bool. An integer is never silently used as a truth value,
and a comparison is never used as a number: each is a clear error. Everything else (attribute
walks, ``__import__``, other calls, strings, floats, ``**``, subscripts, lambdas …) is rejected,
as are texts over :data:`MAX_LENGTH` characters, brackets nested deeper than :data:`MAX_DEPTH`
(or operators deeper than :data:`MAX_TREE_DEPTH`; a chain such as
``a + b + c + …`` written without brackets is one level, however long), constant shifts outside
0…62 and constants beyond ±2**62. At evaluation, division or modulo by zero, shifts outside 0…62
and any intermediate result beyond ±2**62 (of every operator: ``+ - * // % << >> & | ^``, unary
``-`` and ``~``) raise :class:`ExprError` instead of a numpy warning or a wrapped-around value:
near the limit the arithmetic is done exactly, on Python integers, so nothing ever wraps.

Every error is an :class:`ExprError` carrying ``position``, the 0-based character offset of the
offending part of the text; its message says the 1-based character a reader counts to.
"""

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gpuviz.models.expr_fast import UnsafeOnSomeLane, compile_bounds, compile_fast
from gpuviz.models.expr_grammar import (
    ARITH,
    COMPARE,
    LANE_NAMES,
    MAX_CONSTANT,
    MAX_DEPTH,
    MAX_LENGTH,
    MAX_SHIFT,
    MAX_TREE_DEPTH,
    Checker,
    ColumnShift,
    ExprError,
    Kind,
    dotted_name,
    operator_position,
)

__all__ = ["LANE_NAMES", "MAX_CONSTANT", "MAX_DEPTH", "MAX_LENGTH", "MAX_SHIFT", "MAX_TREE_DEPTH",
           "Expr", "ExprError", "evaluate", "lane_environment", "parse"]


@dataclass(frozen=True, eq=False)
class Expr:
    """A parsed, checked expression: evaluate it with :func:`evaluate`."""

    text: str
    kind: Kind  # "int" for arithmetic, "bool" for a predicate
    names: frozenset[str]  # the names it reads
    _tree: ast.expr
    # the tree compiled to closures: unchecked int64 numpy evaluation, and interval bounds
    _fast: "Callable[[Mapping[str, np.ndarray]], np.ndarray] | None" = None
    _bounds: "Callable[[Mapping[str, tuple[int, int]]], tuple[int, int] | None] | None" = None


def parse(text: str, names: Iterable[str], kind: Kind | None = None) -> Expr:
    """Parse and check ``text``; ``names`` are the variable names it may use; ``kind``, when
    given, what the whole expression must be: "int" (a number, such as an element index) or
    "bool" (a condition). A comparison is never taken as the number 1 or 0. (Cached: a
    scenario's steps check the same expressions again and again.)"""
    if not isinstance(text, str):
        raise ExprError("an expression must be text", 0)
    expr = _parse(text, frozenset(names))
    if kind == "int" and expr.kind != "int":
        raise ExprError("this expression is a comparison or a condition (true or false); a "
                        "number is needed here, such as 'lane * 2'", 0)
    if kind == "bool" and expr.kind != "bool":
        raise ExprError("this expression is a number; a condition is needed here, such as "
                        "'lane < 16'", 0)
    return expr


@lru_cache(maxsize=1024)
def _parse(text: str, allowed: frozenset[str]) -> Expr:
    if len(text) > MAX_LENGTH:
        raise ExprError(f"the expression is {len(text)} characters long; "
                        f"at most {MAX_LENGTH} are allowed", MAX_LENGTH)
    for i, ch in enumerate(text):
        if ch in "\r\n":
            raise ExprError("an expression is a single line", i)
        if not (" " <= ch <= "~" or ch == "\t"):
            raise ExprError(f"the character {ch!r} is not allowed in an expression", i)
    if not text.strip():
        raise ExprError("the expression is empty", 0)
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ExprError(f"brackets are nested more than {MAX_DEPTH} deep", i)
        elif ch in ")]}":
            depth -= 1
    try:
        # Leading blanks would be an indentation error; strip them and keep positions right.
        lead = len(text) - len(text.lstrip())
        tree = ast.parse(text.lstrip(), mode="eval").body
    except SyntaxError as e:
        pos = lead + (e.offset - 1 if e.offset else 0)
        raise ExprError(f"this is not a valid expression ({e.msg})",
                        min(pos, max(len(text) - 1, 0))) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("the expression is nested too deeply", 0) from None
    if lead:
        tree = ColumnShift(lead).visit(tree)
    checker = Checker(allowed, text)
    kind = checker.check(tree, 1)
    return Expr(text, kind, frozenset(checker.used), tree, compile_fast(tree),
                compile_bounds(tree))


def evaluate(expr: "Expr | str", env: Mapping[str, "int | np.ndarray"]) -> np.ndarray:
    """The value of ``expr`` for every element of the arrays in ``env`` (numpy broadcasting):
    int64 for arithmetic, bool for a predicate. A text is parsed with ``env``'s names allowed."""
    if isinstance(expr, str):
        expr = parse(expr, env.keys())
    missing = sorted(expr.names - set(env))
    if missing:
        raise ExprError(f"no value is given for {missing[0]!r}", 0)
    values = {n: np.asarray(env[n], dtype=np.int64) for n in expr.names}
    key = (expr.text, expr.kind,
           tuple((n, values[n].shape, values[n].tobytes()) for n in sorted(expr.names)))
    cached = _RESULTS.get(key)
    if cached is None:
        # When interval arithmetic over the names' ranges proves that no lane can divide by
        # zero, shift out of range or leave ±2**62, plain int64 numpy needs no checks; else every
        # operation is checked lane by lane (and exactly near the limit).
        ranges = {n: (int(v.min()), int(v.max())) for n, v in values.items() if v.size}
        safe = len(ranges) == len(values) and _provably_safe(expr, ranges)
        with np.errstate(all="ignore"):
            if safe and expr._fast is not None:
                cached = np.asarray(expr._fast(values))
            else:
                cached = np.asarray(_Evaluator(values, expr.text).eval(expr._tree))
        if len(_RESULTS) >= 4096:
            _RESULTS.clear()
        _RESULTS[key] = cached
    return cached.copy()


#: Results by (text, kind, the values of the names read): a scenario's steps and a branch
#: ladder's edges evaluate the same expressions over the same lanes again and again.
_RESULTS: dict[tuple, np.ndarray] = {}


def _provably_safe(expr: Expr, ranges: Mapping[str, tuple[int, int]]) -> bool:
    if expr._bounds is None:
        return False
    try:
        expr._bounds(ranges)
    except UnsafeOnSomeLane:
        return False
    return True


class _Evaluator:
    """Evaluation with every operation checked for every lane (see :func:`evaluate`)."""

    def __init__(self, values: Mapping[str, np.ndarray], text: str) -> None:
        self.values = values
        self.text = text

    def eval(self, node: ast.expr) -> np.ndarray:
        if isinstance(node, ast.Constant):
            return np.asarray(node.value, dtype=np.int64)
        if isinstance(node, (ast.Name, ast.Attribute)):
            return self.values[dotted_name(node)]  # type: ignore[index]
        if isinstance(node, ast.UnaryOp):
            v = self.eval(node.operand)
            if isinstance(node.op, ast.Not):
                return np.logical_not(v)
            if isinstance(node.op, (ast.USub, ast.Invert)):
                return self.unary(node, v)
            return v
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Compare):
            left = self.eval(node.left)
            out = None
            for op, comp in zip(node.ops, node.comparators, strict=True):
                right = self.eval(comp)
                part = COMPARE[type(op)](left, right)
                out = part if out is None else np.logical_and(out, part)
                left = right
            return out  # type: ignore[return-value]
        if isinstance(node, ast.BoolOp):
            parts = [self.eval(v) for v in node.values]
            join = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            out = parts[0]
            for p in parts[1:]:
                out = join(out, p)
            return out
        if isinstance(node, ast.Call):
            args = [self.eval(a) for a in node.args]
            pick = np.minimum if node.func.id == "min" else np.maximum  # type: ignore[attr-defined]
            out = args[0]
            for a in args[1:]:
                out = pick(out, a)
            return out
        raise ExprError("unexpected expression", getattr(node, "col_offset", 0))

    def binop(self, node: ast.BinOp) -> np.ndarray:
        # as arrays: a ufunc over 0-d operands (constants, ``max(0, 5)``) gives a numpy scalar,
        # whose ``astype(object)`` is a Python int that numpy would multiply back in int64
        left, right = np.asarray(self.eval(node.left)), np.asarray(self.eval(node.right))
        op = type(node.op)
        sym, fn = ARITH[op]
        pos = operator_position(self.text, node, sym)
        if op in (ast.FloorDiv, ast.Mod) and np.any(right == 0):
            raise ExprError(f"division by zero in '{sym}' for some lanes", pos)
        if op in (ast.LShift, ast.RShift) and np.any((right < 0) | (right > MAX_SHIFT)):
            raise ExprError(f"a shift amount is outside 0…{MAX_SHIFT} for some lanes", pos)
        # Operands are within ±2**62. ``* <<`` can leave int64: estimate in floating point and,
        # near the limit, compute exactly on Python integers. The others cannot wrap unseen
        # (``|`` and ``^`` stay below 2**63 in magnitude, ``-2**62 // -1`` is 2**62).
        if op in (ast.Add, ast.Sub):
            # within ±2**63 and exact, except 2**63 itself, which wraps to −2**63: both are
            # caught as out of range below
            return self.checked(np.asarray(fn(left, right)), sym, pos)
        if op in (ast.Mult, ast.LShift):
            lf, rf = left.astype(np.float64), right.astype(np.float64)
            est = lf * rf if op is ast.Mult else lf * np.exp2(rf)
            if np.any(np.abs(est) > _SAFE):
                exact = fn(np.asarray(left, dtype=object), np.asarray(right, dtype=object))
                return self.checked(np.asarray(exact, dtype=object), sym, pos)
        return self.checked(np.asarray(fn(left, right)), sym, pos)

    def unary(self, node: ast.UnaryOp, v: np.ndarray) -> np.ndarray:
        sym = "-" if isinstance(node.op, ast.USub) else "~"
        out = np.negative(v) if sym == "-" else np.invert(v)
        return self.checked(np.asarray(out), sym, node.col_offset)

    @staticmethod
    def checked(values: np.ndarray, sym: str, pos: int) -> np.ndarray:
        """``values`` as int64 when every one is within ±2**62, else an ExprError."""
        if values.dtype == object:
            big = any(abs(int(v)) > MAX_CONSTANT for v in values.flat)
        else:
            big = bool(np.any((values > MAX_CONSTANT) | (values < -MAX_CONSTANT)))
        if big:
            raise ExprError(f"the result of '{sym}' is too large (beyond ±2**62) for some lanes",
                            pos)
        return values.astype(np.int64)


#: Float estimates below this are far from int64's limit (their rounding error is < 2**10).
_SAFE = float(2**61)


def lane_environment(
    lanes: np.ndarray,
    *,
    warp: int = 0,
    warp_size: int = 32,
    block_idx: tuple[int, ...] = (0, 0, 0),
    block_dim: tuple[int, ...] = (32, 1, 1),
) -> dict[str, np.ndarray]:
    """The values of :data:`LANE_NAMES` for the given lanes of one warp.

    ``tid`` is the linear thread id within the block (``warp · warp_size + lane``) and
    ``threadIdx`` unflattens it with x fastest (CUDA C++ Programming Guide, *Thread Hierarchy*)."""
    lane = np.asarray(lanes, dtype=np.int64)
    tid = warp * warp_size + lane
    bx, by, _ = block_dim
    const = np.zeros_like(lane)
    return {
        "lane": lane, "warp": const + warp, "tid": tid,
        "threadIdx.x": tid % bx, "threadIdx.y": (tid // bx) % by, "threadIdx.z": tid // (bx * by),
        "blockIdx.x": const + block_idx[0], "blockIdx.y": const + block_idx[1],
        "blockIdx.z": const + block_idx[2],
        "blockDim.x": const + block_dim[0], "blockDim.y": const + block_dim[1],
        "blockDim.z": const + block_dim[2],
    }
