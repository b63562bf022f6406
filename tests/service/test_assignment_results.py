"""A closed assignment's results: the summary in the channel, each question's in a thread under it.

Posted once, whoever closes it (a host, the due time) and whichever process does; a thread an
outage cut short is finished by a later timer round; `/lesson results` gives the same.
"""

from __future__ import annotations

import asyncio

from bot.engine import Action, Address, LessonCatalog
from bot.engine.cards import takes_answers
from bot.model import RevealCard, SummaryCard
from bot.service import Actor
from bot.service.assignments import RESULTS_STEP, THREAD_STEP
from tests.conftest import FakeClock
from tests.service.test_assignments import (
    ALICE,
    BOB,
    HOST,
    Bot,
    assigned,
    own_card,
    start_of,
)

LESSON = LessonCatalog().get("rlvr")
QUESTIONS = [step.id for step in LESSON.steps if takes_answers(step)]
FIRST, RECALL = "what-changed", "what-changed-again"
RIGHT, WRONG = "checkable-reward", "bigger-model"


async def choose_at(bot: Bot, actor: Actor, start: str, answers: dict[str, str]) -> None:
    """A member takes their pass to its end, choosing `answers[step]` at those questions."""
    card = own_card(await bot.click(actor, start))
    while True:
        if card.step_id in answers:
            choice = Address(card.run_id, card.step_id, Action.CHOOSE, answers[card.step_id])
            await bot.click(actor, choice.encode())
        onward = await bot.click(actor, Address(card.run_id, card.step_id, Action.ONWARD).encode())
        if onward.own is None or onward.own.card is None:
            return
        card = onward.own.card


def thread_reveals(bot: Bot) -> list[RevealCard]:
    """The cards posted in threads, each checked to be a question's results."""
    cards = [card for _, card in bot.surface.threads]
    assert all(isinstance(card, RevealCard) for card in cards), cards
    return [card for card in cards if isinstance(card, RevealCard)]


async def test_closing_posts_each_questions_results_in_a_thread_under_the_results(
    bot: Bot,
) -> None:
    card = await assigned(bot)
    await choose_at(bot, ALICE, start_of(card), {FIRST: RIGHT, RECALL: RIGHT})
    await choose_at(bot, BOB, start_of(card), {FIRST: WRONG, RECALL: RIGHT})
    await bot.run(HOST, "close")

    (summary,) = bot.surface.posted(SummaryCard)
    results_ref = await bot.engine.step_message(card.run_id, RESULTS_STEP)
    assert {under for under, _ in bot.surface.threads} == {results_ref}
    reveals = thread_reveals(bot)
    assert [reveal.step_id for reveal in reveals] == QUESTIONS
    assert all(reveal.buttons == () for reveal in reveals)  # nothing to click in a thread
    first = reveals[0]
    right = [bar for bar in first.bars if bar.marked]
    assert [(bar.count, bar.label) for bar in right] == [(1, "A new training stage that "
                                                          "rewards answers a program can check")]
    assert "1 of 2 (50%) chose the right answer." in first.notes
    assert first.chart is not None and first.explanation
    recall = reveals[QUESTIONS.index(RECALL)]
    moves = "1 moved to the right answer, 1 held it, 0 left it"
    assert any(moves in note for note in recall.notes), recall.notes
    assert summary.reveals == tuple(reveals)

    asked = await bot.run(BOB, "results")
    assert isinstance(asked.reply, SummaryCard) and asked.reply.reveals == tuple(reveals)
    await bot.service.fire_timers()
    assert len(bot.surface.threads) == len(QUESTIONS)  # a later round posts nothing again


async def test_an_open_assignments_results_show_no_question(bot: Bot) -> None:
    card = await assigned(bot)
    await choose_at(bot, ALICE, start_of(card), {FIRST: RIGHT})
    asked = await bot.run(ALICE, "results")
    assert isinstance(asked.reply, SummaryCard) and asked.reply.reveals == ()


async def test_a_thread_cut_short_by_an_outage_is_finished_once_by_a_later_round(
    bot: Bot, other_bot: Bot, clock: FakeClock
) -> None:
    card = await assigned(bot, due="1h")
    await choose_at(bot, ALICE, start_of(card), {FIRST: RIGHT})
    bot.surface.thread_down_after = 2
    clock.advance(3601)
    assert await bot.service.fire_timers() == 1  # closed; two questions posted, then no answer
    assert len(bot.surface.threads) == 2
    assert await bot.engine.step_message(card.run_id, THREAD_STEP) is None
    bot.surface.thread_down_after = None
    clock.advance(10)
    await asyncio.gather(bot.service.fire_timers(), other_bot.service.fire_timers())
    posted = thread_reveals(bot) + thread_reveals(other_bot)
    assert sorted(reveal.step_id for reveal in posted) == sorted(QUESTIONS)  # each once
    assert len(bot.surface.posted(SummaryCard) + other_bot.surface.posted(SummaryCard)) == 1
    clock.advance(10)
    assert await bot.service.fire_timers() == await other_bot.service.fire_timers() == 0


async def test_a_refused_thread_posts_nothing_more_and_results_still_show_each_question(
    bot: Bot, clock: FakeClock
) -> None:
    card = await assigned(bot, due="1h")
    await choose_at(bot, ALICE, start_of(card), {FIRST: RIGHT})
    bot.surface.refuses_threads = True
    clock.advance(3601)
    assert await bot.service.fire_timers() == 1
    assert bot.surface.threads == [] and len(bot.surface.posted(SummaryCard)) == 1
    assert await bot.engine.step_message(card.run_id, THREAD_STEP) is not None  # not retried
    asked = await bot.run(ALICE, "results")
    assert isinstance(asked.reply, SummaryCard)
    assert [reveal.step_id for reveal in asked.reply.reveals] == QUESTIONS
