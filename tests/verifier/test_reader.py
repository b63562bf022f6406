"""Reading one answer into an exact value, in-process (no worker)."""

from __future__ import annotations

import operator
import re
import time
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.verifier.errors import ReadError
from bot.verifier.reader import read_answer

x = sympy.Symbol("x")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.5", sympy.Rational(1, 2)),
        ("1,000,000.25", sympy.Rational(4_000_001, 4)),
        ("50%", sympy.Rational(1, 2)),
        ("50\\%", sympy.Rational(1, 2)),
        ("$2.50", sympy.Rational(5, 2)),
        ("\\$2.50", sympy.Rational(5, 2)),
        ("$\\frac{3}{4}$", sympy.Rational(3, 4)),
        ("\\dfrac{3}{4}", sympy.Rational(3, 4)),
        ("\\frac 3 4", sympy.Rational(3, 4)),
        ("\\left(\\frac{1}{2}\\right)^2", sympy.Rational(1, 4)),
        ("2x+1", 2 * x + 1),
        ("2(x+1)", 2 * x + 2),
        ("x^2", x**2),
        ("x**2", x**2),
        ("x²", x**2),
        ("2^3^2", sympy.Integer(512)),
        ("2^-1", sympy.Rational(1, 2)),
        ("-x^2", -(x**2)),
        ("3 \\cdot 4", sympy.Integer(12)),
        ("3 \\times 4", sympy.Integer(12)),
        ("10 \\div 4", sympy.Rational(5, 2)),
        ("sqrt(8)", 2 * sympy.sqrt(2)),
        ("\\sqrt{8}", 2 * sympy.sqrt(2)),
        ("\\sqrt[3]{8}", sympy.Integer(2)),
        ("3√2", 3 * sympy.sqrt(2)),
        ("2π", 2 * sympy.pi),
        ("2\\pi", 2 * sympy.pi),
        ("1.5e3", sympy.Integer(1500)),
        ("[1+2]", sympy.Integer(3)),
        ("x = 3", sympy.Integer(3)),
        ("\\boxed{7}", sympy.Integer(7)),
        ("12.", sympy.Integer(12)),
    ],
)
def test_reads_exact_values(text: str, value: sympy.Expr) -> None:
    assert sympy.simplify(read_answer(text).value - value) == 0


def test_decimals_are_exact_rationals_not_floats() -> None:
    value = read_answer("0.333").value
    assert value == sympy.Rational(333, 1000)
    assert not value.has(sympy.Float)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no answer"),
        ("   ", "no answer"),
        ("3 or 4", "more than one answer"),
        ("3 and 4", "more than one answer"),
        ("3, 4", "more than one answer"),
        ("1,5", "decimal use a point"),
        ("3; 4", "more than one answer"),
        ("3 \\pm 1", "two answers"),
        ("3 ± 1", "two answers"),
        ("\\boxed{3} \\boxed{4}", "more than one answer"),
        ("2+2=5", "equation"),
        ("x = 2 = 2", "equation"),
        ("3!", "Factorials"),
        ("(10^{10})!", "Factorials"),
        ("1/0", "divides by zero"),
        ("0^-1", "divides by zero"),
        ("\\frac{1}{x-x}", "divides by zero"),
        ("2 3", "put an operator"),
        ("x2", "put an operator"),
        ("apples", "word 'apples'"),
        ("12 cm", "word 'cm'"),
        ("\\infty", "Infinity"),
        ("\\int x", "LaTeX command \\int"),
        ("\\frac123", "braces"),
        ("(1+2", "never closed"),
        ("(1+2]", "never closed"),
        ("1+2)", "without a matching"),
        ("3+", "stop too soon"),
        ("*3", "missing before"),
        ("__import__('os')", "'_' isn't part"),
        ("\\sqrt[1000]{2}", "index"),
        ("\\boxed{3", "isn't closed"),
    ],
)
def test_refuses_with_a_clear_reason(text: str, reason: str) -> None:
    with pytest.raises(ReadError, match=re.escape(reason)):
        read_answer(text)


@pytest.mark.parametrize(
    "text", ["9**9**9**9", "9^9^9", "2^100000", "1e999999999", "1e-999999999", "(x+1)^1000",
             "((2^100)^100)^100", "sqrt(2)^100000", "10^(10^10)"]
)
def test_huge_powers_are_refused_quickly(text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(ReadError, match=r"too big|too high"):
        read_answer(text)
    assert time.perf_counter() - started < 0.5


def test_deep_nesting_is_refused() -> None:
    with pytest.raises(ReadError, match="nested too deeply"):
        read_answer("(" * 40 + "1" + ")" * 40)


def test_moderate_powers_are_allowed() -> None:
    assert read_answer("2^100").value == 2**100
    assert read_answer("(x+1)^3").value == (x + 1) ** 3


def test_shown_reading_uses_caret_for_powers() -> None:
    assert read_answer("x**2+2x+1").shown == "x^2 + 2*x + 1"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789+-*/^()x.,%!= \\{}$e", max_size=30))
def test_any_maths_like_text_is_read_or_refused_cleanly(text: str) -> None:
    try:
        read_answer(text)
    except ReadError as error:
        assert error.reason


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_unicode_text_is_read_or_refused_cleanly(text: str) -> None:
    try:
        read_answer(text)
    except ReadError as error:
        assert error.reason


_OPERATIONS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
Case = tuple[str, Fraction]


def _combine(left: Case, symbol: str, right: Case) -> Case:
    """Join two arithmetic cases with an operator (multiplying instead of dividing by zero)."""
    if symbol == "/" and right[1] == 0:
        symbol = "*"
    return f"({left[0]}{symbol}{right[0]})", _OPERATIONS[symbol](left[1], right[1])


def _arithmetic() -> st.SearchStrategy[Case]:
    """Random bracketed arithmetic on small integers, with its exact value."""
    leaves = st.integers(min_value=0, max_value=99).map(lambda n: (str(n), Fraction(n)))
    operators = st.sampled_from(sorted(_OPERATIONS))
    return st.recursive(
        leaves, lambda children: st.builds(_combine, children, operators, children), max_leaves=8
    )


@settings(max_examples=200, deadline=None)
@given(_arithmetic())
def test_arithmetic_matches_exact_fractions(case: Case) -> None:
    text, expected = case
    value = read_answer(text).value
    assert value == sympy.Rational(expected.numerator, expected.denominator)


@pytest.mark.parametrize(
    ("text", "shown"),
    [("0.1", "0.1"), ("0.333", "0.333"), ("$2.50", "2.5"), ("3.0", "3"), ("-.5", "-0.5"),
     ("2.5%", "0.025"), ("1/2", "1/2"), ("50%", "1/2"), ("1e-3", "1/1000"), ("0.5x", "x/2")],
)
def test_decimals_are_shown_as_decimals_when_typed_as_decimals(text: str, shown: str) -> None:
    assert read_answer(text).shown == shown
