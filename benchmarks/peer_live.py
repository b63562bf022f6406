"""A live peer round through the real discord.py client: every member answers, then says why.

A host moves a run to the lesson's peer round with `/lesson` commands. Then, in three waves
each spread over about a second, every member clicks a choice, clicks "Add a reason" (the bot
answers with the form, a modal), and submits the form with a sentence. Each wave waits for every
answer before the next starts, since a member's next click follows the bot's last answer. The
submissions are sent whether or not the member's form opened in time, so the submission path
is measured on its own; a form that did not open within Discord's window is counted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import select

from benchmarks.burst_discord_app import bot_process
from benchmarks.burst_discord_host import reach, run_of
from benchmarks.burst_timing import paced, without_collector_pauses
from bot.engine import Action, Address, LessonCatalog
from bot.process.event_loop import run_service
from fakes.fake_discord import FakeDiscord, FakeUser, SentInteraction
from lessons.schema import PeerRoundStep
from storage import open_database
from storage.models import MemberRow, ReasonRow, VoteRow

Message = dict[str, Any]
HOST_NAME = "bench-host"
PEER_STEP = "code-vs-eulogy"
"""The lesson's peer round."""
FIRST_ANSWER_KIND = "choice"
FIRST_VOTE = 1
ANSWER_FIELD = "answer"
"""The custom_id of the reason form's one field."""
Send = Callable[[FakeUser, int], Awaitable[SentInteraction]]
"""What member number n sends in a wave."""


@dataclass(frozen=True)
class LiveSizes:
    """How many members answer, over how many seconds per wave, and how long a wave may take."""

    members: int
    seconds: float
    settle_seconds: float


@dataclass(frozen=True)
class Stored:
    """What the database holds for the round's members after the three waves."""

    answers_lost: int
    reasons_lost: int
    doubled: int
    reasons_wrong: int


@dataclass(frozen=True)
class LiveRound:
    """One round: each wave's acknowledgements (None: never), forms opened, what was stored."""

    choose_acks: list[float | None]
    why_acks: list[float | None]
    reason_acks: list[float | None]
    forms_opened: int
    stored: Stored


def peer_step() -> PeerRoundStep:
    """The lesson's peer round step."""
    step = next(s for s in LessonCatalog().get().steps if s.id == PEER_STEP)
    assert isinstance(step, PeerRoundStep)
    return step


def reason_of(number: int) -> str:
    """The sentence member `number` submits: their own, so a mixed-up row shows."""
    return f"Member {number} says code has a checker and a eulogy has none."


def live_round(url: str, sizes: LiveSizes) -> LiveRound:
    """One round on the database at `url` (migrated, empty), in a fresh event loop."""
    return run_service(_round_on(url, sizes))


async def _round_on(url: str, sizes: LiveSizes) -> LiveRound:
    async with FakeDiscord() as fake, bot_process(fake, url):
        question = await reach(fake, fake.host(HOST_NAME), PEER_STEP)
        run_id = run_of(question)
        members = [fake.member(f"member-{n}") for n in range(sizes.members)]
        choices = [choice.id for choice in peer_step().choices]
        at = partial(Address, run_id, PEER_STEP)

        def choose(member: FakeUser, n: int) -> Awaitable[SentInteraction]:
            return fake.click(member, question, at(Action.CHOOSE, choices[n % 4]).encode())

        def why(member: FakeUser, _n: int) -> Awaitable[SentInteraction]:
            return fake.click(member, question, at(Action.WHY).encode())

        def submit(member: FakeUser, n: int) -> Awaitable[SentInteraction]:
            form = at(Action.ANSWER).encode()
            return fake.submit_form(member, form, {ANSWER_FIELD: reason_of(n)}, question)

        with without_collector_pauses():
            chosen = await wave(fake, members, choose, sizes, replied=True)
            asked = await wave(fake, members, why, sizes, replied=False)
            reasoned = await wave(fake, members, submit, sizes, replied=True)
        return LiveRound(
            choose_acks=[fake.ack_delay(one) for one in chosen],
            why_acks=[fake.ack_delay(one) for one in asked],
            reason_acks=[fake.ack_delay(one) for one in reasoned],
            forms_opened=sum(form_opened(fake, one) for one in asked),
            stored=await stored_rows(url, run_id, members, choices),
        )


async def wave(
    fake: FakeDiscord, members: Sequence[FakeUser], send: Send, sizes: LiveSizes, replied: bool
) -> list[SentInteraction]:
    """Every member sends once, spread over `sizes.seconds`; then every answer is awaited.

    `replied`: wait for each member's private reply (a click's, a submission's); else for
    the bot's response to each interaction, accepted or refused (a form opened, or too late).
    """
    operations: list[Callable[[], Awaitable[SentInteraction]]] = [
        partial(send, member, number) for number, member in enumerate(members)
    ]
    sent = await paced(operations, sizes.seconds)
    done = fake.all_replied(sent) if replied else all_responded(fake, sent)
    with suppress(AssertionError):  # the unanswered count as unacknowledged
        await fake.wait_until(done, sizes.settle_seconds, "every answer")
    return sent


def all_responded(fake: FakeDiscord, sent: Sequence[SentInteraction]) -> Callable[[], bool]:
    """A cheap condition: the bot responded to every one of `sent` (accepted or refused)."""
    waiting = list(sent)

    def check() -> bool:
        while waiting and fake.callback_attempts(waiting[-1]):
            waiting.pop()
        return not waiting

    return check


def form_opened(fake: FakeDiscord, sent: SentInteraction) -> bool:
    """Whether the bot answered a click with a form (a modal, response type 9) in time."""
    callback = fake.callback_of(sent)
    return callback is not None and int(callback.body["type"]) == 9


async def stored_rows(
    url: str, run_id: int, members: Sequence[FakeUser], choices: Sequence[str]
) -> Stored:
    """Each member's first answer and reason as stored: missing, doubled or not theirs."""
    database = open_database(url)
    try:
        async with database.connect() as connection:
            answers = await connection.execute(_rows_of(VoteRow, run_id).where(
                VoteRow.kind == FIRST_ANSWER_KIND).add_columns(VoteRow.value))
            answer_rows = [(str(user), value) for user, value in answers]
            reasons = await connection.execute(_rows_of(ReasonRow, run_id).where(
                ReasonRow.vote == FIRST_VOTE).add_columns(ReasonRow.choice_id, ReasonRow.text))
            reason_rows = [(str(user), (choice, text)) for user, choice, text in reasons]
    finally:
        await database.dispose()
    expected = {str(m.id): n for n, m in enumerate(members)}
    answered, reasoned = dict(answer_rows), dict(reason_rows)
    wrong = sum(
        reasoned.get(user) != (choices[n % 4], reason_of(n))
        for user, n in expected.items() if user in reasoned
    )
    return Stored(
        answers_lost=len(expected.keys() - answered.keys()),
        reasons_lost=len(expected.keys() - reasoned.keys()),
        doubled=len(answer_rows) - len(answered) + len(reason_rows) - len(reasoned),
        reasons_wrong=wrong,
    )


def _rows_of(table: type[VoteRow] | type[ReasonRow], run_id: int) -> Any:
    """The user id of each row of a table at the peer round of a run."""
    return (
        select(MemberRow.user_id)
        .join(table, MemberRow.id == table.member_id)
        .where(table.run_id == run_id, table.step_id == PEER_STEP)
    )

