"""The safe expression evaluator: what it computes, and what it refuses."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.expr import (
    LANE_NAMES,
    MAX_LENGTH,
    ExprError,
    evaluate,
    parse,
)

LANES = np.arange(32, dtype=np.int64)


def lanes_env(**extra):
    env = {"lane": LANES, "warp": 0}
    env.update(extra)
    return env


def test_stride_expression_gives_one_address_per_lane():
    out = evaluate("lane * 8 + 4", lanes_env())
    assert out.dtype == np.int64
    assert out.tolist() == [8 * i + 4 for i in range(32)]


def test_all_arithmetic_operators_match_python_integers():
    text = "((lane * 7 + 3) // 2 - (lane % 5)) ^ (lane << 3) | (lane >> 1) & ~lane"
    got = evaluate(text, lanes_env())
    want = [((i * 7 + 3) // 2 - (i % 5)) ^ (i << 3) | (i >> 1) & ~i for i in range(32)]
    assert got.tolist() == want


def test_floor_division_and_modulo_follow_python_for_negative_numbers():
    got = evaluate("(lane - 16) // 3 * 100 + (lane - 16) % 3", lanes_env())
    assert got.tolist() == [(i - 16) // 3 * 100 + (i - 16) % 3 for i in range(32)]


def test_min_and_max_take_two_or_more_arguments():
    assert evaluate("min(lane, 10)", lanes_env()).tolist() == [min(i, 10) for i in range(32)]
    assert evaluate("max(lane, 4, 3)", lanes_env()).tolist() == [max(i, 4) for i in range(32)]


def test_dotted_launch_coordinates_are_names():
    names = LANE_NAMES
    e = parse("threadIdx.y * 33 + threadIdx.x", names)
    assert e.names == {"threadIdx.x", "threadIdx.y"}
    got = evaluate(e, {"threadIdx.x": LANES % 8, "threadIdx.y": LANES // 8})
    assert got.tolist() == [(i // 8) * 33 + i % 8 for i in range(32)]


def test_hex_literals_express_the_swizzle_formula():
    offsets = np.arange(1024)
    got = evaluate("offset ^ ((offset & 0x380) >> 3)", {"offset": offsets})
    assert got.tolist() == [o ^ ((o & 0x380) >> 3) for o in range(1024)]


def test_predicates_are_boolean_and_combine_with_and_or_not():
    e = parse("lane < 16 and lane % 2 == 0 or not lane != 31", ["lane"])
    assert e.kind == "bool"
    got = evaluate(e, {"lane": LANES})
    assert got.dtype == np.bool_
    assert got.tolist() == [(i < 16 and i % 2 == 0) or i == 31 for i in range(32)]


def test_chained_comparison_means_both_hold():
    got = evaluate("4 <= lane < 12", {"lane": LANES})
    assert np.flatnonzero(got).tolist() == list(range(4, 12))


def test_a_constant_expression_is_a_scalar_array():
    assert evaluate("3 * 4", {}).item() == 12


def test_leading_blanks_keep_positions_right():
    with pytest.raises(ExprError) as info:
        parse("   lane + nope", ["lane"])
    assert info.value.position == 10


@given(st.integers(-(2**40), 2**40), st.integers(-(2**20), 2**20).filter(lambda v: v != 0))
def test_arithmetic_agrees_with_python(a, b):
    env = {"a": np.int64(a), "b": np.int64(b)}
    for text, want in (("a + b", a + b), ("a - b", a - b), ("a * b", a * b),
                       ("a // b", a // b), ("a % b", a % b), ("a ^ b", a ^ b),
                       ("a & b", a & b), ("a | b", a | b), ("~a", ~a), ("-a", -a)):
        assert evaluate(text, env).item() == want, text


# --- hostile and mistaken input: always an ExprError naming the position -------------------

@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("__import__('os').system('true')", 0, "min(…) and max(…)"),
        ("lane.__class__.__mro__", 0, "not a name"),
        ("().__class__.__bases__[0]", 0, "not allowed"),
        ("lane ** 2", 5, "**"),
        ("2 ** 100000", 2, "**"),
        ("1 << 70", 5, "shift"),
        ("lane >> -1", 8, "shift"),
        ("lane / 2", 5, "//"),
        ("lane + 1.5", 7, "integers"),
        ("lane + 'a'", 7, "text"),
        ("lane + True", 7, "True"),
        ("99999999999999999999999", 0, "too large"),
        ("lane // 0", 8, "division by zero"),
        ("lane % 0", 7, "division by zero"),
        ("foo + 1", 0, "not a name"),
        ("lnae + 1", 0, "did you mean 'lane'"),
        ("threadIdx.w", 0, "not a name"),
        ("open('f')", 0, "min(…) and max(…)"),
        ("lane[0]", 0, "indexing"),
        ("lambda: 1", 0, "lambda"),
        ("lane if lane else 0", 0, "if-expression"),
        ("[lane for lane in lane]", 0, "not allowed"),
        ("(x := 3)", 1, "assignment"),
        ("lane and 1", 0, "condition"),
        ("(lane < 3) + 1", 1, "number"),
        ("lane is lane", 0, "comparisons"),
        ("lane in lane", 0, "comparisons"),
        ("min(lane)", 0, "two numbers"),
        ("max(lane, 1, key=lane)", 17, "named"),
        ("min(*lane)", 4, "star"),
        ("lane +", 0, "not a valid expression"),
        ("lane\n+ 1", 4, "single line"),
        ("lane + é", 7, "not allowed"),
        ("", 0, "empty"),
    ],
)
def test_hostile_or_mistaken_input_is_rejected_with_its_position(text, position, words):
    with pytest.raises(ExprError) as info:
        evaluate(parse(text, ["lane"]), {"lane": LANES})
    assert info.value.position == position, str(info.value)
    assert words in str(info.value)
    assert f"at character {position + 1}" in str(info.value)


def test_deeply_nested_brackets_are_rejected():
    text = "(" * 60 + "lane" + ")" * 60
    with pytest.raises(ExprError, match="nested more than 50") as info:
        parse(text, ["lane"])
    assert info.value.position == 50


def test_brackets_up_to_the_limit_are_fine():
    text = "(" * 50 + "lane" + ")" * 50
    assert evaluate(parse(text, ["lane"]), {"lane": LANES}).tolist() == list(range(32))


def test_deeply_nested_operators_are_rejected():
    with pytest.raises(ExprError, match="nested"):
        parse("-" * 300 + "lane", ["lane"])


def test_overlong_expressions_are_rejected():
    with pytest.raises(ExprError, match="characters long") as info:
        parse("lane + " * 100 + "1", ["lane"])
    assert info.value.position == MAX_LENGTH


def test_division_by_zero_at_run_time_names_the_operator():
    with pytest.raises(ExprError, match="division by zero") as info:
        evaluate("lane // (lane - 3)", {"lane": LANES})
    assert info.value.position == 5


def test_overflow_is_an_error_not_a_wrapped_value():
    with pytest.raises(ExprError, match="too large"):
        evaluate("lane * 4611686018427387904", {"lane": LANES})
    with pytest.raises(ExprError, match="too large"):
        evaluate("(lane + 1) << 62", {"lane": LANES})


def test_shift_amount_from_a_lane_value_is_checked():
    with pytest.raises(ExprError, match="shift amount"):
        evaluate("1 << (lane * 3)", {"lane": LANES})


def test_a_name_without_a_value_is_an_error():
    e = parse("lane + warp", ["lane", "warp"])
    with pytest.raises(ExprError, match="no value is given for 'warp'"):
        evaluate(e, {"lane": LANES})


def test_non_text_is_rejected():
    with pytest.raises(ExprError):
        parse(42, ["lane"])  # type: ignore[arg-type]


@given(st.text(max_size=60))
def test_arbitrary_text_either_parses_or_raises_expr_error(text):
    try:
        e = parse(text, ["lane"])
    except ExprError as err:
        assert 0 <= err.position <= max(len(text), MAX_LENGTH)
        return
    try:
        out = evaluate(e, {"lane": LANES})
    except ExprError as err:
        assert err.position <= len(text)
        return
    assert out.dtype in (np.int64, np.bool_)
