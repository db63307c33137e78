"""The expression language's grammar: its limits, operators and names, and the checker that
accepts a parsed tree or raises :class:`ExprError` at the offending character (see
:mod:`gpuviz.models.expr`)."""

import ast
import difflib
from typing import Any, Literal

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

ARITH: dict[type[ast.operator], tuple[str, Any]] = {
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
COMPARE = {
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


class ColumnShift(ast.NodeTransformer):
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


class Checker:
    """Walks a parsed expression and refuses, with the character position, what the language
    does not allow: unknown names, operators outside its set, constants and shifts out of range."""

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
            if op not in ARITH:
                raise self.fail(node, "this operator is not allowed")
            sym = ARITH[op][0]
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
                if type(cmp) not in COMPARE:
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
