"""Slash command registration, autocomplete, and starting the bot safely."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from bot.discord_adapter import run_discord
from bot.settings import MissingSetting, Settings
from fakes.fake_discord import APP_ID, GUILD_ID, MANAGE_GUILD, FakeDiscord
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver

PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content


async def test_commands_are_registered_for_hosts_with_options(lesson: LessonDriver) -> None:
    sync = await lesson.fake.wait_for(
        lambda c: (
            c.method == "PUT" and c.path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
        )
    )
    commands = {command["name"]: command for command in sync.body}
    assert set(commands) == {"lesson", "lesson-forget-me", "lesson-me"}
    command = commands["lesson"]
    assert command["description"]
    assert int(command["default_member_permissions"]) == MANAGE_GUILD
    assert command["dm_permission"] is False
    subcommands = {option["name"]: option for option in command["options"]}
    assert set(subcommands) == {
        "start", "reveal", "next", "stop", "results", "repost", "export", "help",
        "assign", "close", "progress", "continue", "reasons", "hide",
    }
    assert all(sub["type"] == 1 and sub["description"] for sub in subcommands.values())
    options = {option["name"]: option for option in subcommands["start"]["options"]}
    assert options["lesson"]["type"] == 3 and options["lesson"]["autocomplete"] is True
    assert options["timer"]["type"] == 4
    (number,) = subcommands["hide"]["options"]
    assert number["name"] == "number" and number["type"] == 4 and number["required"] is True
    assert (options["timer"]["min_value"], options["timer"]["max_value"]) == (10, 3600)
    assert not options["lesson"]["required"] and not options["timer"]["required"]
    options = {option["name"]: option for option in subcommands["assign"]["options"]}
    assert options["due"]["type"] == 3 and options["due"]["required"]
    assert options["remind"]["type"] == 3 and not options["remind"]["required"]
    (run,) = subcommands["export"]["options"]
    assert run["name"] == "run" and run["type"] == 4 and not run["required"]


async def test_forget_me_is_a_command_every_member_sees(lesson: LessonDriver) -> None:
    sync = await lesson.fake.wait_for(lambda c: c.method == "PUT" and "/commands" in c.path)
    (forget,) = [command for command in sync.body if command["name"] == "lesson-forget-me"]
    assert forget["default_member_permissions"] is None
    assert forget["dm_permission"] is False and forget["description"]
    (confirm,) = forget["options"]
    assert (confirm["name"], confirm["type"]) == ("confirm", 5)  # a boolean
    assert not confirm.get("required", False)


async def test_the_bot_asks_for_no_privileged_intents(lesson: LessonDriver) -> None:
    (identify,) = lesson.fake.identifies
    assert identify["intents"] & PRIVILEGED_INTENTS == 0


async def test_lesson_names_are_suggested_while_typing(lesson: LessonDriver) -> None:
    sent = await lesson.fake.autocomplete(lesson.host, "start", "lesson", "rl")
    callback = await lesson.fake.wait_until(lambda: lesson.fake.callback_of(sent))
    assert callback.body["type"] == 8
    choices = callback.body["data"]["choices"]
    assert [choice["value"] for choice in choices] == ["rlvr"]
    assert "RLVR" in choices[0]["name"] and len(choices[0]["name"]) <= 100


async def suggested(lesson: LessonDriver, verb: str, option: str, typed: str) -> list[str]:
    """What Discord is told to offer while the host types `typed` into a verb's option."""
    sent = await lesson.fake.autocomplete(lesson.host, verb, option, typed)
    callback = await lesson.fake.wait_until(lambda: lesson.fake.callback_of(sent))
    assert callback.body["type"] == 8
    return [f"{choice['value']}: {choice['name']}" for choice in callback.body["data"]["choices"]]


async def test_the_languages_a_run_can_speak_are_suggested_on_start_and_assign(
    lesson: LessonDriver,
) -> None:
    sync = await lesson.fake.wait_for(lambda c: c.method == "PUT" and "/commands" in c.path)
    (command,) = [command for command in sync.body if command["name"] == "lesson"]
    for verb in ("start", "assign"):
        (sub,) = [option for option in command["options"] if option["name"] == verb]
        (language,) = [option for option in sub["options"] if option["name"] == "language"]
        assert language["type"] == 3 and language["autocomplete"] is True
        assert not language.get("required", False)
        assert await suggested(lesson, verb, "language", "") == [
            "en: en · English", "es: es · español"
        ]
    assert await suggested(lesson, "start", "language", "esp") == ["es: es · español"]


async def test_commands_sync_globally_without_a_server_id(
    fake: FakeDiscord, settings: Settings, launch: Launch
) -> None:
    settings.discord_guild_id = None
    await launch()
    sync = await fake.wait_for(lambda c: c.method == "PUT" and "/commands" in c.path)
    assert sync.path == f"/applications/{APP_ID}/commands"


async def test_the_entry_point_connects_with_the_settings(
    fake: FakeDiscord, settings: Settings
) -> None:
    running = asyncio.create_task(run_discord(settings))
    try:
        await fake.wait_identified(timeout=30)
        assert fake.requests_to("PUT", f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running


async def test_a_missing_token_is_named() -> None:
    settings = Settings(_env_file=None, discord_token=None)  # type: ignore[call-arg]
    with pytest.raises(MissingSetting, match="DISCORD_TOKEN"):
        await run_discord(settings)


def test_the_discord_command_names_the_missing_token(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "discord"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr


async def test_help_lists_the_commands_with_discord_s_own_forget_me(lesson: LessonDriver) -> None:
    reply = await lesson.command("help")
    assert reply.ephemeral
    assert "`/lesson start [lesson] [timer] [recall:<when>] [language:<code>]`" in reply.text
    assert "`/lesson-forget-me [confirm]`" in reply.text
    assert "`/lesson reasons [page]`" in reply.text and "Lessons: rlvr" in reply.text
