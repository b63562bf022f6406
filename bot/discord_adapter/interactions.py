"""What a member's click, answer form or command does on Discord.

The service decides, the channel is updated, and the member is answered privately inside
Discord's window.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

import discord

from bot.discord_adapter.forms import AnswerForm, submitted_text
from bot.discord_adapter.members import Interaction, action_of, actor_of
from bot.discord_adapter.render import file_message, summary_message
from bot.discord_adapter.replies import PrivateMessage, PrivateReplies, send_private
from bot.engine import Action
from bot.model import SummaryCard
from bot.service import Actor, CommandArgs, FileReply, LessonService, Outcome, Reply

Decide = Callable[[], Awaitable[Outcome]]


class Interactions:
    """Hands lesson buttons, forms and commands to the service and answers each privately."""

    def __init__(
        self,
        service: LessonService,
        replies: PrivateReplies,
        host_role_id: int | None,
    ) -> None:
        self.service = service
        self.replies = replies
        self.host_role_id = host_role_id

    async def lesson_item(self, interaction: Interaction, custom_id: str) -> None:
        """A lesson button clicked or an answer form submitted."""
        actor = actor_of(interaction, self.host_role_id)
        if interaction.type is discord.InteractionType.component:
            await self.click(interaction, actor, custom_id)
        elif interaction.type is discord.InteractionType.modal_submit:
            text = submitted_text(interaction)
            decide = partial(self.service.answer, actor, custom_id, text)
            await self.replies.reply(interaction, partial(self.told, interaction, decide), True)

    async def click(self, interaction: Interaction, actor: Actor, custom_id: str) -> None:
        """A lesson button: Answer opens the form; the checker may be slow, so it defers."""
        action = action_of(custom_id)
        if action is Action.ANSWER:
            await self.open_form(interaction, actor, custom_id)
            return
        decide = partial(self.service.click, actor, custom_id)
        slow = action is Action.CHECK
        await self.replies.reply(interaction, partial(self.told, interaction, decide), slow)

    async def open_form(self, interaction: Interaction, actor: Actor, custom_id: str) -> None:
        """Show the answer form if the step still takes answers; otherwise say why not."""
        if self.service.deliveries.repeated_here(str(interaction.id)):
            return
        outcome = await self.service.click(actor, custom_id)
        if outcome.form is not None:
            await interaction.response.send_modal(AnswerForm(outcome.form.address))
        else:
            await send_private(interaction, str(outcome.reply or ""))

    async def command(self, interaction: Interaction, verb: str, args: CommandArgs) -> None:
        """A slash command: the service's verb, answered privately."""
        decide = partial(self.service.command, actor_of(interaction, self.host_role_id), verb, args)
        await self.replies.reply(interaction, partial(self.told, interaction, decide))

    async def told(self, interaction: Interaction, decide: Decide) -> PrivateMessage:
        """Decide, show in the channel what changed, then what to tell the member privately."""
        outcome = await decide()
        reply = await outcome.answer()
        return await self.private_message(interaction, reply)

    async def private_message(
        self, interaction: Interaction, reply: Reply | None
    ) -> PrivateMessage:
        """The service's reply as Discord sends it: results with their chart, a file or text."""
        if isinstance(reply, SummaryCard):
            return summary_message(reply, await self.service.presenter.draw(reply.chart))
        if isinstance(reply, FileReply):
            return file_message(reply, interaction.filesize_limit)
        return reply or ""
