"""Units after a number: the step's unit is accepted, any other is refused, none is guessed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bot.cli import cli
from bot.verifier import Checker, Grade
from bot.verifier.extract import extract_final_answer
from bot.verifier.grading import grade_answer, grade_attempt, grade_gold
from bot.verifier.units import DEGREES, PERCENT, UNITS, Unit, find_unit
from bot.verifier.worker import handle_request

KMH = "km/h"


def _assert_correct(answer: str, gold: str, unit: str | None) -> None:
    verdict = grade_answer(answer, gold, unit=unit)
    assert verdict.outcome is Grade.CORRECT, verdict


def _assert_refused(answer: str, gold: str, unit: str | None, *reasons: str) -> None:
    verdict = grade_answer(answer, gold, unit=unit)
    assert verdict.outcome is Grade.REJECTED, verdict
    assert verdict.reward == 0
    for reason in reasons:
        assert reason in verdict.reason, verdict


@pytest.mark.parametrize(
    "answer",
    [
        "20", "20 km/h", "20km/h", "20 km / h", "20 KM/H", "20 Km/h", "20 kph", "20 kmph",
        "20 kmh", "20 km/hr", "20 km per hour", "20 km an hour", "20 kilometres per hour",
        "20 kilometers per hour", "20 Kilometres per hour", "20 kilometre per hour",
        "20 kilometer per hour", "20\\text{ km/h}", "20 \\text{km/h}", "20\\,\\mathrm{km/h}",
        "20\\ \\mathrm{km/h}", "20~\\text{km/h}", "20 \\textrm{km/h}", "20\\mbox{ km/h}",
        "20 \\text{km}/\\text{h}", "\\boxed{20 \\text{ km/h}}", "\\boxed{20} km/h",
        "$20$ km/h", "$20 \\text{ km/h}$", "Final answer: 20 km/h", "The answer is 20 km/h.",
        "Answer: 20 kph", "x = 20 km/h", "v = 20 km/h", "20 km/h.", "20.0 km/h", "40/2 km/h",
        "\\frac{40}{2} km/h", "(15 + 5) km/h", "2 \\cdot 10 km/h", "60/3 km/h",
    ],
)
def test_the_steps_unit_or_none_is_accepted_after_the_number(answer: str) -> None:
    _assert_correct(answer, "20", KMH)


@pytest.mark.parametrize(
    ("answer", "gold", "unit"),
    [
        ("90°", "90", "degrees"),
        ("90 °", "90", "°"),
        ("90^\\circ", "90", "degrees"),
        ("90^{\\circ}", "90", "degrees"),
        ("90 degrees", "90", "degrees"),
        ("90 deg", "90", "degree"),
        ("90\\degree", "90", "deg"),
        ("\\boxed{90^\\circ}", "90", "degrees"),
        ("1/2 rad", "1/2", "radians"),
        ("\\frac{\\pi}{2} rad", "pi/2", "rad"),
        ("5 m", "5", "m"),
        ("5 metres", "5", "metres"),
        ("5 meters", "5", "m"),
        ("5m", "5", "m"),
        ("2.5 cm", "5/2", "cm"),
        ("12 mm", "12", "millimetres"),
        ("3 km", "3", "km"),
        ("3 kilometres", "3", "km"),
        ("6 ft", "6", "feet"),
        ("1 foot", "1", "ft"),
        ("26.2 miles", "26.2", "mi"),
        ("45 s", "45", "s"),
        ("45 seconds", "45", "s"),
        ("45 sec", "45", "seconds"),
        ("90 min", "90", "minutes"),
        ("1 minute", "1", "min"),
        ("3 h", "3", "hours"),
        ("3 hours", "3", "h"),
        ("1 hour", "1", "h"),
        ("3 hrs", "3", "h"),
        ("10 m/s", "10", "m/s"),
        ("10 metres per second", "10", "m/s"),
        ("10 meters per second", "10", "m/s"),
        ("60 mph", "60", "mph"),
        ("60 miles per hour", "60", "mph"),
        ("250 g", "250", "g"),
        ("250 grams", "250", "grams"),
        ("2 kg", "2", "kg"),
        ("2 kilograms", "2", "kg"),
        ("2 lbs", "2", "lb"),
        ("75%", "75", "percent"),
        ("75 \\%", "75", "%"),
        ("75 percent", "75", "%"),
        ("75 pct", "75", "percent"),
        ("75", "75", "percent"),
        ("12 dollars", "12", "dollars"),
        ("$12", "12", "dollars"),
        ("12 euros", "12", "€"),
        ("12€", "12", "euros"),
        ("50 cents", "50", "cents"),
        ("50¢", "50", "cents"),
    ],
)
def test_each_known_unit_is_accepted_as_the_steps_unit(
    answer: str, gold: str, unit: str
) -> None:
    _assert_correct(answer, gold, unit)


@pytest.mark.parametrize(
    ("answer", "read_as"),
    [
        ("20 m/s", "'m/s' (metres per second)"),
        ("20 mph", "the word 'mph' (miles per hour)"),
        ("20 miles per hour", "'miles per hour' (miles per hour)"),
        ("20 metres per second", "'metres per second' (metres per second)"),
        ("20 m per second", "'m per second' (metres per second)"),
        ("20 km", "the word 'km' (kilometres)"),
        ("20 h", "the letter 'h' (hours)"),
        ("20 hours", "the word 'hours' (hours)"),
        ("20 m", "the letter 'm' (metres)"),
        ("20 s", "the letter 's' (seconds)"),
        ("20%", "'%' (percent)"),
        ("20 percent", "the word 'percent' (percent)"),
        ("20°", "'°' (degrees)"),
        ("20 kg", "the word 'kg' (kilograms)"),
        ("20 dollars", "the word 'dollars' (dollars)"),
        ("\\boxed{20 \\text{ m/s}}", "'m/s'"),
        ("Final answer: 20 m/s", "'m/s'"),
        ("20\\,\\mathrm{m/s}", "'m/s'"),
        ("x = 20 mph", "'mph'"),
        ("20 M/S", "(metres per second)"),
    ],
)
def test_another_known_unit_is_refused_naming_the_steps_unit(answer: str, read_as: str) -> None:
    _assert_refused(answer, "20", KMH, "This answer is in km/h", read_as, "Give it in km/h")


@pytest.mark.parametrize(
    ("answer", "gold", "read_as"),
    [
        ("12 cm", "12", "the word 'cm' (centimetres)"),
        ("5 meters", "5", "the word 'meters' (metres)"),
        ("5 metres", "5", "the word 'metres'"),
        ("5 m", "5", "the letter 'm' (metres)"),
        ("5m", "5", "the letter 'm'"),
        ("3 s", "3", "the letter 's' (seconds)"),
        ("3 h", "3", "the letter 'h' (hours)"),
        ("2 g", "2", "the letter 'g' (grams)"),
        ("20 km/h", "20", "'km/h' (kilometres per hour)"),
        ("20 kph", "20", "the word 'kph'"),
        ("Final answer: 20 km/h", "20", "'km/h'"),
        ("1 rad", "1", "the word 'rad' (radians)"),
        ("10 dollars", "10", "the word 'dollars' (dollars)"),
        ("2\\pi m", "2pi", "the letter 'm'"),
        ("\\frac{1}{2} m", "1/2", "the letter 'm'"),
        ("(2+3) m", "5", "the letter 'm'"),
        ("1,000 m", "1000", "the letter 'm'"),
        ("\\boxed{5\\text{ m}}", "5", "the letter 'm'"),
    ],
)
def test_a_unit_where_the_step_names_none_is_refused(answer: str, gold: str, read_as: str) -> None:
    _assert_refused(answer, gold, None, "This answer takes no unit", read_as, "just the number")


@pytest.mark.parametrize(
    ("answer", "gold"),
    [("5x", "5"), ("5 x", "10"), ("3y", "3"), ("2 \\pi x", "2pi"), ("(2)x", "2"),
     ("\\frac{1}{2}x", "1/2"), ("0.5 n", "0.5"), ("5 M", "5"), ("x = 5k", "5")],
)
def test_a_letter_after_a_number_is_refused_when_the_gold_has_none(
    answer: str, gold: str
) -> None:
    letter = answer.rstrip()[-1]
    _assert_refused(answer, gold, None, f"I read a letter, '{letter}'", "has no letters")


@pytest.mark.parametrize(
    ("answer", "gold", "outcome"),
    [
        ("2x", "2x", Grade.CORRECT),
        ("2 x", "2*x", Grade.CORRECT),
        ("5 m", "5m", Grade.CORRECT),
        ("5 m", "2x", Grade.INCORRECT),
        ("3n + 1", "3n+1", Grade.CORRECT),
        ("2s", "2h", Grade.INCORRECT),
        ("x", "5", Grade.INCORRECT),
        ("x + 1", "5", Grade.INCORRECT),
        ("5*x", "5", Grade.INCORRECT),
    ],
)
def test_letters_stay_variables_when_the_gold_has_letters_or_the_product_is_explicit(
    answer: str, gold: str, outcome: Grade
) -> None:
    assert grade_answer(answer, gold).outcome is outcome


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [("21 km/h", Grade.INCORRECT), ("21", Grade.INCORRECT), ("20.5 kph", Grade.INCORRECT),
     ("22.5 km/h", Grade.INCORRECT), ("19.99 km/h", Grade.INCORRECT)],
)
def test_the_right_unit_with_a_wrong_number_is_incorrect(answer: str, outcome: Grade) -> None:
    verdict = grade_answer(answer, "20", unit=KMH)
    assert verdict.outcome is outcome, verdict


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("km/h", "word 'km'"),
        ("20 furlongs", "word 'furlongs'"),
        ("20 km/h km/h", "word 'km'"),
        ("20 km/h or 22.5 km/h", "word 'km'"),
        ("20 or 22.5 km/h", "more than one answer"),
        ("20 = 20 km/h", "equation"),
        ("2 + 2 = 5 km/h", "equation"),
        ("20 kmh^2", "word 'kmh'"),
        ("20 m^2", "letter 'm'"),
        ("20 km/s", "word 'km'"),
    ],
)
def test_malformed_unit_answers_are_refused(answer: str, reason: str) -> None:
    _assert_refused(answer, "20", KMH, reason)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome"),
    [
        ("90°", "90", Grade.CORRECT),
        ("90 °", "90", Grade.CORRECT),
        ("90^\\circ", "90", Grade.CORRECT),
        ("90^{\\circ}", "90", Grade.CORRECT),
        ("90 degrees", "90", Grade.CORRECT),
        ("Final answer: 45°", "45", Grade.CORRECT),
        ("22.5°", "45/2", Grade.CORRECT),
        ("90", "90^\\circ", Grade.CORRECT),
        ("90°", "90^\\circ", Grade.CORRECT),
        ("90 degrees", "90°", Grade.CORRECT),
        ("45°", "90", Grade.INCORRECT),
        ("9°", "90", Grade.INCORRECT),
        ("80°", "90^\\circ", Grade.INCORRECT),
    ],
)
def test_a_degree_sign_is_notation_when_the_step_names_no_unit(
    answer: str, gold: str, outcome: Grade
) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is outcome, verdict


@pytest.mark.parametrize(
    ("answer", "gold"), [("90°", "pi/2"), ("90 degrees", "\\frac{\\pi}{2}"), ("180^\\circ", "pi")]
)
def test_degrees_are_refused_where_the_gold_is_in_radians(answer: str, gold: str) -> None:
    _assert_refused(answer, gold, None, "This answer is not in degrees", "(degrees)")


def test_percent_keeps_its_meaning_when_the_step_names_no_unit() -> None:
    _assert_correct("75%", "3/4", None)
    _assert_correct("2000%", "20", None)
    assert grade_answer("20%", "20").outcome is Grade.INCORRECT


@pytest.mark.parametrize("unit", [None, "km/h", "m/s", "m", "degrees", "percent", "dollars"])
def test_no_unit_bearing_answer_gets_a_verdict_it_should_not(unit: str | None) -> None:
    step_unit = find_unit(unit) if unit else None
    for written in UNITS:
        for spelling in written.spellings:
            for number in ("20", "21"):
                verdict = grade_answer(_after(number, spelling), "20", unit=unit)
                assert verdict.outcome is _expected(number, written, step_unit), (
                    spelling, unit, verdict)
                if verdict.outcome is Grade.REJECTED:
                    assert written.name in verdict.reason, (spelling, unit, verdict)


def _after(number: str, spelling: str) -> str:
    """`number` followed by a unit, glued to symbols and spaced from words."""
    return f"{number}{spelling}" if spelling[0] in "^\\°%€¢" else f"{number} {spelling}"


def _expected(number: str, written: Unit, step_unit: Unit | None) -> Grade:
    """The only fair outcome for `number` written in `written` against a gold of 20."""
    if written is step_unit:
        return Grade.CORRECT if number == "20" else Grade.INCORRECT
    if step_unit is None and written is PERCENT:
        return Grade.INCORRECT
    if step_unit is None and written is DEGREES:
        return Grade.CORRECT if number == "20" else Grade.INCORRECT
    return Grade.REJECTED


@pytest.mark.parametrize("unit", ["km/h", "m/s", "degrees", None])
def test_no_attempt_ending_in_a_unit_is_graded_against_the_wrong_one(unit: str | None) -> None:
    step_unit = find_unit(unit) if unit else None
    for written in UNITS:
        for spelling in written.spellings:
            attempt = f"Up 2 h, down 1 h, so 60/3.\nFinal answer: {_after('20', spelling)}"
            verdict = grade_attempt(attempt, "20", unit=unit)
            if step_unit is not None:
                expected = Grade.CORRECT if written is step_unit else Grade.REJECTED
                assert verdict.outcome is expected, (spelling, unit, verdict)


@pytest.mark.parametrize(
    ("attempt", "final"),
    [
        ("So the speed is 60/3 = 20 km/h.", "20 km/h"),
        ("Final answer: 20 km/h", "20 km/h"),
        ("The answer is 20 kilometres per hour, as shown.", "20 kilometres per hour"),
        ("\\boxed{20 \\text{ km/h}}", "20   km/h"),
        ("It took 3 hours, so it went 20 mph", "20 mph"),
        ("The answer is 12 apples.", "12"),
        ("We end up with 1,000 dollars.", "1,000 dollars"),
    ],
)
def test_an_attempt_keeps_the_unit_its_answer_ends_with_when_the_step_has_one(
    attempt: str, final: str
) -> None:
    assert extract_final_answer(attempt, keep_unit=True) == final


@pytest.mark.parametrize(
    ("attempt", "outcome"),
    [
        ("Up 2 h, down 1 h: 60/3 = 20.\nFinal answer: 20 km/h", Grade.CORRECT),
        ("Up 2 h, down 1 h: 60/3 = 20.\nFinal answer: 20", Grade.CORRECT),
        ("60 km in 3 h, so \\boxed{20\\text{ km/h}}", Grade.CORRECT),
        ("The average speed is 20 kph.", Grade.CORRECT),
        ("Final answer: 20 m/s", Grade.REJECTED),
        ("So it is 20 mph.", Grade.REJECTED),
        ("Final answer: 22.5 km/h", Grade.INCORRECT),
        ("Final answer: 20 or 22.5 km/h", Grade.REJECTED),
    ],
)
def test_attempts_on_a_step_with_a_unit(attempt: str, outcome: Grade) -> None:
    verdict = grade_attempt(attempt, "20", unit=KMH)
    assert verdict.outcome is outcome, verdict


def test_the_gold_may_carry_the_steps_unit_but_not_another() -> None:
    assert grade_gold("20 km/h", unit=KMH).outcome is Grade.CORRECT
    _assert_correct("20", "20 km/h", KMH)
    refused = grade_gold("20 m/s", unit=KMH)
    assert refused.outcome is Grade.REJECTED and "This answer is in km/h" in refused.reason


def test_an_unknown_unit_is_a_problem_with_the_lesson_not_the_answer() -> None:
    verdict = grade_answer("20", "20", unit="furlongs")
    assert verdict.outcome is Grade.REJECTED
    assert "The unit 'furlongs' isn't one I know" in verdict.reason
    assert "problem with the lesson" in verdict.reason


def test_every_spelling_names_one_unit() -> None:
    owners: dict[str, list[str]] = {}
    for unit in UNITS:
        for spelling in {" ".join(s.split()).lower() for s in unit.spellings}:
            owners.setdefault(spelling, []).append(unit.symbol)
    assert {spelling: names for spelling, names in owners.items() if len(names) > 1} == {}
    assert all(find_unit(unit.symbol) is unit and find_unit(unit.name) is unit for unit in UNITS)


def test_the_worker_takes_the_unit_with_the_gold() -> None:
    def ask(unit: object) -> dict[str, object]:
        request = {"id": 3, "op": "answer", "text": "20 m/s", "gold": "20", "unit": unit}
        return handle_request(json.dumps(request).encode() + b"\n")

    assert ask("km/h")["outcome"] == "rejected" and "km/h" in str(ask("km/h")["reason"])
    assert ask("m/s")["outcome"] == "correct"
    assert ask(None)["outcome"] == "rejected"
    assert ask(5) == {"id": None, "error": "malformed request"}


@pytest.mark.asyncio(loop_scope="module")
async def test_units_through_the_checker_worker(shared_checker: Checker) -> None:
    assert (await shared_checker.check_answer("20 km/h", "20", unit=KMH)).outcome is (
        Grade.CORRECT)
    refused = await shared_checker.check_answer("20 m/s", "20", unit=KMH)
    assert refused.outcome is Grade.REJECTED and "in km/h" in refused.reason
    attempt = await shared_checker.check_attempt("60/3.\nFinal answer: 20 km/h", "20", unit=KMH)
    assert (attempt.outcome, attempt.read) == (Grade.CORRECT, "20")
    assert await shared_checker.read_gold("20 km/h", unit=KMH) == "20"
    with pytest.raises(ValueError, match="furlongs"):
        await shared_checker.read_gold("20", unit="furlongs")


@pytest.mark.parametrize(
    ("arguments", "status", "printed"),
    [
        (["--unit", "km/h", "20 km/h", "20"], 0, "verdict: correct"),
        (["--unit", "km/h", "20", "--gold", "20"], 0, "read:    20"),
        (["--unit", "kph", "20 kilometres per hour", "20"], 0, "verdict: correct"),
        (["--unit", "km/h", "20 m/s", "20"], 2, "This answer is in km/h"),
        (["20 km/h", "20"], 2, "takes no unit"),
        (["--unit", "degrees", "90°", "90"], 0, "verdict: correct"),
        (["--unit", "km/h", "21 km/h", "20"], 1, "verdict: incorrect"),
    ],
)
def test_verify_takes_a_unit(arguments: list[str], status: int, printed: str) -> None:
    result = CliRunner().invoke(cli, ["verify", *arguments])
    assert result.exit_code == status, result.output
    assert printed in result.output


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (["--unit", "furlongs", "20", "20"], "'furlongs' is not a unit I know"),
        (["20"], "Give the gold answer once"),
        (["20", "20", "--gold", "20"], "Give the gold answer once"),
    ],
)
def test_verify_refuses_an_unknown_unit_or_a_missing_gold(
    arguments: list[str], error: str
) -> None:
    result = CliRunner().invoke(cli, ["verify", *arguments])
    assert result.exit_code == 2
    assert error in result.output
