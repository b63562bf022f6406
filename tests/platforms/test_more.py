"""The More button: a step's longer detail, told only to the member who asked."""

from __future__ import annotations

from bot.engine import Action
from bot.engine.steps import kind_of
from lessons.schema import Step
from tests.platforms.driver import LESSON, Platform
from tests.platforms.test_assigned import TAKES_ANSWERS, answer, assign, onward, start

ANSWER_FIRST = "opens once you have answered it"


def detail(step: Step) -> str:
    """The last sentence of a step's authored detail, without its bold markup ("" if none)."""
    return (step.more or "").replace("**", "").strip().rsplit(". ", 1)[-1]


def has_more(step: Step) -> bool:
    """Whether the step has detail behind More: authored, or drawn from the run's answers.

    A peer round, answered in turns, is left out here: `answer` does not take it.
    """
    return kind_of(step).has_more and step.kind != "peer_round"


def plain(text: str) -> str:
    """A reply's text without either platform's bold markup."""
    return text.replace("*", "")


async def test_more_answers_privately_and_still_works_after_moving_on(lesson: Platform) -> None:
    ann, ben = lesson.member("ann"), lesson.member("ben")
    stages = await lesson.reach("three-stages")
    more = stages.button(label="More", action="more")
    before = len(lesson.posts())
    reply = await lesson.press(ann, stages, more)
    assert reply.private and "SFT is supervised fine-tuning" in reply.text
    assert "group relative policy optimization" in reply.text
    assert len(lesson.posts()) == before and lesson.told(ben) == []

    await lesson.next_step()
    closed = {"More": True, "Next": False} if lesson.keeps_closed_buttons else {}
    await lesson.wait(lambda: stages.states() == closed, what=f"the step closed to {closed}")
    again = await lesson.press(ben, stages, more)  # where it is gone, as an older client has it
    assert again.private and "supervised fine-tuning" in again.text


async def test_a_question_shows_more_under_its_reveal(lesson: Platform) -> None:
    exercise = await lesson.reach("be-the-checker")
    assert "more" not in [item.target.action for item in exercise.buttons]
    before = len(lesson.posts())
    await lesson.command("reveal")
    results = await lesson.post_after(before, "Results: You're the checker")
    more = results.button(label="More", action="more")
    reply = await lesson.press(lesson.member("ann"), results, more)
    assert reply.private and f"{lesson.bold('The thorough one')} slipped" in reply.text
    assert "takes 1 hour" in reply.text


async def test_a_hand_made_more_on_an_open_question_is_refused_privately(
    lesson: Platform,
) -> None:
    exercise = await lesson.reach("be-the-checker")
    forged = exercise.address(Action.MORE)
    before = len(lesson.posts())
    reply = await lesson.press(lesson.member("ann"), exercise, forged)
    assert reply.private and "opens with its reveal" in reply.text
    assert "takes 1 hour" not in reply.text and len(lesson.posts()) == before


async def test_more_works_privately_on_each_own_step_of_an_assignment_that_has_it(
    lesson: Platform,
) -> None:
    card = await assign(lesson)
    ines, jonah = lesson.member("Ines"), lesson.member("Jonah")
    post = await start(lesson, ines, card)
    read = []
    for index, step in enumerate(LESSON.steps):
        assert post.step == step.id
        if step.kind in TAKES_ANSWERS:
            if has_more(step):  # a question's detail could give its answer away
                early = await lesson.press(ines, post, post.button("More", action="more"))
                assert early.private and ANSWER_FIRST in early.text, early.text
                assert not step.more or detail(step) not in plain(early.text)
            await answer(lesson, ines, post)
        shown = lesson.own_posts(ines)[-1]  # on Discord, the pass as the answer redrew it
        assert shown.step == step.id
        if has_more(step):
            told = await lesson.press(ines, shown, shown.button("More", action="more"))
            assert told.private and told.text and detail(step) in plain(told.text), told.text
            read.append(step.id)
        elif not kind_of(step).has_more:
            assert "more" not in [button.target.action for button in shown.buttons]
        if index + 1 < len(LESSON.steps):
            post = await onward(lesson, ines, shown)

    assert read == [step.id for step in LESSON.steps if has_more(step)]
    kinds = {LESSON.step_by_id(step).kind for step in read}
    assert kinds == {
        "narration", "verifier", "mechanism", "prediction", "free_answer"
    }
    assert len(lesson.posts()) == 1 and lesson.told(jonah) == []  # the card, nothing more
