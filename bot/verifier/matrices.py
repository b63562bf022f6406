"""Matrices in LaTeX (\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}), compared entry by entry.

A gold that is a matrix (pmatrix, bmatrix, Bmatrix or matrix) asks for a matrix of the same
shape whose entries are exactly equal, in order. Each entry is one value, read by the
restricted parser like any answer; in a language with a decimal comma, an entry such as 1,5
is 1.5 and one that could be read two ways (1,234) is asked about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from bot.i18n import N_
from bot.verifier.compare import exactly_equal
from bot.verifier.decimal_comma import decimal_comma_readings
from bot.verifier.errors import ReadError
from bot.verifier.languages import writes_decimal_comma
from bot.verifier.normalize import normalize_text, preview
from bot.verifier.pieces import checked_value
from bot.verifier.reader import answer_core, show_value
from bot.verifier.said import Said
from bot.verifier.tokens import tokenize
from bot.verifier.verdict import Grade, Verdict

MAX_SIDE = 6
"""Most rows, and most columns, a matrix may have."""
_MATRIX = re.compile(r"\\begin\{([pbB]?matrix)\}(.*)\\end\{\1\}", re.DOTALL)
_MATH_DELIMITERS = re.compile(r"^(?:\$\$?|\\\[|\\\()|(?:\$\$?|\\\]|\\\))$")
_ROW_BREAK = re.compile(r"\\\\(?:\[[^\]]*\])?")
_WRITE_A_MATRIX = N_("The answer is a matrix: write it like {example}, with \\\\ between rows and "
                     "& between entries.")
_EXAMPLE = "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"
_AMBIGUOUS_ENTRY = N_("I can't tell what the entry {entry} means: write whole numbers without "
                      "a separator and decimals with a comma, like 1,5.")


@dataclass(frozen=True)
class Matrix:
    """A matrix's entries, row by row, and how to show it."""

    rows: tuple[tuple[sympy.Expr, ...], ...]
    shown: str

    @property
    def shape(self) -> tuple[int, int]:
        """Its rows and columns."""
        return len(self.rows), len(self.rows[0])


def read_matrix(text: str, language: str = "en") -> Matrix | None:
    """Read `text` as a matrix, None if it is not written as one; ReadError if it is malformed."""
    core = _MATH_DELIMITERS.sub("", answer_core(text).strip()).strip()
    found = _MATRIX.fullmatch(core)
    if found is None:
        return None
    lines = [line for line in _ROW_BREAK.split(found.group(2)) if line.strip()]
    rows = [[_entry(cell, language) for cell in line.split("&")] for line in lines]
    if not rows or len({len(row) for row in rows}) != 1:
        raise ReadError(N_("Every row of a matrix must have the same number of entries."))
    if len(rows) > MAX_SIDE or len(rows[0]) > MAX_SIDE:
        raise ReadError(Said(N_("That matrix is too big to check; give at most {most} rows and "
                                "{most} columns."), most=MAX_SIDE))
    shown = "[" + ", ".join("[" + ", ".join(map(show_value, row)) + "]" for row in rows) + "]"
    return Matrix(tuple(tuple(row) for row in rows), shown)


def _entry(cell: str, language: str) -> sympy.Expr:
    """Read one entry of a matrix: one value, with a decimal comma where the language has one."""
    text = normalize_text(cell)
    if writes_decimal_comma(language):
        readings = decimal_comma_readings(text)
        if len(readings.texts) > 1:
            raise ReadError(Said(_AMBIGUOUS_ENTRY, entry=preview(cell.strip())))
        text = readings.texts[0]
    return checked_value(tokenize(text))


def grade_matrix(answer: str, expected: Matrix, language: str) -> Verdict:
    """Grade an answer against a matrix gold: the same shape, every entry exactly equal."""
    try:
        matrix = read_matrix(answer, language)
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(answer), expected.shown, error.reason)
    if matrix is None:
        reason = Said(_WRITE_A_MATRIX, example=_EXAMPLE)
        return Verdict(Grade.REJECTED, preview(answer), expected.shown, reason)
    if matrix.shape != expected.shape:
        reason = Said(N_("I read a {rows}×{columns} matrix, {read}; the answer is a "
                         "{wanted_rows}×{wanted_columns} matrix."), rows=matrix.shape[0],
                      columns=matrix.shape[1], read=matrix.shown, wanted_rows=expected.shape[0],
                      wanted_columns=expected.shape[1])
        return Verdict(Grade.INCORRECT, matrix.shown, expected.shown, reason)
    if all(exactly_equal(entry, wanted) for row, wanted_row in zip(matrix.rows, expected.rows,
                                                                   strict=True)
           for entry, wanted in zip(row, wanted_row, strict=True)):
        return Verdict(Grade.CORRECT, matrix.shown, expected.shown)
    reason = Said(N_("I read {read}, which doesn't match the expected answer."), read=matrix.shown)
    return Verdict(Grade.INCORRECT, matrix.shown, expected.shown, reason)
