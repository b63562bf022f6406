"""The worker's request handling, exercised in-process."""

from __future__ import annotations

import json
import resource

import pytest

from bot.verifier.protocol import encode, verdict_from_message
from bot.verifier.verdict import Grade, Verdict
from bot.verifier.worker import _run_safely, handle_request


def test_answers_a_grading_request() -> None:
    reply = handle_request(encode({"id": 7, "op": "answer", "text": "0.5", "gold": "1/2"}))
    assert reply["id"] == 7
    assert verdict_from_message(reply) == Verdict(Grade.CORRECT, "0.5", "1/2")


def test_a_check_caps_the_cpu_time_of_the_process_it_runs_in() -> None:
    """As in a worker; here the suite's `cpu_limit_restored` lifts the cap after the test."""
    before = resource.getrlimit(resource.RLIMIT_CPU)
    handle_request(encode({"id": 8, "op": "answer", "text": "0.5", "gold": "1/2"}))
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    assert hard == before[1] and soft != resource.RLIM_INFINITY and soft != before[0]


def test_reads_a_gold_answer() -> None:
    reply = handle_request(encode({"id": 1, "op": "gold", "text": "", "gold": "2/4"}))
    assert (reply["outcome"], reply["read"]) == ("correct", "1/2")


@pytest.mark.parametrize(
    "line", [b"not json\n", b"[1, 2]\n", json.dumps({"op": "nope"}).encode() + b"\n"]
)
def test_malformed_requests_get_an_error_reply(line: bytes) -> None:
    assert handle_request(line) == {"id": None, "error": "malformed request"}


@pytest.mark.parametrize(
    ("failure", "reason"),
    [(MemoryError, "too big"), (RecursionError, "nested too deeply"),
     (ZeroDivisionError, "Something went wrong")],
)
def test_failures_inside_grading_become_rejections(
    failure: type[BaseException], reason: str
) -> None:
    def failing(_text: str, _gold: str) -> Verdict:
        raise failure()

    verdict = _run_safely(failing, "1", "1")
    assert verdict.outcome is Grade.REJECTED
    assert reason in verdict.reason


def test_malformed_verdict_replies_are_refused() -> None:
    with pytest.raises(ValueError):
        verdict_from_message({"outcome": "correct", "read": 3, "gold": "3", "reason": ""})
    with pytest.raises(ValueError):
        verdict_from_message({"outcome": "maybe", "read": "3", "gold": "3", "reason": ""})
