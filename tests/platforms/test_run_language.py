"""A run in Spanish through the real Discord and Slack adapters: chosen, posted, graded.

A host names the language (Discord's `language` option, Slack's `language:es`), or a Discord
server whose preferred locale is Spanish gets a Spanish run by default. Its steps, results
and summary carry the Spanish lesson's words; its checker reads a decimal comma. A language
the lesson lacks is refused privately, with nothing stored.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.verifier import Checker
from lessons.schema import PredictionStep
from tests.platforms.driver import LESSON, Platform, Post
from tests.platforms.on_discord import DiscordPlatform

SPANISH = LessonCatalog().get("rlvr", "es")
QUESTION = "what-changed"


def spanish_question() -> PredictionStep:
    step = SPANISH.step_by_id(QUESTION)
    assert isinstance(step, PredictionStep)
    return step


async def started_in(lesson: Platform, options: dict[str, str] | None = None) -> Post:
    """`/lesson start` with `options`; the first step's post."""
    await lesson.command("start", options=options)
    return await lesson.step_after(0)


@pytest.fixture
async def discord_lesson(checker: Checker, engine: LessonEngine) -> AsyncIterator[Platform]:
    """The real Discord client on the test's engine, in a server the test may set up."""
    async with DiscordPlatform.opened(checker) as discord, discord.running(engine):
        yield discord


async def test_a_run_started_in_spanish_posts_its_steps_results_and_summary_in_spanish(
    lesson: Platform,
) -> None:
    first = await started_in(lesson, {"language": "es"})
    assert SPANISH.steps[0].title in first.text
    assert LESSON.steps[0].title not in first.text
    if isinstance(lesson, DiscordPlatform):  # the adapter's own words speak the run's language
        assert f" 1 de {len(SPANISH.steps)}** · sesión " in first.text, first.text
    question = await lesson.reach_from(first, QUESTION)
    step = spanish_question()
    assert step.title in question.text and step.body.split("\n")[0] in question.text
    right = step.correct_choice
    assert right is not None
    shown = {button.target.arg: button.label for button in question.buttons}
    assert shown[right.id][:40] == right.label[:40]  # the Spanish choices, by the same ids
    for name in ("ana", "beto"):
        reply = await lesson.press(lesson.member(name), question,
                                   question.button(action="choose", arg=right.id))
        assert reply.private
    before = len(lesson.posts())
    await lesson.command("reveal")
    results = await lesson.post_after(before, step.title)
    assert f"2 (100\xa0%) {right.label}" in results.text  # as Spanish writes it
    assert "Fue el entrenamiento, no el modelo." in results.text  # its Spanish explanation
    before = len(lesson.posts())
    await lesson.command("stop")
    summary = await lesson.post_after(before, SPANISH.title)
    assert step.title in summary.text


async def test_a_spanish_run_reads_a_lead_in_and_a_decimal_comma_and_an_unread_answer_is_free(
    lesson: Platform,
) -> None:
    first = await started_in(lesson, {"language": "es"})
    problem = await lesson.reach_from(first, "your-turn")
    assert SPANISH.step_by_id("your-turn").title in problem.text
    unread = await lesson.answer(lesson.member("ana"), problem, "no lo sé")
    assert "did not use a try" in unread.text and "5 tries left" in unread.text, unread.text
    reply = await lesson.answer(lesson.member("ana"), problem, "Respuesta: 0,75")  # 3/4
    assert f"Try 1: the checker read {lesson.bold('0,75')}" in reply.text, reply.text
    assert f"Reward {lesson.bold('1')}" in reply.text, reply.text
    rows = list(csv.DictReader(io.StringIO(await lesson.export_csv())))
    assert [(r["step"], r["kind"], r["value"], r["reward"]) for r in rows] == [
        ("your-turn", "answer", "Respuesta: 0,75", "1")
    ]


async def test_a_language_the_lesson_lacks_is_refused_and_nothing_is_stored(
    lesson: Platform, engine: LessonEngine
) -> None:
    reply = await lesson.ask("start", options={"language": "fr"})
    assert reply.private
    assert reply.text == "This lesson cannot be run in “fr”. Choose one of: en, es."
    await lesson.settle()
    assert lesson.posts() == []
    assert await engine.active_runs(lesson.name) == []


async def test_a_server_whose_preferred_locale_is_spanish_gets_a_spanish_run(
    discord_lesson: Platform,
) -> None:
    assert isinstance(discord_lesson, DiscordPlatform)
    discord_lesson.fake.guild_locale = "es-ES"
    first = await started_in(discord_lesson)
    assert SPANISH.steps[0].title in first.text


async def test_a_host_may_still_start_an_english_run_in_a_spanish_server(
    discord_lesson: Platform,
) -> None:
    assert isinstance(discord_lesson, DiscordPlatform)
    discord_lesson.fake.guild_locale = "es-ES"
    first = await started_in(discord_lesson, {"language": "en"})
    assert LESSON.steps[0].title in first.text
    assert f"**Step 1 of {len(LESSON.steps)}** · run " in first.text, first.text
