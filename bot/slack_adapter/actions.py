"""Lesson buttons: every action_id is an engine address, so any process can handle it."""

from __future__ import annotations

import functools
import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.engine import HOST_ACTIONS, ClickResult, parse_address
from bot.slack_adapter.acking import Ack, Show
from bot.slack_adapter.context import SlackContext
from bot.slack_adapter.modals import AnswerForms
from bot.slack_adapter.payloads import Actor, clicked_message_ts, interaction_actor

LESSON_ACTION = re.compile(r"^rl:")


def register(app: AsyncApp, context: SlackContext) -> LessonButtons:
    """Listen for clicks on any lesson button; the handler, for the HTTP events route too."""
    buttons = LessonButtons(context, AnswerForms(context))

    @app.action(LESSON_ACTION)
    async def lesson_button(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any]) -> None:
        """Store the click, ack within 3 seconds, then reply."""
        await buttons.handle(ack, body, str(action["action_id"]))

    return buttons


class LessonButtons:
    """Reads a click's address, calls the engine, shows what came of it."""

    def __init__(self, context: SlackContext, forms: AnswerForms) -> None:
        self.context = context
        self.forms = forms

    async def handle(self, ack: Ack, body: dict[str, Any], action_id: str) -> None:
        """Handle one click once; the engine's refusals become private replies."""
        actor = interaction_actor(body)
        decision = self.context.decide_once(
            body, actor, functools.partial(self._click, body, actor, action_id)
        )
        await self.context.settle(ack, decision)

    async def _click(self, body: dict[str, Any], actor: Actor, action_id: str) -> Show:
        address = parse_address(action_id)
        member = await self.context.member(actor, address.action in HOST_ACTIONS)
        result = await self.context.engine.click(address, member, actor.place)
        if result.opens_form:
            return await self.forms.opener(str(body["trigger_id"]), actor, address)
        return functools.partial(self._show, body, actor, result)

    async def _show(self, body: dict[str, Any], actor: Actor, result: ClickResult) -> None:
        presenter = self.context.presenter
        if result.receipt is not None:
            await self.context.acknowledge(actor, result.receipt)
        elif result.reveal is not None:
            await presenter.reveal(actor.channel, *result.reveal)
        elif result.advance is not None:
            await self._retire_clicked_message(body, actor)
            await presenter.advance(actor.channel, result.advance)

    async def _retire_clicked_message(self, body: dict[str, Any], actor: Actor) -> None:
        """Take the buttons off the message whose Next was clicked (a step or a reveal)."""
        ts = clicked_message_ts(body)
        if ts is not None:
            await self.context.presenter.retire_buttons(
                actor.channel, ts, body.get("message") or {}
            )
