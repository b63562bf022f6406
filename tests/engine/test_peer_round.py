"""A peer round: answered alone, discussed when the channel splits, answered again."""

from __future__ import annotations

import pytest

from bot.engine import FormOpened, LessonEngine
from bot.engine.addresses import Action, Address
from bot.model import (
    BadInput,
    Discussion,
    Member,
    Phase,
    RevealCard,
    StepCard,
    StepClosed,
)
from bot.model.records import VoteAt
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CAROL, HOST, start_at

DAVE = Member("dave", "Dave")
RIGHT, WRONG, OTHER = "checker-for-code", "more-data", "contests-easier"
FIRST = {ALICE: RIGHT, BOB: RIGHT, CAROL: WRONG, DAVE: WRONG}


async def peer_round(engine: LessonEngine) -> StepCard:
    """A run at the lesson's peer round, open for first answers."""
    return await start_at(engine, "peer_round")


async def answer(engine: LessonEngine, card: StepCard, choices: dict[Member, str]) -> None:
    """Each member gives their first answer."""
    for member, choice in choices.items():
        await engine.choose(card.run_id, card.step_id, member, choice)


async def again(engine: LessonEngine, card: StepCard, choices: dict[Member, str]) -> None:
    """Each member gives their second answer."""
    for member, choice in choices.items():
        address = Address(card.run_id, card.step_id, Action.AGAIN, choice)
        await engine.click(address, member)


async def discussed(engine: LessonEngine) -> tuple[StepCard, Discussion]:
    """Four members, two right: the host's reveal opens the discussion."""
    card = await peer_round(engine)
    await answer(engine, card, FIRST)
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, Discussion)
    return card, closing


async def final_reveal(engine: LessonEngine, card: StepCard) -> RevealCard:
    """The host's second reveal: both answers side by side."""
    closing = await engine.reveal(card.run_id, HOST)
    assert not isinstance(closing, Discussion)
    return closing[1]


async def test_a_split_channel_discusses_before_the_answer(engine: LessonEngine) -> None:
    card, discussion = await discussed(engine)
    second = discussion.card
    assert second.vote == 2 and second.counter_text == "0 answered again"
    assert "The channel is split" in second.body
    assert second.chart is not None and not any(second.chart.marks)
    assert [round(v) for v in second.chart.series[0].values] == [50, 50, 0, 0]
    actions = {b.address.split(":")[3] for b in second.buttons}
    assert "again" in actions and "choose" not in actions
    assert discussion.closed.closed and discussion.closed.vote == 1
    run = await engine.run(card.run_id)
    assert run is not None and run.position.phase is Phase.AGAIN


async def test_the_reveal_shows_both_answers_the_moves_and_the_gain(
    engine: LessonEngine,
) -> None:
    card, _ = await discussed(engine)
    await again(engine, card, {ALICE: RIGHT, BOB: RIGHT, CAROL: RIGHT, DAVE: WRONG})
    reveal = await final_reveal(engine, card)
    assert (
        "Right: 50% at the first answer → 75% after discussion, among the 4 who answered "
        "both times." in reveal.notes
    )
    assert "Wrong → right: 1 · right → wrong: 0 · stayed right: 2 · stayed wrong: 1." in (
        reveal.notes
    )
    assert "Normalized gain (after − before) / (1 − before): 0.50." in reveal.notes
    assert reveal.chart is not None
    assert [s.name for s in reveal.chart.series] == ["first answer", "after discussion"]
    assert reveal.chart.marks[0] == "✓"
    assert [bar.count for bar in reveal.bars] == [3, 1, 0, 0]


async def test_a_member_who_missed_the_first_vote_is_counted_apart(
    engine: LessonEngine,
) -> None:
    card, _ = await discussed(engine)
    late = Member("erin", "Erin")
    await again(engine, card, {ALICE: RIGHT, CAROL: RIGHT, late: RIGHT})
    reveal = await final_reveal(engine, card)
    assert (
        "2 answered only the first time and 1 only the second; they are not counted above."
        in reveal.notes
    )


async def test_a_near_unanimous_channel_sees_the_answer_at_once(engine: LessonEngine) -> None:
    card = await peer_round(engine)
    members = [Member(f"m{n}", f"M{n}") for n in range(10)]
    await answer(engine, card, {m: RIGHT if n < 9 else WRONG for n, m in enumerate(members)})
    closing = await engine.reveal(card.run_id, HOST)
    assert not isinstance(closing, Discussion)
    reveal = closing[1]
    assert "9 of 10 (90%) chose the right answer." in reveal.notes
    run = await engine.run(card.run_id)
    assert run is not None and run.position.phase is Phase.REVEALED


async def test_first_answers_close_at_the_split(engine: LessonEngine) -> None:
    card, _ = await discussed(engine)
    with pytest.raises(StepClosed, match="answer again"):
        await engine.choose(card.run_id, card.step_id, ALICE, WRONG)


async def test_a_second_answer_waits_for_the_split(engine: LessonEngine) -> None:
    card = await peer_round(engine)
    await answer(engine, card, {ALICE: RIGHT})
    with pytest.raises(StepClosed, match="second answers"):
        await again(engine, card, {ALICE: WRONG})


async def test_a_reason_before_an_answer_is_kept_and_needs_a_few_words(
    engine: LessonEngine,
) -> None:
    card = await peer_round(engine)
    why = Address(card.run_id, card.step_id, Action.WHY)
    opened = await engine.click(why, ALICE)  # at once, with no query: checked when sent
    assert isinstance(opened, FormOpened) and opened.form.max_length == 280
    kept = await engine.submit_answer(card.run_id, card.step_id, ALICE, "Code has tests to pass.")
    assert kept.text == "Kept your reason: it goes with the answer you choose."
    assert await engine.store.member_reasons(card.run_id, card.step_id, ALICE.user_id) == {
        1: "Code has tests to pass."
    }
    await answer(engine, card, {ALICE: RIGHT})
    with pytest.raises(BadInput, match="at least 3 words"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "tests")


async def test_a_reason_keeps_only_what_can_be_seen_and_counts_only_words(
    engine: LessonEngine,
) -> None:
    card = await peer_round(engine)
    await answer(engine, card, {ALICE: RIGHT})
    for unseen in ("\u200b \u200b \u200b", "\u202e\u200d \x07 \ufeff", "- * …", "\ue000 \ue001 ok"):
        with pytest.raises(BadInput, match="at least 3 words"):
            await engine.submit_answer(card.run_id, card.step_id, ALICE, unseen)
    assert await engine.store.member_reasons(card.run_id, card.step_id, ALICE.user_id) == {}
    typed = "Tests\u202e decide\u200b what\x07 counts \u2066\u2069 here\x1b[2J"
    await engine.submit_answer(card.run_id, card.step_id, ALICE, typed)
    stored = await engine.store.member_reasons(card.run_id, card.step_id, ALICE.user_id)
    assert stored == {1: "Tests decide what counts here[2J"}


async def test_the_discussion_shows_a_members_reason_or_else_the_authors(
    engine: LessonEngine,
) -> None:
    card = await peer_round(engine)
    await answer(engine, card, FIRST)
    reason = "Code can be run against tests, a eulogy cannot."
    await engine.submit_answer(card.run_id, card.step_id, ALICE, reason)
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, Discussion)
    by_choice = {shown.choice: shown for shown in closing.reasons}
    assert len(by_choice) == 2
    right = next(r for r in closing.reasons if not r.by_author)
    assert right.text == reason and "alice" not in right.heading.lower()
    assert right.buttons and right.buttons[0].host_only
    author = next(r for r in closing.reasons if r.by_author)
    assert author.heading.startswith("The lesson's author") and not author.buttons


async def test_a_hidden_reason_is_not_shown_again(engine: LessonEngine) -> None:
    card = await peer_round(engine)
    await answer(engine, card, FIRST)
    reason_text = "Code has tests to pass."
    await engine.submit_answer(card.run_id, card.step_id, ALICE, reason_text)
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, Discussion)
    shown = next(r for r in closing.reasons if not r.by_author)
    hide = next(
        Address(card.run_id, card.step_id, Action.HIDE, b.address.rsplit(":", 1)[1])
        for b in shown.buttons
    )
    with pytest.raises(Exception, match="host"):
        await engine.click(hide, BOB)
    hidden = (await engine.click(hide, HOST)).receipt
    assert hidden is not None and hidden.redraw is not None
    assert hidden.redraw.shown_text == "Hidden by a host." and reason_text not in str(hidden)
    assert not hidden.redraw.buttons
    first = VoteAt(card.step_id, "choice")
    store_shown = await engine.store.reasons_to_show(card.run_id, first, [RIGHT])
    assert store_shown == []


async def test_the_timer_reveals_after_the_second_vote_too(
    engine: LessonEngine, clock: FakeClock
) -> None:
    card = await peer_round(engine)
    await answer(engine, card, FIRST)
    first = await engine.reveal(card.run_id, HOST)
    assert isinstance(first, Discussion)
    run = await engine.run(card.run_id)
    assert run is not None
    clock.advance(10_000)
    await engine.store.move_run(run.id, run.position, run.position, run.state, clock.now)
    fired = await engine.fire_timer(card.run_id)
    assert fired is not None and fired.reveal is not None
    assert not isinstance(fired.reveal, Discussion)


async def test_a_reason_is_shown_only_for_the_answer_its_author_still_holds(
    engine: LessonEngine,
) -> None:
    card = await peer_round(engine)
    await answer(engine, card, {ALICE: WRONG})
    for_wrong = "More data means more practice examples."
    await engine.submit_answer(card.run_id, card.step_id, ALICE, for_wrong)
    await answer(engine, card, {ALICE: RIGHT, BOB: RIGHT, CAROL: WRONG, DAVE: WRONG})
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, Discussion)
    assert [(r.by_author, r.text) for r in closing.reasons if for_wrong in r.text] == []
    assert all(r.by_author for r in closing.reasons)


async def test_a_new_reason_after_a_changed_answer_argues_for_the_new_one(
    engine: LessonEngine,
) -> None:
    card = await peer_round(engine)
    await answer(engine, card, {ALICE: WRONG})
    await engine.submit_answer(card.run_id, card.step_id, ALICE, "More data means more practice.")
    await answer(engine, card, {ALICE: RIGHT, BOB: RIGHT, CAROL: WRONG, DAVE: WRONG})
    for_right = "Code can be run against tests, a eulogy cannot."
    await engine.submit_answer(card.run_id, card.step_id, ALICE, for_right)
    closing = await engine.reveal(card.run_id, HOST)
    assert isinstance(closing, Discussion)
    [(choice, text)] = [(r.choice, r.text) for r in closing.reasons if not r.by_author]
    assert choice.startswith("Tests grade millions") and text == for_right
