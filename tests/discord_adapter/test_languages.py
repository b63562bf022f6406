"""Members see the bot in their Discord client's language: its commands and private replies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from discord import Locale, app_commands

from bot.discord_adapter.commands import CatalogTranslator, is_discord_name
from fakes.fake_discord import APP_ID, GUILD_ID
from tests.discord_adapter.helpers import LessonDriver
from tests.discord_adapter.test_own_pass import assign, start

SPANISH = ("es-ES", "es-419")
MAX_NAME = 32
MAX_DESCRIPTION = 100
Command = dict[str, Any]


async def synced_commands(lesson: LessonDriver) -> dict[str, Command]:
    """The commands as the bot registered them on the server, by name."""
    path = f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
    sync = await lesson.fake.wait_for(lambda c: c.method == "PUT" and c.path == path)
    return {command["name"]: command for command in sync.body}


def every_item(command: Command) -> Iterator[Command]:
    """A command, then each of its subcommands and options, however deep."""
    yield command
    for option in command.get("options", []):
        yield from every_item(option)


async def test_the_commands_carry_spanish_names_and_descriptions(lesson: LessonDriver) -> None:
    commands = await synced_commands(lesson)
    assert set(commands) == {"lesson", "lesson-forget-me", "lesson-me"}
    lesson_command = commands["lesson"]
    for locale in SPANISH:
        assert lesson_command["name_localizations"][locale] == "lección"
        assert lesson_command["description_localizations"][locale] == (
            "Da la lección interactiva de RLVR en este canal."
        )
        assert commands["lesson-forget-me"]["name_localizations"][locale] == "lección-olvídame"
    subcommands = {sub["name"]: sub for sub in lesson_command["options"]}
    assert subcommands["reveal"]["name_localizations"]["es-ES"] == "revelar"
    assert subcommands["start"]["description"] == "Start a lesson in this channel (hosts)."
    assert subcommands["start"]["description_localizations"]["es-419"] == (
        "Empieza una lección en este canal (anfitriones)."
    )
    timer = next(option for option in subcommands["start"]["options"] if option["name"] == "timer")
    assert timer["name_localizations"] == {"es-ES": "temporizador", "es-419": "temporizador"}


async def test_every_name_and_description_is_translated_and_valid(lesson: LessonDriver) -> None:
    items = [item for command in (await synced_commands(lesson)).values()
             for item in every_item(command)]
    for item in items:
        names, descriptions = item["name_localizations"], item["description_localizations"]
        assert set(names) == set(descriptions) == set(SPANISH), item["name"]
        assert all(is_discord_name(name) and len(name) <= MAX_NAME for name in names.values())
        assert all(0 < len(text) <= MAX_DESCRIPTION for text in descriptions.values())
        assert is_discord_name(item["name"])  # the English names are untouched


@pytest.mark.parametrize("locale", [Locale.american_english, Locale.french, Locale.japanese])
async def test_a_locale_the_bot_does_not_speak_keeps_the_english(locale: Locale) -> None:
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    reveal = app_commands.locale_str("reveal")
    assert await CatalogTranslator().translate(reveal, locale, context) is None


async def test_a_name_discord_would_refuse_is_left_out() -> None:
    assert is_discord_name("lección-olvídame")
    assert not any(map(is_discord_name, ["Lección", "dos palabras", "x" * (MAX_NAME + 1), ""]))


async def test_each_member_s_private_pass_speaks_their_client_s_language(
    lesson: LessonDriver,
) -> None:
    card = await assign(lesson)
    ana = lesson.fake.member("ana", locale="es-ES")
    bea = lesson.fake.member("bea", locale="es-419")
    ben = lesson.fake.member("ben", locale="en-US")

    for_ana = await start(lesson.fake, ana, card)
    for_bea = await start(lesson.fake, bea, card)
    for_ben = await start(lesson.fake, ben, card)

    assert for_ana["content"].startswith("**Paso 1 de ")
    assert "· a tu ritmo, solo tú lo ves" in for_ana["content"]
    assert for_bea["content"].startswith("**Paso 1 de ")
    assert for_ben["content"].startswith("**Step 1 of ")
    assert "· your own pace, only you see this" in for_ben["content"]


async def test_replies_name_the_commands_as_the_member_s_client_shows_them(
    lesson: LessonDriver,
) -> None:
    await lesson.start()
    spanish_host = lesson.fake.host("lucia", locale="es-ES")

    busy_es = await lesson.command("start", user=spanish_host)
    busy_en = await lesson.command("start")
    help_es = await lesson.command("help", user=spanish_host)

    assert "Detenla con `/lección detener` antes de empezar otra." in busy_es.content
    assert "Stop it with `/lesson stop` before starting another." in busy_en.content
    assert "`/lección revelar`" in help_es.text
    assert "`/lección-olvídame [confirmar]`" in help_es.text
    assert "`/lección-mía`" in help_es.text
    assert "/lesson " not in help_es.text
    assert help_es.text.rstrip().endswith("Lecciones: rlvr")  # whole, though over 2,000
