"""The Web API client: one per process, retrying rate limits, server errors and lost connections."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import aiohttp
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
CONNECTION_ERROR_RETRIES = 2
DEFAULT_API_URL = "https://slack.com/api/"


def retry_handlers() -> list[AsyncRetryHandler]:
    """Wait out 429 (Retry-After); back off and retry 500/503 and dropped connections."""
    return [
        AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
        AsyncServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
        AsyncConnectionErrorRetryHandler(max_retry_count=CONNECTION_ERROR_RETRIES),
    ]


def api_url(base_url: str | None) -> str:
    """The Web API root, always ending with a slash as the SDK expects."""
    url = (base_url or DEFAULT_API_URL).strip() or DEFAULT_API_URL
    return url if url.endswith("/") else url + "/"


def make_client(token: str, base_url: str | None = None) -> AsyncWebClient:
    """An `AsyncWebClient` on `base_url` (Slack's by default) with the retry handlers above."""
    return AsyncWebClient(token=token, base_url=api_url(base_url), retry_handlers=retry_handlers())


@contextlib.asynccontextmanager
async def shared_session(client: AsyncWebClient) -> AsyncIterator[None]:
    """One keep-alive HTTP session for every Web API call while the block runs.

    Without it the SDK opens a new session, and a new TLS connection, for every call.
    """
    timeout = aiohttp.ClientTimeout(total=client.timeout)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        client.session = session
        try:
            yield
        finally:
            client.session = None
