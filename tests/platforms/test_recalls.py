"""The delayed recall on both platforms: a private check days later, and what the channel kept.

A live run ends. Three days later each member who answered something gets a direct message
with the lesson's key ideas asked again, a question at a time; each click redraws that message
with whether the answer was right and why. When the checks close, the channel gets one post:
each question, right at the lesson beside right later, among the same members, with a chart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.engine import Action, LessonEngine
from bot.verifier import Checker
from lessons.loader import load_lesson
from tests.conftest import FakeClock
from tests.platforms.driver import Person, Platform
from tests.platforms.on_discord import DiscordPlatform
from tests.platforms.views import Post

DAY = 24 * 3600.0
CHECK = "Recall check"
KEPT = "What the channel kept, 3 days on"
LAST = "takeaway"
DISCORD_TRIES = 5
"""How many times discord.py sends a request Discord keeps answering 429 before giving up."""
RIGHT_LATER = {"puzzle-recipe": "script-checks", "one-round-of-rl": "physics-answers",
               "bugs-vs-condolences": "tests-vs-people"}


@pytest.fixture
async def discord_lesson(checker: Checker, engine: LessonEngine) -> AsyncIterator[Platform]:
    """The real Discord client on the test's engine."""
    async with DiscordPlatform.opened(checker) as discord, discord.running(engine):
        yield discord


def lesson_answers(alice: Person, bob: Person, cara: Person, dan: Person) -> dict[str, dict]:
    """Who chose what at the lesson's questions (Alice and Bob then answer the check)."""
    return {
        "what-changed": {alice: "checkable-reward", bob: "bigger-model", cara: "checkable-reward",
                         dan: "more-text"},
        "what-about-writing": {alice: "only-checkable", bob: "only-checkable",
                               cara: "no-training", dan: "only-checkable"},
        "code-vs-eulogy": {member: "checker-for-code" for member in (alice, bob, cara, dan)},
    }


async def whole_lesson(lesson: Platform, answers: dict[str, dict], recall: str = "") -> None:
    """The host runs the lesson to its end; members choose as `answers` says on the way."""
    before = len(lesson.posts())
    await lesson.command("start", options={"recall": recall} if recall else None)
    post = await lesson.wait(lambda: next(iter(lesson.posts()[before:]), None),
                             what="the first step")
    while post.step != LAST:
        for member, choice in answers.get(str(post.step), {}).items():
            reply = await lesson.press(member, post, post.button(action="choose", arg=choice))
            assert reply.private, reply
        post = await lesson.next_step()
    before = len(lesson.posts())
    await lesson.command("next")
    await lesson.post_after(before, "Finished")


def check_of(lesson: Platform, member: Person) -> Post | None:
    """The member's recall check, as its direct message shows it now."""
    return next((p for p in lesson.direct_posts(member) if CHECK in p.text), None)


async def answer_check(
    lesson: Platform, member: Person, answers: dict[str, str]
) -> Post:
    """The member answers their check a question at a time; the message once it is done."""
    post = check_of(lesson, member)
    assert post is not None
    for number, (question, choice) in enumerate(answers.items(), start=1):
        await lesson.click(member, post, post.button(action="recall", arg=choice))
        post = await lesson.wait(
            lambda q=question, n=number: (
                (shown := check_of(lesson, member)) is not None
                and not any(b.target.step_id == q for b in shown.buttons)
                and shown.text.count("right") + shown.text.count("not quite") >= 1
                and shown
            ),
            what=f"the check moved past {question}",
        )
    return post


async def test_members_who_answered_get_a_private_check_and_the_channel_sees_what_it_kept(
    lesson: Platform, clock: FakeClock
) -> None:
    alice, bob, cara, dan = (lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan"))
    erin = lesson.member("Erin")  # watches and answers nothing
    await whole_lesson(lesson, lesson_answers(alice, bob, cara, dan))
    clock.advance(3 * DAY - 60)
    await lesson.fire_timers()
    assert check_of(lesson, alice) is None  # not due yet
    clock.advance(120)
    await lesson.fire_timers()
    for member in (alice, bob, cara, dan):
        check = await lesson.wait(lambda m=member: check_of(lesson, m), what=f"{member.name}'s")
        assert "3 days ago" in check.text and check.buttons[-1].label == "No more of these"
        assert check.buttons[0].target.action == Action.RECALL
    assert check_of(lesson, erin) is None
    clock.advance(60)
    await lesson.fire_timers()
    assert [len(lesson.direct_posts(m)) for m in (alice, bob, cara, dan)] == [1, 1, 1, 1]

    done = await answer_check(lesson, alice, {**RIGHT_LATER, "one-round-of-rl": "all-skills"})
    assert "2 of 3 right" in done.text and not done.buttons
    whys = [done.text.find(question.why) for question in load_lesson("rlvr").delayed_recall]
    assert -1 not in whys and whys == sorted(whys), done.text  # each answer's verdict, in order
    assert done.text.count("✅") == 2 and done.text.count("❌") == 1, done.text
    done = await answer_check(lesson, bob, RIGHT_LATER)
    assert "3 of 3 right" in done.text

    before = len(lesson.posts())
    clock.advance(2 * DAY)
    await lesson.fire_timers()
    kept = await lesson.post_after(before, KEPT)
    assert "2 members answered the recall check 3 days after" in kept.text
    assert "Same brain, a year later: right at the lesson 1 of 2 (50%); 3 days later 2 of 2 " \
        "(100%)" in kept.text
    assert "Where does that leave writing?: right at the lesson 2 of 2 (100%); 3 days later " \
        "1 of 2 (50%)" in kept.text
    assert "Alice" not in kept.text and "Bob" not in kept.text
    chart = await lesson.chart(kept)
    assert "at the lesson" in chart.words and "3 days later" in chart.words
    assert "Same brain, a year later: at the lesson 1 of 2, 3 days later 2 of 2" in chart.words
    clock.advance(60)
    await lesson.fire_timers()
    assert [p.text for p in lesson.posts()[before:]].count(kept.text) == 1


async def test_no_more_of_these_forget_me_and_closed_direct_messages(
    lesson: Platform, clock: FakeClock
) -> None:
    alice, bob, cara, dan = (lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan"))
    await whole_lesson(lesson, lesson_answers(alice, bob, cara, dan), recall="2d,9d")
    lesson.close_direct_messages(dan)
    await lesson.reply(await lesson.forget_me(cara))
    clock.advance(2 * DAY + 60)
    await lesson.fire_timers()
    assert check_of(lesson, cara) is None and check_of(lesson, dan) is None
    check = await lesson.wait(lambda: check_of(lesson, bob), what="Bob's check")
    await lesson.click(bob, check, check.button(action="nomore"))
    stopped = await lesson.wait(
        lambda: (p := check_of(lesson, bob)) and "no more of these checks" in p.text and p,
        what="Bob's check stopped",
    )
    assert not stopped.buttons
    progress = await lesson.ask("progress")
    assert "Recall checks: 2 sent of 6 planned, 0 answered, 1 unreachable." in progress.text

    clock.advance(7 * DAY)
    await lesson.fire_timers()
    await lesson.wait(lambda: len(lesson.direct_posts(alice)) == 2, what="Alice's second check")
    assert len(lesson.direct_posts(bob)) == 1  # asked for no more
    assert check_of(lesson, cara) is None


async def test_a_forged_check_button_changes_nothing_and_says_so(
    lesson: Platform, clock: FakeClock
) -> None:
    alice, bob, cara, dan = (lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan"))
    await whole_lesson(lesson, lesson_answers(alice, bob, cara, dan))
    clock.advance(3 * DAY + 60)
    await lesson.fire_timers()
    check = await lesson.wait(lambda: check_of(lesson, alice), what="Alice's check")
    erin = lesson.member("Erin")
    choice = check.button(action="recall", arg="script-checks")
    forged = choice.replace(f"rl:{check.run}:", f"rl:{check.run + 7}:")
    for who, address in ((erin, choice), (alice, forged)):
        reply = await lesson.press(who, check, address)
        assert reply.private and "not open for you" in reply.text, reply.text
    assert check_of(lesson, alice).text == check.text  # type: ignore[union-attr]
    progress = await lesson.ask("progress")
    assert "0 answered" in progress.text


async def test_checks_refused_for_the_rate_limit_are_sent_again_once(
    lesson: Platform, clock: FakeClock
) -> None:
    alice, bob, cara, dan = (lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan"))
    await whole_lesson(lesson, lesson_answers(alice, bob, cara, dan))
    lesson.rate_limit_messages(times=2, retry_after=1.0)
    clock.advance(3 * DAY + 60)
    await lesson.fire_timers()
    members = (alice, bob, cara, dan)
    await lesson.wait(lambda: all(check_of(lesson, m) for m in members), what="every check")
    assert lesson.rate_limited() == 2
    assert [len(lesson.direct_posts(m)) for m in members] == [1, 1, 1, 1]


async def test_a_check_discord_rate_limits_past_its_retries_is_sent_later_not_dropped(
    discord_lesson: Platform, clock: FakeClock
) -> None:
    lesson = discord_lesson
    members = [lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan")]
    await whole_lesson(lesson, lesson_answers(*members))
    lesson.rate_limit_messages(times=DISCORD_TRIES, retry_after=0.05)
    clock.advance(3 * DAY + 60)
    await lesson.fire_timers()
    await lesson.wait(lambda: all(check_of(lesson, m) for m in members), what="every check")
    assert lesson.rate_limited() == DISCORD_TRIES  # one check's send gave up on the limit
    assert [len(lesson.direct_posts(m)) for m in members] == [1, 1, 1, 1]
    progress = await lesson.ask("progress")
    assert "Recall checks: 4 sent of 4 planned, 0 answered, 0 unreachable." in progress.text


async def test_right_at_the_lesson_is_each_members_last_answer_there(
    lesson: Platform, clock: FakeClock
) -> None:
    """The opening prediction is asked again at the lesson's end: the later answer counts."""
    alice, bob, cara, dan = (lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan"))
    right, wrong = "checkable-reward", "bigger-model"
    answers = {
        "what-changed": {alice: wrong, bob: right, cara: right, dan: wrong},
        "what-changed-again": {alice: right, bob: right, dan: wrong},  # Cara skips it
    }
    await whole_lesson(lesson, answers)
    clock.advance(3 * DAY + 60)
    await lesson.fire_timers()
    later = {alice: "bigger-model", bob: "script-checks", cara: "more-text", dan: "script-checks"}
    for member, choice in later.items():
        await lesson.wait(lambda m=member: check_of(lesson, m), what=f"{member.name}'s check")
        await answer_check(lesson, member, {"puzzle-recipe": choice})

    before = len(lesson.posts())
    clock.advance(2 * DAY)
    await lesson.fire_timers()
    kept = await lesson.post_after(before, KEPT)
    figures = "Same brain, a year later: right at the lesson 3 of 4 (75%); 3 days later 2 of 4 " \
        "(50%)"  # Alice, right at the end of the lesson, forgot
    assert figures in kept.text
    chart = await lesson.chart(kept)
    assert "Same brain, a year later: at the lesson 3 of 4, 3 days later 2 of 4" in chart.words

    await lesson.reply(await lesson.forget_me(alice))
    asked = await lesson.command("results", bob)  # as posted, whoever is forgotten since
    await lesson.wait(
        lambda: any(figures in told.text for told in lesson.told_in_answer(asked)),
        what="the posted figures in the results",
    )


def checks_of(lesson: Platform, member: Person) -> list[Post]:
    """Every recall check in the member's direct messages, oldest first, as each shows now."""
    return [post for post in lesson.direct_posts(member) if CHECK in post.text]


async def test_answering_one_check_leaves_another_open_check_as_it_was(
    lesson: Platform, clock: FakeClock
) -> None:
    """Each check is a direct message of its own: a click on one never retires another."""
    alice, bob, cara, dan = (lesson.member(name) for name in ("Alice", "Bob", "Cara", "Dan"))
    await whole_lesson(lesson, lesson_answers(alice, bob, cara, dan))
    await whole_lesson(lesson, lesson_answers(alice, bob, cara, dan))
    clock.advance(3 * DAY + 60)
    await lesson.fire_timers()
    await lesson.wait(lambda: len(checks_of(lesson, alice)) == 2, what="Alice's two checks")
    for turn in (0, 1, 0, 1):
        check = checks_of(lesson, alice)[turn]
        assert check.buttons and "Moved on" not in check.text, check.text
        asked = check.buttons[0].target.step_id
        await lesson.click(alice, check, check.buttons[0].address)
        await lesson.wait(
            lambda t=turn, q=asked: all(
                b.target.step_id != q for b in checks_of(lesson, alice)[t].buttons),
            what=f"check {turn + 1} moved past {asked}",
        )
    assert all("Moved on" not in check.text for check in checks_of(lesson, alice))
