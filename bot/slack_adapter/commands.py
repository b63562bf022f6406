"""The `/lesson` slash command: store what it changes, ack, then render the outcome."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.engine import StepCard
from bot.slack_adapter.acking import Show
from bot.slack_adapter.command_text import help_text, split_command, start_options
from bot.slack_adapter.context import SlackContext
from bot.slack_adapter.member_data import MemberDataCommands
from bot.slack_adapter.payloads import Actor, command_actor

COMMAND = "/lesson"
CANNOT_POST = (
    "I could not post in this channel, so the lesson did not start. "
    "Invite me first (`/invite @Lesson Bot`), then run `/lesson start` again."
)

Verb = Callable[[Actor, tuple[str, ...]], Awaitable[Show]]


def register(app: AsyncApp, context: SlackContext) -> None:
    """Listen for `/lesson ...`."""
    commands = LessonCommands(context)

    @app.command(COMMAND)
    async def lesson_command(ack: AsyncAck, command: dict[str, Any]) -> None:
        """Store what the command changes, ack within 3 seconds, then render."""
        await commands.handle(ack, command)


class LessonCommands:
    """One method per `/lesson` verb; each stores its change and returns what to show."""

    def __init__(self, context: SlackContext) -> None:
        self.context = context
        data = MemberDataCommands(context)
        self.verbs: dict[str, Verb] = {
            "start": self.start,
            "reveal": self.reveal,
            "next": self.next,
            "stop": self.stop,
            "results": self.results,
            "forget-me": data.forget_me,
            "export": data.export,
        }

    async def handle(self, ack: AsyncAck, command: dict[str, Any]) -> None:
        """Run a verb once; the engine's refusals become private replies."""
        actor = command_actor(command)
        parsed = split_command(command.get("text") or "")
        verb = self.verbs.get(parsed.verb)
        if verb is None:
            await self.context.settle(ack, self._helping(actor))
            return
        decision = self.context.decide_once(
            command, actor, functools.partial(verb, actor, parsed.args)
        )
        await self.context.settle(ack, decision)

    async def _helping(self, actor: Actor) -> Show:
        """The decision for an unknown verb: nothing to store, show the help."""
        return functools.partial(self.help, actor)

    async def start(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson start [lesson] [timer]`: open a run here, then post its first step."""
        options = start_options(args)
        member = await self.context.member(actor)
        engine = self.context.engine
        card = await engine.start(actor.place, member, options.lesson_id, options.timer_seconds)
        return functools.partial(self._post_first_step, actor, card)

    async def _post_first_step(self, actor: Actor, card: StepCard) -> None:
        if await self.context.presenter.step(actor.channel, card) is None:
            host = await self.context.member(actor)
            await self.context.engine.stop(card.run_id, host)
            await self.context.tell(actor, CANNOT_POST)

    async def reveal(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson reveal`: close the current question, then post its results."""
        run = await self.context.engine.find_run(actor.place)
        member = await self.context.member(actor)
        closed, reveal = await self.context.engine.reveal(run.id, member)
        return functools.partial(self.context.presenter.reveal, actor.channel, closed, reveal)

    async def next(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson next`: move on (revealing an open question first)."""
        run = await self.context.engine.find_run(actor.place)
        member = await self.context.member(actor)
        advance = await self.context.engine.advance(run.id, member)
        return functools.partial(self.context.presenter.advance, actor.channel, advance)

    async def stop(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson stop`: end the run, then close its step and post the results."""
        engine = self.context.engine
        run = await engine.find_run(actor.place)
        summary = await engine.stop(run.id, await self.context.member(actor))
        closed = await engine.closed_card(run)
        return functools.partial(self.context.presenter.stopped, actor.channel, closed, summary)

    async def results(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson results`: the results so far, shown only to the one who asked."""
        summary = await self.context.engine.results_here(actor.place)
        presenter = self.context.presenter
        return functools.partial(presenter.private_summary, actor.channel, actor.user_id, summary)

    async def help(self, actor: Actor) -> None:
        """`/lesson help` (and anything unknown): what the command can do."""
        await self.context.tell(actor, help_text(self.context.engine.catalog.ids()))
