"""A peer round in an assignment: answer, say why, read two reasons, answer again."""

from __future__ import annotations

import pytest

from bot.engine import Action, Answered, FormOpened, LessonEngine, OwnStep
from bot.model import BadInput, Member, StepCard
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CAROL
from tests.engine.test_assigned import assign, button, card_of, walk_to

RIGHT, WRONG = "checker-for-code", "more-data"
ALICES = "Nobody has written enough eulogies to learn from."
BOBS = "Code can be run against tests, eulogies cannot."


async def first_answer(
    engine: LessonEngine, card: StepCard, member: Member, choice: str
) -> StepCard:
    """The member's first answer; their step as it stands after it."""
    result = await engine.click(button(card, Action.CHOOSE, choice), member)
    assert isinstance(result, Answered)
    after = await engine.after_answer(card.run_id, card.step_id, member)
    return card_of(after.own or OwnStep(None))


async def reason(engine: LessonEngine, card: StepCard, member: Member, text: str) -> StepCard:
    """The member's reason, through the form the step's Add a reason button opens."""
    opened = await engine.click(button(card, Action.WHY), member)
    assert isinstance(opened, FormOpened)
    await engine.submit_answer(card.run_id, card.step_id, member, text)
    after = await engine.after_answer(card.run_id, card.step_id, member)
    return card_of(after.own or OwnStep(None))


async def second_answer(
    engine: LessonEngine, card: StepCard, member: Member, choice: str
) -> OwnStep:
    """The member's second answer; their step, with the tally so far."""
    await engine.click(button(card, Action.AGAIN, choice), member)
    after = await engine.after_answer(card.run_id, card.step_id, member)
    assert after.own is not None
    return after.own


async def test_members_read_earlier_reasons_then_see_both_tallies(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)

    card = await walk_to(engine, run_id, ALICE, "peer_round")
    asking = await first_answer(engine, card, ALICE, WRONG)
    chosen = next(b.label for b in card.buttons if b.address.endswith(f"choose:{WRONG}"))
    assert f"Why **{chosen}**? Write one sentence" in asking.body
    assert not any(b.address.endswith(f"again:{RIGHT}") for b in asking.buttons)
    reading = await reason(engine, asking, ALICE, ALICES)
    authors = [s for s in reading.sections if s.heading.startswith("The lesson's author")]
    assert len(authors) == 2 and all(section.plain for section in reading.sections)
    assert any(b.address.endswith(f"again:{RIGHT}") for b in reading.buttons)
    first = await second_answer(engine, reading, ALICE, RIGHT)
    assert first.so_far is not None and first.so_far.answered == 1

    card = await walk_to(engine, run_id, BOB, "peer_round")
    asking = await first_answer(engine, card, BOB, RIGHT)
    reading = await reason(engine, asking, BOB, BOBS)
    members = [s for s in reading.sections if s.heading.startswith("A member")]
    assert [s.text for s in members] == [ALICES]
    assert all("alice" not in s.heading.lower() for s in reading.sections)
    second = await second_answer(engine, reading, BOB, RIGHT)

    so_far = second.so_far
    assert so_far is not None and so_far.answered == 2
    assert (
        "Right: 50% at the first answer → 100% after discussion, among the 2 who answered "
        "both times." in so_far.notes
    )
    moves = "Wrong → right: 1 · right → wrong: 0 · stayed right: 1 · stayed wrong: 0."
    assert moves in so_far.notes

    card = await walk_to(engine, run_id, CAROL, "peer_round")
    asking = await first_answer(engine, card, CAROL, WRONG)
    with pytest.raises(BadInput, match="at least 3 words"):
        await engine.submit_answer(card.run_id, card.step_id, CAROL, "dunno")
    reading = await reason(engine, asking, CAROL, "Contests are shorter than a eulogy is.")
    assert [s.text for s in reading.sections] == [BOBS, ALICES]
