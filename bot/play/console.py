"""Terminal input and output that also works with piped stdin.

Every prompt says what it takes and what Enter does. Input a prompt cannot use is answered and
asked again, up to `MAX_UNUSABLE` times; then the prompt goes on as if Enter was pressed, so
endless piped input (`yes 1 | make play`) cannot hold the lesson at one prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Callable, Mapping
from typing import TextIO

from bot.i18n import N_, _
from bot.play.markup import ansi, plain

QUIT_WORDS = {"q", "quit", "stop", "exit"}
MAX_UNUSABLE = 3
SKIPPED = N_("Skipped after {count} answers that could not be used.")
GOING_ON = N_("Going on.")


class QuitLesson(Exception):
    """The local player asked to stop the lesson."""


class Console:
    """Prompts on a text stream; at end of input every prompt answers as a bare Enter.

    Light Markdown in shown text is drawn with ANSI styles on a terminal, stripped otherwise.
    """

    def __init__(
        self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, styled: bool | None = None
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.styled = stdout.isatty() if styled is None else styled
        self.ended = False

    def show(self, text: str = "") -> None:
        """Print a block of text."""
        self.stdout.write(self.markup(text) + "\n")
        self.stdout.flush()

    def markup(self, text: str) -> str:
        """Text with its Markdown drawn for this output."""
        return ansi(text) if self.styled else plain(text)

    async def ask(self, prompt: str) -> str:
        """Ask for a line; '' at end of input; raise `QuitLesson` on q/quit."""
        self.stdout.write(self.markup(prompt))
        self.stdout.flush()
        line = "" if self.ended else await self.read_line()
        if not line:
            self.ended = True
            self.stdout.write("\n")
        elif not self.stdin.isatty():
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        answer = line.strip()
        if answer.lower() in QUIT_WORDS:
            raise QuitLesson()
        return answer

    async def read_line(self) -> str:
        """The next line of input, read in a daemon thread: a stopping bot never waits for it."""
        loop = asyncio.get_running_loop()
        line: asyncio.Future[str] = loop.create_future()

        def read() -> None:
            try:
                text = self.stdin.readline()
            except (OSError, ValueError):
                text = ""  # input closed under us: the same as its end
            with contextlib.suppress(RuntimeError):  # the loop closed while we waited
                loop.call_soon_threadsafe(_settle, line, text)

        threading.Thread(target=read, name="play-input", daemon=True).start()
        return await line

    async def ask_number(self, question: str, count: int) -> int | None:
        """Ask for a number from 1 to `count`; None for a skip."""
        hint = _("Type a number from 1 to {count}, or press Enter to skip.", count=count)
        answer = await self._ask_until_usable(
            _("{question} [1-{count}, Enter to skip]: ", question=question, count=count),
            lambda text: text.isdigit() and 1 <= int(text) <= count,
            hint,
        )
        return int(answer) if answer else None

    async def ask_choice(self, question: str, options: Mapping[str, str]) -> str:
        """Ask for one of `options` (a letter and its word, e.g. u: up); '' for a skip."""
        letters = "/".join(options)
        named = _(" or ").join(f"{letter} ({word})" for letter, word in options.items())
        answer = await self._ask_until_usable(
            _("{question} [{letters}, Enter to skip] ", question=question, letters=letters),
            lambda text: _option_of(text, options) is not None,
            _("Type {options}, or press Enter to skip.", options=named),
        )
        return _option_of(answer, options) or ""

    async def ask_enter(self, prompt: str, more: bool = False) -> bool:
        """Wait for Enter; True if the player asked for more (m), when `more` is offered."""
        hint = _("Press Enter to go on, m for more, or q to stop.") if more else _(
            "Press Enter to go on, or type q to stop."
        )
        wants_more = (lambda text: text.lower() in ("m", "more")) if more else (lambda text: False)
        return bool(await self._ask_until_usable(prompt, wants_more, hint, _(GOING_ON)))

    async def _ask_until_usable(
        self, prompt: str, usable: Callable[[str], bool], hint: str, give_up: str | None = None
    ) -> str:
        """Ask until the answer is usable or empty; '' once `MAX_UNUSABLE` answers were not."""
        for _tried in range(MAX_UNUSABLE):
            answer = await self.ask(prompt)
            if not answer or usable(answer):
                return answer
            self.show(_("{answer} is not an answer here. {hint}", answer=repr(answer), hint=hint))
        self.show(give_up or skipped())
        return ""


def skipped() -> str:
    """What a prompt says when it gives up on input it could not use."""
    return _(SKIPPED, count=MAX_UNUSABLE)


def _settle(line: asyncio.Future[str], text: str) -> None:
    """Hand a line read to the prompt waiting for it, unless it stopped waiting."""
    if not line.done():
        line.set_result(text)


def _option_of(text: str, options: Mapping[str, str]) -> str | None:
    """The option letter `text` names (the letter or its word, any case)."""
    typed = text.lower()
    return next((key for key, word in options.items() if typed in (key, word)), None)
