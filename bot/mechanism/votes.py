"""Thumbs-up counts typed on the command line, such as ``polished=7,thorough=2,hedge=1``.

A name is an attempt's id or label in the lesson, or one word of its label that no other label has.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lessons.schema import Attempt

EXAMPLE = "polished=7,thorough=2,hedge=1"


class VotesError(ValueError):
    """The votes text could not be read; the message says why."""


def parse_votes(text: str, attempts: Sequence[Attempt]) -> dict[str, int]:
    """Thumbs-up count per attempt id from 'name=count,...'; unlisted attempts get 0."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise VotesError(f"no votes given; expected e.g. {EXAMPLE}")
    counts = dict.fromkeys((attempt.id for attempt in attempts), 0)
    seen: set[str] = set()
    for item in items:
        name, count = _parse_item(item)
        attempt_id = attempt_named(name, attempts).id
        if attempt_id in seen:
            raise VotesError(f"attempt listed twice: {attempt_id}")
        seen.add(attempt_id)
        counts[attempt_id] = count
    return counts


def attempt_named(name: str, attempts: Sequence[Attempt]) -> Attempt:
    """The attempt with this id or label, or the one whose label has this word (any case)."""
    key = name.lower()
    exact = [a for a in attempts if key in (a.id, a.label.lower())]
    matches = exact or [attempt for attempt in attempts if key in _words(attempt.label)]
    if len(matches) == 1:
        return matches[0]
    problem = "names several attempts" if matches else "is not an attempt of this lesson"
    raise VotesError(f"{name!r} {problem}; use one of: {valid_names(attempts)}")


def valid_names(attempts: Sequence[Attempt]) -> str:
    """Each attempt's id with its label, for error messages."""
    return ", ".join(f"{attempt.id} ({attempt.label})" for attempt in attempts)


def _words(label: str) -> set[str]:
    return set(re.findall(r"[\w-]+", label.lower()))


def _parse_item(item: str) -> tuple[str, int]:
    name, separator, raw_count = (part.strip() for part in item.partition("="))
    if not separator or not name or not raw_count:
        raise VotesError(f"cannot read {item!r}; expected name=count, e.g. polished=7")
    try:
        count = int(raw_count)
    except ValueError:
        raise VotesError(f"count for {name} is not a whole number: {raw_count!r}") from None
    if count < 0:
        raise VotesError(f"count for {name} cannot be negative: {count}")
    return name, count
