"""Terminal input and output that also works with piped stdin."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

QUIT_WORDS = {"q", "quit", "stop", "exit"}


class QuitLesson(Exception):
    """The local player asked to stop the lesson."""


class Console:
    """Prompts on a text stream; at end of input every prompt answers as a bare Enter."""

    def __init__(self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.ended = False

    def show(self, text: str = "") -> None:
        """Print a block of text."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    async def ask(self, prompt: str) -> str:
        """Ask for a line; '' at end of input; raise `QuitLesson` on q/quit."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = "" if self.ended else await asyncio.to_thread(self.stdin.readline)
        if not line:
            self.ended = True
            self.stdout.write("\n")
        elif not self.stdin.isatty():
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        answer = line.strip()
        if answer.lower() in QUIT_WORDS:
            raise QuitLesson()
        return answer

    async def ask_number(self, prompt: str, count: int) -> int | None:
        """Ask for a number from 1 to `count`; None for a skip."""
        while True:
            answer = await self.ask(prompt)
            if not answer:
                return None
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer)
            self.show(f"Type a number from 1 to {count}, or press Enter to skip.")
