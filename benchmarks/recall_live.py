"""A delayed recall through the real discord.py client: every member's check falls due at once.

A lesson in the fake Discord's channel ended a recall delay ago, and every member answered its
first question (`recall_setup`). Then the real bot starts in a process of its own: its timer
loop plans every member's check and sends them, as direct messages, at its pace. Each member
answers their check as soon as it arrives, question by question, each click on the message the
last click redrew. Once every member has answered (or the deadline passed), the bot's RSS is
read and the bot stopped with SIGTERM, so everything it sent is in before it is counted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import func, select

from benchmarks.bench_assigned import rss_mb
from benchmarks.burst_discord_app import bot_process
from benchmarks.burst_discord_host import button_ids
from benchmarks.burst_timing import without_collector_pauses
from benchmarks.recall_setup import ended_lesson
from bot.engine import Action, LessonCatalog, parse_address
from bot.model import Member, Place
from bot.process.event_loop import run_service
from fakes.fake_discord import CHANNEL_ID, GUILD_ID, Call, FakeDiscord, FakeUser, SentInteraction
from storage import open_database
from storage.models import RecallAnswerRow, RecallCheckRow

Message = dict[str, Any]
PLACE = Place("discord", str(GUILD_ID), str(CHANNEL_ID))
"""The fake Discord's lesson channel."""
RETRIES = 2
"""Clicks a member may make beyond one per question, after a refusal."""
THINKING = 5
"""Discord's response type of a deferral that shows "thinking…" in a new message."""

CHECK_PREFIX = "**Question "
"""How a check's message begins on Discord: the question it is at, "Question 1 of 3"."""


@dataclass(frozen=True)
class LiveSizes:
    """How many members are owed a check, and how long past the pace's own time to wait."""

    members: int
    settle_seconds: float


@dataclass(frozen=True)
class Arrival:
    """A check the bot sent: to whom, when it reached the fake (loop time), the message."""

    user_id: int
    at: float
    message: Message


@dataclass
class CheckingDiscord(FakeDiscord):
    """The fake Discord, also handing over each direct message the bot posts as it arrives."""

    arrivals: asyncio.Queue[Arrival] = field(default_factory=asyncio.Queue)
    sent: list[Arrival] = field(default_factory=list)
    dm_users: dict[int, int] = field(default_factory=dict)
    """The member of each direct message channel, by channel id."""

    def _open_dm(self, user_id: int) -> dict[str, Any]:
        channel = super()._open_dm(user_id)
        self.dm_users[int(channel["id"])] = user_id
        return channel

    def _answer(self, call: Call) -> Any:
        answer = super()._answer(call)
        parts = call.path.strip("/").split("/")
        if call.method == "POST" and len(parts) == 3 and parts[::2] == ["channels", "messages"]:
            user = self.dm_users.get(int(parts[1]))
            if user is not None:
                arrival = Arrival(user, call.at, answer)
                self.sent.append(arrival)
                self.arrivals.put_nowait(arrival)
        return answer


@dataclass(frozen=True)
class Stored:
    """What the database holds after the round: checks sent and unreachable, answers stored."""

    checks: int
    sent: int
    unreachable: int
    answers: int


@dataclass(frozen=True)
class LiveRound:
    """One round: every check the fake received, every click's ack (None: never), the RSS."""

    members: int
    questions: int
    sent: list[Arrival]
    acks: list[float | None]
    stored: Stored
    rss_mb: float
    started_at: float
    """When the bot was connected (loop time): the checks were due from before then."""
    refused: int = 0
    """Clicks the bot refused (the check not open, say): the member clicked again."""
    elsewhere: int = 0
    """Clicks whose next question came in a new message, the clicked one left as it was."""


def live_round(url: str, sizes: LiveSizes, pace_per_s: float) -> LiveRound:
    """One round on the database at `url` (migrated, empty), in a fresh event loop."""
    return run_service(_round_on(url, sizes, pace_per_s))


async def _round_on(url: str, sizes: LiveSizes, pace_per_s: float) -> LiveRound:
    fake = CheckingDiscord()
    async with fake:
        members = [fake.member(f"member-{n}") for n in range(sizes.members)]
        run_id = await seeded(url, members)
        questions = len(LessonCatalog().get().delayed_recall)
        deadline_s = sizes.members / pace_per_s * 3 + sizes.settle_seconds
        async with bot_process(fake, url) as bot:
            started = asyncio.get_running_loop().time()
            with without_collector_pauses():
                clicks = await answer_checks(fake, members, questions, deadline_s)
            rss = rss_mb(bot)
        acks = [fake.ack_delay(click) for click in clicks]
        stored = await stored_rows(url, run_id)
    refused, elsewhere = reply_counts(fake, clicks)
    return LiveRound(len(members), questions, fake.sent, acks, stored, rss, started, refused,
                     elsewhere)


async def seeded(url: str, members: Sequence[FakeUser]) -> int:
    """The ended lesson every member answered; the run's id."""
    database = open_database(url)
    try:
        people = [Member(str(one.id), one.name) for one in members]
        return await ended_lesson(database, PLACE, people)
    finally:
        await database.dispose()


async def answer_checks(
    fake: CheckingDiscord, members: Sequence[FakeUser], questions: int, deadline_s: float
) -> list[SentInteraction]:
    """Each member answers their check as it arrives; every click, once all are answered.

    Waits until every member got a check and answered it, or `deadline_s` seconds passed.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + deadline_s
    by_id = {member.id: (number, member) for number, member in enumerate(members)}
    answering: dict[int, asyncio.Task[list[SentInteraction]]] = {}
    while len(answering) < len(members) and loop.time() < deadline:
        try:
            arrival = await asyncio.wait_for(fake.arrivals.get(), deadline - loop.time())
        except TimeoutError:
            break
        if arrival.user_id in answering:
            continue  # a second check of the same member: counted, not answered
        number, member = by_id[arrival.user_id]
        answer = answer_check(fake, member, number, arrival.message, questions, deadline)
        answering[arrival.user_id] = asyncio.ensure_future(answer)
    done = await asyncio.gather(*answering.values())
    return [click for clicks in done for click in clicks]


async def answer_check(
    fake: FakeDiscord, member: FakeUser, number: int, message: Message, questions: int,
    deadline: float,
) -> list[SentInteraction]:
    """A member answers each question of their check, each time where the bot showed the next.

    That is the clicked message, redrawn, or a new one if the bot answered there instead. A
    refused click is tried once more on the same question, as a member would (at most
    `RETRIES` in all). Member n gives choice n (of each question's choices, in turn), so some
    answers are right. A click not answered by the loop time `deadline` ends the member's turn.
    """
    clicks: list[SentInteraction] = []
    shown = message
    while len(clicks) < questions + RETRIES:
        choices = answer_buttons(shown)
        if not choices:
            break
        click = await fake.click(member, shown, choices[(number + len(clicks)) % len(choices)])
        clicks.append(click)
        remaining = deadline - asyncio.get_running_loop().time()
        try:
            reply = await fake.wait_until(partial(fake.reply_to, click), remaining, "a reply")
        except AssertionError:
            break
        shown = reply.message if shows_check(reply.message) else as_now(fake, shown)
    return clicks


def shows_check(message: Message) -> bool:
    """Whether a message shows a member's check (a question, or its end), not a refusal."""
    return str(message.get("content") or "").startswith(CHECK_PREFIX)


def as_now(fake: FakeDiscord, message: Message) -> Message:
    """A message the bot sent, as it looks now (a channel or direct message, or an ephemeral)."""
    message_id = int(message["id"])
    held = fake.ephemerals.get(message_id)
    return held.message if held is not None else fake.messages[message_id]


def reply_counts(fake: FakeDiscord, clicks: Sequence[SentInteraction]) -> tuple[int, int]:
    """Clicks the bot refused; clicks whose next question it showed in a new message."""
    replies = [reply for reply in map(fake.reply_to, clicks) if reply is not None]
    refused = sum(not shows_check(reply.message) for reply in replies)
    elsewhere = sum(shows_check(reply.message) and reply.response_type == THINKING
                    for reply in replies)
    return refused, elsewhere


def answer_buttons(message: Message) -> list[str]:
    """The custom_ids of a check's answer buttons (not "No more of these")."""
    return [custom_id for custom_id in button_ids(message)
            if parse_address(custom_id).action is Action.RECALL]


async def stored_rows(url: str, run_id: int) -> Stored:
    """The run's checks as the database holds them, and the answers stored to them."""
    database = open_database(url)
    try:
        async with database.connect() as connection:
            of_run = RecallCheckRow.run_id == run_id
            counts = select(
                func.count(), func.count(RecallCheckRow.sent_at),
                func.count().filter(RecallCheckRow.unreachable.is_(True)),
            ).where(of_run)
            checks, sent, unreachable = (await connection.execute(counts)).one()
            answers = select(func.count()).select_from(RecallAnswerRow).join(
                RecallCheckRow, RecallCheckRow.id == RecallAnswerRow.check_id).where(of_run)
            stored = (await connection.execute(answers)).scalar_one()
    finally:
        await database.dispose()
    return Stored(checks, sent, unreachable, stored)
