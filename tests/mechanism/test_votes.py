"""Thumbs-up counts typed with the lesson's attempt names."""

from __future__ import annotations

import pytest

from bot.mechanism.votes import VotesError, parse_votes
from tests.mechanism.helpers import ATTEMPTS

IDS = [attempt.id for attempt in ATTEMPTS]


def test_the_lessons_attempt_ids_name_them() -> None:
    assert IDS == ["polished", "thorough", "hedge", "second-look"]
    counts = parse_votes("polished=7,thorough=2,hedge=1", ATTEMPTS)
    assert counts == {"polished": 7, "thorough": 2, "hedge": 1, "second-look": 0}


def test_a_whole_label_names_an_attempt() -> None:
    counts = parse_votes("the second look=4,The Hedge=1", ATTEMPTS)
    assert counts == {"polished": 0, "thorough": 0, "hedge": 1, "second-look": 4}


def test_a_label_word_in_any_case_names_an_attempt() -> None:
    counts = parse_votes(" Polished = 7, SECOND=2 ,Hedge=1", ATTEMPTS)
    assert counts == {"polished": 7, "thorough": 0, "hedge": 1, "second-look": 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no votes"),
        ("polished", "expected name=count"),
        ("polished=", "expected name=count"),
        ("flattering=3", "'flattering' is not an attempt of this lesson"),
        ("one=3", "'one' names several attempts"),
        ("polished=-1", "negative"),
        ("polished=two", "whole number"),
        ("polished=1.5", "whole number"),
        ("polished=1,Polished=2", "twice"),
    ],
)
def test_bad_votes_say_why(text: str, message: str) -> None:
    with pytest.raises(VotesError, match=message):
        parse_votes(text, ATTEMPTS)


def test_an_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(VotesError) as raised:
        parse_votes("careful=2", ATTEMPTS)
    for attempt in ATTEMPTS:
        assert f"{attempt.id} ({attempt.label})" in str(raised.value)
