"""Property tests through the worker: any text gets a verdict in time, and the checker lives on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.verifier import Checker, Grade

mathy = st.text(alphabet="0123456789+-*/^()x.,%!= \\{}$eπ√⁄−\u200b\u202e", max_size=60)


@settings(max_examples=80, deadline=None)
@given(st.one_of(mathy, st.text(max_size=300)))
async def test_any_typed_text_gets_a_verdict(checker: Checker, text: str) -> None:
    verdict = await checker.check_answer(text, "3/4")
    assert verdict.outcome in set(Grade)
    assert verdict.outcome is Grade.CORRECT or verdict.reward == 0
    if verdict.outcome is Grade.REJECTED:
        assert verdict.reason


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=1000))
async def test_any_attempt_text_gets_a_verdict(checker: Checker, text: str) -> None:
    verdict = await checker.check_attempt(text, "20")
    assert verdict.outcome in set(Grade)
    assert (await checker.check_answer("0.75", "3/4")).reward == 1
