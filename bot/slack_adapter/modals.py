"""The free-answer modal: opened from the Answer button, graded on submission."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.engine import Address, LessonBotError, parse_address
from bot.engine.member_actions import MAX_TYPED_ANSWER
from bot.engine.views import StepCard
from bot.slack_adapter.blocks import Block, sections
from bot.slack_adapter.context import SlackContext
from bot.slack_adapter.mrkdwn import escape, to_mrkdwn, to_plain
from bot.slack_adapter.payloads import Actor, interaction_actor

log = logging.getLogger(__name__)

ANSWER_CALLBACK = "lesson_answer"
ANSWER_BLOCK = "answer"
ANSWER_INPUT = "text"


@dataclass(frozen=True)
class Submission:
    """A submitted answer: the Answer button's address, its channel, and the text."""

    address: Address
    channel: str
    text: str


def answer_view(address: Address, channel: str, card: StepCard) -> dict[str, Any]:
    """The modal: the problem, one input, and the address in private_metadata."""
    problem = "\n\n".join(
        f"*{escape(to_plain(part.heading))}*\n{to_mrkdwn(part.text)}" for part in card.sections
    )
    return {
        "type": "modal",
        "callback_id": ANSWER_CALLBACK,
        "title": {"type": "plain_text", "text": "Your answer"},
        "submit": {"type": "plain_text", "text": "Check it"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "private_metadata": json.dumps({"address": address.encode(), "channel": channel}),
        "blocks": [*sections(problem or to_mrkdwn(card.body)), answer_input()],
    }


def answer_input() -> Block:
    """The one-line answer box, capped at the engine's answer length."""
    return {
        "type": "input",
        "block_id": ANSWER_BLOCK,
        "label": {"type": "plain_text", "text": "Your final answer"},
        "hint": {"type": "plain_text", "text": "The checker grades it. Retries are allowed."},
        "element": {
            "type": "plain_text_input",
            "action_id": ANSWER_INPUT,
            "max_length": MAX_TYPED_ANSWER,
        },
    }


def read_submission(view: dict[str, Any]) -> Submission:
    """The address, channel and text of a view_submission; `BadAddress` if tampered with."""
    metadata = json.loads(view.get("private_metadata") or "{}")
    address = parse_address(str(metadata.get("address", "")))
    value = view["state"]["values"][ANSWER_BLOCK][ANSWER_INPUT].get("value")
    return Submission(address, str(metadata.get("channel", "")), value or "")


class AnswerForms:
    """Opens the modal and grades what comes back."""

    def __init__(self, context: SlackContext) -> None:
        self.context = context

    async def open(self, trigger_id: str, actor: Actor, address: Address) -> None:
        """Open the answer modal for a member's click."""
        card = await self.context.engine.current_card(address.run_id)
        await self.context.messages.open_view(trigger_id, answer_view(address, actor.channel, card))

    async def submit(self, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Grade a submitted answer and tell the member privately."""
        try:
            submission = read_submission(view)
        except (LessonBotError, KeyError, ValueError):
            log.warning("ignored an answer modal that could not be read")
            return
        actor = interaction_actor(body, submission.channel)
        address = submission.address
        try:
            member = await self.context.member(actor, needs_rights=False)
            receipt = await self.context.engine.submit_answer(
                address.run_id, address.step_id, member, submission.text, actor.place
            )
            await self.context.acknowledge(actor, receipt)
        except LessonBotError as error:
            await self.context.refuse(actor, error)


def register(app: AsyncApp, context: SlackContext) -> None:
    """Listen for submissions of the answer modal."""
    forms = AnswerForms(context)

    @app.view(ANSWER_CALLBACK)
    async def answer_submitted(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Ack (closing the modal), then grade the answer."""
        await ack()
        await forms.submit(body, view)
