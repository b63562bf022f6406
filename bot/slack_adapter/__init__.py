"""The Slack adapter: slack-bolt's AsyncApp and Block Kit around the lesson engine."""

from bot.slack_adapter.app import SlackBot, build_app, build_slack_bot

__all__ = ["SlackBot", "build_app", "build_slack_bot"]
