"""The worker process: reads requests as JSON lines on stdin and answers each on stdout.

Run as ``python -m bot.verifier.worker [MEMORY_MB]``. All parsing of untrusted text
happens here, under a memory limit, so a hostile answer can at worst kill this process.
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

from bot.verifier.grading import grade_answer, grade_attempt, grade_gold
from bot.verifier.guards import TOO_BIG
from bot.verifier.normalize import preview
from bot.verifier.protocol import Message, decode, encode, request_unit, verdict_to_message
from bot.verifier.verdict import Outcome, Verdict

DEFAULT_MEMORY_MB = 512
_ORPHAN_CHECK_SECONDS = 1.0
_Operation = Callable[[str, str], Verdict]
_OPERATIONS: dict[str, Callable[[str | None], _Operation]] = {
    "answer": lambda unit: partial(grade_answer, unit=unit),
    "attempt": lambda unit: partial(grade_attempt, unit=unit),
    "gold": lambda unit: lambda _text, gold: grade_gold(gold, unit=unit),
}
"""Each operation, given the unit the request's answer is in (None for none)."""


def main(argv: list[str] | None = None) -> int:
    """Serve requests until stdin closes; the optional argument is the memory cap in MB."""
    arguments = sys.argv[1:] if argv is None else argv
    memory_mb = int(arguments[0]) if arguments else DEFAULT_MEMORY_MB
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_if_orphaned(os.getppid())
    channel = _claim_stdout()
    limit_memory(memory_mb)
    _warm_up()
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


def handle_request(line: bytes) -> Message:
    """Answer one request line with a verdict message (never raises for bad input)."""
    try:
        request = decode(line)
        operation = _OPERATIONS[str(request["op"])](request_unit(request))
        text, gold = str(request["text"]), str(request["gold"])
    except (ValueError, KeyError, TypeError):
        return {"id": None, "error": "malformed request"}
    return verdict_to_message(_run_safely(operation, text, gold), request.get("id"))


def _run_safely(operation: _Operation, text: str, gold: str) -> Verdict:
    """Run one grading operation, turning resource exhaustion and bugs into rejections."""
    try:
        return operation(text, gold)
    except MemoryError:
        reason = TOO_BIG
    except RecursionError:
        reason = "That is nested too deeply for me to read; simplify it a little."
    except Exception:  # a bug must cost one answer, never the worker
        traceback.print_exc(file=sys.stderr)
        reason = "Something went wrong checking that answer; please try writing it another way."
    return Verdict(Outcome.REJECTED, preview(text), preview(gold), reason)


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


if __name__ == "__main__":
    sys.exit(main())
