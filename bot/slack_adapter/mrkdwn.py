"""Light Markdown (`**bold**`, `*italic*`, `[text](url)`) turned into Slack mrkdwn."""

from __future__ import annotations

import re

_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![*\w])")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)
_PLAIN_MARKUP = re.compile(r"\*\*|(?<![*\w])\*(?=\S)|(?<=\S)\*(?![*\w])|`")
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
_BOLD_MARK = "\x00"


def escape(text: str) -> str:
    """Escape the three characters Slack treats as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(text: str) -> str:
    """Convert CommonMark-style light markup to Slack mrkdwn; code is escaped but kept as is."""
    parts = _CODE.split(escape(text))
    return "".join(part if index % 2 else _convert(part) for index, part in enumerate(parts))


def _convert(text: str) -> str:
    converted = _LINK.sub(lambda m: f"<{m[2]}|{m[1]}>", text)
    converted = _HEADING.sub(lambda m: f"{_BOLD_MARK}{m[1]}{_BOLD_MARK}", converted)
    converted = _BOLD.sub(lambda m: f"{_BOLD_MARK}{m[1]}{_BOLD_MARK}", converted)
    converted = _ITALIC.sub(lambda m: f"_{m[1]}_", converted)
    return converted.replace(_BOLD_MARK, "*")


def to_plain(text: str) -> str:
    """Strip light markup for plain_text fields (headers, button labels, fallbacks)."""
    return _PLAIN_MARKUP.sub("", text)
