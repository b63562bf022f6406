"""The free-answer modal: what it shows, and what its submission holds."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from bot.engine import MAX_TYPED_ANSWER, parse_address
from bot.service import FormToOpen
from bot.slack_adapter.blocks import Block, plain, sections, to_mrkdwn

ANSWER_CALLBACK = "lesson_answer"
ANSWER_BLOCK = "answer"
ANSWER_INPUT = "text"


class Submission(NamedTuple):
    """A submitted answer: the Answer button's address, its channel, and the text."""

    address: str
    channel: str
    text: str


def answer_view(form: FormToOpen, channel: str) -> dict[str, Any]:
    """The modal: the problem, one input, and the address and channel in private_metadata."""
    card = form.card
    problem = "\n\n".join(
        f"*{plain(part.heading)}*\n{to_mrkdwn(part.text)}" for part in card.sections
    )
    return {
        "type": "modal",
        "callback_id": ANSWER_CALLBACK,
        "title": {"type": "plain_text", "text": "Your answer"},
        "submit": {"type": "plain_text", "text": "Check it"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "private_metadata": json.dumps({"address": form.address.encode(), "channel": channel}),
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
    address = str(metadata.get("address", ""))
    parse_address(address)
    value = view["state"]["values"][ANSWER_BLOCK][ANSWER_INPUT].get("value")
    return Submission(address, str(metadata.get("channel", "")), value or "")
