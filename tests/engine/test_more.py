"""The More button: a step's longer detail, told privately, with nothing stored."""

from __future__ import annotations

import pytest

from bot.engine import Action, Address, Answered, LessonEngine
from bot.model import NotRevealedYet, Phase, WrongStep
from bot.model.views import Button, StepCard
from storage import SqlRunStore
from tests.engine.helpers import ALICE, CHANNEL, HOST, start_at


def more_buttons(buttons: tuple[Button, ...]) -> list[Button]:
    return [button for button in buttons if button.label == "More"]


async def start_at_step(engine: LessonEngine, step_id: str) -> StepCard:
    card = await engine.start(CHANNEL, HOST)
    while card.step_id != step_id:
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None
        card = advance.card
    return card


async def test_a_narration_with_more_has_a_member_button_that_answers_privately(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at_step(engine, "three-stages")
    [button] = more_buttons(card.buttons)
    assert not button.host_only and not button.disabled
    result = await engine.click(Address(card.run_id, card.step_id, Action.MORE), ALICE, CHANNEL)
    assert isinstance(result, Answered)
    assert "group relative policy optimization" in result.receipt.text
    assert await store.count_participants(card.run_id, card.step_id) == 0


async def test_more_still_works_after_the_lesson_moved_on(engine: LessonEngine) -> None:
    card = await start_at_step(engine, "three-stages")
    advance = await engine.advance(card.run_id, HOST)
    assert advance.closed_card is not None
    [button] = more_buttons(advance.closed_card.buttons)
    assert not button.disabled
    result = await engine.click(Address(card.run_id, card.step_id, Action.MORE), ALICE, CHANNEL)
    assert isinstance(result, Answered) and "SFT" in result.receipt.text


async def test_a_question_offers_more_with_its_reveal_not_before(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "verifier")
    assert more_buttons(card.buttons) == []
    _, reveal = await engine.reveal(card.run_id, HOST)
    [button] = more_buttons(reveal.buttons)
    run = await store.get_run(card.run_id)
    assert run is not None and run.position.phase is Phase.REVEALED
    result = await engine.click(Address(card.run_id, card.step_id, Action.MORE), ALICE, CHANNEL)
    assert isinstance(result, Answered)
    assert "30 km at 30 km/h takes 1 hour" in result.receipt.text
    assert button.address == Address(card.run_id, card.step_id, Action.MORE).encode()


async def test_a_step_without_more_refuses_the_button(engine: LessonEngine) -> None:
    card = await engine.start(CHANNEL, HOST)
    assert more_buttons(card.buttons) == []
    with pytest.raises(WrongStep, match="no more to read"):
        await engine.click(Address(card.run_id, card.step_id, Action.MORE), ALICE, CHANNEL)


async def test_a_hand_made_more_on_an_open_question_is_refused_until_its_reveal(
    engine: LessonEngine,
) -> None:
    card = await start_at(engine, "verifier")
    more = Address(card.run_id, card.step_id, Action.MORE)
    with pytest.raises(NotRevealedYet, match="opens with its reveal"):
        await engine.click(more, ALICE, CHANNEL)
    await engine.reveal(card.run_id, HOST)
    result = await engine.click(more, ALICE, CHANNEL)
    assert isinstance(result, Answered) and "takes 1 hour" in result.receipt.text
