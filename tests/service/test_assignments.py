"""The assigned mode through the service: assign, Start, answers, progress, closing once."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import (
    IS_ASSIGNMENT,
    Action,
    Address,
    AssignmentCard,
    LessonEngine,
)
from bot.i18n import _
from bot.model import BadInput, Place, RevealCard, RunMode, RunState, StepCard, SummaryCard
from bot.service import (
    Actor,
    Card,
    CommandArgs,
    DrawnChart,
    LessonService,
    PlatformUnavailable,
    Presenter,
    Redrawn,
    fixed_rights,
)
from bot.service.assignments import (
    CARD_STEP,
    MAX_AHEAD,
    TEND_EVERY,
    parse_remind,
    parse_when,
)
from bot.service.commands import parse_command
from bot.service.posting import HOST as THIS_MACHINE
from bot.service.posting import INCARNATION
from bot.settings import Settings
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.due_now import set_run_times
from tests.engine.helpers import start_at
from tests.seen import Seen, seen

PLACE = Place("discord", "guild-1", "channel-1")
HOST = Actor("host-1", "Hosting Hana", PLACE, fixed_rights(True))
ALICE = Actor("alice", "Alice", PLACE)
BOB = Actor("bob", "Bob", PLACE)
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@dataclass
class RecordingSurface:
    """A channel that keeps what was posted and every redraw."""

    shows_charts: bool = True
    shows_own_steps: bool = True
    back_verb: str = "continue"
    posts: list[tuple[str, Card, DrawnChart | None]] = field(default_factory=list)
    edits: list[tuple[str, Redrawn]] = field(default_factory=list)

    down: bool = False
    """The platform does not answer posts (an outage)."""
    messaged: list[tuple[str, str]] = field(default_factory=list)

    async def post(self, channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        if self.down:
            raise PlatformUnavailable("no answer")
        self.posts.append((channel, card, chart))
        return f"ref-{len(self.posts)}"

    unanswered: set[str] = field(default_factory=set)
    """Members whose direct messages get no answer from the platform (an outage)."""

    closed_dms: set[str] = field(default_factory=set)
    """Members who closed their direct messages: the platform refuses to message them."""
    cards: list[tuple[str, StepCard]] = field(default_factory=list)
    """Cards sent to members privately (a recall check), with whom they went to."""

    async def message_member(
        self, place: Place, user_id: str, text: str, card: StepCard | None = None
    ) -> bool:
        if user_id in self.unanswered:
            raise PlatformUnavailable("no answer")
        if user_id in self.closed_dms:
            return False
        self.messaged.append((user_id, text))
        if card is not None:
            self.cards.append((user_id, card))
        return True

    threads: list[tuple[str, Card]] = field(default_factory=list)
    """What was posted in threads: the message each thread is under, and the card."""
    refuses_threads: bool = False
    thread_down_after: int | None = None
    """The platform stops answering after this many posts in threads (an outage)."""

    async def post_in_thread(
        self, channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        if self.down or len(self.threads) == self.thread_down_after:
            raise PlatformUnavailable("no answer")
        if self.refuses_threads:
            return None
        self.threads.append((under, card))
        return f"thread-ref-{len(self.threads)}"

    async def edit(self, channel: str, ref: str, card: Redrawn) -> bool:
        self.edits.append((ref, card))
        return True

    async def find(self, channel: str, card: StepCard | RevealCard) -> str | None:
        return None

    def posted(self, kind: type) -> list[Card]:
        return [card for _, card, _ in self.posts if isinstance(card, kind)]


@dataclass
class Bot:
    """One process: an engine, its service, and the channel it posts to."""

    engine: LessonEngine
    service: LessonService
    surface: RecordingSurface

    async def run(self, actor: Actor, verb: str, **args: object) -> Seen:
        outcome = await self.service.command(actor, verb, CommandArgs(**args))  # type: ignore[arg-type]
        return await seen(outcome)

    async def click(self, actor: Actor, address: str) -> Seen:
        shown = await seen(await self.service.click(actor, address))
        await self.service.presenter.flush()
        return shown

    async def answer(self, actor: Actor, address: str, text: str) -> Seen:
        return await seen(await self.service.answer(actor, address, text))


def bot_on(engine: LessonEngine) -> Bot:
    surface = RecordingSurface()
    presenter = Presenter(engine, surface, counter_interval=0.0)
    return Bot(engine, LessonService(engine, presenter), surface)


async def assigned(bot: Bot, due: str = "3d") -> AssignmentCard:
    await bot.run(HOST, "assign", due=due)
    (card,) = bot.surface.posted(AssignmentCard)
    assert isinstance(card, AssignmentCard)
    return card


def dead_on_this(pid: int) -> str:
    """The holder name of a process of this machine, `pid`, that has ended."""
    return f"{THIS_MACHINE}:{pid}:{INCARNATION}:1"


def start_of(card: AssignmentCard) -> str:
    (start,) = card.buttons
    return start.address


def own_card(outcome: Seen) -> StepCard:
    assert outcome.own is not None and outcome.own.card is not None, outcome.reply
    return outcome.own.card


async def walk_to(bot: Bot, actor: Actor, start: str, kind: str) -> StepCard:
    card = own_card(await bot.click(actor, start))
    while card.kind != kind:
        onward = Address(card.run_id, card.step_id, Action.ONWARD).encode()
        card = own_card(await bot.click(actor, onward))
    return card


# The `when` parser


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("90m", timedelta(minutes=90)),
        ("2h", timedelta(hours=2)),
        ("3d", timedelta(days=3)),
        ("1w", timedelta(weeks=1)),
        ("1d12h", timedelta(days=1, hours=12)),
        ("1W2D3H4M", timedelta(weeks=1, days=2, hours=3, minutes=4)),
    ],
)
def test_a_duration_counts_from_now(text: str, span: timedelta) -> None:
    assert parse_when(text, NOW) == NOW + span


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("2026-01-10", datetime(2026, 1, 10, tzinfo=UTC)),
        ("2026-01-10 17:00", datetime(2026, 1, 10, 17, 0, tzinfo=UTC)),
        ("2026-01-10T17:00", datetime(2026, 1, 10, 17, 0, tzinfo=UTC)),
    ],
)
def test_a_date_is_read_in_utc(text: str, due: datetime) -> None:
    assert parse_when(text, NOW) == due


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("soon", "Usage"),
        ("3 days", "Usage"),
        ("0m", "has passed"),
        ("2025-12-31", "has passed"),
        ("2026-02-30", "exists"),
        ("13w", "within 90 days"),
        ("2026-06-01", "within 90 days"),
        ("", "Usage"),
        ("d", "Usage"),
    ],
)
def test_anything_else_is_refused_with_a_usage_line(text: str, says: str) -> None:
    with pytest.raises(BadInput, match=says):
        parse_when(text, NOW)


@given(
    weeks=st.integers(0, 20), days=st.integers(0, 200), hours=st.integers(0, 3000),
    minutes=st.integers(0, 10_000),
)
def test_any_combined_duration_is_due_then_or_refused(
    weeks: int, days: int, hours: int, minutes: int
) -> None:
    text = "".join(
        f"{n}{unit}" for n, unit in ((weeks, "w"), (days, "d"), (hours, "h"), (minutes, "m")) if n
    ) or "0m"
    span = timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes)
    if timedelta(0) < span <= MAX_AHEAD:
        assert parse_when(text, NOW) == NOW + span
    else:
        with pytest.raises(BadInput):
            parse_when(text, NOW)


@given(st.text(max_size=12))
def test_no_text_breaks_the_parser(text: str) -> None:
    try:
        due = parse_when(text, NOW)
    except BadInput:
        return
    assert NOW < due <= NOW + MAX_AHEAD


def test_a_reminder_is_before_the_due_time() -> None:
    due = NOW + timedelta(days=3)
    assert parse_remind("1d", due, NOW) == due - timedelta(days=1)
    assert parse_remind("2026-01-02 08:00", due, NOW) == datetime(2026, 1, 2, 8, tzinfo=UTC)
    with pytest.raises(BadInput, match="before the due time"):
        parse_remind("4d", due, NOW)


def test_the_typed_command_reads_due_and_remind() -> None:
    assert parse_command("assign rlvr due:3d remind:12h") == (
        "assign", CommandArgs(lesson="rlvr", due="3d", remind="12h")
    )
    _verb, args = parse_command("assign due:2026-12-10 17:00 remind:2026-12-09")
    assert (args.due, args.remind, args.lesson) == ("2026-12-10 17:00", "2026-12-09", None)
    with pytest.raises(BadInput, match="Usage"):
        parse_command("assign rlvr other due:3d")
    with pytest.raises(BadInput, match="Usage"):
        parse_command("assign when:3d")


# The channel and the member


async def test_assigning_posts_the_card_with_counts_and_remembers_it(
    bot: Bot, engine: LessonEngine, clock: FakeClock
) -> None:
    outcome = await bot.run(HOST, "assign", due="3d")
    assert outcome.done is not None and "due 2026-01-04 12:00 UTC" in outcome.done
    card = await assigned_card(bot)
    assert card.counter_text == "0 started · 0 finished" and not card.closed
    assert await engine.step_message(card.run_id, CARD_STEP) == "ref-1"
    run = await engine.run(card.run_id)
    assert run is not None and run.mode is RunMode.ASSIGNED
    assert run.due_at == clock() + timedelta(days=3)


async def assigned_card(bot: Bot) -> AssignmentCard:
    (card,) = bot.surface.posted(AssignmentCard)
    assert isinstance(card, AssignmentCard)
    return card


async def test_start_shows_the_members_own_step_and_the_card_counts_it(bot: Bot) -> None:
    card = await assigned(bot)
    outcome = await bot.click(ALICE, start_of(card))
    step = own_card(outcome)
    assert step.number == 1 and isinstance(outcome.reply, str) and step.title in outcome.reply
    assert all(not b.host_only for b in step.buttons)
    assert [b.label for b in step.buttons][-1] == "Next"
    ref, redrawn = bot.surface.edits[-1]
    assert ref == "ref-1" and isinstance(redrawn, AssignmentCard)
    assert redrawn.counter_text == "1 started · 0 finished"
    assert len(bot.surface.posts) == 1  # nothing else in the channel


async def test_an_answer_carries_the_tally_so_far_and_never_before(bot: Bot) -> None:
    card = await assigned(bot)
    prediction = await walk_to(bot, ALICE, start_of(card), "prediction")
    assert (await bot.click(ALICE, start_of(card))).own.so_far is None  # type: ignore[union-attr]
    choice = next(b for b in prediction.buttons if b.address.split(":")[3] == "choose")
    answered = await bot.click(ALICE, choice.address)
    assert answered.so_far is not None and answered.so_far.answered == 1
    assert isinstance(answered.reply, str) and "So far:" in answered.reply
    step = answered.answered  # the step as it stands, for a platform that redraws it
    assert step is not None and step.card is not None and step.so_far == answered.so_far
    assert step.text == answered.reply.split("\n\n")[0] and "So far" not in step.text
    assert [b.label for b in step.card.buttons] == ["Next"]  # the choice is made
    back = await bot.run(ALICE, "continue")
    assert back.own is not None and back.own.so_far is not None
    assert len(bot.surface.posts) == 1  # no tally or counter in the channel


async def test_progress_is_for_hosts_and_counts_each_step(bot: Bot) -> None:
    card = await assigned(bot)
    prediction = await walk_to(bot, ALICE, start_of(card), "prediction")
    await bot.click(BOB, start_of(card))
    refused = await bot.run(ALICE, "progress")
    assert isinstance(refused.reply, str) and "Only a lesson host" in refused.reply
    told = await bot.run(HOST, "progress")
    assert isinstance(told.reply, str)
    assert "2 started · 0 finished" in told.reply
    assert f"at step {prediction.number} · {prediction.title}: 1" in told.reply
    assert "at step 1 · " in told.reply and "Could not be messaged: 0" in told.reply


async def test_live_host_verbs_on_an_assignment_change_nothing(
    bot: Bot, engine: LessonEngine
) -> None:
    card = await assigned(bot)
    for verb in ("reveal", "next", "repost", "stop"):
        assert (await bot.run(HOST, verb)).reply == _(IS_ASSIGNMENT), verb
        assert "Only a lesson host" in str((await bot.run(ALICE, verb)).reply), verb
    first = engine.catalog.get().steps[0].id
    for action in (Action.REVEAL, Action.NEXT):  # an old or forged host button
        clicked = await bot.click(HOST, Address(card.run_id, first, action).encode())
        assert clicked.reply == _(IS_ASSIGNMENT), action
    run = await engine.run(card.run_id)
    assert run is not None and run.state is RunState.ACTIVE and run.step_index == 0
    assert len(bot.surface.posts) == 1 and not bot.surface.edits


async def test_a_second_lesson_is_refused_naming_what_runs(bot: Bot) -> None:
    card = await assigned(bot)
    for verb, args in (("start", {}), ("assign", {"due": "1d"})):
        outcome = await bot.run(HOST, verb, **args)
        assert isinstance(outcome.reply, str)
        assert f"An assignment is already running in this channel (run {card.run_id})" in (
            outcome.reply
        )
        assert "/lesson close" in outcome.reply


async def test_a_live_lesson_is_named_when_assigning_over_it(bot: Bot) -> None:
    await bot.run(HOST, "start")
    outcome = await bot.run(HOST, "assign", due="1d")
    assert isinstance(outcome.reply, str) and outcome.reply.startswith("A live lesson")
    closing = await bot.run(HOST, "close")
    assert isinstance(closing.reply, str) and "live" in closing.reply


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({}, "Usage"),
        ({"due": "soon"}, "Usage"),
        ({"due": "2020-01-01"}, "has passed"),
        ({"due": "100d"}, "within 90 days"),
        ({"due": "1d", "remind": "2d"}, "before the due time"),
        ({"due": "1d", "lesson": "nope"}, "no lesson called"),
    ],
)
async def test_usage_errors_store_and_post_nothing(
    bot: Bot, store: SqlRunStore, args: dict[str, str], says: str
) -> None:
    outcome = await bot.run(HOST, "assign", **args)
    assert isinstance(outcome.reply, str) and says in outcome.reply
    assert await store.find_active_run(PLACE) is None and not bot.surface.posts


async def test_only_hosts_assign_and_close(bot: Bot, store: SqlRunStore) -> None:
    refused = await bot.run(ALICE, "assign", due="1d")
    assert isinstance(refused.reply, str) and "Only a lesson host" in refused.reply
    assert await store.find_active_run(PLACE) is None
    await assigned(bot)
    refused = await bot.run(ALICE, "close")
    assert isinstance(refused.reply, str) and "Only a lesson host" in refused.reply
    assert await store.find_active_run(PLACE) is not None


async def test_results_and_export_work_on_an_assignment(bot: Bot) -> None:
    card = await assigned(bot)
    prediction = await walk_to(bot, ALICE, start_of(card), "prediction")
    choice = next(b for b in prediction.buttons if b.address.split(":")[3] == "choose")
    await bot.click(ALICE, choice.address)
    results = await bot.run(ALICE, "results")
    assert isinstance(results.reply, SummaryCard) and results.reply.run_id == card.run_id
    export = await bot.run(HOST, "export")
    assert export.reply is not None and f"run-{card.run_id}.csv" in str(export.reply)


# Closing once


async def test_closing_posts_the_results_and_closes_the_card(
    bot: Bot, engine: LessonEngine
) -> None:
    card = await assigned(bot)
    prediction = await walk_to(bot, ALICE, start_of(card), "prediction")
    choice = next(b for b in prediction.buttons if b.address.split(":")[3] == "choose")
    await bot.click(ALICE, choice.address)
    closed = await bot.run(HOST, "close")
    assert closed.done is not None and "Closed" in closed.done
    (summary,) = bot.surface.posted(SummaryCard)
    assert isinstance(summary, SummaryCard) and summary.run_id == card.run_id
    assert summary.bars  # the revealed question is in the results, as in a live run
    ref, last = bot.surface.edits[-1]
    assert ref == "ref-1" and isinstance(last, AssignmentCard) and last.closed
    assert all(b.disabled for b in last.buttons)
    late = await bot.click(BOB, start_of(card))
    assert isinstance(late.reply, str) and "closed" in late.reply and late.own is None
    again = await bot.run(HOST, "close")
    assert isinstance(again.reply, str) and "No lesson is running" in again.reply
    assert len(bot.surface.posted(SummaryCard)) == 1


async def test_the_due_time_closes_it_once_across_two_processes(
    bot: Bot, other_bot: Bot, clock: FakeClock
) -> None:
    card = await assigned(bot, due="2h")
    await bot.click(ALICE, start_of(card))
    assert await bot.service.fire_timers() == 0
    clock.advance(2 * 3600 + 1)
    fired = await asyncio.gather(
        bot.service.fire_timers(), other_bot.service.fire_timers(), bot.service.fire_timers()
    )
    assert sum(fired) == 1
    summaries = bot.surface.posted(SummaryCard) + other_bot.surface.posted(SummaryCard)
    assert len(summaries) == 1
    assert await bot.service.fire_timers() == 0
    run = await bot.engine.run(card.run_id)
    assert run is not None and run.state is RunState.FINISHED


async def test_a_host_close_and_the_due_time_race_to_one_close(
    bot: Bot, other_bot: Bot, clock: FakeClock
) -> None:
    card = await assigned(bot, due="1h")
    clock.advance(3601)
    closes = await asyncio.gather(
        bot.run(HOST, "close"), other_bot.service.fire_timers(), other_bot.run(HOST, "close")
    )
    summaries = bot.surface.posted(SummaryCard) + other_bot.surface.posted(SummaryCard)
    assert len(summaries) == 1, closes
    run = await bot.engine.run(card.run_id)
    assert run is not None and run.state is RunState.FINISHED


async def test_results_lost_at_the_due_time_are_posted_once_when_the_platform_answers(
    bot: Bot, other_bot: Bot, clock: FakeClock
) -> None:
    card = await assigned(bot, due="1h")
    clock.advance(3601)
    bot.surface.down = True
    assert await bot.service.fire_timers() == 1  # closed, but the results went nowhere
    assert bot.surface.posted(SummaryCard) == []
    run = await bot.engine.run(card.run_id)
    assert run is not None and run.state is RunState.FINISHED
    bot.surface.down = False
    await asyncio.gather(bot.service.fire_timers(), other_bot.service.fire_timers())
    summaries = bot.surface.posted(SummaryCard) + other_bot.surface.posted(SummaryCard)
    assert len(summaries) == 1
    assert await bot.service.fire_timers() == await other_bot.service.fire_timers() == 0
    assert len(bot.surface.posted(SummaryCard) + other_bot.surface.posted(SummaryCard)) == 1


async def test_a_card_lost_to_an_outage_is_posted_once_by_a_later_timer_round(
    bot: Bot, other_bot: Bot
) -> None:
    bot.surface.down = True
    told = (await bot.run(HOST, "assign", due="1d")).reply
    assert isinstance(told, str) and "did not answer the bot's post" in told
    assert bot.surface.posted(AssignmentCard) == []
    bot.surface.down = False
    await asyncio.gather(bot.service.fire_timers(), other_bot.service.fire_timers())
    cards = bot.surface.posted(AssignmentCard) + other_bot.surface.posted(AssignmentCard)
    assert len(cards) == 1 and not cards[0].closed
    await bot.service.fire_timers()
    assert len(bot.surface.posted(AssignmentCard) + other_bot.surface.posted(AssignmentCard)) == 1


async def test_a_reminder_that_gets_no_answer_does_not_mark_the_member_unreachable(
    bot: Bot, clock: FakeClock
) -> None:
    await bot.run(HOST, "assign", due="2d", remind="1d")
    (card,) = bot.surface.posted(AssignmentCard)
    for member in (ALICE, BOB):
        await bot.click(member, start_of(card))
    bot.surface.unanswered.add(ALICE.user_id)
    clock.advance(24 * 3600 + 60)
    assert await bot.service.fire_timers() == 1  # Bob reached
    assert [user for user, _ in bot.surface.messaged] == [BOB.user_id]
    progress = await bot.run(HOST, "progress")
    assert "Could not be messaged: 0" in str(progress.reply)
    bot.surface.unanswered.clear()
    clock.advance(TEND_EVERY.total_seconds())
    assert await bot.service.fire_timers() == 1  # Alice's, given back, goes next round
    clock.advance(TEND_EVERY.total_seconds())
    assert await bot.service.fire_timers() == 0
    assert sorted(user for user, _ in bot.surface.messaged) == [ALICE.user_id, BOB.user_id]


async def test_two_processes_remind_each_member_once(
    bot: Bot, other_bot: Bot, clock: FakeClock
) -> None:
    await bot.run(HOST, "assign", due="2d", remind="1d")
    (card,) = bot.surface.posted(AssignmentCard)
    members = [Actor(f"m{n}", f"Member {n}", PLACE) for n in range(8)]
    for member in members:
        await bot.click(member, start_of(card))
    clock.advance(24 * 3600 + 60)
    rounds = [one.service.fire_timers() for one in (bot, other_bot, bot, other_bot)]
    assert sum(await asyncio.gather(*rounds)) == len(members)
    sent = [user for user, _ in bot.surface.messaged + other_bot.surface.messaged]
    assert sorted(sent) == sorted(member.user_id for member in members)
    run = await bot.engine.run(card.run_id)
    assert run is not None and run.reminded_at is not None  # done: no more rounds for it


async def test_a_reminder_claimed_by_a_process_that_ended_is_sent_at_once(
    bot: Bot, engine: LessonEngine, clock: FakeClock
) -> None:
    await bot.run(HOST, "assign", due="2d", remind="1d")
    (card,) = bot.surface.posted(AssignmentCard)
    for member in (ALICE, BOB):
        await bot.click(member, start_of(card))
    clock.advance(24 * 3600 + 60)
    ended = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await ended.wait()
    elsewhere = "another-machine:1:0:1"  # a process of another machine: only its lease lapses
    assert await engine.assigned.claim_reminder(card.run_id, ALICE.user_id, dead_on_this(ended.pid))
    assert await engine.assigned.claim_reminder(card.run_id, BOB.user_id, elsewhere)
    assert await bot.service.fire_timers() == 1
    assert [user for user, _ in bot.surface.messaged] == [ALICE.user_id]
    run = await engine.run(card.run_id)
    assert run is not None and run.reminded_at is None  # Bob's is another's until it lapses


async def test_due_assignments_of_another_platform_are_left_to_it(
    bot: Bot, clock: FakeClock
) -> None:
    await assigned(bot, due="1h")
    clock.advance(3601)
    assert await bot.service.fire_timers("slack") == 0
    assert await bot.service.fire_timers("discord") == 1


async def test_catching_up_at_startup_posts_no_live_step_into_an_assignment(bot: Bot) -> None:
    await assigned(bot)
    await bot.service.presenter.catch_up("discord")
    assert len(bot.surface.posts) == 1 and not bot.surface.posted(StepCard)


async def test_a_members_own_free_answer_step_opens_its_form_and_grades(bot: Bot) -> None:
    card = await assigned(bot)
    problem = await walk_to(bot, ALICE, start_of(card), "free_answer")
    assert problem.number > 1  # the run itself is still at its first step
    opened = await bot.click(ALICE, Address(card.run_id, problem.step_id, Action.ANSWER).encode())
    assert opened.form is not None, opened.reply
    assert opened.form.card.step_id == problem.step_id
    answer = await bot.answer(ALICE, opened.form.address.encode(), "1/2")
    assert answer.reward is not None
    assert answer.so_far is not None and answer.so_far.answered == 1
    still = answer.answered  # tries are left: the Answer button stays, More and Next beside
    assert still is not None and still.card is not None
    assert [b.label for b in still.card.buttons] == ["Answer", "More", "Next"]


async def test_an_assigned_members_replies_promise_no_reveal(bot: Bot) -> None:
    card = await assigned(bot)
    prediction = await walk_to(bot, ALICE, start_of(card), "prediction")
    choice = next(b for b in prediction.buttons if b.address.split(":")[3] == "choose")
    replies = [(await bot.click(ALICE, choice.address)).reply]
    problem = await walk_to(bot, ALICE, start_of(card), "free_answer")
    answer = Address(card.run_id, problem.step_id, Action.ANSWER).encode()
    tried = await bot.answer(ALICE, answer, "1/2")
    while tried.tries_left:
        tried = await bot.answer(ALICE, answer, "1/2")
    replies.append(tried.reply)
    last = str(tried.reply)
    assert last.startswith("Try 5: the checker read **1/2**") and "That was your last try." in last
    assert tried.so_far is not None and "The answer was **3/4**." in last  # at once, not later
    assert [reply for reply in replies if "reveal" in str(reply).lower()] == []


async def test_a_live_members_last_try_is_told_the_answer_comes_at_the_reveal(
    bot: Bot, engine: LessonEngine
) -> None:
    problem = await start_at(engine, "free_answer", PLACE)
    answer = Address(problem.run_id, problem.step_id, Action.ANSWER).encode()
    tried = await bot.answer(ALICE, answer, "1/2")
    while tried.tries_left:
        tried = await bot.answer(ALICE, answer, "1/2")
    assert str(tried.reply).endswith("That was your last try. The answer comes at the reveal.")


async def test_due_check_interval_sets_how_often_a_process_looks_for_due_assignments(
    engine: LessonEngine, store: SqlRunStore, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUE_CHECK_INTERVAL", "2")
    surface = RecordingSurface()
    presenter = Presenter(engine, surface, counter_interval=0.0)
    tending = Settings(_env_file=None).tend_every()  # type: ignore[call-arg]
    bot = Bot(engine, LessonService(engine, presenter, tend_every=tending), surface)
    card = await assigned(bot)
    assert await bot.service.fire_timers() == 0  # a look now: nothing is due
    await set_run_times(store, card.run_id, due_at=clock())  # due from now on
    clock.advance(1.5)
    assert await bot.service.fire_timers() == 0  # no look yet
    clock.advance(0.6)
    assert await bot.service.fire_timers() == 1  # 2 s after the last look: closed
    run = await store.get_run(card.run_id)
    assert run is not None and run.state is RunState.FINISHED
    await bot.service.presenter.flush()
