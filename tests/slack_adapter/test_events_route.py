"""The events route: signed lesson clicks answered without bolt's dispatch, the rest by bolt."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
import yarl
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.engine import LessonEngine
from bot.model import Place
from bot.slack_adapter import SlackBot
from bot.slack_adapter.events_route import FORM, lesson_click
from fakes.fake_slack import TEAM_ID
from fakes.slack_driver import ALICE, CHANNEL, SlackDriver, new_trigger, signed_headers

PLACE = Place("slack", TEAM_ID, CHANNEL)
ACTION = "rl:7:what-changed:choose:checkable-reward"


def click_body(payload: object, **fields: str) -> bytes:
    """A form body as Slack posts it for an interaction, with any extra fields."""
    return urlencode({"payload": json.dumps(payload), **fields}).encode()


def block_actions(*action_ids: str, **extra: Any) -> dict[str, Any]:
    """A block_actions payload with these buttons clicked."""
    actions = [{"type": "button", "action_id": action_id} for action_id in action_ids]
    return {"type": "block_actions", "user": {"id": ALICE}, "actions": actions, **extra}


def test_a_lesson_click_is_read_whole_from_its_form_body() -> None:
    payload = block_actions(ACTION, message={"text": 'a + b = 100% & more: 🙂 "quoted"'})
    assert lesson_click(click_body(payload)) == (payload, ACTION)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (click_body(block_actions("lesson_help")), "not a lesson button"),
        (click_body(block_actions(ACTION, ACTION)), "two actions"),
        (click_body(block_actions()), "no action"),
        (click_body({**block_actions(ACTION), "type": "view_submission"}), "not a click"),
        (click_body(block_actions(ACTION), team_id=TEAM_ID), "another form field"),
        (click_body([ACTION]), "not an object"),
        (b"payload=%7Bnot-json", "not JSON"),
        (b"text=start&command=%2Flesson", "a slash command"),
        (b"payload=\xff\xfe", "not UTF-8"),
        (b"", "empty"),
    ],
)
def test_anything_but_one_lesson_click_is_left_to_bolt(body: bytes, why: str) -> None:
    assert lesson_click(body) is None, why


@pytest.fixture
def bolt_dispatches(slack_bot: SlackBot) -> Iterator[list[str]]:
    """The kinds of requests bolt's `async_dispatch` was given while the test ran."""
    seen: list[str] = []
    dispatch = slack_bot.app.async_dispatch

    async def counted(request: AsyncBoltRequest) -> BoltResponse:
        seen.append(str(request.body.get("type") or request.body.get("command")))
        return await dispatch(request)

    slack_bot.app.async_dispatch = counted  # type: ignore[method-assign]
    yield seen
    slack_bot.app.async_dispatch = dispatch  # type: ignore[method-assign]


async def test_a_lesson_click_is_stored_and_answered_without_bolts_dispatch(
    slack: SlackDriver, engine: LessonEngine, bolt_dispatches: list[str]
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    assert bolt_dispatches == ["/lesson", "/lesson"]  # start, then next
    assert await slack.click(slack.action(question, ":choose:checkable-reward"), ALICE) == 200
    await slack.wait_ephemeral(ALICE, "You chose")
    run = await engine.run_in(PLACE)
    assert run is not None and await engine.store.count_participants(run.id, "what-changed") == 1
    assert bolt_dispatches == ["/lesson", "/lesson"]


@pytest.mark.parametrize(
    "options",
    [{"secret": "not-the-secret"}, {"timestamp": int(time.time()) - 600}],
    ids=["bad signature", "stale timestamp"],
)
async def test_a_lesson_click_that_is_not_signed_right_is_refused_and_not_stored(
    slack: SlackDriver, engine: LessonEngine, options: dict[str, Any]
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    calls = len(slack.fake.calls)
    choice = slack.action(question, ":choose:checkable-reward")
    assert await slack.click(choice, ALICE, trigger_id=new_trigger(), **options) == 401
    run = await engine.run_in(PLACE)
    assert run is not None and await engine.store.count_participants(run.id, "what-changed") == 0
    assert len(slack.fake.calls) == calls


async def test_a_click_on_another_button_still_reaches_bolt(
    slack: SlackDriver, bolt_dispatches: list[str]
) -> None:
    assert await slack.click("not-a-lesson-button", ALICE) == 404  # bolt: no listener for it
    assert bolt_dispatches == ["block_actions"]


async def test_a_lesson_click_whose_handler_fails_gets_a_500_and_is_logged(
    slack: SlackDriver,
    slack_bot: SlackBot,
    bolt_dispatches: list[str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(slack_bot.route.clicks, "handle", broken)
    assert await slack.click(ACTION, ALICE) == 500
    assert bolt_dispatches == []
    assert [r.name for r in caplog.records if "listener failed" in r.message] == [
        "bot.slack_adapter.events_route"
    ]


@pytest.mark.parametrize(
    "headers",
    [{"X-Slack-Request-Timestamp": "²"}, {"X-Slack-Signature": "v0=é"}, {"X-Slack-Signature": ""}],
    ids=["non-ASCII digits", "non-ASCII signature", "no signature"],
)
async def test_unreadable_signature_headers_get_a_401_and_never_reach_bolt(
    slack: SlackDriver, bolt_dispatches: list[str], headers: dict[str, str]
) -> None:
    body = click_body(block_actions(ACTION))
    sent = signed_headers(body.decode(), "application/x-www-form-urlencoded") | headers
    async with slack.session.post(slack.url, data=body, headers=sent) as response:
        assert response.status == 401
    assert bolt_dispatches == []


TWO_MIB = 2 * 1024 * 1024


async def status_before_any_body(slack: SlackDriver, headers: dict[str, str]) -> str:
    """The status line answering a POST that announces a 2 MiB body and sends none of it.

    A server that read the body first would wait for it, and no answer would come.
    """
    url = yarl.URL(slack.url)
    reader, writer = await asyncio.open_connection(url.host, url.port)
    fields = {"Host": str(url.host), "Content-Length": str(TWO_MIB), "Content-Type": FORM}
    lines = [f"POST {url.path} HTTP/1.1", *(f"{k}: {v}" for k, v in (fields | headers).items())]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    try:
        async with asyncio.timeout(10):
            return (await reader.readline()).decode().strip()
    finally:
        writer.close()


async def test_an_unsigned_2_mib_body_is_refused_without_being_read(
    slack: SlackDriver, bolt_dispatches: list[str]
) -> None:
    assert await status_before_any_body(slack, {}) == "HTTP/1.1 401 Unauthorized"
    stale = signed_headers("x", FORM, timestamp=int(time.time()) - 600)
    assert await status_before_any_body(slack, stale) == "HTTP/1.1 401 Unauthorized"
    assert bolt_dispatches == []


async def test_a_body_longer_than_slack_sends_is_refused_without_being_read(
    slack: SlackDriver, bolt_dispatches: list[str]
) -> None:
    headers = signed_headers("x" * TWO_MIB, FORM)
    assert await status_before_any_body(slack, headers) == "HTTP/1.1 413 Request Entity Too Large"
    assert bolt_dispatches == []
    await slack.start()  # a request of Slack's size still goes through
