"""The `/lesson` slash commands: start, reveal, next, stop (hosts) and results."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.charts import draw_chart
from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.hosts import channel_of, member_of, place_of
from bot.discord_adapter.limits import MAX_CHOICE_NAME, MAX_CHOICES, clip
from bot.discord_adapter.outgoing import Outgoing
from bot.discord_adapter.render import summary_message
from bot.engine import LessonCatalog
from bot.engine.host_actions import MAX_TIMER_SECONDS, MIN_TIMER_SECONDS

HOST_PERMISSIONS = discord.Permissions(manage_guild=True)
TimerSeconds = app_commands.Range[int, MIN_TIMER_SECONDS, MAX_TIMER_SECONDS]


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

    @app_commands.command(name="start", description="Start a lesson in this channel (hosts).")
    @app_commands.describe(
        lesson="Which lesson to run (default: the RLVR lesson).",
        timer="Seconds each step stays open before it reveals and moves on by itself.",
    )
    async def start_lesson(
        self, interaction: Interaction, lesson: str | None = None, timer: TimerSeconds | None = None
    ) -> None:
        """Start a run here and post its first step."""
        await self.context.replies.reply(interaction, self._start(interaction, lesson, timer))

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
        await self.context.replies.reply(interaction, self._reveal(interaction))

    @app_commands.command(name="next", description="Move the lesson on to the next step.")
    async def next_step(self, interaction: Interaction) -> None:
        """Advance the run (revealing an open question first)."""
        await self.context.replies.reply(interaction, self._next(interaction))

    @app_commands.command(name="stop", description="End the lesson early and post the results.")
    async def stop_lesson(self, interaction: Interaction) -> None:
        """Stop the run and post its results so far."""
        await self.context.replies.reply(interaction, self._stop(interaction))

    @app_commands.command(name="results", description="See the results so far, privately.")
    async def show_results(self, interaction: Interaction) -> None:
        """Show the run's revealed results to whoever asked, privately."""
        await self.context.replies.reply(interaction, self._results(interaction))

    async def _start(self, interaction: Interaction, lesson: str | None, timer: int | None) -> str:
        member = member_of(interaction, self.context.host_role)
        card = await self.context.engine.start(place_of(interaction), member, lesson, timer)
        await self.context.publisher.show_step(channel_of(interaction), card)
        paced = f" Each step moves on after {timer} s." if timer else ""
        return f"Started run {card.run_id} ({card.total} steps).{paced}"

    async def _reveal(self, interaction: Interaction) -> str:
        engine = self.context.engine
        run = await engine.find_run(place_of(interaction))
        closed, reveal = await engine.reveal(run.id, member_of(interaction, self.context.host_role))
        await self.context.publisher.show_reveal(channel_of(interaction), closed, reveal)
        return "Revealed. The results are posted in the channel."

    async def _next(self, interaction: Interaction) -> str:
        engine = self.context.engine
        run = await engine.find_run(place_of(interaction))
        advance = await engine.advance(run.id, member_of(interaction, self.context.host_role))
        await self.context.publisher.show_advance(channel_of(interaction), advance)
        return "Moved on." if advance.card else "That was the last step; results are posted."

    async def _stop(self, interaction: Interaction) -> str:
        engine = self.context.engine
        run = await engine.find_run(place_of(interaction))
        left = await engine.closed_card(run)
        summary = await engine.stop(run.id, member_of(interaction, self.context.host_role))
        await self.context.publisher.close_step(left)
        await self.context.publisher.show_summary(channel_of(interaction), summary)
        return "Stopped the lesson. The results are posted in the channel."

    async def _results(self, interaction: Interaction) -> Outgoing:
        engine = self.context.engine
        summary = await engine.results_here(place_of(interaction))
        return summary_message(summary, await draw_chart(summary.chart))


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
