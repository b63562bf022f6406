"""A small recursive-descent parser that builds sympy values from answer tokens.

Grammar (lowest to highest precedence)::

    expression := term (('+' | '-') term)*
    term       := signed (('*' | '/') signed | implicit-factor)*
    signed     := ('-' | '+') signed | power
    power      := postfix ('^' signed)?
    postfix    := primary '%'*
    primary    := number | variable | constant | group | sqrt | \\frac{..}{..} | \\sqrt[n]{..}

Only sympy constructors (Integer, Rational, Symbol, Add, Mul, Pow) are used; no text is
ever handed to sympy's own parsers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import sympy

from bot.i18n import N_
from bot.verifier.errors import UNCLOSED, UNOPENED, ReadError
from bot.verifier.guards import TOO_BIG, checked_power, checked_quotient
from bot.verifier.limits import MAX_DECIMAL_EXPONENT, MAX_NESTING
from bot.verifier.said import Said
from bot.verifier.tokens import Kind, Token

EMPTY = N_("There's no answer there; type just your final answer, like 3/4.")
STOPS_TOO_SOON = N_("That answer seems to stop too soon; is something missing at the end?")
FACTORIAL = N_("Factorials (!) aren't supported; write the number itself instead.")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_IMPLICIT_FACTOR_STARTS = frozenset(
    {Kind.VARIABLE, Kind.CONSTANT, Kind.FUNCTION, Kind.FRACTION, Kind.ROOT, Kind.OPEN}
)
_MAX_ROOT_INDEX = 100


def parse_tokens(tokens: Sequence[Token]) -> sympy.Expr:
    """Build a sympy expression from `tokens`, raising ReadError on anything malformed."""
    if not tokens:
        raise ReadError(EMPTY)
    parser = _Parser(tokens)
    value = parser.expression()
    parser.expect_end()
    return value


def number_value(text: str) -> sympy.Rational:
    """Return the exact rational value of a number token such as 1,000.25, 1.5e3 or 204_5."""
    if "_" in text:
        digits, _, base = text.partition("_")
        return sympy.Integer(int(digits, int(base)))
    mantissa, _, exponent_text = text.replace(",", "").lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    value = sympy.Rational(int(whole + fraction or "0"), 10 ** len(fraction))
    exponent = int(exponent_text or "0")
    if abs(exponent) > MAX_DECIMAL_EXPONENT:
        raise ReadError(TOO_BIG)
    return value * sympy.Integer(10) ** exponent


class _Parser:
    """Parsing state: the tokens, the read position and the current nesting depth."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = list(tokens)
        self.position = 0
        self.depth = 0

    def peek(self) -> Token | None:
        """Return the next token without consuming it, or None at the end."""
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def at(self, kind: Kind, text: str | None = None) -> bool:
        """Tell whether the next token has this kind (and this text, when given)."""
        token = self.peek()
        return token is not None and token.kind is kind and text in (None, token.text)

    def advance(self) -> Token:
        """Consume and return the next token."""
        token = self.peek()
        if token is None:
            raise ReadError(STOPS_TOO_SOON)
        self.position += 1
        return token

    @contextmanager
    def nested(self) -> Iterator[None]:
        """Track one more level of nesting, refusing answers nested too deeply."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ReadError(N_("That is nested too deeply for me to read; simplify it a little."))
        try:
            yield
        finally:
            self.depth -= 1

    def expect_end(self) -> None:
        """Raise ReadError if any token is left over after a complete expression."""
        token = self.peek()
        if token is None:
            return
        if token.kind is Kind.CLOSE:
            raise ReadError(Said(UNOPENED, bracket=token.text))
        raise ReadError(Said(N_("I didn't expect '{text}' there."), text=token.text))

    def expression(self) -> sympy.Expr:
        """Parse a sum or difference of terms."""
        value = self.term()
        while self.at(Kind.OPERATOR, "+") or self.at(Kind.OPERATOR, "-"):
            operator = self.advance().text
            right = self.term()
            value = sympy.Add(value, right if operator == "+" else sympy.Mul(-1, right))
        return value

    def term(self) -> sympy.Expr:
        """Parse a product or quotient, including implicit products such as 2x or 3(x+1)."""
        value = self.signed()
        while True:
            if self.at(Kind.OPERATOR, "*"):
                self.advance()
                value = sympy.Mul(value, self.signed())
            elif self.at(Kind.OPERATOR, "/"):
                self.advance()
                value = checked_quotient(value, self.signed())
            elif self.starts_implicit_factor():
                value = sympy.Mul(value, self.power())
            else:
                return value

    def starts_implicit_factor(self) -> bool:
        """Tell whether the next token begins a factor multiplied without a sign."""
        token = self.peek()
        if token is None:
            return False
        if token.kind is Kind.NUMBER:
            before = self.tokens[self.position - 1].text
            raise ReadError(
                f"I can't tell how '{before}' and '{token.text}' go together; "
                "put an operator such as * between them."
            )
        return token.kind in _IMPLICIT_FACTOR_STARTS

    def signed(self) -> sympy.Expr:
        """Parse an optional leading sign followed by a power."""
        if self.at(Kind.OPERATOR, "-") or self.at(Kind.OPERATOR, "+"):
            sign = self.advance().text
            with self.nested():
                value = self.signed()
            return sympy.Mul(-1, value) if sign == "-" else value
        return self.power()

    def power(self) -> sympy.Expr:
        """Parse a base with an optional exponent; a^b^c groups as a^(b^c)."""
        base = self.postfix()
        if not self.at(Kind.OPERATOR, "^"):
            return base
        self.advance()
        with self.nested():
            exponent = self.signed()
        return checked_power(base, exponent)

    def postfix(self) -> sympy.Expr:
        """Parse a primary followed by any percent signs; refuse factorials.

        A percent sign (%, \\%, or the word percent or pct) divides by 100: 75% is 3/4.
        """
        value = self.primary()
        while self.at(Kind.PERCENT) or self.at(Kind.FACTORIAL):
            if self.advance().kind is Kind.FACTORIAL:
                raise ReadError(FACTORIAL)
            value = sympy.Mul(value, sympy.Rational(1, 100))
        return value

    def primary(self) -> sympy.Expr:
        """Parse a number, letter, constant, bracketed group, root or fraction."""
        token = self.peek()
        handlers: dict[Kind, Callable[[], sympy.Expr]] = {
            Kind.NUMBER: lambda: number_value(self.advance().text),
            Kind.VARIABLE: lambda: sympy.Symbol(self.advance().text),
            Kind.CONSTANT: self.constant,
            Kind.OPEN: self.group,
            Kind.FUNCTION: self.square_root,
            Kind.FRACTION: self.fraction,
            Kind.ROOT: self.latex_root,
        }
        if token is None:
            raise ReadError(STOPS_TOO_SOON)
        handler = handlers.get(token.kind)
        if handler is None:
            raise ReadError(self.unexpected(token))
        return handler()

    def unexpected(self, token: Token) -> str:
        """Explain why `token` cannot start a value here."""
        if token.kind is Kind.CLOSE:
            return Said(UNOPENED, bracket=token.text)
        if token.kind is Kind.FACTORIAL:
            return FACTORIAL
        return Said(N_("Something seems to be missing before '{text}'."), text=token.text)

    def constant(self) -> sympy.Expr:
        """Parse pi."""
        self.advance()
        return sympy.pi

    def group(self) -> sympy.Expr:
        """Parse a bracketed expression whose closing bracket matches its opening one."""
        opening = self.advance().text
        with self.nested():
            value = self.expression()
        if not self.at(Kind.CLOSE, _CLOSERS[opening]):
            raise ReadError(Said(UNCLOSED, bracket=opening))
        self.advance()
        return value

    def square_root(self) -> sympy.Expr:
        """Parse sqrt followed by its argument, as in sqrt(2) or sqrt 2."""
        self.advance()
        with self.nested():
            radicand = self.postfix()
        return checked_power(radicand, sympy.Rational(1, 2))

    def fraction(self) -> sympy.Expr:
        """Parse \\frac{a}{b} (also \\dfrac, \\tfrac and \\cfrac), and \\frac12 as 1/2."""
        self.advance()
        token = self.peek()
        if token is not None and token.kind is Kind.NUMBER and _is_digit_pair(token.text):
            self.advance()
            return checked_quotient(sympy.Integer(token.text[0]), sympy.Integer(token.text[1]))
        numerator = self.latex_argument("\\frac", "\\frac{1}{2}")
        denominator = self.latex_argument("\\frac", "\\frac{1}{2}")
        return checked_quotient(numerator, denominator)

    def latex_root(self) -> sympy.Expr:
        """Parse \\sqrt{a} or \\sqrt[n]{a}."""
        self.advance()
        index = self.root_index() if self.at(Kind.OPEN, "[") else 2
        radicand = self.latex_argument("\\sqrt", "\\sqrt{2}")
        return checked_power(radicand, sympy.Rational(1, index))

    def root_index(self) -> int:
        """Parse the [n] of \\sqrt[n]{a}, allowing only small whole numbers."""
        index = self.group()
        if not (index.is_Integer and 2 <= int(index) <= _MAX_ROOT_INDEX):
            raise ReadError(Said(N_("A root's index must be a whole number from 2 to {most}."),
                                 most=_MAX_ROOT_INDEX))
        return int(index)

    def latex_argument(self, command: str, example: str) -> sympy.Expr:
        """Parse a braced LaTeX argument, or a single digit or letter such as the 2 in \\sqrt2."""
        token = self.peek()
        if self.at(Kind.OPEN, "{"):
            return self.group()
        if token is not None and token.kind in (Kind.VARIABLE, Kind.CONSTANT):
            return self.primary()
        if token is not None and token.kind is Kind.NUMBER and len(token.text) == 1:
            return self.primary()
        raise ReadError(Said(N_("Put the parts of {command} in braces, like {example}."),
                             command=command, example=example))


def _is_digit_pair(text: str) -> bool:
    """Tell whether a number token is exactly two digits, as in the 12 of \\frac12."""
    return len(text) == 2 and text.isdigit()
