"""Web API writes. A failed call is logged and swallowed: what the engine stored stands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.slack_adapter.blocks import MAX_FALLBACK_TEXT, Block, clip

log = logging.getLogger(__name__)

API_ERRORS = (SlackClientError, aiohttp.ClientError, asyncio.TimeoutError)


def describe(error: BaseException) -> str:
    """A short, secret-free description of a failed call."""
    if isinstance(error, SlackApiError):
        return str(error.response.get("error", "unknown_error"))
    return type(error).__name__


async def safely(method: str, call: Awaitable[AsyncSlackResponse]) -> AsyncSlackResponse | None:
    """Await a Web API call; log and return None if it fails."""
    try:
        return await call
    except API_ERRORS as error:
        log.warning("%s failed: %s", method, describe(error))
        return None


class SlackMessages:
    """Posts, edits and private replies through one client."""

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def post(self, channel: str, text: str, blocks: list[Block]) -> str | None:
        """Post a message to the channel; its ts, or None if Slack refused."""
        call = self.client.chat_postMessage(
            channel=channel, text=clip(text, MAX_FALLBACK_TEXT), blocks=blocks
        )
        response = await safely("chat.postMessage", call)
        return str(response["ts"]) if response is not None else None

    async def update(self, channel: str, ts: str, text: str, blocks: list[Block]) -> bool:
        """Replace a message's text and blocks; whether it worked."""
        call = self.client.chat_update(
            channel=channel, ts=ts, text=clip(text, MAX_FALLBACK_TEXT), blocks=blocks
        )
        return await safely("chat.update", call) is not None

    async def ephemeral(
        self, channel: str, user: str, text: str, blocks: list[Block] | None = None
    ) -> bool:
        """A message only `user` sees, in the channel; whether Slack took it."""
        call = self.client.chat_postEphemeral(
            channel=channel, user=user, text=clip(text, MAX_FALLBACK_TEXT), blocks=blocks
        )
        return await safely("chat.postEphemeral", call) is not None

    async def respond(self, response_url: str, text: str) -> None:
        """A private reply through a request's response_url (works where the bot is no member)."""
        try:
            await AsyncWebhookClient(response_url).send(text=text, response_type="ephemeral")
        except API_ERRORS as error:
            log.warning("reply to response_url failed: %s", describe(error))

    async def open_view(self, trigger_id: str, view: dict[str, Any]) -> bool:
        """Open a modal for the click that carried `trigger_id`."""
        call = self.client.views_open(trigger_id=trigger_id, view=view)
        return await safely("views.open", call) is not None

    async def send_file_privately(self, user: str, text: str, filename: str, title: str) -> bool:
        """Upload a text file into a direct message with `user` (im:write); whether it went."""
        opened = await safely("conversations.open", self.client.conversations_open(users=user))
        channel = (opened.get("channel") or {}).get("id") if opened is not None else None
        if not channel:
            return False
        call = self.client.files_upload_v2(
            channel=str(channel), content=text, filename=filename, title=title
        )
        return await safely("files_upload_v2", call) is not None

    async def upload_png(self, channel: str, png: bytes, title: str, filename: str) -> None:
        """Share a PNG in the channel with the files v2 upload flow."""
        call = self.client.files_upload_v2(
            channel=channel, content=png, filename=filename, title=title
        )
        await safely("files_upload_v2", call)
