"""The lesson's light Markdown for a terminal: ANSI bold and italic, or plain text."""

from __future__ import annotations

import re

from bot.model import render_written

BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.DOTALL)
ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", re.DOTALL)
CODE = re.compile(r"`([^`\n]+)`")
ANSI_BOLD = ("\x1b[1m", "\x1b[22m")
ANSI_ITALIC = ("\x1b[3m", "\x1b[23m")


def plain(text: str) -> str:
    """Markdown markers stripped: `**bold**`, `*italic*` and `code` become their text."""
    return _apply(text, ("", ""), ("", ""))


def ansi(text: str) -> str:
    """Markdown drawn with ANSI styles: bold, italic; code ticks dropped."""
    return _apply(text, ANSI_BOLD, ANSI_ITALIC)


def _apply(text: str, bold: tuple[str, str], italic: tuple[str, str]) -> str:
    """The markup drawn; someone's text (`written`) left as typed."""
    return render_written(text, str, lambda markup: _styled(markup, bold, italic))


def _styled(text: str, bold: tuple[str, str], italic: tuple[str, str]) -> str:
    text = CODE.sub(r"\1", text)
    text = BOLD.sub(lambda match: bold[0] + match[1] + bold[1], text)
    return ITALIC.sub(lambda match: italic[0] + match[1] + italic[1], text)
