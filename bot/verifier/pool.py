"""Long-lived worker processes, spoken to over pipes, that are killed and replaced on trouble."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from contextlib import suppress
from dataclasses import dataclass
from itertools import count
from pathlib import Path

from bot.verifier.errors import CheckerBusy, CheckerError, CheckStopped
from bot.verifier.protocol import STOPPED, Message, decode, encode

_LOG = logging.getLogger(__name__)
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from bot.verifier.worker import main; raise SystemExit(main(sys.argv[2:]))"
)
_STREAM_LIMIT = 1 << 20
_SPAWN_ATTEMPTS = 5
_RETRY_DELAY_SECONDS = 0.5
STOP_SIGNAL = signal.SIGUSR1
"""Asks a worker to give up its current check (it answers `stopped` and stays alive)."""
WORKER_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT")
"""The only environment variables a worker gets: no setting, token or secret of the bot."""


def worker_environment() -> dict[str, str]:
    """The minimal environment a worker starts with (locale and path, where set)."""
    return {name: os.environ[name] for name in WORKER_VARIABLES if name in os.environ}


class WorkerTimeout(Exception):
    """A worker did not answer within the time allowed."""


class WorkerCrashed(Exception):
    """A worker died or broke the protocol while handling a request."""


class WorkerProcess:
    """One worker subprocess and the pipes to it."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self._request_ids = count(1)
        self._stderr = asyncio.get_running_loop().create_task(_log_stderr(process))

    @classmethod
    async def spawn(cls, memory_mb: int, ready_timeout: float) -> WorkerProcess:
        """Start a worker and wait until it says it is ready."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-c", _BOOTSTRAP, _PACKAGE_ROOT, str(memory_mb),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=worker_environment(), limit=_STREAM_LIMIT,
        )
        worker = cls(process)
        try:
            greeting = await worker._read_message(ready_timeout)
        except BaseException as error:
            await worker.stop()
            if isinstance(error, WorkerTimeout | WorkerCrashed):
                raise CheckerError("An answer-checking worker failed to start.") from error
            raise
        if greeting.get("ready") is not True:
            await worker.stop()
            raise CheckerError("An answer-checking worker started but did not say it was ready.")
        return worker

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self._process.pid

    async def ask(self, message: Message, timeout: float) -> Message:
        """Send one request and return the reply; raise WorkerTimeout or WorkerCrashed."""
        request_id = next(self._request_ids)
        try:
            async with asyncio.timeout(timeout):
                await self._write_message({**message, "id": request_id})
                reply = await self._read_message(None)
        except TimeoutError as error:
            raise WorkerTimeout from error
        if reply.get("id") != request_id:
            raise WorkerCrashed("the worker replied out of turn")
        return reply

    def interrupt(self) -> None:
        """Ask the worker to give up its current check; it answers `stopped` and stays."""
        if self._process.returncode is None:
            with suppress(ProcessLookupError):
                os.kill(self._process.pid, STOP_SIGNAL)

    async def stop(self) -> None:
        """Kill the worker (if still running) and wait for it to exit."""
        if self._process.returncode is None:
            with suppress(ProcessLookupError):
                self._process.kill()
        if self._process.stdin is not None:
            self._process.stdin.close()
        await self._process.wait()
        await self._stderr

    async def _write_message(self, message: Message) -> None:
        """Write one request line to the worker."""
        stdin = self._process.stdin
        if stdin is None or stdin.is_closing():
            raise WorkerCrashed("the worker's input is closed")
        try:
            stdin.write(encode(message))
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as error:
            raise WorkerCrashed("the worker stopped reading") from error

    async def _read_message(self, timeout: float | None) -> Message:
        """Read one reply line from the worker."""
        if self._process.stdout is None:
            raise WorkerCrashed("the worker has no output pipe")
        try:
            line = await asyncio.wait_for(self._process.stdout.readline(), timeout)
        except TimeoutError as error:
            raise WorkerTimeout from error
        except ValueError as error:  # a line longer than the stream limit
            raise WorkerCrashed("the worker sent an oversized reply") from error
        if not line:
            raise WorkerCrashed("the worker exited")
        try:
            return decode(line)
        except ValueError as error:
            raise WorkerCrashed("the worker sent a malformed reply") from error


async def _log_stderr(process: asyncio.subprocess.Process) -> None:
    """Log what a worker writes to stderr (it may write no file), until it exits."""
    while process.stderr is not None:
        try:
            line = await process.stderr.readline()
        except ValueError:  # a line longer than the stream limit, dropped
            continue
        if not line:
            return
        _LOG.warning("checker worker %d: %s", process.pid, line.decode(errors="replace").rstrip())


@dataclass(frozen=True)
class PoolLimits:
    """How long and how many requests may wait, and how long a check may keep others waiting.

    None means no limit; `max_wait` None means the spawn timeout.
    """

    queue_limit: int | None = None
    max_wait: float | None = None
    turn_seconds: float | None = None


class WorkerPool:
    """A fixed number of workers; each request borrows an idle one, broken ones are replaced.

    At most `queue_limit` requests wait for a worker (more are refused with `CheckerBusy`),
    none waits longer than `max_wait` seconds, and while any request waits, a check that has
    run for `turn_seconds` is stopped (its worker stays) so that it cannot hold a worker.
    """

    def __init__(
        self,
        *,
        size: int,
        memory_mb: int,
        spawn_timeout: float = 60.0,
        limits: PoolLimits = PoolLimits(),
    ) -> None:
        self._size = size
        self._memory_mb = memory_mb
        self._spawn_timeout = spawn_timeout
        self._queue_limit = limits.queue_limit
        self._max_wait = spawn_timeout if limits.max_wait is None else limits.max_wait
        self._turn_seconds = limits.turn_seconds
        self._idle: asyncio.Queue[WorkerProcess] = asyncio.Queue()
        self._workers: set[WorkerProcess] = set()
        self._replacements: set[asyncio.Task[None]] = set()
        self._waiting = 0
        self._someone_waits = asyncio.Event()
        self._closed = False

    @property
    def pids(self) -> list[int]:
        """Process ids of the live workers (busy or idle), in no particular order."""
        return [worker.pid for worker in self._workers]

    @property
    def idle_count(self) -> int:
        """How many workers are waiting for a request right now."""
        return self._idle.qsize()

    @property
    def waiting_count(self) -> int:
        """How many requests are waiting for a worker right now."""
        return self._waiting

    async def start(self) -> None:
        """Start all workers concurrently; if any fails, stop the others and raise."""
        started = await asyncio.gather(
            *(self._spawn() for _ in range(self._size)), return_exceptions=True
        )
        failures = [result for result in started if isinstance(result, BaseException)]
        if failures:
            await self.close()
            raise CheckerError("The answer checker could not start its workers.") from failures[0]
        for worker in started:
            if isinstance(worker, WorkerProcess):
                self._idle.put_nowait(worker)

    async def ask(self, message: Message, timeout: float) -> Message:
        """Send `message` to an idle worker; a worker that fails in any way is replaced."""
        worker = await self._acquire()
        watch = self._watch_turn(worker)
        try:
            reply = await worker.ask(message, timeout)
        except BaseException:
            self._discard(worker)
            raise
        finally:
            if watch is not None:
                watch.cancel()
        self._idle.put_nowait(worker)
        if reply.get(STOPPED) is True:
            raise CheckStopped()
        return reply

    async def close(self) -> None:
        """Stop every worker and any replacement still starting."""
        self._closed = True
        for task in self._replacements:
            task.cancel()
        await asyncio.gather(*self._replacements, return_exceptions=True)
        await asyncio.gather(*(worker.stop() for worker in self._workers), return_exceptions=True)
        self._workers.clear()
        while not self._idle.empty():
            self._idle.get_nowait()

    async def _spawn(self) -> WorkerProcess:
        """Start one worker and remember it."""
        worker = await WorkerProcess.spawn(self._memory_mb, self._spawn_timeout)
        self._workers.add(worker)
        return worker

    async def _acquire(self) -> WorkerProcess:
        """Wait for an idle worker in turn; refuse when too many wait or the wait is too long."""
        if self._closed:
            raise CheckerError("The answer checker has been closed.")
        if not self._idle.empty() and not self._waiting:
            return self._idle.get_nowait()
        if self._queue_limit is not None and self._waiting >= self._queue_limit:
            raise CheckerBusy()
        self._waiting += 1
        self._someone_waits.set()
        try:
            async with asyncio.timeout(self._max_wait):
                return await self._idle.get()
        except TimeoutError as error:
            raise CheckerBusy("no worker became free in time") from error
        finally:
            self._waiting -= 1
            if not self._waiting:
                self._someone_waits.clear()

    def _watch_turn(self, worker: WorkerProcess) -> asyncio.Task[None] | None:
        """Stop the worker's check once it has had its turn and another request waits."""
        if self._turn_seconds is None:
            return None
        return asyncio.get_running_loop().create_task(self._end_turn(worker, self._turn_seconds))

    async def _end_turn(self, worker: WorkerProcess, turn_seconds: float) -> None:
        await asyncio.sleep(turn_seconds)
        while not self._waiting:
            await self._someone_waits.wait()
        worker.interrupt()

    def _discard(self, worker: WorkerProcess) -> None:
        """Forget a broken worker and start replacing it in the background."""
        self._workers.discard(worker)
        task = asyncio.get_running_loop().create_task(self._replace(worker))
        self._replacements.add(task)
        task.add_done_callback(self._replacements.discard)

    async def _replace(self, broken: WorkerProcess) -> None:
        """Kill `broken`, then start a fresh worker and put it in the idle queue."""
        await broken.stop()
        for attempt in range(1, _SPAWN_ATTEMPTS + 1):
            if self._closed:
                return
            try:
                worker = await self._spawn()
            except CheckerError:
                _LOG.warning("answer-checking worker failed to start (attempt %d)", attempt)
                await asyncio.sleep(_RETRY_DELAY_SECONDS * attempt)
                continue
            self._idle.put_nowait(worker)
            return
        _LOG.error("gave up replacing an answer-checking worker")
