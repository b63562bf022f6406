"""Discord adapter: slash commands and buttons in, lesson messages out."""

from bot.discord_adapter.client import BotOptions, LessonBot, build_bot
from bot.discord_adapter.run import run_discord

__all__ = ["BotOptions", "LessonBot", "build_bot", "run_discord"]
