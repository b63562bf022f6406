"""The mechanism, live: a toy trained on this run's votes, and the channel as a GRPO group."""

from __future__ import annotations

import io

import matplotlib.image

from bot.charts import chart_png
from bot.engine import LessonEngine, LineChart, Member
from lessons.schema import FreeAnswerStep, VerifierStep
from tests.engine.helpers import HOST, start_at

RATERS = [Member(f"m{n}", f"Member {n}") for n in range(6)]


async def rate_all(engine: LessonEngine, run_id: int, step: VerifierStep, liked: str) -> None:
    """Every rater gives a thumbs-up to one style only."""
    for member in RATERS:
        for attempt in step.attempts:
            await engine.rate(run_id, step.id, member, attempt.id, attempt.style == liked)


async def mechanism_card_after(engine: LessonEngine, liked: str) -> tuple[str, LineChart]:
    card = await start_at(engine, "verifier")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, VerifierStep)
    await rate_all(engine, card.run_id, step, liked)
    advance = await engine.advance(card.run_id, HOST)
    assert advance.card is not None and advance.card.kind == "mechanism"
    assert isinstance(advance.card.chart, LineChart)
    return "\n".join(section.text for section in advance.card.sections), advance.card.chart


async def test_flattering_votes_train_a_flattering_toy(engine: LessonEngine) -> None:
    text, chart = await mechanism_card_after(engine, "flattering")
    assert "Thumbs-up reward" in text and "ends up **flattering**" in text
    assert "Checker reward" in text and "ends up **careful**" in text
    assert "ends up **hedging**" in text
    assert "not a real language model" in text
    assert [len(panel.series) for panel in chart.panels] == [4, 4, 4]


async def test_careful_votes_train_a_careful_toy(engine: LessonEngine) -> None:
    text, _ = await mechanism_card_after(engine, "careful")
    first_run = text.split("Checker reward")[0]
    assert "ends up **careful**" in first_run and "rewarded the careful attempt" in first_run


async def test_the_training_chart_is_a_png(engine: LessonEngine) -> None:
    _, chart = await mechanism_card_after(engine, "flattering")
    png = chart_png(chart)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert matplotlib.image.imread(io.BytesIO(png), format="png").shape[2] in (3, 4)


async def test_the_free_answer_reveal_shows_the_channel_as_a_grpo_group(
    engine: LessonEngine,
) -> None:
    card = await start_at(engine, "free_answer")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, FreeAnswerStep)
    for n, member in enumerate([Member(f"u{n}") for n in range(8)]):
        answer = step.gold if n in (0, 3, 4) else "12345"
        await engine.submit_answer(card.run_id, card.step_id, member, answer)
    await engine.submit_answer(card.run_id, card.step_id, Member("u1"), step.gold)  # a retry
    _, reveal = await engine.reveal(card.run_id, HOST)
    notes = "\n".join(reveal.notes)
    assert "**3 of 8** earned reward 1" in notes
    assert "+1.21" in notes and "-0.72" in notes
    assert "u0" not in notes and "Member" not in notes
