"""Each platform adapter stays a surface plus its wiring, small enough to read in a sitting."""

from __future__ import annotations

from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"
ADAPTERS = ("discord_adapter", "slack_adapter")
MAX_FILES = 12
MAX_LINES_TOGETHER = 3565
"""Platform code only: wiring, rendering, the library's log lines, reading a channel back,
looking up Slack's workspace admins as hosts, the Slack methods the bot calls with their
scopes, showing a member their own steps privately (Discord's one ephemeral message moved
forward in place, Slack's direct message) with a time in each reader's zone, posting in a
thread under a message, a member's reason drawn as written with its host's Hide (and the
number option of `/lesson hide`), a member's next turn at a step in their Slack direct
message, a step's one-field form drawn from the engine's, and each member answered in their
own language (Discord's commands translated from the catalogs for each client locale; Slack's
locale looked up once per member and remembered), the run's `language` option, the
gateway telling when the bot is behind its reads, commands named as each Discord client shows
them, a private reply too long for a message shown whole in an embed, and a Slack member's
locale looked up after a burst's acks, a few at a time."""


def adapter_files(name: str) -> list[Path]:
    """The Python modules of one adapter."""
    return sorted((BOT / name).glob("*.py"))


def test_each_adapter_has_at_most_twelve_modules() -> None:
    sizes = {name: len(adapter_files(name)) for name in ADAPTERS}
    assert all(0 < size <= MAX_FILES for size in sizes.values()), sizes


def test_the_two_adapters_together_stay_within_their_line_budget() -> None:
    lines = sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for name in ADAPTERS
        for path in adapter_files(name)
    )
    assert lines <= MAX_LINES_TOGETHER, lines
