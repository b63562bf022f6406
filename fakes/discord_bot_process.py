"""`python -m fakes.discord_bot_process API_URL GATEWAY_URL`: the real Discord bot, at a fake.

The same as `python -m bot discord`, with discord.py's REST base and gateway pointed at a fake
Discord first, as the in-process fixture does (`FakeDiscord.patched`).
"""

from __future__ import annotations

import sys

from bot.discord_adapter.run import run_discord_command
from bot.settings import Settings
from fakes.fake_discord import discord_pointed_at


def main(argv: list[str]) -> int:
    """Run the bot from the environment's settings, talking to the fake at the given URLs."""
    api_url, gateway_url = argv
    with discord_pointed_at(api_url, gateway_url):
        return run_discord_command(Settings())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
