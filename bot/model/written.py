"""Someone's own words: kept as one visible line, and shown as typed wherever the bot shows them.

A member's reason is text the bot did not write. It is stored as one line of what can be seen
(`one_line`). Where the bot shows it inside its own lightly marked-up text (a host's list of
reasons), it goes between two marks (`written`); each platform's renderer then draws the
bot's markup as usual and each marked part with its own escaping (`render_written`), so
nothing in it reads as a format, a link, a mention, a channel or a time.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

OPEN, CLOSE = "\ue000", "\ue001"
"""Private-use characters around someone's text: never typed, since `one_line` drops them."""
UNSEEN = frozenset({"Cc", "Cf", "Co", "Cs"})
"""Unicode categories a reason never keeps: control and format characters (zero-width spaces,
direction overrides), private-use and lone surrogate code points."""
ESCAPED_AT_MOST = 5
"""The most characters a platform's escaping makes of one character (Slack's `&amp;`)."""

_MARKS = re.compile(f"[{OPEN}{CLOSE}]")
_PART = re.compile(f"{OPEN}([^{OPEN}{CLOSE}]*)(?:{CLOSE}|$)")
_HELD = re.compile(f"{OPEN}(\\d+){CLOSE}")


def one_line(text: str) -> str:
    """Text as one line of what can be seen: unseen characters dropped, spaces made single."""
    words = ("".join(c for c in word if unicodedata.category(c) not in UNSEEN) for word in
             text.split())
    return " ".join(word for word in words if word)


def word_count(text: str) -> int:
    """How many words of the text hold a letter or a digit (a lone mark is no word)."""
    return sum(any(char.isalnum() for char in word) for word in text.split())


def escaped_length(text: str) -> int:
    """At most how long text is once a platform escapes it (`ESCAPED_AT_MOST` a character).

    Letters, digits and spaces are never escaped.
    """
    return sum(1 if char.isalnum() or char.isspace() else ESCAPED_AT_MOST for char in text)


def written(text: str) -> str:
    """Someone's text, marked to be shown exactly as typed inside the bot's own text."""
    return f"{OPEN}{_MARKS.sub('', text)}{CLOSE}"


def unchanged(text: str) -> str:
    """The text itself: the markup of a renderer that draws none."""
    return text


def render_written(
    text: str, literal: Callable[[str], str], markup: Callable[[str], str] = unchanged
) -> str:
    """The bot's text drawn by `markup`, and each part someone wrote by `literal`.

    The written parts are held out while `markup` runs, so none of its rules reaches into
    them; a part whose end was cut off runs to the end of the text.
    """
    held: list[str] = []

    def hold(part: re.Match[str]) -> str:
        held.append(literal(part[1]))
        return f"{OPEN}{len(held) - 1}{CLOSE}"

    drawn = markup(_PART.sub(hold, text))
    return _HELD.sub(lambda index: held[int(index[1])], drawn)
