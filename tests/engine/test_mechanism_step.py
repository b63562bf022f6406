"""The mechanism, live: a toy trained on this run's votes, and the channel as a GRPO group."""

from __future__ import annotations

import io

import matplotlib.image

from bot.charts import chart_png
from bot.engine import Action, Address, LessonEngine
from bot.model import LineChart, Member
from lessons.schema import FreeAnswerStep, VerifierStep
from tests.engine.helpers import ALICE, CHANNEL, HOST, start_at

RATERS = [Member(f"m{n}", f"Member {n}") for n in range(6)]


async def rate_all(engine: LessonEngine, run_id: int, step: VerifierStep, liked: str) -> None:
    """Every rater gives a thumbs-up to one attempt and a thumbs-down to the others."""
    for member in RATERS:
        for attempt in step.attempts:
            await engine.rate(run_id, step.id, member, attempt.id, attempt.id == liked)


async def mechanism_card_after(engine: LessonEngine, liked: str) -> tuple[str, LineChart]:
    """The mechanism card's text, then what its More tells, and its chart."""
    card = await start_at(engine, "verifier")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, VerifierStep)
    await rate_all(engine, card.run_id, step, liked)
    advance = await engine.advance(card.run_id, HOST)
    assert advance.card is not None and advance.card.kind == "mechanism"
    assert isinstance(advance.card.chart, LineChart)
    more = Address(card.run_id, advance.card.step_id, Action.MORE)
    told = (await engine.click(more, ALICE, CHANNEL)).receipt
    assert told is not None
    shown = "\n".join(section.text for section in advance.card.sections)
    return f"{shown}\n{told.text}", advance.card.chart


async def test_polished_votes_train_a_polished_toy(engine: LessonEngine) -> None:
    text, chart = await mechanism_card_after(engine, "polished")
    assert "**Thumbs-up:** it ends up picking **The polished one**" in text
    assert "The checker marks that one wrong" in text
    assert "**Checker:** it ends up picking **The second look**" in text
    assert "share of raters who gave it 👍): The polished one 100%, others 0%" in text
    assert "Assumptions: 300 training steps per run; 8 picks per step" in text
    assert "trained on this channel's votes" in text and "not a real language model" in text
    assert "this channel's votes" in chart.title
    assert [series.name for series in chart.panels[0].series] == [
        "The polished one", "The thorough one", "The hedge", "The second look"
    ]


async def test_a_channel_that_rated_like_the_checker_is_told_so(engine: LessonEngine) -> None:
    text, _ = await mechanism_card_after(engine, "second-look")
    first_run = text.split("**Checker:**")[0]
    assert "picking **The second look**" in first_run and "The checker passes it too" in first_run


async def test_the_training_chart_is_a_png(engine: LessonEngine) -> None:
    _, chart = await mechanism_card_after(engine, "polished")
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
    assert "3 of 8 first tries earned reward 1" in "\n".join(reveal.notes)
    more = Address(card.run_id, card.step_id, Action.MORE)
    told = (await engine.click(more, ALICE, CHANNEL)).receipt
    assert told is not None
    notes = told.text
    assert "**3 of 8** earned reward 1" in notes
    assert "+1.21" in notes and "-0.72" in notes
    assert "u0" not in notes and "Member" not in notes
