"""Stopping on SIGTERM or SIGINT: answers in flight are finished before disconnecting,
so a rolling restart of the bot's processes loses nothing it acknowledged."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterator
from functools import partial

import discord

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
_closing: set[asyncio.Future[None]] = set()


@contextlib.contextmanager
def closing_on_signals(client: discord.Client) -> Iterator[None]:
    """While inside, SIGTERM or SIGINT closes the client gracefully (see `LessonBot.close`)."""
    loop = asyncio.get_running_loop()
    for stop in STOP_SIGNALS:
        loop.add_signal_handler(stop, partial(_close, client, stop.name))
    try:
        yield
    finally:
        for stop in STOP_SIGNALS:
            loop.remove_signal_handler(stop)


def _close(client: discord.Client, signal_name: str) -> None:
    log.info("%s received: finishing the answers in flight, then stopping", signal_name)
    closing = asyncio.ensure_future(client.close())
    _closing.add(closing)
    closing.add_done_callback(_closing.discard)
