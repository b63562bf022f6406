"""docs/commands.md names every command the bot takes and every option each one has."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from discord import app_commands

from bot.cli import cli
from bot.discord_adapter.commands import LessonCommands, forget_me_command, way_back_command
from bot.engine import LessonCatalog
from bot.service.commands import VERBS, Verb

DOC = (Path(__file__).resolve().parents[1] / "docs" / "commands.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text of one `## ` section of the doc."""
    return DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def rows(text: str, start: str) -> str:
    """The table rows of `text` whose first cell starts with `start`, together."""
    found = [line for line in text.splitlines() if line.startswith(f"| `{start}")]
    assert found, f"no row for `{start}` in docs/commands.md"
    return "\n".join(found)


def command_line() -> Iterator[tuple[str, click.Command]]:
    """Every command `lessonbot` runs, by its full name (`lessons validate`)."""
    def walk(group: click.Group, prefix: str) -> Iterator[tuple[str, click.Command]]:
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                yield from walk(command, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}", command
    yield from walk(cli, "")


@pytest.mark.parametrize("name, command", [
    pytest.param(name, command, id=name) for name, command in command_line()
])
def test_each_command_line_option_is_in_the_doc(name: str, command: click.Command) -> None:
    row = rows(section("The command line"), f"lessonbot {name}")
    options = [max(p.opts, key=len) for p in command.params if isinstance(p, click.Option)]
    assert [option for option in options if option not in row] == []


def discord_commands() -> Iterator[tuple[str, app_commands.Command[..., ..., ...]]]:
    """Every slash command the bot gives Discord, as typed (`/lesson start`, `/lesson-me`)."""
    async def never(*_args: object) -> None:
        raise AssertionError("not run")

    group = LessonCommands(never, LessonCatalog())
    for command in group.commands:
        assert isinstance(command, app_commands.Command)
        yield f"/lesson {command.name}", command
    for alone in (forget_me_command(never), way_back_command(never)):
        yield f"/{alone.name}", alone


@pytest.mark.parametrize("typed, command", [
    pytest.param(typed, command, id=typed) for typed, command in discord_commands()
])
def test_each_discord_command_and_option_is_in_the_doc(
    typed: str, command: app_commands.Command[..., ..., ...]
) -> None:
    row = rows(section("On Discord"), f"{typed}")
    missing = [p.name for p in command.parameters if not re.search(rf"\b{p.name}\b", row)]
    assert missing == []


@pytest.mark.parametrize("verb", VERBS, ids=lambda verb: verb.name)
def test_each_slack_verb_and_option_is_in_the_doc(verb: Verb) -> None:
    row = rows(section("On Slack"), f"/lesson {verb.name}")
    options = re.findall(r"\[?<?([a-z-]+)", verb.usage)[1:]
    assert [option for option in options if not re.search(rf"\b{option}\b", row)] == []
