"""HTTP mode: forged requests are refused before their bodies are read, and no body is logged."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import pytest
from slack_sdk.signature import SignatureVerifier

from bot.engine import LessonEngine
from bot.verifier import Checker
from fakes.fake_slack import FakeSlack
from fakes.slack_driver import ALICE, HOST, SIGNING_SECRET, SlackDriver, signed_headers
from tests.slack_adapter.conftest import bot_for, serving

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
MARKER = "zq-request-body-marker"
FORGED_LINE = f"ERROR bot.slack_adapter: {MARKER} forged"


@pytest.fixture
async def logged_slack(
    engine: LessonEngine,
    checker: Checker,
    fake_slack: FakeSlack,
    caplog: pytest.LogCaptureFixture,
    background_work: None,
) -> AsyncIterator[SlackDriver]:
    """The app in HTTP mode, every logger at DEBUG (set before the app exists, as bolt wants)."""
    caplog.set_level(logging.DEBUG)
    async with serving(bot_for(engine, checker, fake_slack), fake_slack) as driver:
        yield driver


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the records hold: messages, arguments and formatted tracebacks."""
    return caplog.text + "\n".join(str(record.__dict__) for record in caplog.records)


async def post(slack: SlackDriver, body: bytes, headers: dict[str, str]) -> int:
    """POST a raw body with these headers; the status."""
    async with slack.session.post(slack.url, data=body, headers=headers) as response:
        await response.read()
        return response.status


def forged_headers(body: bytes, how: str) -> dict[str, str]:
    """Headers of a request not signed with the app's secret: unsigned, wrongly or long ago."""
    if how == "unsigned":
        return {"Content-Type": FORM}
    if how == "wrong secret":
        return signed_headers(body.decode(), FORM, secret="not-the-secret")
    return signed_headers(body.decode(), FORM, timestamp=int(time.time()) - 600)


async def test_forged_megabyte_posts_are_refused_and_add_no_body_to_the_logs(
    logged_slack: SlackDriver, caplog: pytest.LogCaptureFixture
) -> None:
    body = f"payload={MARKER}".encode() + b"x" * 1_000_000
    hows = ["unsigned", "wrong secret", "stale"] * 7
    before = len(logged(caplog))
    statuses = await asyncio.gather(
        *(post(logged_slack, body, forged_headers(body, how)) for how in hows)
    )
    refusals = {"unsigned": 401, "wrong secret": 413, "stale": 401}  # 413: longer than Slack sends
    assert statuses == [refusals[how] for how in hows]
    assert MARKER not in logged(caplog)
    assert len(logged(caplog)) - before < 20_000  # not 21 MB


@pytest.mark.parametrize("how", ["unsigned", "wrong secret", "stale"])
async def test_a_forged_body_with_a_raw_newline_writes_no_log_line(
    logged_slack: SlackDriver, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    body = f'payload={{"type": "block_actions"}}\n{FORGED_LINE}'.encode()
    assert await post(logged_slack, body, forged_headers(body, how)) == 401
    assert MARKER not in logged(caplog)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_a_forged_body_that_is_not_utf8_gets_401_without_a_traceback(
    logged_slack: SlackDriver, caplog: pytest.LogCaptureFixture
) -> None:
    body = b"payload=\xff\xfe" + MARKER.encode()
    headers = signed_headers("payload=", FORM) | {"Content-Type": FORM}
    assert await post(logged_slack, body, headers) == 401
    assert not [record for record in caplog.records if record.exc_info or record.exc_text]
    assert MARKER not in logged(caplog)


def signed(body: bytes, content_type: str) -> dict[str, str]:
    """Headers signing any bytes with the app's secret, as Slack would."""
    stamp = str(int(time.time()))
    signature = SignatureVerifier(SIGNING_SECRET).generate_signature(timestamp=stamp, body=body)
    return {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": signature,
    }


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (f"payload=%7B%22type%22%3A%0A{MARKER}".encode(), FORM),
        (f'{{"type": "event_callback",\n{FORGED_LINE}'.encode(), JSON),
        (b"payload=%5B1%2C2%5D", FORM),
        (b"[1, 2]", JSON),
    ],
    ids=["payload not JSON", "JSON cut short", "payload a list", "JSON a list"],
)
async def test_a_signed_body_that_cannot_be_read_gets_400_without_a_traceback(
    logged_slack: SlackDriver, caplog: pytest.LogCaptureFixture, body: bytes, content_type: str
) -> None:
    assert await post(logged_slack, body, signed(body, content_type)) == 400
    assert not [record for record in caplog.records if record.exc_info or record.exc_text]
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert MARKER not in logged(caplog)


async def test_signed_requests_still_work_and_log_no_body(
    logged_slack: SlackDriver, caplog: pytest.LogCaptureFixture
) -> None:
    await logged_slack.start()
    question = await logged_slack.go_to_step(2)
    choice = logged_slack.action(question, ":choose:checkable-reward")
    assert await logged_slack.click(choice, ALICE, question) == 200
    await logged_slack.wait_ephemeral(ALICE, "You chose")
    assert await logged_slack.click(f"other-button-{MARKER}", ALICE) == 404  # no listener
    assert await logged_slack.command(f"help {MARKER}") == 200
    await logged_slack.wait_ephemeral(HOST, "/lesson start")
    assert MARKER not in logged(caplog)
