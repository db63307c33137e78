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
import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, cast

import numpy as np

MAX_LENGTH = 500
MAX_DEPTH = 50  # parentheses and brackets inside one another
MAX_TREE_DEPTH = 120  # operators inside one another (a long flat sum is fine)
MAX_CONSTANT = 2**62
MAX_SHIFT = 62

#: The names that lane expressions may use (per-lane launch coordinates).
LANE_NAMES: tuple[str, ...] = (
    "lane", "warp", "tid",
    "threadIdx.x", "threadIdx.y", "threadIdx.z",
    "blockIdx.x", "blockIdx.y", "blockIdx.z",
    "blockDim.x", "blockDim.y", "blockDim.z",
)

_ARITH: dict[type[ast.operator], tuple[str, Any]] = {
    ast.Add: ("+", np.add),
    ast.Sub: ("-", np.subtract),
    ast.Mult: ("*", np.multiply),
    ast.FloorDiv: ("//", np.floor_divide),
    ast.Mod: ("%", np.remainder),
    ast.LShift: ("<<", np.left_shift),
    ast.RShift: (">>", np.right_shift),
    ast.BitAnd: ("&", np.bitwise_and),
    ast.BitOr: ("|", np.bitwise_or),
    ast.BitXor: ("^", np.bitwise_xor),
}
_COMPARE = {
    ast.Lt: np.less, ast.LtE: np.less_equal, ast.Eq: np.equal,
    ast.NotEq: np.not_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
}
_REJECTED_BINOPS = {ast.Pow: "**", ast.Div: "/", ast.MatMult: "@"}

Kind = Literal["int", "bool"]


class ExprError(ValueError):
    """A rejected or failing expression. ``position`` is the 0-based character offset;
    ``reason`` is the sentence without the position."""

    def __init__(self, reason: str, position: int) -> None:
        self.reason = reason
        self.position = max(0, int(position))
        super().__init__(f"{reason} (at character {self.position + 1})")


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


def parse(text: str, names: Iterable[str]) -> Expr:
    """Parse and check ``text``; ``names`` are the variable names it may use. (Cached: a
    scenario's steps check the same expressions again and again.)"""
    if not isinstance(text, str):
        raise ExprError("an expression must be text", 0)
    return _parse(text, frozenset(names))


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
        tree = _Shift(lead).visit(tree)
    checker = _Checker(allowed, text)
    kind = checker.check(tree, 1)
    return Expr(text, kind, frozenset(checker.used), tree, _compile_fast(tree),
                _compile_bounds(tree))


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


def dotted_name(node: ast.expr) -> str | None:
    """``threadIdx.x`` for an attribute chain over a plain name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class _Shift(ast.NodeTransformer):
    """Moves column offsets right by the leading blanks that were stripped before parsing."""

    def __init__(self, by: int) -> None:
        self.by = by

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if hasattr(node, "col_offset"):
            node.col_offset += self.by
        return super().generic_visit(node)


def _describe(node: ast.AST) -> str:
    names = {
        ast.Call: "a function call", ast.Attribute: "an attribute", ast.Subscript: "indexing",
        ast.Lambda: "a lambda", ast.IfExp: "an if-expression", ast.Dict: "a dictionary",
        ast.List: "a list", ast.Tuple: "a tuple", ast.Set: "a set", ast.Starred: "a star",
        ast.NamedExpr: "an assignment", ast.JoinedStr: "a string", ast.ListComp: "a comprehension",
        ast.GeneratorExp: "a generator", ast.SetComp: "a comprehension",
        ast.DictComp: "a comprehension", ast.Await: "await", ast.Yield: "yield",
        ast.YieldFrom: "yield", ast.Slice: "a slice",
    }
    return names.get(type(node), type(node).__name__)


class _Checker:
    def __init__(self, allowed: frozenset[str], text: str) -> None:
        self.allowed = allowed
        self.text = text
        self.used: set[str] = set()

    def pos(self, node: ast.AST) -> int:
        return getattr(node, "col_offset", 0)

    def fail(self, node: ast.AST, reason: str) -> ExprError:
        return ExprError(reason, self.pos(node))

    def need(self, node: ast.expr, kind: Kind, depth: int, what: str) -> None:
        got = self.check(node, depth)
        if got != kind:
            if kind == "int":
                raise self.fail(node, f"{what} needs a number, not a comparison or a "
                                      "truth value")
            raise self.fail(node, f"{what} needs a condition such as 'lane < 16', not a number")

    def check(self, node: ast.expr, depth: int) -> Kind:
        if depth > MAX_TREE_DEPTH:
            raise self.fail(node, f"operators are nested more than {MAX_TREE_DEPTH} deep")
        d = depth + 1
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool) or v is None or v is Ellipsis:
                raise self.fail(node, f"{v!r} is not allowed; write a comparison or an integer")
            if isinstance(v, int):
                if abs(v) > MAX_CONSTANT:
                    raise self.fail(node, "this integer is too large; constants are limited "
                                          "to ±2**62")
                return "int"
            if isinstance(v, float):
                raise self.fail(node, "only integers are allowed, not decimal numbers")
            if isinstance(v, (str, bytes)):
                raise self.fail(node, "text is not allowed in an expression")
            raise self.fail(node, f"{type(v).__name__} values are not allowed")
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = dotted_name(node)
            if name is None or name not in self.allowed:
                shown = name if name is not None else "this attribute"
                close = difflib.get_close_matches(name or "", sorted(self.allowed), n=1)
                allowed = ", ".join(sorted(self.allowed)) or "none"
                extra = f"; did you mean {close[0]!r}?" if close else f"; allowed names: {allowed}"
                raise self.fail(node, f"{shown!r} is not a name this expression may use{extra}")
            self.used.add(name)
            return "int"
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                self.need(node.operand, "bool", d, "'not'")
                return "bool"
            self.need(node.operand, "int", d, "this sign")
            return "int"
        if isinstance(node, ast.BinOp):
            op = type(node.op)
            if op in _REJECTED_BINOPS:
                banned = _REJECTED_BINOPS[op]
                hint = " (use // for integer division)" if banned == "/" else ""
                raise ExprError(f"the operator {banned} is not allowed{hint}",
                                operator_position(self.text, node, banned))
            if op not in _ARITH:
                raise self.fail(node, "this operator is not allowed")
            sym = _ARITH[op][0]
            # the left operand of ``a + b + c`` is ``a + b``: a chain, not nesting
            self.need(node.left, "int", depth, f"'{sym}'")
            self.need(node.right, "int", d, f"'{sym}'")
            if op in (ast.LShift, ast.RShift):
                amount = _constant_value(node.right)
                if amount is not None and not 0 <= amount <= MAX_SHIFT:
                    raise self.fail(node.right, f"a shift by {amount} is outside 0…{MAX_SHIFT}")
            if op in (ast.FloorDiv, ast.Mod) and _constant_value(node.right) == 0:
                raise self.fail(node.right, "division by zero")
            return "int"
        if isinstance(node, ast.Compare):
            if len(node.comparators) > 4:
                raise self.fail(node, "too many chained comparisons")
            for cmp in node.ops:
                if type(cmp) not in _COMPARE:
                    raise self.fail(node, "only < <= == != > >= comparisons are allowed")
            self.need(node.left, "int", d, "a comparison")
            for c in node.comparators:
                self.need(c, "int", d, "a comparison")
            return "bool"
        if isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            for operand in node.values:
                self.need(operand, "bool", d, f"'{word}'")
            return "bool"
        if isinstance(node, ast.Call):
            fname = node.func.id if isinstance(node.func, ast.Name) else None
            if fname not in ("min", "max"):
                raise self.fail(node, "only min(…) and max(…) may be called")
            if node.keywords:
                raise self.fail(node.keywords[0].value, f"{fname}(…) takes no named arguments")
            for a in node.args:
                if isinstance(a, ast.Starred):
                    raise self.fail(a, "a star is not allowed")
            if len(node.args) < 2:
                raise self.fail(node, f"{fname}(…) needs at least two numbers")
            for a in node.args:
                self.need(a, "int", d, f"{fname}(…)")
            return "int"
        raise self.fail(node, f"{_describe(node)} is not allowed in an expression")


def operator_position(text: str, node: ast.BinOp, symbol: str) -> int:
    """Where a binary operator's symbol is: its first occurrence after the left operand."""
    after = getattr(node.left, "end_col_offset", None) or node.col_offset
    found = text.find(symbol, after)
    return found if found >= 0 else node.col_offset


def _constant_value(node: ast.expr) -> int | None:
    """The integer value of a literal (or a negated literal), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, int)):
        return -int(node.operand.value)
    return None


class _Unsafe(Exception):
    pass


def _provably_safe(expr: Expr, ranges: Mapping[str, tuple[int, int]]) -> bool:
    if expr._bounds is None:
        return False
    try:
        expr._bounds(ranges)
    except _Unsafe:
        return False
    return True


def _compile_bounds(node: ast.expr) -> Callable[[Mapping[str, tuple[int, int]]], Any]:
    """Interval arithmetic on Python integers, compiled once per expression: given the range of
    every name, the (low, high) range of the expression (None for a truth value), raising
    _Unsafe where some lane could divide by zero, shift out of range or leave ±2**62."""
    if isinstance(node, ast.Constant):
        const = (int(node.value), int(node.value))  # type: ignore[arg-type]
        return lambda r: const
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = cast(str, dotted_name(node))
        return lambda r: r[name]
    if isinstance(node, ast.UnaryOp):
        inner = _compile_bounds(node.operand)
        if isinstance(node.op, (ast.UAdd, ast.Not)):
            return inner
        if isinstance(node.op, ast.USub):
            return lambda r: _fits((-inner(r)[1], -inner(r)[0]))
        return lambda r: _fits((~inner(r)[1], ~inner(r)[0]))
    if isinstance(node, ast.BinOp):
        op = type(node.op)
        left, right = _compile_bounds(node.left), _compile_bounds(node.right)
        return lambda r: _fits(_interval(op, left(r), right(r)))
    if isinstance(node, ast.Call):
        args = [_compile_bounds(a) for a in node.args]
        pick = min if node.func.id == "min" else max  # type: ignore[attr-defined]

        def call(r: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
            got = [a(r) for a in args]
            return pick(g[0] for g in got), pick(g[1] for g in got)
        return call
    parts = ([node.left, *node.comparators] if isinstance(node, ast.Compare)
             else list(node.values) if isinstance(node, ast.BoolOp) else None)
    if parts is None:
        def unknown(r: Mapping[str, tuple[int, int]]) -> Any:
            raise _Unsafe
        return unknown
    compiled = [_compile_bounds(p) for p in parts]

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
            raise _Unsafe
        if op is ast.Mod:
            return min(0, l2 + 1), max(0, h2 - 1)
        corners = (l1 // l2, l1 // h2, h1 // l2, h1 // h2)
        return min(corners), max(corners)
    if op in (ast.LShift, ast.RShift):
        if l2 < 0 or h2 > MAX_SHIFT:
            raise _Unsafe
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


def _compile_fast(node: ast.expr) -> Callable[[Mapping[str, np.ndarray]], Any]:
    """Plain numpy evaluation without checks, compiled once per expression to closures; used
    only where :func:`_compile_bounds` proved that nothing can fail or wrap."""
    if isinstance(node, ast.Constant):
        const = np.int64(node.value)  # type: ignore[arg-type]
        return lambda v: const
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = cast(str, dotted_name(node))
        return lambda v: v[name]
    if isinstance(node, ast.UnaryOp):
        inner = _compile_fast(node.operand)
        fn: Any = {ast.Not: np.logical_not, ast.USub: np.negative, ast.Invert: np.invert}.get(
            type(node.op))
        return inner if fn is None else (lambda v: fn(inner(v)))
    if isinstance(node, ast.BinOp):
        arith: Any = _ARITH[type(node.op)][1]
        left, right = _compile_fast(node.left), _compile_fast(node.right)
        return lambda v: arith(left(v), right(v))
    if isinstance(node, ast.Compare):
        first = _compile_fast(node.left)
        rest = [(_COMPARE[type(op)], _compile_fast(c)) for op, c in zip(node.ops, node.comparators,
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
            items = [_compile_fast(x) for x in node.values]
        else:
            combine = np.minimum if node.func.id == "min" else np.maximum  # type: ignore[attr-defined]
            items = [_compile_fast(x) for x in node.args]

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
        raise _Unsafe
    return r


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
                part = _COMPARE[type(op)](left, right)
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
        sym, fn = _ARITH[op]
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
