"""What the checker tells a member about their answer, in the member's language.

The worker process reads answers and writes its reasons in English, but a reason is a `Said`:
the English text, and the catalog message and values it was filled from. The reply carries
both, and the bot's process says the message again in the member's language (`said_in`),
filling its values as plain text: nothing of the answer is ever evaluated here. A reason
that is a catalog message with no values is said again by itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, _, fill, ngettext

Wire = dict[str, object]
"""A `Said` as the worker's JSON reply carries it: its message and its values."""
MAX_DEPTH = 3
"""How deeply reasons inside reasons are said again; deeper ones stay as the worker wrote them."""


class Said(str):
    """An English sentence for a member, with the catalog message and values it was filled from.

    A value may itself be a `Said` (a reason inside a reason).
    """

    message: str
    values: dict[str, str]
    plural: str | None = None
    number: int | None = None
    """The count a plural message's form is chosen by."""

    def __new__(cls, message: str, /, **values: object) -> Said:
        """`message` (marked with `N_`) with its `{name}` placeholders filled from `values`."""
        text = {name: value if isinstance(value, str) else str(value)
                for name, value in values.items()}
        said = super().__new__(cls, fill(message, text) if text else message)
        said.message = message
        said.values = text
        return said

    @classmethod
    def ngettext(cls, singular: str, plural: str, count: int, /, **values: object) -> Said:
        """The singular or plural form for `count`, `{count}` filled, said again by count."""
        said = cls(singular if count == 1 else plural, **{"count": count, **values})
        said.message, said.plural, said.number = singular, plural, count
        return said

    def wire(self) -> Wire:
        """The text, message and values, for the worker's reply."""
        values = {name: value.wire() if isinstance(value, Said) else value
                  for name, value in self.values.items()}
        wire: Wire = {"text": str(self), "message": self.message, "values": values}
        if self.plural is not None:
            wire |= {"plural": self.plural, "count": self.number}
        return wire


def said_in(reason: str, wire: object = None, depth: int = 0) -> str:
    """A reason in the current language: its message filled again, else the reason itself.

    `wire` is what the worker sent of it (a `Said.wire()`); anything malformed leaves the
    reason as the worker wrote it. Only bare `{name}` placeholders are filled, with text.
    """
    if not isinstance(wire, Mapping):
        return _(reason) if reason else reason
    message, values = wire.get("message"), wire.get("values")
    if not isinstance(message, str) or not isinstance(values, Mapping) or depth > MAX_DEPTH:
        return reason
    filled: dict[str, str] = {}
    for name, value in values.items():
        if isinstance(value, Mapping):
            text = value.get("text")
            filled[str(name)] = said_in(text if isinstance(text, str) else "", value, depth + 1)
        elif isinstance(value, str):
            filled[str(name)] = value
        else:
            return reason
    plural, count = wire.get("plural"), wire.get("count")
    try:
        if isinstance(plural, str) and isinstance(count, int):
            return ngettext(message, plural, count, **filled)
        return _(message, **filled) if filled else _(message)
    except (KeyError, IndexError, ValueError):
        return reason


def either(options: list[str]) -> str:
    """Two readings a member may have meant, as 'a or b' (more are joined the same way)."""
    if len(options) == 2:
        return Said(N_("{first} or {second}"), first=options[0], second=options[1])
    return " or ".join(options)
