"""A message about to be sent or edited: content, embeds, buttons and an optional chart."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

CHART_FILENAME = "chart.png"
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass
class Outgoing:
    """Everything one Discord message shows; `attachments` are (filename, bytes) pairs."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    png: bytes | None = None
    attachments: list[tuple[str, bytes]] = field(default_factory=list)

    def files(self) -> list[discord.File]:
        """The chart and any other attachments, as files."""
        named = list(self.attachments)
        if self.png is not None:
            named.insert(0, (CHART_FILENAME, self.png))
        return [discord.File(io.BytesIO(data), filename=name) for name, data in named]

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `send` (channel or interaction), mentions always off."""
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": NO_MENTIONS}
        if self.embeds:
            kwargs["embeds"] = self.embeds
        if self.view is not None:
            kwargs["view"] = self.view
        files = self.files()
        if files:
            kwargs["files"] = files
        return kwargs
