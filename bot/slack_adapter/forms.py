"""A step's one-field modal (an answer, a reason): what it shows, and what its submission holds."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from bot.engine import parse_address
from bot.i18n import _
from bot.model import Form
from bot.service import FormToOpen
from bot.slack_adapter.blocks import Block, plain, sections, to_mrkdwn

ANSWER_CALLBACK = "lesson_answer"
ANSWER_BLOCK = "answer"
ANSWER_INPUT = "text"
MAX_TITLE = 24
LONG_ANSWER = 200
"""Answers allowed to be longer than this get a box of several lines."""


class Submission(NamedTuple):
    """A submitted answer: the Answer button's address, its channel, and the text."""

    address: str
    channel: str
    text: str


def answer_view(form: FormToOpen, channel: str) -> dict[str, Any]:
    """The modal: the step, one input, and the address and channel in private_metadata."""
    card = form.card
    problem = "\n\n".join(
        f"*{plain(part.heading)}*\n{to_mrkdwn(part.text)}" for part in card.sections
    )
    return {
        "type": "modal",
        "callback_id": ANSWER_CALLBACK,
        "title": {"type": "plain_text", "text": form.form.title[:MAX_TITLE]},
        "submit": {"type": "plain_text", "text": form.form.submit[:MAX_TITLE]},
        "close": {"type": "plain_text", "text": _("Cancel")},
        "private_metadata": json.dumps({"address": form.address.encode(), "channel": channel}),
        "blocks": [*sections(problem or to_mrkdwn(card.body)), answer_input(form.form)],
    }


def answer_input(form: Form) -> Block:
    """The answer box, with the form's label, hint and length limits."""
    block: Block = {
        "type": "input",
        "block_id": ANSWER_BLOCK,
        "label": {"type": "plain_text", "text": form.label},
        "element": {
            "type": "plain_text_input",
            "action_id": ANSWER_INPUT,
            "placeholder": {"type": "plain_text", "text": form.placeholder},
            "min_length": form.min_length,
            "max_length": form.max_length,
            "multiline": form.max_length > LONG_ANSWER,
        },
    }
    if form.hint:
        block["hint"] = {"type": "plain_text", "text": form.hint}
    return block


def read_submission(view: dict[str, Any]) -> Submission:
    """The address, channel and text of a view_submission; `BadAddress` if tampered with."""
    metadata = json.loads(view.get("private_metadata") or "{}")
    address = str(metadata.get("address", ""))
    parse_address(address)
    value = view["state"]["values"][ANSWER_BLOCK][ANSWER_INPUT].get("value")
    return Submission(address, str(metadata.get("channel", "")), value or "")
