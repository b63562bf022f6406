"""Reading thumbs-up counts and turning them into shares."""

from __future__ import annotations

import pytest

from bot.mechanism.votes import VotesError, parse_votes, thumbs_up_shares


def test_unlisted_styles_get_zero_and_spaces_are_allowed() -> None:
    counts = parse_votes(" flattering = 7, careful=2 ,hedging=1")
    assert counts == {"flattering": 7, "long-wrong": 0, "hedging": 1, "careful": 2}


def test_shares_are_each_styles_part_of_all_thumbs_ups() -> None:
    shares = thumbs_up_shares({"flattering": 7, "long-wrong": 0, "hedging": 1, "careful": 2})
    assert shares == {"flattering": 0.7, "long-wrong": 0.0, "hedging": 0.1, "careful": 0.2}
    assert thumbs_up_shares({"careful": 0}) == {"careful": 0.0}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no votes"),
        ("careful", "expected style=count"),
        ("careful=", "expected style=count"),
        ("polite=3", "unknown style"),
        ("careful=-1", "negative"),
        ("careful=two", "whole number"),
        ("careful=1.5", "whole number"),
        ("careful=1,careful=2", "twice"),
    ],
)
def test_bad_votes_say_why(text: str, message: str) -> None:
    with pytest.raises(VotesError, match=message):
        parse_votes(text)
