"""During a burst, every click is acknowledged before any click's work starts."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_adapter.effects import Told
from bot.discord_adapter.interactions import PrivateReplies
from bot.service.backpressure import STREAM_CLICKS, Arrivals, PendingAcks

WAVE = 5
PAUSE = 1.0
"""How long a stream must pause before work starts (long, so a slow machine cannot skew it)."""


async def a_few_turns() -> None:
    """Let the event loop run whatever is ready, a few times over (no waiting on time)."""
    for _ in range(20):
        await asyncio.sleep(0)


@dataclass
class Log:
    """What happened, in order, and a signal when enough acknowledgements went out."""

    events: list[str] = field(default_factory=list)
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    wanted_acks: int = WAVE

    def add(self, event: str) -> None:
        """Note an event; set `acked` once `wanted_acks` acknowledgements were noted."""
        self.events.append(event)
        if sum(e.startswith("ack") for e in self.events) >= self.wanted_acks:
            self.acked.set()


class Response:
    """An interaction's response slot, noting its acknowledgement."""

    def __init__(self, number: int, log: Log) -> None:
        self.number, self.log, self.done = number, log, False

    def is_done(self) -> bool:
        """Whether the interaction was answered."""
        return self.done

    async def defer(self, **_: Any) -> None:
        """Acknowledge."""
        self.done = True
        self.log.add(f"ack {self.number}")

    async def send_message(self, **_: Any) -> None:
        """Answer directly."""
        self.done = True
        self.log.add(f"reply {self.number}")


class Followup:
    """The follow-up webhook of an interaction."""

    def __init__(self, number: int, log: Log) -> None:
        self.number, self.log = number, log

    async def send(self, **_: Any) -> None:
        """Send the private reply after the acknowledgement."""
        self.log.add(f"reply {self.number}")


class Click:
    """A button click, as far as the replies need one."""

    type = discord.InteractionType.component
    message = None
    """A click on a channel message (none of a member's private messages)."""

    def __init__(self, number: int, log: Log) -> None:
        self.id = number
        self.response = Response(number, log)
        self.followup = Followup(number, log)


class FirstTime:
    """Every interaction is a first delivery."""

    def repeated_here(self, _: object) -> bool:
        """Never seen before."""
        return False

    async def claim(self, *_: object) -> bool:
        """Claimed by this process."""
        return True


def answer(replies: PrivateReplies, log: Log, number: int) -> asyncio.Task[None]:
    """Start handling click `number`, whose work notes itself."""

    async def work() -> list[Told]:
        log.add(f"work {number}")
        return ["You chose"]

    return asyncio.ensure_future(replies.reply(Click(number, log), work))  # type: ignore[arg-type]


async def test_in_a_stream_a_second_wave_is_acknowledged_before_the_first_wave_works() -> None:
    log = Log()
    arrivals = Arrivals(PAUSE)
    for _ in range(STREAM_CLICKS):  # a stream of clicks is already arriving
        arrivals.note(asyncio.get_running_loop().time())
    replies = PrivateReplies(FirstTime(), busy=1, acks=PendingAcks(arrivals=arrivals))  # type: ignore[arg-type]
    first = [answer(replies, log, n) for n in range(WAVE)]
    await log.acked.wait()
    await a_few_turns()  # the first wave could start its work now
    second = [answer(replies, log, n) for n in range(WAVE, 2 * WAVE)]
    await asyncio.gather(*first, *second)

    acks = [i for i, event in enumerate(log.events) if event.startswith("ack")]
    works = [i for i, event in enumerate(log.events) if event.startswith("work")]
    assert len(acks) == len(works) == 2 * WAVE
    assert max(acks) < min(works), log.events
    assert sum(event.startswith("reply") for event in log.events) == 2 * WAVE


async def test_clicks_that_do_not_stream_in_get_their_work_done_at_once() -> None:
    log = Log(wanted_acks=1)
    replies = PrivateReplies(FirstTime(), busy=1, acks=PendingAcks(arrivals=Arrivals(pause=60.0)))  # type: ignore[arg-type]
    await asyncio.wait_for(asyncio.gather(*(answer(replies, log, n) for n in range(3))), 5)
    assert sorted(log.events) == sorted(
        [f"{what} {n}" for n in range(3) for what in ("ack", "work", "reply")]
    )
