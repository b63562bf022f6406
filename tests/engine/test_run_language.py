"""A run speaks one language: its lesson's words, the checker's reading, ids kept as they are."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from bot.engine import LessonEngine
from bot.model import BadInput, NoActiveRun, Place, StepCard
from lessons.schema import PredictionStep
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST

OTHER_CHANNEL = Place("discord", "guild-1", "channel-2")


async def start_at_kind(
    engine: LessonEngine, kind: str, language: str | None, place: Place = CHANNEL
) -> StepCard:
    """A run in `language`, moved on (revealing on the way) to its first step of `kind`."""
    card = await engine.start(place, HOST, language=language)
    while card.kind != kind:
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None
        card = advance.card
    return card


async def test_a_spanish_run_shows_the_spanish_lesson(engine: LessonEngine) -> None:
    spanish, english = engine.catalog.get("rlvr", "es"), engine.catalog.get("rlvr")
    card = await engine.start(CHANNEL, HOST, language="es")
    assert (card.title, card.body) == (spanish.steps[0].title, spanish.steps[0].body)
    assert card.title != english.steps[0].title
    run = await engine.run(card.run_id)
    assert run is not None and run.language == "es"
    advance = await engine.advance(card.run_id, HOST)
    assert advance.card is not None and advance.card.title == spanish.steps[1].title


async def test_a_run_without_a_language_speaks_the_lessons_own(engine: LessonEngine) -> None:
    card = await engine.start(CHANNEL, HOST)
    run = await engine.run(card.run_id)
    assert run is not None and run.language == "en"
    assert card.title == engine.catalog.get("rlvr").steps[0].title


async def test_an_unknown_language_is_refused_and_nothing_is_stored(
    engine: LessonEngine,
) -> None:
    with pytest.raises(BadInput) as refused:
        await engine.start(CHANNEL, HOST, language="fr")
    assert str(refused.value) == (
        "This lesson cannot be run in “fr”. Choose one of: en, es."
    )
    with pytest.raises(NoActiveRun):
        await engine.run_in(CHANNEL)
    due = engine.clock() + timedelta(days=1)
    with pytest.raises(BadInput):
        await engine.assigned.assign(CHANNEL, HOST, None, due, language="klingon")
    with pytest.raises(NoActiveRun):
        await engine.run_in(CHANNEL)


async def test_a_spanish_run_reads_a_decimal_comma(engine: LessonEngine) -> None:
    spanish = await start_at_kind(engine, "free_answer", "es")
    english = await start_at_kind(engine, "free_answer", "en", OTHER_CHANNEL)
    gold = engine.catalog.get("rlvr").step_by_id(spanish.step_id).gold_answer()
    assert gold is not None and gold.text == "3/4"
    right = await engine.submit_answer(spanish.run_id, spanish.step_id, ALICE, "0,75")
    assert right.reward == 1
    with pytest.raises(BadInput, match="more than one answer"):
        await engine.submit_answer(english.run_id, english.step_id, ALICE, "0,75")


async def test_a_spanish_run_counts_and_exports_choice_ids(engine: LessonEngine) -> None:
    card = await start_at_kind(engine, "prediction", "es")
    step = engine.catalog.get("rlvr", "es").step_by_id(card.step_id)
    assert isinstance(step, PredictionStep)
    right = step.correct_choice
    assert right is not None
    await engine.choose(card.run_id, card.step_id, ALICE, right.id)
    await engine.choose(card.run_id, card.step_id, BOB, right.id)
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, tuple)
    counts = {bar.label: bar.count for bar in closing[1].bars}
    assert counts[right.label] == 2  # the Spanish label, counted by the choice's id
    _, table = await engine.export_here(CHANNEL, HOST, card.run_id)
    rows = list(csv.DictReader(io.StringIO(table)))
    assert [(row["step"], row["kind"], row["value"]) for row in rows] == [
        (card.step_id, "choice", right.id), (card.step_id, "choice", right.id)
    ]


async def test_a_spanish_lead_in_and_decimal_comma_are_graded_and_echoed_with_a_comma(
    engine: LessonEngine,
) -> None:
    card = await start_at_kind(engine, "free_answer", "es")
    receipt = await engine.submit_answer(card.run_id, card.step_id, ALICE, "Respuesta: 0,75")
    assert receipt.reward == 1 and receipt.tries_left == 4
    assert "**0,75**" in receipt.text
