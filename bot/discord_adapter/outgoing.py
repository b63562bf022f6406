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
    """Everything one Discord message shows."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    png: bytes | None = None

    def files(self) -> list[discord.File]:
        """The chart as an attachment, if there is one."""
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=CHART_FILENAME)]

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
