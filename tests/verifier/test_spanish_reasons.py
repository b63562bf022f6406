"""A member speaking Spanish reads why their answer was refused or wrong in Spanish.

The worker writes each reason in English with the catalog message it came from; the bot's
process says it again in the language of the moment, its values (the member's own text among
them) filled in as plain text.
"""

from __future__ import annotations

from bot.engine.steps.verifier import checker_text
from bot.i18n import speaking
from bot.verifier import Checker
from bot.verifier.errors import CheckerBusy
from bot.verifier.said import said_in


async def test_a_refusal_and_a_question_back_are_said_in_spanish(checker: Checker) -> None:
    with speaking("es"):
        several = await checker.check_answer("3 or 4", "3")
        comma = await checker.check_answer("2,500", "2.5", language="es")
        empty = await checker.check_answer("   ", "3")
    assert several.reason == "Eso parece más de una respuesta (3 or 4); da solo una."
    assert comma.reason == (
        "No sé si eso es un decimal o un número entero con separador de miles: ¿quisiste decir "
        "2,5 o 2500? Escribe los números enteros sin separador (1234) y los decimales con "
        "coma (2,5)."
    )
    assert empty.reason == (
        "Ahí no hay ninguna respuesta; escribe solo tu respuesta final, como 3/4."
    )


async def test_a_wrong_set_counts_its_values_in_spanish(checker: Checker) -> None:
    with speaking("es"):
        verdict = await checker.check_answer("{1}", "{1, 2}")
    assert verdict.reason == "Leí {1}: 1 valor, pero la respuesta tiene 2 valores."


async def test_an_unread_answer_and_its_advice_are_said_in_spanish(checker: Checker) -> None:
    with speaking("es"):
        several = await checker.check_answer("3, 4", "4", language="es")
        base = await checker.check_answer("54", "204_5", language="es")
    assert several.reason == (
        "Eso parece más de una respuesta (3, 4); da solo una. Decimales con coma (1,5); "
        "enteros sin separador (1000)."
    )
    assert base.reason == "La respuesta se pide en base 5: escríbela con su base, como 10_5."


async def test_the_same_answer_is_said_in_english_outside_spanish(checker: Checker) -> None:
    verdict = await checker.check_answer("{1}", "{1, 2}")
    assert verdict.reason == "I read {1}: 1 value, but the answer has 2 values."


def test_a_busy_checker_is_explained_in_spanish() -> None:
    with speaking("es"):
        reply = CheckerBusy().reply
    assert reply == "El verificador está ocupado; vuelve a intentarlo en un momento."


def test_a_malformed_or_formatting_message_leaves_the_reason_as_written() -> None:
    written = "I didn't expect 'x' there."
    with speaking("es"):
        assert said_in(written, {"message": "{text.__class__}", "values": {"text": "x"}}) == written
        assert said_in(written, {"message": "{text:>99999}", "values": {"text": "x"}}) == written
        assert said_in(written, {"message": 3, "values": {}}) == written
        assert said_in(written, {"message": "I didn't expect '{text}' there.",
                                 "values": {"text": "{y}"}}) == "No esperaba '{y}' ahí."


async def test_a_verdict_kept_for_later_is_said_again_in_the_language_of_the_moment(
    checker: Checker,
) -> None:
    with speaking("es"):
        kept = await checker.check_attempt("So it is 3 or 4.", "3")
    assert kept.reason == "Eso parece más de una respuesta (So it is 3 or 4); da solo una."
    assert kept.said() == "That looks like more than one answer (So it is 3 or 4); give just one."
    with speaking("es"):
        assert kept.said() == kept.reason


async def test_the_checker_s_card_on_a_sample_attempt_says_its_reason_in_the_reader_s_language(
    checker: Checker,
) -> None:
    kept = await checker.check_attempt("So it is 3 or 4.", "3")  # first graded in English
    with speaking("es"):
        card = checker_text("B", kept)
    assert card.endswith("Eso parece más de una respuesta (So it is 3 or 4); da solo una.")
    assert "That looks like" not in card
