"""Helpers for engine tests: members, places and moving a run to a kind of step."""

from __future__ import annotations

from bot.engine import LessonEngine
from bot.model import Member, Place, StepCard
from lessons.schema import Step

HOST = Member("host-1", "Hosting Hana", is_host=True)
ALICE = Member("alice", "Alice")
BOB = Member("bob", "Bob")
CAROL = Member("carol", "Carol")
CHANNEL = Place("discord", "guild-1", "channel-1")


def steps_of(engine: LessonEngine, kind: str) -> list[Step]:
    """The default lesson's steps of one kind."""
    return [step for step in engine.catalog.get().steps if step.kind.value == kind]


async def start_at(engine: LessonEngine, kind: str, place: Place = CHANNEL) -> StepCard:
    """Start a run and advance (revealing on the way) to the first step of `kind`."""
    card = await engine.start(place, HOST)
    while card.kind != kind:
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None, f"the lesson has no {kind} step"
        card = advance.card
    return card
