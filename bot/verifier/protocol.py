"""The JSON-lines messages exchanged between the checker and its worker processes."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.verifier.languages import require_language
from bot.verifier.limits import GOLD_MAX_CHARS
from bot.verifier.said import Said, said_in
from bot.verifier.verdict import Grade, Verdict

Message = dict[str, Any]
OPERATIONS = ("answer", "attempt", "gold")
"""What a request can ask for: grade an answer, grade an attempt, or read a gold answer."""
STOPPED = "stopped"
"""The reply field (true) of a check the worker gave up when asked to, deciding nothing."""


MAX_ACCEPTED = 20
"""Most accepted spellings a gold answer in words may list."""


def accepted_fits(accept: Sequence[str]) -> bool:
    """Tell whether a list of accepted spellings is small enough to send and check."""
    return len(accept) <= MAX_ACCEPTED and all(len(text) <= GOLD_MAX_CHARS for text in accept)


def accepted_of(request: Message) -> tuple[str, ...]:
    """The accepted spellings a request carries (none if it has no list of strings)."""
    accept = request.get("accept", [])
    if not isinstance(accept, list) or not all(isinstance(text, str) for text in accept):
        raise ValueError("accept must be a list of strings")
    if not accepted_fits(accept):
        raise ValueError("too many or too long accepted spellings")
    return tuple(accept)


def encode(message: Message) -> bytes:
    """Serialise one message as a single ASCII JSON line."""
    return json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n"


def decode(line: bytes) -> Message:
    """Parse one JSON line into a message dict, raising ValueError if it isn't one."""
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("a message must be a JSON object")
    return message


def request_unit(request: Message) -> str | None:
    """The optional unit of a request's answer, raising TypeError if it is not a string."""
    unit = request.get("unit")
    if unit is not None and not isinstance(unit, str):
        raise TypeError("a request's unit must be a string")
    return unit


def request_language(request: Message) -> str:
    """The language a request's answer is written in ("en" if it names none).

    Raises ValueError for a language the checker does not know.
    """
    language = request.get("language", "en")
    if not isinstance(language, str):
        raise TypeError("a request's language must be a string")
    return require_language(language)


def verdict_to_message(verdict: Verdict, request_id: object) -> Message:
    """Represent a verdict as a reply to the request with `request_id`.

    A reason the worker said from a catalog message carries it (`why`), to be said again in
    the member's language.
    """
    message: Message = {
        "id": request_id,
        "outcome": str(verdict.outcome),
        "read": verdict.read,
        "gold": verdict.gold,
        "reason": str(verdict.reason),
    }
    if isinstance(verdict.reason, Said):
        message["why"] = verdict.reason.wire()
    return message


def verdict_from_message(message: Message) -> Verdict:
    """Rebuild a verdict from a worker's reply, raising ValueError if the reply is malformed."""
    fields = [message.get(name) for name in ("outcome", "read", "gold", "reason")]
    if not all(isinstance(field, str) for field in fields):
        raise ValueError("a verdict reply needs string outcome, read, gold and reason fields")
    outcome, read, gold, reason = (str(field) for field in fields)
    why = message.get("why")
    if not isinstance(why, Mapping):
        why = {"text": reason, "message": reason, "values": {}} if reason else None
    return Verdict(Grade(outcome), read, gold, said_in(reason, why), why)
