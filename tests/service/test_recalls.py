"""The delayed recall through the service: checks sent once when due, answered, and what was kept.

A live run ends; days later each member who answered gets a private check of the lesson's
key ideas; when the checks close, the channel gets the share right at the lesson beside the
share right later, among the same members. Several processes send each check once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import ValidationError

from bot.engine import Action, Address, AssignmentCard
from bot.model import BadInput, StepCard, SummaryCard
from bot.model.records import RunState
from bot.service import Actor, CommandArgs
from bot.service.assignments import parse_recall
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.seen import seen
from tests.service.test_assignment_results import choose_at
from tests.service.test_assignments import (
    ALICE,
    BOB,
    HOST,
    PLACE,
    Bot,
    start_of,
    walk_to,
)

CARA = Actor("cara", "Cara", PLACE)
DAN = Actor("dan", "Dan", PLACE)
ERIN = Actor("erin", "Erin", PLACE)
"""Erin watches the lesson and answers nothing."""
DAY = 24 * 3600.0

AT_LESSON = {
    "what-changed": {ALICE: "checkable-reward", BOB: "bigger-model", CARA: "checkable-reward",
                     DAN: "more-text"},
    "what-about-writing": {ALICE: "only-checkable", BOB: "only-checkable", CARA: "no-training",
                           DAN: "only-checkable"},
    "code-vs-eulogy": {member: "checker-for-code" for member in (ALICE, BOB, CARA, DAN)},
}
RIGHT_LATER = {"puzzle-recipe": "script-checks", "one-round-of-rl": "physics-answers",
               "bugs-vs-condolences": "tests-vs-people"}


async def live_lesson(bot: Bot, recall: str | None = None) -> int:
    """A host runs the whole lesson; four members answer its questions as `AT_LESSON` says."""
    await bot.run(HOST, "start", recall=recall)
    run = await bot.engine.run_in(PLACE)
    card = await bot.engine.current_card(run.id)
    while True:
        for member, choice in AT_LESSON.get(card.step_id, {}).items():
            await bot.click(member, Address(run.id, card.step_id, Action.CHOOSE, choice).encode())
        await bot.run(HOST, "next")
        stored = await bot.engine.run(run.id)
        assert stored is not None
        if stored.state is not RunState.ACTIVE:
            return run.id
        card = await bot.engine.current_card(run.id)


def checks_of(bot: Bot) -> dict[str, StepCard]:
    """The recall checks sent so far, by member."""
    return dict(bot.surface.cards)


async def answer_check(
    bot: Bot, actor: Actor, check: StepCard, answers: dict[str, str]
) -> StepCard:
    """A member answers their check question by question; the message as it ends."""
    while check.buttons and check.step_id in answers:
        address = Address(check.run_id, check.step_id, Action.RECALL, answers[check.step_id])
        outcome = await bot.click(actor, address.encode())
        assert isinstance(outcome.redraw, StepCard), outcome.reply
        check = outcome.redraw
    return check


async def tend_after(bot: Bot, clock: FakeClock, seconds: float) -> int:
    clock.advance(seconds)
    return await bot.service.recalls.tend()


async def checks_sent(bot: Bot, clock: FakeClock) -> tuple[int, dict[str, StepCard]]:
    """A live lesson whose recall checks were just sent: its run's id, the checks by member."""
    run_id = await live_lesson(bot)
    await tend_after(bot, clock, 10)
    await tend_after(bot, clock, 3 * DAY)
    return run_id, checks_of(bot)


async def test_members_who_answered_get_one_check_and_the_channel_sees_what_it_kept(
    bot: Bot, clock: FakeClock
) -> None:
    run_id = await live_lesson(bot)
    assert await tend_after(bot, clock, 10) == 0  # planned, not yet due
    assert await tend_after(bot, clock, 3 * DAY - 20) == 0
    assert await tend_after(bot, clock, 20) == 4
    checks = checks_of(bot)
    assert set(checks) == {"alice", "bob", "cara", "dan"}  # not Erin, who only watched
    first = checks["alice"]
    assert first.step_id == "puzzle-recipe" and "3 days ago" in first.body
    assert [b.label for b in first.buttons][-1] == "No more of these"
    assert await tend_after(bot, clock, 60) == 0  # each went once

    alice = await answer_check(bot, ALICE, first, {**RIGHT_LATER, "one-round-of-rl": "all-skills"})
    assert "2 of 3 right" in alice.body and not alice.buttons
    bob = await answer_check(bot, BOB, checks["bob"], RIGHT_LATER)
    assert "3 of 3 right" in bob.body

    assert await tend_after(bot, clock, 2 * DAY - 120) == 0  # the checks are still open
    assert not bot.surface.posted(SummaryCard)[1:]
    assert await tend_after(bot, clock, 120) == 1
    kept = bot.surface.posted(SummaryCard)[-1]
    assert isinstance(kept, SummaryCard) and kept.title == "What the channel kept, 3 days on"
    assert kept.lines[0].startswith("2 members answered the recall check 3 days after")
    assert kept.lines[1:] == (
        "• Same brain, a year later: right at the lesson 1 of 2 (50%); 3 days later 2 of 2 (100%).",
        "• Where does that leave writing?: right at the lesson 2 of 2 (100%); 3 days later "
        "1 of 2 (50%).",
        "• Contest coder, so-so eulogist: right at the lesson 2 of 2 (100%); 3 days later "
        "2 of 2 (100%).",
    )
    assert kept.chart is not None and kept.chart.series[0].values == (50.0, 100.0, 100.0)
    assert kept.chart.series[1].values == (100.0, 50.0, 100.0)
    assert await tend_after(bot, clock, 60) == 0  # posted once
    progress = await bot.engine.recall.progress(run_id)
    assert (progress.planned, progress.sent, progress.answered) == (4, 4, 2)


async def test_an_answer_counts_once_and_a_closed_check_takes_none(
    bot: Bot, clock: FakeClock
) -> None:
    _, checks = await checks_sent(bot, clock)
    check = checks["alice"]
    wrong = Address(check.run_id, check.step_id, Action.RECALL, "bigger-model").encode()
    right = Address(check.run_id, check.step_id, Action.RECALL, "script-checks").encode()
    first = await bot.click(ALICE, wrong)
    again = await bot.click(ALICE, right)  # the old message, clicked again: the first stands
    assert isinstance(first.redraw, StepCard) and isinstance(again.redraw, StepCard)
    assert "❌ “Switch to a bigger model" in first.redraw.body
    assert again.redraw.step_id == "one-round-of-rl"
    clock.advance(2 * DAY)
    late = Address(check.run_id, "one-round-of-rl", Action.RECALL, "physics-answers").encode()
    closed = await bot.click(ALICE, late)
    assert closed.refused and "has closed" in str(closed.reply)


async def test_a_forged_or_foreign_check_button_changes_nothing(
    bot: Bot, clock: FakeClock
) -> None:
    run_id, checks = await checks_sent(bot, clock)
    check = checks["alice"]
    answer = Address(run_id, check.step_id, Action.RECALL, "script-checks").encode()
    erin = await bot.click(ERIN, answer)  # Erin got no check
    assert erin.refused and "not open for you" in str(erin.reply)
    for forged in (Address(run_id, check.step_id, Action.RECALL, "no-such-choice"),
                   Address(run_id, "no-such-question", Action.RECALL, "script-checks"),
                   Address(run_id + 1, check.step_id, Action.RECALL, "script-checks")):
        outcome = await bot.click(ALICE, forged.encode())
        assert outcome.refused, forged
    assert (await bot.engine.recall.progress(run_id)).answered == 0


async def test_no_more_of_these_is_honoured_at_the_next_round(bot: Bot, clock: FakeClock) -> None:
    await live_lesson(bot, recall="2d,9d")
    await tend_after(bot, clock, 10)
    assert await tend_after(bot, clock, 2 * DAY) == 4
    check = checks_of(bot)["bob"]
    stop = await bot.click(BOB, Address(check.run_id, "recall", Action.NOMORE).encode())
    assert isinstance(stop.redraw, StepCard) and "no more" in stop.redraw.body
    assert not stop.redraw.buttons
    bot.surface.cards.clear()
    await tend_after(bot, clock, 7 * DAY)
    assert sorted(checks_of(bot)) == ["alice", "cara", "dan"]


async def test_forget_me_before_the_due_time_means_no_check(bot: Bot, clock: FakeClock) -> None:
    await live_lesson(bot)
    await tend_after(bot, clock, 10)
    await bot.run(CARA, "forget-me", confirm=True)
    assert await tend_after(bot, clock, 3 * DAY) == 3
    assert "cara" not in checks_of(bot)


async def test_a_member_with_closed_direct_messages_is_counted_unreachable(
    bot: Bot, clock: FakeClock
) -> None:
    run_id = await live_lesson(bot)
    bot.surface.closed_dms.add("dan")
    await tend_after(bot, clock, 10)
    assert await tend_after(bot, clock, 3 * DAY) == 3
    assert await tend_after(bot, clock, 60) == 0  # not tried again
    progress = await bot.engine.recall.progress(run_id)
    assert (progress.sent, progress.unreachable) == (3, 1)


async def test_a_run_with_recall_off_sends_nothing(bot: Bot, clock: FakeClock) -> None:
    await live_lesson(bot, recall="off")
    await tend_after(bot, clock, 10)
    assert await tend_after(bot, clock, 30 * DAY) == 0
    assert not bot.surface.cards


async def test_a_check_answered_before_its_sender_noted_it_sent_takes_the_answer(
    bot: Bot, clock: FakeClock
) -> None:
    run_id = await live_lesson(bot)
    await tend_after(bot, clock, 10)
    clock.advance(3 * DAY)
    recall = bot.engine.recall
    alice = next(check for check in await recall.due_checks(10) if check.user_id == "alice")
    assert await recall.claim(alice, "another-process")  # its message is on its way to Alice
    answer = Address(run_id, "puzzle-recipe", Action.RECALL, "script-checks").encode()
    clicked = await bot.click(ALICE, answer)
    assert isinstance(clicked.redraw, StepCard), clicked.reply
    assert clicked.redraw.body.startswith("✅") and clicked.redraw.step_id == "one-round-of-rl"
    early = await bot.click(BOB, answer)  # Bob's check is not on its way yet
    assert early.refused and "not open for you" in str(early.reply)
    assert (await recall.progress(run_id)).answered == 1


async def test_two_processes_send_each_check_once(
    bot: Bot, other_bot: Bot, clock: FakeClock
) -> None:
    await live_lesson(bot)
    await tend_after(bot, clock, 10)
    clock.advance(3 * DAY)
    sent = [await bot.service.recalls.tend(), await other_bot.service.recalls.tend()]
    sent += [await other_bot.service.recalls.send_due(), await bot.service.recalls.send_due()]
    assert sum(sent) == 4
    members = [who for who, _ in bot.surface.cards + other_bot.surface.cards]
    assert sorted(members) == ["alice", "bob", "cara", "dan"]


async def test_the_first_post_says_when_the_recall_check_comes(bot: Bot) -> None:
    await bot.run(HOST, "start", recall="2d,9d")
    (first,) = [card for _, card, _ in bot.surface.posts if isinstance(card, StepCard)]
    (section,) = [s for s in first.sections if s.heading == "Spaced recall"]
    assert section.text.startswith("🔁 2 days and again 9 days after the lesson")


@pytest.mark.parametrize(
    ("text", "plan"),
    [("3d", (3 * 86400,)), ("2d,9d", (2 * 86400, 9 * 86400)), ("off", ()), ("36h", (36 * 3600,))],
)
def test_a_recall_plan_reads_as_delays(text: str, plan: tuple[int, ...]) -> None:
    assert parse_recall(text) == plan


@pytest.mark.parametrize("text", ["soon", "9d,2d", "10m", "100d", "1d,2d,3d,4d", ""])
def test_a_bad_recall_plan_is_refused_with_its_usage(text: str) -> None:
    with pytest.raises(BadInput, match="recall"):
        parse_recall(text)


async def test_a_bad_recall_plan_opens_no_run(bot: Bot) -> None:
    outcome = await seen(await bot.service.command(HOST, "start", CommandArgs(recall="tomorrow")))
    assert outcome.refused and "recall:3d" in str(outcome.reply)
    assert not bot.surface.posts
    later = timedelta(days=1)
    assert later  # the channel stays free for a start with a good plan
    assert not (await bot.run(HOST, "start", recall="1d")).refused



async def test_an_assigned_members_check_counts_from_when_they_finished_or_else_the_close(
    bot: Bot, clock: FakeClock
) -> None:
    await bot.run(HOST, "assign", due="7d", recall="3d")
    (card,) = bot.surface.posted(AssignmentCard)
    assert isinstance(card, AssignmentCard) and card.recall_plan == (3 * 86400,)
    await choose_at(bot, ALICE, start_of(card), {"what-changed": "checkable-reward"})
    clock.advance(DAY)
    question = await walk_to(bot, BOB, start_of(card), "prediction")
    choice = Address(card.run_id, question.step_id, Action.CHOOSE, "bigger-model")
    await bot.click(BOB, choice.encode())  # Bob answers the first question, never finishes
    await tend_after(bot, clock, 10)
    await tend_after(bot, clock, 2 * DAY - 60)  # Alice finished 3 days ago less a minute
    assert checks_of(bot) == {}
    await tend_after(bot, clock, 120)
    assert set(checks_of(bot)) == {"alice"}
    clock.advance(4 * DAY)  # the assignment closes: Bob's lesson ends now
    await bot.service.fire_timers()
    await tend_after(bot, clock, 3 * DAY - 60)
    assert set(checks_of(bot)) == {"alice"}
    await tend_after(bot, clock, 120)
    assert set(checks_of(bot)) == {"alice", "bob"}


def test_the_default_recall_plan_comes_from_the_settings() -> None:
    assert Settings(_env_file=None).recall_plan() == (3 * 86400,)
    assert Settings(_env_file=None, recall_after="2d,9d").recall_plan() == (2 * 86400, 9 * 86400)
    assert Settings(_env_file=None, recall_after="off").recall_plan() == ()
    with pytest.raises(ValidationError, match="is not a recall plan"):
        Settings(_env_file=None, recall_after="weekly")


async def test_a_finished_check_shows_the_verdict_of_each_answer(
    bot: Bot, clock: FakeClock
) -> None:
    _, checks = await checks_sent(bot, clock)
    puzzle, writing, bugs = bot.engine.catalog.get().delayed_recall
    answers = {**RIGHT_LATER, "one-round-of-rl": "all-skills"}
    done = await answer_check(bot, ALICE, checks["alice"], answers)
    verdicts = [
        f"✅ “{puzzle.correct_choice.label}”: right. {puzzle.why}",
        f"❌ “{writing.choices[0].label}”: not quite; it was “{writing.correct_choice.label}”. "
        f"{writing.why}",
        f"✅ “{bugs.correct_choice.label}”: right. {bugs.why}",
    ]
    assert all(verdict in done.body for verdict in verdicts), done.body
    places = [done.body.index(verdict) for verdict in verdicts]
    assert places == sorted(places)
    assert done.body.endswith("as totals only, never names.") and "2 of 3 right" in done.body
