"""The free-answer modal: opened from the Answer button, graded on submission."""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.engine import MAX_TYPED_ANSWER, Address, LessonBotError, StepCard, parse_address
from bot.slack_adapter.acking import Show
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

    async def opener(self, trigger_id: str, actor: Actor, address: Address) -> Show:
        """What opens the answer modal for a member's click (the card is read now)."""
        card = await self.context.engine.current_card(address.run_id)
        view = answer_view(address, actor.channel, card)
        return functools.partial(self._open, trigger_id, view)

    async def _open(self, trigger_id: str, view: dict[str, Any]) -> None:
        await self.context.messages.open_view(trigger_id, view)

    async def handle(self, ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Grade a submitted answer once, ack (closing the modal), tell the member privately."""
        try:
            submission = read_submission(view)
        except (LessonBotError, KeyError, ValueError):
            log.warning("ignored an answer modal that could not be read")
            await ack()
            return
        actor = interaction_actor(body, submission.channel)
        decision = self.context.decide_once(
            body, actor, functools.partial(self._grade, actor, submission)
        )
        await self.context.settle(ack, decision)

    async def _grade(self, actor: Actor, submission: Submission) -> Show:
        address = submission.address
        member = await self.context.member(actor, needs_rights=False)
        receipt = await self.context.engine.submit_answer(
            address.run_id, address.step_id, member, submission.text, actor.place
        )
        return functools.partial(self.context.acknowledge, actor, receipt)


def register(app: AsyncApp, context: SlackContext) -> None:
    """Listen for submissions of the answer modal."""
    forms = AnswerForms(context)

    @app.view(ANSWER_CALLBACK)
    async def answer_submitted(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Grade the answer, ack (closing the modal), then tell the member."""
        await forms.handle(ack, body, view)
