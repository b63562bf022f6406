"""The Slack secrets each mode needs, read from settings with errors naming the variable."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.settings import Settings, require_secret

BOT_TOKEN_PURPOSE = "The Slack bot needs its bot token (xoxb-...) to call the Web API."
APP_TOKEN_PURPOSE = "Socket Mode needs an app-level token (xapp-...) with connections:write."
SIGNING_PURPOSE = "HTTP mode needs the app's signing secret to verify requests from Slack."


@dataclass(frozen=True)
class SlackCredentials:
    """The secrets a Slack process runs with; `repr` never shows them."""

    bot_token: str = field(repr=False)
    app_token: str = field(default="", repr=False)
    signing_secret: str = field(default="", repr=False)

    def secrets(self) -> list[str]:
        """Every secret value that is set, for log redaction."""
        return [value for value in (self.bot_token, self.app_token, self.signing_secret) if value]


def socket_mode_credentials(settings: Settings) -> SlackCredentials:
    """SLACK_BOT_TOKEN and SLACK_APP_TOKEN, or `MissingSetting` naming the one missing."""
    return SlackCredentials(
        bot_token=require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", BOT_TOKEN_PURPOSE),
        app_token=require_secret(settings.slack_app_token, "SLACK_APP_TOKEN", APP_TOKEN_PURPOSE),
    )


def http_credentials(settings: Settings) -> SlackCredentials:
    """SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET, or `MissingSetting` naming the one missing."""
    return SlackCredentials(
        bot_token=require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", BOT_TOKEN_PURPOSE),
        signing_secret=require_secret(
            settings.slack_signing_secret, "SLACK_SIGNING_SECRET", SIGNING_PURPOSE
        ),
    )
