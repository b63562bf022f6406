"""Walking a whole run: nothing the channel is shown before a question gives its answer away.

Two members answer each question as the checker would, so the texts a reveal words for what
the channel did (a channel that rated like the checker, a toy trained on its ratings) are
read too.
"""

from __future__ import annotations

from bot.engine import Action, Answered, LessonEngine, parse_address
from bot.model import Discussion, RevealCard, StepCard
from bot.model.views import Button
from lessons.schema import FreeAnswerStep, PeerRoundStep, PredictionStep, Step, VerifierStep
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST


async def more_texts(engine: LessonEngine, buttons: tuple[Button, ...]) -> list[str]:
    """What the More buttons among `buttons` tell a member who clicks them."""
    texts = []
    for button in buttons:
        address = parse_address(button.address)
        if address.action is Action.MORE:
            result = await engine.click(address, ALICE, CHANNEL)
            assert isinstance(result, Answered)
            texts.append(result.receipt.text)
    return texts


async def card_texts(engine: LessonEngine, card: StepCard) -> list[str]:
    sections = [f"{section.heading}\n{section.text}" for section in card.sections]
    labels = [button.label for button in card.buttons]
    return [card.title, card.body, *sections, *labels, *await more_texts(engine, card.buttons)]


async def reveal_texts(engine: LessonEngine, reveal: RevealCard) -> list[str]:
    rows = [row.label for row in reveal.rows]
    bars = [bar.label for bar in reveal.bars]
    more = await more_texts(engine, reveal.buttons)
    return [reveal.title, *reveal.notes, reveal.explanation, *rows, *bars, *more]


async def answer_like_the_checker(engine: LessonEngine, card: StepCard, step: Step) -> None:
    """Alice and Bob answer a question right: a prediction, a verifier's ratings, a problem."""
    for member in (ALICE, BOB):
        if isinstance(step, PredictionStep) and step.correct_choice is not None:
            await engine.choose(card.run_id, step.id, member, step.correct_choice.id)
        elif isinstance(step, VerifierStep):
            for attempt in step.attempts:
                right = attempt.expect == "correct"
                await engine.rate(card.run_id, step.id, member, attempt.id, right)
        elif isinstance(step, FreeAnswerStep):
            await engine.submit_answer(card.run_id, step.id, member, step.gold)


async def discussion_texts(
    engine: LessonEngine, card: StepCard, step: PeerRoundStep
) -> list[str]:
    """Two members split on a peer round: what its discussion shows before the answer.

    Its buttons and the reasons' headings name every choice; nothing else there may name the
    right one or hold its key words.
    """
    wrong = next(choice for choice in step.choices if not choice.correct)
    await engine.choose(card.run_id, card.step_id, ALICE, step.correct_choice.id)
    await engine.choose(card.run_id, card.step_id, BOB, wrong.id)
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, Discussion)
    second, reasons = closing.card, closing.reasons
    assert {reason.by_author for reason in reasons} == {True}
    prose = [second.body, *(s.text for s in second.sections), *(r.text for r in reasons)]
    held = "\n".join(prose).lower()
    secrets = [step.correct_choice.label, *step.keywords]
    assert [s for s in secrets if s.lower() in held] == [], step.id
    return [*await card_texts(engine, second), *(f"{r.heading}\n{r.text}" for r in reasons)]


async def test_no_post_before_a_question_holds_its_answer_or_keywords(
    engine: LessonEngine,
) -> None:
    lesson = engine.catalog.get()
    shown: list[str] = []
    card: StepCard | None = await engine.start(CHANNEL, HOST)
    checked = discussed = 0
    while card is not None:
        step = lesson.step_by_id(card.step_id)
        first_ask = getattr(step, "recall", None) is None
        asked = isinstance(step, PredictionStep | PeerRoundStep)
        if asked and step.correct_choice is not None and first_ask:
            wrong = [c.label for c in step.choices if not c.correct]
            before = "\n".join([*shown, step.title, step.body, *wrong]).lower()
            secrets = [step.correct_choice.label, *step.keywords]
            assert [s for s in secrets if s.lower() in before] == [], step.id
            checked += 1
        shown += await card_texts(engine, card)
        if isinstance(step, PeerRoundStep):
            shown += await discussion_texts(engine, card, step)
            discussed += 1
        else:
            await answer_like_the_checker(engine, card, step)
        advance = await engine.advance(card.run_id, HOST)
        if advance.reveal is not None:
            shown += await reveal_texts(engine, advance.reveal)
        card = advance.card
    assert (checked, discussed) == (3, 1)
