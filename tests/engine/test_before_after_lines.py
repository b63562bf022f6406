"""Every before → after line's groups add up to the count it states, in every language."""

from __future__ import annotations

import random
import re
from itertools import product

import pytest

from bot.engine.steps.before_after import (
    before_after,
    moves_text,
    recall_notes,
    recall_summary_line,
)
from bot.engine.steps.peer_round import PeerMoves
from bot.i18n import available_languages, speaking
from bot.model.records import ChoicePair
from lessons.loader import load_lesson
from lessons.schema import PredictionStep

CHOICES = ("a", "b", "c", None)
NUMBER = re.compile(r"\d+")


def channel(seed: int) -> list[ChoicePair]:
    """Some members' first and second answers, with some who answered only once."""
    rng = random.Random(seed)
    return [
        ChoicePair(first, second, rng.randrange(0, 6))
        for first, second in product(CHOICES, CHOICES)
        if (first, second) != (None, None)
    ]


def numbers(line: str) -> list[int]:
    return [int(found) for found in NUMBER.findall(line)]


def recalled_question() -> PredictionStep:
    step = load_lesson("rlvr").step_by_id("what-changed-again")
    assert isinstance(step, PredictionStep) and step.correct_choice is not None
    return step


@pytest.mark.parametrize("language", available_languages())
@pytest.mark.parametrize("seed", range(5))
def test_a_recall_line_names_groups_that_add_up_to_its_count(language: str, seed: int) -> None:
    step = recalled_question()
    right = step.correct_choice.id if step.correct_choice else ""
    pairs = [ChoicePair(right if p.first == "a" else p.first,
                        right if p.second == "a" else p.second, p.count) for p in channel(seed)]
    both = sum(p.count for p in pairs if p.first and p.second)
    with speaking(language):
        line = recall_notes(step, pairs)[0]
        summary = recall_summary_line(step, pairs)
    total, *groups = numbers(line)
    assert total == both and len(groups) == 4 and sum(groups) == total, line
    assert sum(numbers(summary)) == both, summary


@pytest.mark.parametrize("language", available_languages())
@pytest.mark.parametrize("seed", range(5))
def test_a_peer_round_s_moves_add_up_to_those_who_answered_both_times(
    language: str, seed: int
) -> None:
    pairs = channel(seed)
    both = sum(p.count for p in pairs if p.first and p.second)
    with speaking(language):
        notes = PeerMoves.of(pairs, "a").notes()
    assert numbers(notes[0])[-1] == both, notes[0]
    assert len(numbers(notes[1])) == 4 and sum(numbers(notes[1])) == both, notes[1]


def test_a_poll_s_changed_and_kept_add_up() -> None:
    pairs = channel(1)
    moves = before_after(pairs, None)
    assert sum(numbers(moves_text(moves, has_right=False))) == moves.both
