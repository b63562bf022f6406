"""A run's language through the service: chosen by its host or its place, spoken by its posts.

What the channel is shown of a run (steps, reveals, results, counters, an assignment's card,
results and thread, the delayed recall's figures) is drawn while the run's language is the
one spoken, so every interface string comes out in it; a language the lesson or the bot
lacks is refused, privately, with nothing stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.engine import Action, Address, AssignmentCard, LessonEngine
from bot.i18n import current_language, speaking
from bot.model import NoActiveRun, SummaryCard
from bot.service import Card, CommandArgs, DrawnChart, LessonService, Presenter, Redrawn
from bot.service.commands import parse_command
from tests.conftest import FakeClock
from tests.service.test_assignment_results import FIRST, RIGHT, choose_at
from tests.service.test_assignments import (
    ALICE,
    BOB,
    HOST,
    PLACE,
    Bot,
    RecordingSurface,
    start_of,
)
from tests.service.test_recalls import DAY, tend_after


@dataclass
class SpeakingSurface(RecordingSurface):
    """A channel that also notes the language spoken as each thing was posted or redrawn."""

    spoken: list[tuple[str, str]] = field(default_factory=list)

    async def post(self, channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        self.spoken.append((type(card).__name__, current_language()))
        return await super().post(channel, card, chart)

    async def post_in_thread(
        self, channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        self.spoken.append(("thread", current_language()))
        return await super().post_in_thread(channel, under, title, card, chart)

    async def edit(self, channel: str, ref: str, card: Redrawn) -> bool:
        self.spoken.append(("edit", current_language()))
        return await super().edit(channel, ref, card)


def speaking_bot(engine: LessonEngine, lesson_language: str = "en") -> Bot:
    """The service on `engine`, its runs' language `lesson_language` unless one is named."""
    surface = SpeakingSurface()
    presenter = Presenter(engine, surface, counter_interval=0.0)
    return Bot(engine, LessonService(engine, presenter, lesson_language=lesson_language), surface)


def spoken_by(bot: Bot) -> list[tuple[str, str]]:
    """What the channel was shown (a card's kind, a thread post, an edit), and in which language."""
    assert isinstance(bot.surface, SpeakingSurface)
    return bot.surface.spoken


def languages_spoken(bot: Bot) -> set[str]:
    """Every language the channel's posts and redraws were made in."""
    return {language for _, language in spoken_by(bot)}


async def language_of_run(bot: Bot) -> str:
    return (await bot.engine.run_in(PLACE)).language


# Choosing the language


@pytest.mark.parametrize(
    ("asked", "place", "usual", "spoken"),
    [
        (None, None, "en", "en"),
        ("es", None, "en", "es"),
        ("ES", None, "en", "es"),
        (None, "es-ES", "en", "es"),  # a Discord server whose preferred locale is Spanish
        (None, "es-419", "en", "es"),
        (None, "en-GB", "es", "en"),
        (None, "fr", "es", "es"),  # a place whose language the lesson lacks: the setting's
        (None, None, "es", "es"),  # LESSON_LANGUAGE=es
        ("en", "es-ES", "es", "en"),  # the host's choice comes first
    ],
)
async def test_a_run_speaks_the_hosts_language_else_its_places_else_the_setting(
    engine: LessonEngine, asked: str | None, place: str | None, usual: str, spoken: str
) -> None:
    bot = speaking_bot(engine, usual)
    await bot.run(HOST, "start", language=asked, place_language=place)
    assert await language_of_run(bot) == spoken


async def test_a_language_the_lesson_lacks_is_refused_and_nothing_is_stored(
    engine: LessonEngine,
) -> None:
    bot = speaking_bot(engine)
    for verb, args in (("start", {}), ("assign", {"due": "3d"})):
        outcome = await bot.run(HOST, verb, language="fr", **args)
        assert outcome.refused
        assert outcome.reply == "This lesson cannot be run in “fr”. Choose one of: en, es."
        with pytest.raises(NoActiveRun):
            await bot.engine.run_in(PLACE)
    assert bot.surface.posts == []


def test_language_is_read_from_typed_start_and_assign() -> None:
    assert parse_command("start rlvr 90 language:es") == (
        "start", CommandArgs(lesson="rlvr", timer=90, language="es")
    )
    verb, args = parse_command("assign due:3d language:es recall:off")
    assert (verb, args.due, args.language, args.recall) == ("assign", "3d", "es", "off")
    assert parse_command("start")[1].language is None


# Speaking it in the channel


async def test_a_spanish_runs_channel_posts_and_redraws_speak_spanish(
    engine: LessonEngine,
) -> None:
    bot = speaking_bot(engine)
    await bot.run(HOST, "start", language="es")
    run = await bot.engine.run_in(PLACE)
    spanish = engine.catalog.get("rlvr", "es")
    card = await bot.engine.current_card(run.id)
    while card.step_id != FIRST:
        await bot.run(HOST, "next")
        card = await bot.engine.current_card(run.id)
    assert card.title == spanish.step_by_id(FIRST).title
    await bot.click(ALICE, Address(run.id, FIRST, Action.CHOOSE, RIGHT).encode())  # a counter
    await bot.run(HOST, "reveal")
    await bot.run(HOST, "stop")
    kinds = {kind for kind, _ in spoken_by(bot)}
    assert {"StepCard", "RevealCard", "SummaryCard", "edit"} <= kinds
    assert languages_spoken(bot) == {"es"}


async def test_an_english_run_speaks_english_whatever_the_bot_speaks_around_it(
    engine: LessonEngine,
) -> None:
    bot = speaking_bot(engine)
    with speaking("es"):  # a host whose own replies speak Spanish
        await bot.run(HOST, "start")
        await bot.run(HOST, "next")
        await bot.run(HOST, "stop")
    assert languages_spoken(bot) == {"en"}


async def test_a_spanish_assignment_posts_its_card_results_and_thread_in_spanish(
    engine: LessonEngine, clock: FakeClock
) -> None:
    bot = speaking_bot(engine)
    card = await assigned_in(bot, "es")
    assert card.title == engine.catalog.get("rlvr", "es").title
    await choose_at(bot, ALICE, start_of(card), {FIRST: RIGHT})
    clock.advance(4 * DAY)
    assert await bot.service.fire_timers() >= 1  # closed at its due time, by the timer loop
    assert bot.surface.posted(SummaryCard) and bot.surface.threads
    assert languages_spoken(bot) == {"es"}


async def test_a_spanish_runs_recall_figures_are_posted_in_spanish(
    engine: LessonEngine, clock: FakeClock
) -> None:
    bot = speaking_bot(engine)
    await bot.run(HOST, "start", language="es", recall="1d")
    run = await bot.engine.run_in(PLACE)
    card = await bot.engine.current_card(run.id)
    while card.step_id != FIRST:
        await bot.run(HOST, "next")
        card = await bot.engine.current_card(run.id)
    for member in (ALICE, BOB):
        await bot.click(member, Address(run.id, FIRST, Action.CHOOSE, RIGHT).encode())
    await bot.run(HOST, "stop")
    await tend_after(bot, clock, 10)
    await tend_after(bot, clock, DAY)  # the checks go out
    await tend_after(bot, clock, 3 * DAY)  # and close: the figures are posted
    posted = [kind for kind, _ in spoken_by(bot)]
    assert posted.count("SummaryCard") == 2, posted  # the results, then what was kept
    assert languages_spoken(bot) == {"es"}


async def assigned_in(bot: Bot, language: str) -> AssignmentCard:
    """The card of an assignment in `language` posted in the channel."""
    await bot.run(HOST, "assign", due="3d", language=language)
    (card,) = bot.surface.posted(AssignmentCard)
    assert isinstance(card, AssignmentCard)
    return card
