"""The verifier's reveal explains what this channel did, not what a channel usually does."""

from __future__ import annotations

from bot.engine import LessonEngine
from bot.engine.steps.ratings import verifier_notes
from bot.model import Member, VerifierRow
from lessons.schema import VerifierStep
from tests.engine.helpers import ALICE, BOB, CAROL, HOST, start_at

RETRYING = "a checker rewards trying again until it's right"


def verifier(engine: LessonEngine) -> VerifierStep:
    step = next(s for s in engine.catalog.get().steps if isinstance(s, VerifierStep))
    return step


def everyone(liked: set[str]) -> dict[Member, set[str]]:
    return {member: liked for member in (ALICE, BOB, CAROL)}


async def rate_all(engine: LessonEngine, likes: dict[Member, set[str]]) -> str:
    """Members give 👍 to the attempt styles they like and 👎 to the rest; the reveal's text."""
    card = await start_at(engine, "verifier")
    for member, liked in likes.items():
        for attempt in verifier(engine).attempts:
            up = attempt.style in liked
            await engine.rate(card.run_id, card.step_id, member, attempt.id, up)
    _, reveal = await engine.reveal(card.run_id, HOST)
    return reveal.explanation


async def test_a_channel_that_rated_like_the_checker_is_told_so(engine: LessonEngine) -> None:
    explanation = await rate_all(engine, everyone({"careful"}))
    assert explanation == verifier(engine).explanations.rated_like_checker
    assert "You rated like the checker" in explanation
    assert RETRYING not in explanation and "flattery" not in explanation


async def test_a_channel_that_favoured_the_polished_attempt_is_told_so(
    engine: LessonEngine,
) -> None:
    explanation = await rate_all(engine, everyone({"flattering"}))
    assert explanation == verifier(engine).explanations.favoured_unrewarded
    assert "Your favourite sounded right" in explanation


async def test_a_mixed_channel_gets_the_default_explanation(engine: LessonEngine) -> None:
    both = {"careful", "long-wrong"}
    explanation = await rate_all(engine, {ALICE: both, BOB: both, CAROL: {"careful"}})
    assert explanation == verifier(engine).explanation
    assert RETRYING in explanation


async def test_with_no_ratings_the_default_explanation_shows(engine: LessonEngine) -> None:
    explanation = await rate_all(engine, {})
    assert explanation == verifier(engine).explanation


def test_the_reveal_note_says_rated_like_a_checker_only_when_the_channel_did() -> None:
    right = VerifierRow("The second look", "careful", 3, 0, "20", 1)
    liked_wrong = VerifierRow("The polished one", "flattering", 2, 1, "22.5", 0)
    disliked_wrong = VerifierRow("The hedge", "hedging", 0, 3, "", 0)
    like_checker = verifier_notes([right, disliked_wrong])
    favourite_right_but_wrong_liked = verifier_notes([right, liked_wrong])
    assert "You rated like a checker" in like_checker[-1]
    assert "The second look" in favourite_right_but_wrong_liked[1]
    assert "how an answer sounded" in favourite_right_but_wrong_liked[-1]
