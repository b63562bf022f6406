"""Record first, then acknowledge, within a budget; show the outcome after the acks.

Slack wants every request acknowledged within 3 seconds. A listener first has the service
decide: it claims the delivery and the engine stores the answer. The ack goes out as soon as
that is done, so an acknowledged answer is already in the database if the process dies right
after. If deciding takes longer than `ACK_BUDGET` (a slow database or Web API), the ack goes
out anyway and the decision finishes afterwards. What the member sees (private replies,
posts, edits, the answer form) is sent after the ack, because those calls may wait on
Slack's rate limits.

Under a burst, that work would compete for the event loop with the acks of the requests
still arriving. It starts once no request is being decided and no stream of requests is
arriving (or after `ACKS_FIRST_SECONDS` at most), and a shutdown lets it finish first. Work
waits in a queue, not as a task of its own: one task waits for the acks and then starts
everything queued, so a burst's acks pay for no task or timer per reply.

The app answers a request when its listener returns (bolt's `process_before_response`), so
a listener returns right after its ack; bolt's other mode would poll every 10 ms per request
for the ack, which under a burst of two thousand requests is most of what the process does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

from bot.i18n import reading
from bot.service import LessonService, Outcome
from bot.service.backpressure import PendingAcks
from bot.service.member_locales import MemberLocales
from bot.slack_adapter.host_rights import HostRights
from bot.slack_adapter.members import SlackRequest
from bot.slack_adapter.surface import SlackEffects, SlackSurface

log = logging.getLogger(__name__)

ACK_BUDGET = 1.5
DRAIN_SECONDS = 10.0
ACKS_FIRST_SECONDS = 3.0

Ack = Callable[[], Awaitable[object]]
"""What acknowledges a request: bolt's `ack`, or the events route's own."""
T = TypeVar("T")
Spoken = tuple[str | None, Outcome]
"""The locale of the member a decision was made for (None: not known yet), and the decision."""


async def ack_after(
    ack: Ack, decision: Awaitable[T], budget: float = ACK_BUDGET
) -> asyncio.Future[T]:
    """Ack once `decision` is done or `budget` seconds passed; the decision, still going if late."""
    decided = asyncio.ensure_future(decision)
    await asyncio.wait({decided}, timeout=budget)
    await ack()
    return decided


class InFlight:
    """Requests being decided, and the work of those acknowledged but still being shown."""

    def __init__(
        self, acks_first: float = ACKS_FIRST_SECONDS, acks: PendingAcks | None = None
    ) -> None:
        self.acks_first = acks_first
        self.acks = acks or PendingAcks()
        self._tasks: set[asyncio.Future[object]] = set()
        self._queued: deque[Coroutine[Any, Any, object]] = deque()
        self._starter: asyncio.Future[None] | None = None

    @contextlib.contextmanager
    def acknowledging(self) -> Iterator[None]:
        """Note a request's arrival and count it as being decided while the block runs."""
        self.acks.arrived()
        with self.acks.acknowledging():
            yield

    def start(self, work: Coroutine[Any, Any, object]) -> None:
        """Run `work` once acks are done, in flight until it ends; a failure is logged."""
        self._queued.append(work)
        if self._starter is None or self._starter.done():
            self._starter = asyncio.ensure_future(self._start_queued())

    async def _start_queued(self) -> None:
        try:
            await self.acks.work_may_start(self.acks_first)
        finally:  # even if the wait is cancelled, nothing queued is left unstarted
            while self._queued:
                self._run(self._queued.popleft())

    def _run(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a Slack request failed after its ack", exc_info=task.exception())

    def _unfinished(self) -> set[asyncio.Future[Any]]:
        """Work started and not done yet, and the starter while it waits (not the caller)."""
        unfinished: set[asyncio.Future[Any]] = set(self._tasks)
        if self._starter is not None and not self._starter.done():
            unfinished.add(self._starter)
        unfinished.discard(asyncio.current_task())
        return unfinished

    def __len__(self) -> int:
        return len(self._tasks) + len(self._queued)

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """Wait (up to `timeout` seconds) until the work in flight, queued work too, is done."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while pending := self._unfinished():
            if loop.time() >= deadline:
                return
            await asyncio.wait(pending, timeout=deadline - loop.time())


class Requests:
    """What every listener shares: the service, host rights, and deciding before the ack.

    A member is answered in their own Slack language: the decision and what is shown of it
    speak the member's locale (the channel's posts speak the run's language).
    """

    def __init__(
        self, service: LessonService, surface: SlackSurface, hosts: HostRights,
        burst_handling: bool = True,
    ) -> None:
        self.service = service
        self.surface = surface
        self.hosts = hosts
        self.locales = MemberLocales(surface.locale_of)
        self.effects = SlackEffects(surface, service.presenter)
        self.inflight = InFlight(acks=PendingAcks(burst_handling))

    async def settle(self, ack: Ack, request: SlackRequest, decision: Awaitable[Outcome]) -> None:
        """Decide (store) and ack; show the outcome once the acks are done, in flight till then."""
        with self.inflight.acknowledging():
            decided = await ack_after(ack, self.decide(request, decision))
        self.inflight.start(self.show(request, decided))

    async def decide(self, request: SlackRequest, decision: Awaitable[Outcome]) -> Spoken:
        """The member's locale (under a burst, only if known: looked up after), and the decision."""
        crowded = self.inflight.acks.crowded()
        locale = await self.locales.locale(request.user_id, wait=not crowded)
        if crowded and not locale:
            self.inflight.start(self.learn(request))
        known = self.locales.known(request.user_id)
        with reading(known):
            return known, await decision

    async def learn(self, request: SlackRequest) -> None:
        """Look up a member answered in English under a burst; store their language for later."""
        await self.locales.learn(request.user_id)
        locale = self.locales.known(request.user_id)
        if locale is not None:
            await self.service.note_locale(request.actor, locale)

    async def show(self, request: SlackRequest, decided: Awaitable[Spoken]) -> None:
        """Update the channel, then show the member what their request came to, in their locale."""
        locale, outcome = await decided
        with reading(locale):
            await self.effects.show(request, await outcome.shown())
