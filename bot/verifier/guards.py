"""Checks that stop an answer from growing into something too big to handle."""

from __future__ import annotations

import sympy

from bot.i18n import N_
from bot.verifier.errors import ReadError
from bot.verifier.limits import MAX_NUMBER_BITS, MAX_SYMBOLIC_EXPONENT

DIVIDES_BY_ZERO = N_("That divides by zero, so it has no value.")
TOO_BIG = N_("That number is too big for me to check; give a smaller or simpler answer.")
_TRIVIAL_BASES = (sympy.S.Zero, sympy.S.One, sympy.S.NegativeOne)
_NOT_FINITE = (sympy.zoo, sympy.oo, -sympy.oo, sympy.nan)


def checked_power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
    """Return base^exponent, refusing division by zero and results too big to work with."""
    if base.is_zero and exponent.is_negative:
        raise ReadError(DIVIDES_BY_ZERO)
    if exponent.is_Rational:
        _check_power_size(base, exponent)
    return sympy.Pow(base, exponent)


def checked_quotient(numerator: sympy.Expr, denominator: sympy.Expr) -> sympy.Expr:
    """Return numerator / denominator, refusing a denominator that is zero."""
    if denominator.is_zero:
        raise ReadError(DIVIDES_BY_ZERO)
    return sympy.Mul(numerator, sympy.Pow(denominator, -1))


def ensure_checkable(expr: sympy.Expr) -> None:
    """Raise ReadError if `expr` has no finite value or holds a number that is too big."""
    if any(expr.has(value) for value in _NOT_FINITE):
        raise ReadError(DIVIDES_BY_ZERO)
    if largest_number_bits(expr) > MAX_NUMBER_BITS:
        raise ReadError(TOO_BIG)


def largest_number_bits(expr: sympy.Expr) -> int:
    """Return the bit length of the largest numerator or denominator inside `expr` (at least 1)."""
    sizes = [max(int(value.p).bit_length(), int(value.q).bit_length())
             for value in expr.atoms(sympy.Rational)]
    return max([1, *sizes])


def _check_power_size(base: sympy.Expr, exponent: sympy.Rational) -> None:
    """Raise ReadError if raising `base` to the rational `exponent` would be too big."""
    power = abs(int(exponent.p))
    if power <= 1 or base in _TRIVIAL_BASES:
        return
    if base.free_symbols and power > MAX_SYMBOLIC_EXPONENT:
        raise ReadError(
            f"That power is too high for me to check; keep powers of letters at "
            f"{MAX_SYMBOLIC_EXPONENT} or below."
        )
    if power * largest_number_bits(base) > MAX_NUMBER_BITS:
        raise ReadError(TOO_BIG)
