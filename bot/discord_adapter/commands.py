"""The slash commands: `/lesson ...` for hosts (and results), `/lesson-forget-me` for anyone."""

from __future__ import annotations

from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter import command_actions as actions
from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.limits import MAX_CHOICE_NAME, MAX_CHOICES, clip
from bot.discord_adapter.member_data import export_run, forget_me
from bot.discord_adapter.replies import Work
from bot.engine import MAX_TIMER_SECONDS, MIN_TIMER_SECONDS, LessonCatalog

HOST_PERMISSIONS = discord.Permissions(manage_guild=True)
TimerSeconds = app_commands.Range[int, MIN_TIMER_SECONDS, MAX_TIMER_SECONDS]
RunId = app_commands.Range[int, 1, None]
FORGET_ME = "lesson-forget-me"


class LessonCommands(app_commands.Group):
    """`/lesson ...`: shown by default to members with Manage Server; checked again here."""

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(
            name="lesson",
            description="Run the interactive RLVR lesson in this channel.",
            default_permissions=HOST_PERMISSIONS,
            guild_only=True,
        )
        self.context = context

    async def _reply(self, interaction: Interaction, work: Work) -> None:
        await self.context.replies.reply(interaction, work)

    @app_commands.command(name="start", description="Start a lesson in this channel (hosts).")
    @app_commands.describe(
        lesson="Which lesson to run (default: the RLVR lesson).",
        timer="Seconds each step stays open before it reveals and moves on by itself.",
    )
    async def start_lesson(
        self, interaction: Interaction, lesson: str | None = None, timer: TimerSeconds | None = None
    ) -> None:
        """Start a run here and post its first step."""
        await self._reply(
            interaction, partial(actions.start_here, self.context, interaction, lesson, timer)
        )

    @start_lesson.autocomplete("lesson")
    async def lesson_names(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Lessons whose id starts with what the host typed."""
        catalog = self.context.engine.catalog
        return [lesson_choice(catalog, i) for i in catalog.suggest(current)[:MAX_CHOICES]]

    @app_commands.command(name="reveal", description="Close the question and show the results.")
    async def reveal_answers(self, interaction: Interaction) -> None:
        """Reveal the current question's results."""
        await self._reply(interaction, partial(actions.reveal_here, self.context, interaction))

    @app_commands.command(name="next", description="Move the lesson on to the next step.")
    async def next_step(self, interaction: Interaction) -> None:
        """Advance the run (revealing an open question first)."""
        await self._reply(interaction, partial(actions.next_here, self.context, interaction))

    @app_commands.command(name="stop", description="End the lesson early and post the results.")
    async def stop_lesson(self, interaction: Interaction) -> None:
        """Stop the run and post its results so far."""
        await self._reply(interaction, partial(actions.stop_here, self.context, interaction))

    @app_commands.command(name="results", description="See the results so far, privately.")
    async def show_results(self, interaction: Interaction) -> None:
        """Show the run's revealed results to whoever asked, privately."""
        await self._reply(interaction, partial(actions.results_here, self.context, interaction))

    @app_commands.command(name="repost", description="Post the current step again (hosts).")
    async def repost_step(self, interaction: Interaction) -> None:
        """Post the current step again, e.g. after Discord failed to show it."""
        await self._reply(interaction, partial(actions.repost_here, self.context, interaction))

    @app_commands.command(name="export", description="Get a run's answers as a CSV file (hosts).")
    @app_commands.describe(run="The run number (default: this channel's current or last run).")
    async def export_answers(self, interaction: Interaction, run: RunId | None = None) -> None:
        """Send a run's answers privately, as `run-<id>.csv`."""
        await self._reply(interaction, partial(export_run, self.context, interaction, run))


def forget_me_command(context: AdapterContext) -> app_commands.Command[Any, ..., None]:
    """`/lesson-forget-me`: any member deletes their own answers in this server."""

    async def forget(interaction: Interaction) -> None:
        await context.replies.reply(interaction, partial(forget_me, context, interaction))

    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=FORGET_ME,
        description="Delete everything you answered in lessons on this server.",
        callback=forget,
    )
    command.guild_only = True
    return command


def lesson_choice(catalog: LessonCatalog, lesson_id: str) -> app_commands.Choice[str]:
    """An autocomplete entry: the lesson id with its title."""
    name = clip(f"{lesson_id} · {catalog.get(lesson_id).title}", MAX_CHOICE_NAME)
    return app_commands.Choice(name=name, value=lesson_id)


async def sync_commands(
    tree: app_commands.CommandTree[discord.Client], guild_id: int | None
) -> None:
    """Register the commands: on one server at once when given, otherwise globally."""
    if guild_id is None:
        await tree.sync()
        return
    guild = discord.Object(id=guild_id)
    tree.copy_global_to(guild=guild)
    await tree.sync(guild=guild)
