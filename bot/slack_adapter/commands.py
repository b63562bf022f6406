"""The `/lesson` slash command: ack at once, then parse, call the engine, render."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.engine import LessonBotError
from bot.slack_adapter.command_text import help_text, split_command, start_options
from bot.slack_adapter.context import SlackContext
from bot.slack_adapter.payloads import Actor, command_actor

COMMAND = "/lesson"
CANNOT_POST = (
    "I could not post in this channel, so the lesson did not start. "
    "Invite me first (`/invite @Lesson Bot`), then run `/lesson start` again."
)

Verb = Callable[[Actor, tuple[str, ...]], Awaitable[None]]


def register(app: AsyncApp, context: SlackContext) -> None:
    """Listen for `/lesson ...`."""
    commands = LessonCommands(context)

    @app.command(COMMAND)
    async def lesson_command(ack: AsyncAck, command: dict[str, Any]) -> None:
        """Ack within 3 seconds, then do the work."""
        await ack()
        await commands.handle(command_actor(command), command.get("text") or "")


class LessonCommands:
    """One method per `/lesson` verb."""

    def __init__(self, context: SlackContext) -> None:
        self.context = context
        self.verbs: dict[str, Verb] = {
            "start": self.start,
            "reveal": self.reveal,
            "next": self.next,
            "stop": self.stop,
            "results": self.results,
        }

    async def handle(self, actor: Actor, text: str) -> None:
        """Run a verb; the engine's refusals become private replies."""
        command = split_command(text)
        verb = self.verbs.get(command.verb, self.help)
        try:
            await verb(actor, command.args)
        except LessonBotError as error:
            await self.context.refuse(actor, error)

    async def start(self, actor: Actor, args: tuple[str, ...]) -> None:
        """`/lesson start [lesson] [timer]`: open a run here and post its first step."""
        options = start_options(args)
        member = await self.context.member(actor)
        engine = self.context.engine
        card = await engine.start(actor.place, member, options.lesson_id, options.timer_seconds)
        if await self.context.presenter.step(actor.channel, card) is None:
            await engine.stop(card.run_id, member)
            await self.context.tell(actor, CANNOT_POST)

    async def reveal(self, actor: Actor, args: tuple[str, ...]) -> None:
        """`/lesson reveal`: close the current question and post its results."""
        run = await self.context.engine.find_run(actor.place)
        member = await self.context.member(actor)
        closed, reveal = await self.context.engine.reveal(run.id, member)
        await self.context.presenter.reveal(actor.channel, closed, reveal)

    async def next(self, actor: Actor, args: tuple[str, ...]) -> None:
        """`/lesson next`: move on (revealing an open question first)."""
        run = await self.context.engine.find_run(actor.place)
        member = await self.context.member(actor)
        advance = await self.context.engine.advance(run.id, member)
        await self.context.presenter.advance(actor.channel, advance)

    async def stop(self, actor: Actor, args: tuple[str, ...]) -> None:
        """`/lesson stop`: end the run, close its step and post the results."""
        run = await self.context.engine.find_run(actor.place)
        member = await self.context.member(actor)
        summary = await self.context.engine.stop(run.id, member)
        await self.context.presenter.close(
            actor.channel, await self.context.engine.closed_card(run)
        )
        await self.context.presenter.summary(actor.channel, summary)

    async def results(self, actor: Actor, args: tuple[str, ...]) -> None:
        """`/lesson results`: the results so far, shown only to the one who asked."""
        summary = await self.context.engine.results_here(actor.place)
        await self.context.presenter.private_summary(actor.channel, actor.user_id, summary)

    async def help(self, actor: Actor, args: tuple[str, ...]) -> None:
        """`/lesson help` (and anything unknown): what the command can do."""
        await self.context.tell(actor, help_text(self.context.engine.catalog.ids()))
