"""Whose turn it is to move a run and post to its channel: one at a time, in the lesson's order.

Everything that moves a lesson on and posts what follows (a host's command or button, a
timer, a repost, the startup catch-up) does so inside the run's turn: it takes the turn,
decides from the run as stored, posts, and only then gives the turn back. A second Next
pressed while a slow step is still being drawn waits for that post instead of overtaking
it, and after a `patience` wait the host is told the lesson is still posting.

The turn is held in two places. In this process, an asyncio lock per run queues the
requests that arrive here without touching the database. Across processes, a lease in the
run's row (`claim_turn`): renewed while its holder works, so a holder that dies frees it
after `lease` seconds, and released when the posts are done. A holder's name says which
machine and process it is, so a process restarted on the same machine takes over the turn
of its dead predecessor at once instead of waiting for the lease to lapse.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable

from bot.engine import LessonEngine
from bot.i18n import speaking
from bot.model import RunRecord, StillPosting

log = logging.getLogger(__name__)

LEASE_SECONDS = 10.0
"""How long a turn outlives a holder that stopped renewing it (a process that died)."""
PATIENCE = 20.0
"""How long a request waits for the turn before the host is told the lesson is still posting."""
MAX_HOLD = 300.0
"""A turn held longer than this (its posts never finished) is given back with a warning."""
FIRST_POLL, LAST_POLL = 0.05, 0.5
"""Seconds between two looks at another process's lease: doubling from the first to the last."""

async def each_in_turn(
    runs: Iterable[RunRecord], act: Callable[[RunRecord], Awaitable[int]], failed: str
) -> int:
    """Act on each run (in its turn, as `act` takes it), in its language; how many it acted on.

    A run still posting elsewhere is left to the next round; a run whose act fails is
    logged with `failed` (a message with one `%s` for the run id), and the others go on.
    """
    done = 0
    for run in runs:
        try:
            with speaking(run.language):
                done += await act(run)
        except StillPosting:  # the next round takes it
            continue
        except Exception:
            log.exception(failed, run.id)
    return done


HOST = socket.gethostname()[:32]
INCARNATION = uuid.uuid4().hex[:8]
"""This run of the process: tells it from an earlier process that had the same id."""
_instances = itertools.count(1)


def holder_name() -> str:
    """A new name for turns: machine, process id, this run of the process, and a number."""
    return f"{HOST}:{os.getpid()}:{INCARNATION}:{next(_instances)}"


def holder_gone(holder: str | None) -> bool:
    """Whether a turn's holder was a process of this machine that no longer runs."""
    parts = (holder or "").rsplit(":", 3)
    if len(parts) != 4 or parts[0] != HOST or not parts[1].isdigit():
        return False  # another machine's: only its lease can tell
    pid, incarnation = int(parts[1]), parts[2]
    if pid == os.getpid():
        return incarnation != INCARNATION  # an earlier process that had this process's id
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # a live process of another user
    return False


class Turn:
    """A run's turn, held by this process until `release`; its lease is renewed meanwhile."""

    def __init__(self, turns: PostingTurns, run_id: int, lock: asyncio.Lock) -> None:
        self.turns = turns
        self.run_id = run_id
        self._lock = lock
        self._released = False
        self._renewal = asyncio.create_task(self._renew(), name=f"post-turn-{run_id}")

    async def release(self) -> None:
        """Give the turn back, here and in the database (once; later calls do nothing)."""
        if self._released:
            return
        self._released = True
        if self._renewal is not asyncio.current_task():
            self._renewal.cancel()
        try:
            await self.turns.engine.messages.release_turn(self.run_id, self.turns.holder)
        except Exception:  # the lease lapses by itself; the next holder takes it then
            log.warning("could not give back the post turn of run %s", self.run_id)
        finally:
            self.turns.unlock(self.run_id, self._lock)

    async def _renew(self) -> None:
        turns = self.turns
        loop = asyncio.get_running_loop()
        end = loop.time() + turns.max_hold
        while loop.time() < end:
            await asyncio.sleep(turns.lease / 4)
            with contextlib.suppress(Exception):  # a failed renewal is tried again next time
                await turns.engine.messages.claim_turn(self.run_id, turns.holder, turns.lease)
        log.warning(
            "the post turn of run %s was held %.0f s; giving it back", self.run_id, turns.max_hold
        )
        await self.release()


class PostingTurns:
    """The turns of every run this process moves or posts to."""

    def __init__(
        self,
        engine: LessonEngine,
        lease: float = LEASE_SECONDS,
        patience: float = PATIENCE,
        max_hold: float = MAX_HOLD,
    ) -> None:
        self.engine = engine
        self.lease = lease
        self.patience = patience
        self.max_hold = max_hold
        self.holder = holder_name()
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    async def take(self, run_id: int, patience: float | None = None) -> Turn:
        """The run's turn, once every earlier holder is done; `StillPosting` after `patience` s."""
        wait = self.patience if patience is None else patience
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        lock = self._lock(run_id)
        try:
            async with asyncio.timeout(wait):
                await lock.acquire()
        except BaseException as error:
            self._forget(run_id)
            if isinstance(error, TimeoutError):
                raise StillPosting() from None
            raise
        try:
            await self._claim(run_id, deadline)
        except BaseException:
            self.unlock(run_id, lock)
            raise
        return Turn(self, run_id, lock)

    @contextlib.asynccontextmanager
    async def holding(self, run_id: int, patience: float | None = None) -> AsyncIterator[Turn]:
        """Hold the run's turn while the block runs."""
        turn = await self.take(run_id, patience)
        try:
            yield turn
        finally:
            await turn.release()

    def unlock(self, run_id: int, lock: asyncio.Lock) -> None:
        """Let the next request of this process at the run go on."""
        lock.release()
        self._forget(run_id)

    async def _claim(self, run_id: int, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        if await self._claim_once(run_id):
            return
        log.info("run %s is posting in another process; waiting for its turn", run_id)
        pause = FIRST_POLL
        while True:
            if loop.time() + pause > deadline:
                raise StillPosting()
            await asyncio.sleep(pause)  # another process is posting; look again shortly
            pause = min(pause * 2, LAST_POLL)
            if await self._claim_once(run_id):
                return

    async def _claim_once(self, run_id: int) -> bool:
        """Take the turn if it is free, or if its holder is known to be gone."""
        messages = self.engine.messages
        if await messages.claim_turn(run_id, self.holder, self.lease):
            return True
        holder = await messages.turn_holder(run_id)
        if not holder_gone(holder):
            return False
        log.info("run %s: taking over the turn of %s, which no longer runs", run_id, holder)
        return await messages.claim_turn(run_id, self.holder, self.lease, replacing=holder)

    def _lock(self, run_id: int) -> asyncio.Lock:
        self._users[run_id] = self._users.get(run_id, 0) + 1
        return self._locks.setdefault(run_id, asyncio.Lock())

    def _forget(self, run_id: int) -> None:
        """One user of the run's lock is done; the last one removes it."""
        self._users[run_id] -= 1
        if not self._users[run_id]:
            del self._users[run_id], self._locks[run_id]
