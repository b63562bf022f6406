"""The requests members send: `/lesson`, a lesson button, the answer form; each to the service.

Every action_id of a lesson button is an engine address, so any process can handle a click.
start, reveal, next, stop and repost get no text with their ack: the channel shows them.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.model import LessonBotError
from bot.slack_adapter.acking import Ack, Requests
from bot.slack_adapter.forms import ANSWER_CALLBACK, read_submission
from bot.slack_adapter.members import command_request, delivery_of, interaction_request

log = logging.getLogger(__name__)

COMMAND = "/lesson"
LESSON_ACTION = re.compile(r"^rl:")


def register(app: AsyncApp, requests: Requests) -> LessonClicks:
    """Listen for clicks first (bolt tries listeners in order), `/lesson` and the answer form."""
    clicks = LessonClicks(requests)

    @app.action(LESSON_ACTION)
    async def lesson_button(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any]) -> None:
        """Store the click, ack within 3 seconds, then show what came of it."""
        await clicks.handle(ack, body, str(action["action_id"]))

    @app.command(COMMAND)
    async def lesson_command(ack: AsyncAck, command: dict[str, Any]) -> None:
        """Store what the command changes, ack within 3 seconds, then show and reply."""
        request = command_request(command, requests.hosts)
        text = command.get("text") or ""
        decision = requests.service.command_text(request.actor, text, delivery_of(command))
        await requests.settle(ack, request, decision)

    @app.view(ANSWER_CALLBACK)
    async def answer_submitted(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Grade the answer, ack (closing the modal), then tell the member privately."""
        try:
            address, channel, text = read_submission(view)
        except (LessonBotError, KeyError, ValueError):
            log.warning("ignored an answer modal that could not be read")
            await ack()
            return
        request = interaction_request(body, requests.hosts, channel)
        decision = requests.service.answer(request.actor, address, text, delivery_of(body))
        await requests.settle(ack, request, decision)

    return clicks


class LessonClicks:
    """Hands a click's address to the service; the same path in Socket Mode and over HTTP."""

    def __init__(self, requests: Requests) -> None:
        self.requests = requests

    async def handle(self, ack: Ack, body: dict[str, Any], action_id: str) -> None:
        """Handle one click once; the engine's refusals become private replies."""
        request = interaction_request(body, self.requests.hosts)
        decision = self.requests.service.click(request.actor, action_id, delivery_of(body))
        await self.requests.settle(ack, request, decision)
