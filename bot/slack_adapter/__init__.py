"""The Slack adapter: the shared service's surface on Slack, and bolt's listeners around it."""

from bot.slack_adapter.app import SlackBot, build_app, build_slack_bot

__all__ = ["SlackBot", "build_app", "build_slack_bot"]
