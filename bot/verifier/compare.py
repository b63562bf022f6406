"""Exact comparison of two sympy values: no float tolerance, ever."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy
from sympy.core.evalf import PrecisionExhausted

from bot.verifier.limits import MAX_SIMPLIFY_OPS

_CLOSE_FRACTION = 0.01
_NONZERO_THRESHOLD = 1e-20
_Simplifier = Callable[[sympy.Expr], sympy.Expr]


@dataclass(frozen=True)
class Comparison:
    """Whether an answer equals the gold exactly, and (if not) whether it is numerically close."""

    equal: bool
    close: bool = False


def compare(answer: sympy.Expr, gold: sympy.Expr) -> Comparison:
    """Compare `answer` with `gold` exactly; note closeness so a rounded answer gets a hint."""
    if exactly_equal(answer, gold):
        return Comparison(equal=True)
    return Comparison(equal=False, close=numerically_close(answer, gold))


def exactly_equal(answer: sympy.Expr, gold: sympy.Expr) -> bool:
    """Tell whether answer - gold simplifies to exactly zero."""
    difference = sympy.Add(answer, sympy.Mul(-1, gold))
    if difference == 0:
        return True
    if difference.is_Rational or _clearly_nonzero(difference):
        return False
    for simplifier in _simplifiers():
        difference = simplifier(difference)
        if difference == 0:
            return True
    return False


def numerically_close(answer: sympy.Expr, gold: sympy.Expr) -> bool:
    """Tell whether two numbers (no letters) differ by under 1% of the gold's size."""
    if answer.free_symbols or gold.free_symbols:
        return False
    try:
        gap = abs(complex(sympy.N(sympy.Add(answer, sympy.Mul(-1, gold)), 30)))
        size = abs(complex(sympy.N(gold, 30)))
    except (TypeError, ValueError, OverflowError):
        return False
    return gap <= _CLOSE_FRACTION * size if size else gap < _CLOSE_FRACTION


def _clearly_nonzero(difference: sympy.Expr) -> bool:
    """Tell whether a difference without letters evaluates, with tracked precision, far from 0."""
    if difference.free_symbols:
        return False
    try:
        value = complex(difference.evalf(30, strict=True))
    except (TypeError, ValueError, OverflowError, PrecisionExhausted):
        return False
    return abs(value) > _NONZERO_THRESHOLD


def _simplifiers() -> list[_Simplifier]:
    """Return the rewrites tried, cheapest first, to show a difference is zero."""
    return [sympy.expand, sympy.cancel, _simplify_if_small]


def _simplify_if_small(difference: sympy.Expr) -> sympy.Expr:
    """Run sympy's (slow, general) simplify only on small differences."""
    if sympy.count_ops(difference) > MAX_SIMPLIFY_OPS:
        return difference
    result: sympy.Expr = sympy.simplify(difference)
    return result
