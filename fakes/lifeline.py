"""Bot processes started by tests end with the process that started them, however it ends.

A bot process left running by a killed test run would keep firing timers on the shared test
database. So each is started as `python -m fakes.lifeline FD MODULE ARGS...`: FD is the read
end of a pipe whose write end only the starting process holds, open for as long as it lives.
When that process ends, even by SIGKILL, the read end sees end of file and the bot process is
killed at once; its checker workers end on their own once their parent is gone.
"""

from __future__ import annotations

import functools
import os
import runpy
import signal
import sys
import threading


@functools.cache
def _read_end() -> int:
    read_end, _write_end = os.pipe()  # the write end stays open until this process ends
    return read_end


def tied_to_this_process(module: str, *arguments: str) -> tuple[list[str], tuple[int, ...]]:
    """A command running `python -m module arguments` till this process ends; its `pass_fds`."""
    read_end = _read_end()
    command = [sys.executable, "-m", "fakes.lifeline", str(read_end), module, *arguments]
    return command, (read_end,)


def end_with_parent(read_end: int) -> None:
    """Kill this process (in a daemon thread's watch) once no one holds the pipe's write end."""

    def watch() -> None:
        while os.read(read_end, 1):
            pass
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


def main(argv: list[str]) -> None:
    """Watch the pipe, then run the module as `python -m` would, with its arguments."""
    read_end, module, *arguments = argv
    end_with_parent(int(read_end))
    sys.argv = [module, *arguments]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
