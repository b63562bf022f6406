"""The Web API client: one per process, retrying rate-limited calls."""

from __future__ import annotations

from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

RATE_LIMIT_RETRIES = 3


def make_client(token: str, base_url: str | None = None) -> AsyncWebClient:
    """An `AsyncWebClient` that waits out 429 answers (Retry-After) and tries again."""
    client = (
        AsyncWebClient(token=token, base_url=base_url) if base_url else AsyncWebClient(token=token)
    )
    client.retry_handlers.append(
        AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)
    )
    return client
