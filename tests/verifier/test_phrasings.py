"""Answers as people type them in a chat, in each language the bot speaks, through the worker.

Each row is an answer, the lesson's gold (and unit), and the verdict it must get from the real
checker worker: right, wrong, or refused with the reason given. A short sentence that states
one answer is read; one that states several, or anything else, is refused; nothing wrong is
ever called right.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.verifier import Checker, Grade

RIGHT, WRONG = Grade.CORRECT, Grade.INCORRECT
SEVERAL = "more than one answer"
MATRIX = "\\begin{{pmatrix}} {} \\end{{pmatrix}}"


@dataclass(frozen=True)
class Phrasing:
    """A typed answer, the gold it is checked against, and the verdict it must get."""

    answer: str
    gold: str
    outcome: Grade
    reason: str = ""
    """For a refusal, words its reason must hold."""
    unit: str | None = None

    def __str__(self) -> str:
        return f"{self.answer!r} vs {self.gold!r}"


def refused(answer: str, gold: str, reason: str, unit: str | None = None) -> Phrasing:
    """A phrasing the checker must refuse, saying `reason`."""
    return Phrasing(answer, gold, Grade.REJECTED, reason, unit)


ENGLISH = [
    Phrasing("Answer 9", "9", RIGHT),
    Phrasing("Answer $9$", "9", RIGHT),
    Phrasing("Answer \\( 9 \\)", "9", RIGHT),
    Phrasing("Answer 8", "9", WRONG),
    Phrasing("Therefore $x \\geq 5$ is the solution", "x \\ge 5", RIGHT),
    Phrasing("Therefore $x \\geq 5$ is the solution", "[5, \\infty)", RIGHT),
    Phrasing("Therefore $x \\geq 5$ is the solution", "x > 5", WRONG),
    Phrasing("We find that $x \\lt 3$.", "x < 3", RIGHT),
    Phrasing("We find that $x \\lt 3$.", "(-\\infty, 3]", WRONG),
    Phrasing("$\\frac{1}{3} \\text{meters}$", "1/3", RIGHT, unit="m"),
    refused("$\\frac{1}{3} \\text{meters}$", "1/3", "This answer is in km", unit="km"),
    refused("$\\frac{1}{3} \\text{meters}$", "1/3", "takes no unit"),
    Phrasing("28 pct", "0.28", RIGHT),
    Phrasing("28 percentage", "0.28", RIGHT),
    Phrasing("28 percentage", "28", WRONG),
    Phrasing("28 percentage", "28", RIGHT, unit="%"),
    refused("1000,99", "1000.99", SEVERAL),
    Phrasing("204_5", "204_5", RIGHT),
    Phrasing("204_{5}", "54", RIGHT),
    Phrasing("203_5", "204_5", WRONG),
    refused("54", "204_5", "in base 5"),
    refused("205_5", "204_5", "digits run from 0 to 4"),
    Phrasing(MATRIX.format("1 & 2 \\\\ 3 & 4"), MATRIX.format("1 & 2 \\\\ 3 & 4"), RIGHT),
    Phrasing("$" + MATRIX.format("1/2 \\\\ 0.5").replace("pmatrix", "bmatrix") + "$",
             MATRIX.format("\\frac{1}{2} \\\\ \\frac12"), RIGHT),
    Phrasing(MATRIX.format("1 & 2 \\\\ 4 & 3"), MATRIX.format("1 & 2 \\\\ 3 & 4"), WRONG),
    Phrasing(MATRIX.format("1 & 2"), MATRIX.format("1 & 2 \\\\ 3 & 4"), WRONG),
    refused("(1, 2)", MATRIX.format("1 \\\\ 2"), "The answer is a matrix"),
    Phrasing("So the answer is 5.", "5", RIGHT),
    Phrasing("The answer is three quarters.", "3/4", RIGHT),
    Phrasing("My answer: 3", "3", RIGHT),
    refused("Answer: 3 or 4", "4", SEVERAL),
    refused("Therefore x = 3 or x = 4", "3", SEVERAL),
    refused("The answer is not 5", "5", "word 'not'"),
    refused("5 is not the solution", "5", "word 'is'"),
    refused("I think it is 5 or 6", "5", "word 'think'"),
    refused("Final answer:", "3", "no answer"),
]

SPANISH = [
    Phrasing("Respuesta: 3/4", "3/4", RIGHT),
    Phrasing("Respuesta 3/4", "3/4", RIGHT),
    Phrasing("**Respuesta:** 3/4", "3/4", RIGHT),
    Phrasing("La respuesta es 0,75", "3/4", RIGHT),
    Phrasing("La respuesta es 0,7", "3/4", WRONG),
    Phrasing("Respuesta final: 1000,99", "1000.99", RIGHT),
    Phrasing("1000,99", "1000.99", RIGHT),
    Phrasing("1.000,99", "1000.99", RIGHT),
    Phrasing("1,5", "3/4", WRONG),
    refused("1,000", "1", "did you mean 1 or 1000?"),
    refused("1,000", "1000", "did you mean 1 or 1000?"),
    Phrasing("Por lo tanto, x = 3", "3", RIGHT),
    Phrasing("Por lo tanto $x \\geq 5$ es la solución", "x \\ge 5", RIGHT),
    Phrasing("Obtenemos que $x < 3$.", "x < 3", RIGHT),
    Phrasing("El resultado es 12", "12", RIGHT),
    Phrasing("Entonces la respuesta es 13", "12", WRONG),
    Phrasing("tres cuartos", "3/4", RIGHT),
    Phrasing("Respuesta: tres cuartos", "3/4", RIGHT),
    Phrasing("un medio", "1/2", RIGHT),
    Phrasing("dos tercios", "1/3", WRONG),
    Phrasing("treinta y cinco", "35", RIGHT),
    Phrasing("veintitrés", "32", WRONG),
    Phrasing("ciento cinco", "105", RIGHT),
    Phrasing("28 por ciento", "0.28", RIGHT),
    Phrasing("x = 3 o x = -3", "\\pm 3", RIGHT),
    Phrasing("1 y 2", "{1, 2}", RIGHT),
    refused("3 o 4", "4", SEVERAL),
    refused("tres o cuatro", "3", SEVERAL),
    refused("1 y 2", "2y", SEVERAL),
    Phrasing("20 kilómetros por hora", "20", RIGHT, unit="km/h"),
    refused("20 metros", "20", "This answer is in km", unit="km"),
    Phrasing("90 grados", "90", RIGHT),
    Phrasing(MATRIX.format("1,5 & 2"), MATRIX.format("1.5 & 2"), RIGHT),
    refused("La respuesta no es 5", "5", "word 'no'"),
    refused("Respuesta:", "3", "no answer"),
]


async def _check(checker: Checker, phrasing: Phrasing, language: str) -> None:
    """Check one phrasing through the worker and compare its verdict with the row's."""
    verdict = await checker.check_answer(
        phrasing.answer, phrasing.gold, unit=phrasing.unit, language=language
    )
    assert verdict.outcome is phrasing.outcome, verdict
    assert phrasing.reason in verdict.reason, verdict


@pytest.mark.parametrize("phrasing", ENGLISH, ids=str)
async def test_an_english_phrasing_gets_its_verdict(checker: Checker, phrasing: Phrasing) -> None:
    await _check(checker, phrasing, "en")


@pytest.mark.parametrize("phrasing", SPANISH, ids=str)
async def test_a_spanish_phrasing_gets_its_verdict(checker: Checker, phrasing: Phrasing) -> None:
    await _check(checker, phrasing, "es")


def test_each_language_has_at_least_twenty_phrasings_with_every_kind_of_verdict() -> None:
    for table in (ENGLISH, SPANISH):
        assert len(table) >= 20
        assert {phrasing.outcome for phrasing in table} == set(Grade)


@pytest.mark.parametrize(
    ("language", "answer", "gold", "read"),
    [("es", "La respuesta es 0,7", "3/4", "0,7"), ("es", "Respuesta: 1000,99", "1000.99",
                                                    "1000,99"),
     ("es", "2500,5", "2500.5", "2500,5"), ("en", "The answer is 0.7", "3/4", "0.7")],
)
async def test_the_number_read_is_echoed_as_the_answer_s_language_writes_it(
    checker: Checker, language: str, answer: str, gold: str, read: str
) -> None:
    verdict = await checker.check_answer(answer, gold, language=language)
    assert verdict.read == read
    assert read in verdict.reason or verdict.outcome is Grade.CORRECT


@pytest.mark.parametrize(
    ("language", "advice"),
    [("es", "For a decimal use a comma (1,5); write whole numbers without a separator (1000)."),
     ("en", "For a decimal use a point (1.5); for thousands write 1,000 or 1000.")],
)
async def test_the_advice_on_writing_numbers_follows_the_answer_s_language(
    checker: Checker, language: str, advice: str
) -> None:
    verdict = await checker.check_answer("3, 4", "4", language=language)
    assert verdict.outcome is Grade.REJECTED and verdict.reason.endswith(advice)
    asked = await checker.check_answer("2,500", "2.5", language=language)
    assert asked.outcome is Grade.REJECTED
    assert ("did you mean 2,5 or 2500?" if language == "es" else "did you mean 2.5 or 2500?"
            ) in asked.reason
