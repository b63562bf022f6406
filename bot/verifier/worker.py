"""The worker process: reads requests as JSON lines on stdin and answers each on stdout.

Run as ``python -m bot.verifier.worker [MEMORY_MB]``. All parsing of untrusted text
happens here, so a hostile answer can at worst kill this process: it starts with none of the
bot's environment (see `pool.worker_environment`), and runs under limits on memory, CPU time
per check, file size (none may be written) and processes (none may be started).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from functools import partial
from typing import BinaryIO

from bot.i18n import N_
from bot.verifier.grading import grade_answer, grade_attempt, grade_gold
from bot.verifier.guards import TOO_BIG
from bot.verifier.normalize import preview
from bot.verifier.protocol import (
    STOPPED,
    Message,
    accepted_of,
    decode,
    encode,
    request_language,
    request_unit,
    verdict_to_message,
)
from bot.verifier.verdict import Grade, Verdict

DEFAULT_MEMORY_MB = 512
CPU_SECONDS_PER_CHECK = 60
"""CPU time one check may use before the OS ends the worker (the bot's timeout comes first)."""
NICENESS_INCREMENT = 5
"""How much lower than the bot's a worker's CPU priority is, so the bot stays responsive."""
_ORPHAN_CHECK_SECONDS = 1.0
_Operation = Callable[[str, str], Verdict]
_OPERATIONS: dict[str, Callable[..., Verdict]] = {
    "answer": grade_answer,
    "attempt": grade_attempt,
    "gold": lambda _text, gold, *, language, **options: grade_gold(gold, **options),
}
"""Each operation takes the text and the gold, and the options (`unit`, `accept`, `language`)
by keyword; a gold answer is read the same in every language."""


def main(argv: list[str] | None = None) -> int:
    """Serve requests until stdin closes; the optional argument is the memory cap in MB."""
    arguments = sys.argv[1:] if argv is None else argv
    memory_mb = int(arguments[0]) if arguments else DEFAULT_MEMORY_MB
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGUSR1, _stop_current_check)
    _exit_if_orphaned(os.getppid())
    channel = _claim_stdout()
    limit_memory(memory_mb)
    _warm_up()
    os.nice(NICENESS_INCREMENT)  # after the warm-up, so a replacement is ready as soon as before
    forbid_files_and_processes()
    _send(channel, {"ready": True, "pid": os.getpid()})
    for line in sys.stdin.buffer:
        _send(channel, handle_request(line))
    return 0


def limit_memory(memory_mb: int) -> None:
    """Cap this process's address space at `memory_mb` megabytes (where the OS allows it)."""
    try:
        import resource
    except ImportError:  # not available on Windows
        return
    limit = memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def forbid_files_and_processes() -> None:
    """Allow no file to be written and no process or thread to be started from here on."""
    try:
        import resource
    except ImportError:  # not available on Windows
        return
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    if hasattr(resource, "RLIMIT_NPROC"):
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def limit_cpu(seconds: int) -> None:
    """Let the OS end this process once it has used `seconds` more CPU time."""
    try:
        import resource
    except ImportError:  # not available on Windows
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = int(used.ru_utime + used.ru_stime) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = spent + seconds if hard == resource.RLIM_INFINITY else min(spent + seconds, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def handle_request(line: bytes) -> Message:
    """Answer one request line with a verdict message (never raises for bad input)."""
    try:
        request = decode(line)
        operation = partial(
            _OPERATIONS[str(request["op"])], unit=request_unit(request),
            accept=accepted_of(request), language=request_language(request),
        )
        text, gold = str(request["text"]), str(request["gold"])
    except (ValueError, KeyError, TypeError):
        return {"id": None, "error": "malformed request"}
    try:
        verdict = _run_stoppably(operation, text, gold)
    except _Stopped:
        return {"id": request.get("id"), STOPPED: True}
    return verdict_to_message(verdict, request.get("id"))


class _Stopped(BaseException):
    """Raised inside a check that the bot asked to stop (not an Exception: nothing swallows it)."""


_CHECKING = [False]


def _stop_current_check(_signum: int, _frame: object) -> None:
    """The stop signal: give up the check in progress, if any; between checks, do nothing."""
    if _CHECKING[0]:
        _CHECKING[0] = False
        raise _Stopped


def _run_stoppably(operation: _Operation, text: str, gold: str) -> Verdict:
    """Run one grading operation that the stop signal may interrupt."""
    limit_cpu(CPU_SECONDS_PER_CHECK)
    _CHECKING[0] = True
    try:
        return _run_safely(operation, text, gold)
    finally:
        _CHECKING[0] = False


def _run_safely(operation: _Operation, text: str, gold: str) -> Verdict:
    """Run one grading operation, turning resource exhaustion and bugs into rejections."""
    try:
        return operation(text, gold)
    except MemoryError:
        reason = TOO_BIG
    except RecursionError:
        reason = N_("That is nested too deeply for me to read; simplify it a little.")
    except Exception:  # a bug must cost one answer, never the worker
        traceback.print_exc(file=sys.stderr)
        reason = N_("Something went wrong checking that answer; please try writing it another "
                    "way.")
    return Verdict(Grade.REJECTED, preview(text), preview(gold), reason)


def _exit_if_orphaned(parent_pid: int) -> None:
    """Watch (in a daemon thread) for the bot dying, so a busy worker never outlives it."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(_ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def _claim_stdout() -> BinaryIO:
    """Keep the real stdout for replies and send any stray printing to stderr instead."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    return channel


def _send(channel: BinaryIO, message: Message) -> None:
    """Write one message line and flush it."""
    channel.write(encode(message))
    channel.flush()


def _warm_up() -> None:
    """Exercise every code path once so the first real check is as fast as the rest."""
    grade_answer("(x+1)^2", "x^2+2x+1")
    grade_answer("0.333", "1/3")
    grade_attempt("so the answer is \\boxed{\\frac{1}{2}}", "0.5")
    grade_answer("x = 3 or x = -3", "\\pm 3")
    grade_answer("0 \\le x < 1", "[0, 1)")
    grade_answer("Odd.", "\\text{odd}")
    grade_answer("1.234,5", "1234.5", language="es")
    grade_answer("(1,5; 2)", "(1.5, 2)", language="es")


if __name__ == "__main__":
    sys.exit(main())
