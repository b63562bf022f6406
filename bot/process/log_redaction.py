"""Logging that never shows a secret: known secret values and token shapes are redacted."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

REDACTED = "[redacted]"
TOKEN_SHAPES = re.compile(
    r"\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]+|https://hooks\.slack\.com/[^\s,'\"]+"
    r"|\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}"
)
"""Slack's bot, user, refresh and app-level tokens and response_urls, and Discord bot tokens."""
TOKEN_PARTS = (
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s'\"?]+"), rf"\1{REDACTED}"),
    (re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""), rf"\1{REDACTED}"),
)
"""Discord's interaction tokens: in webhook and interaction callback URLs (the path before
them stays readable), and in the gateway events that carry them."""
LIBRARY_LOGGERS = ("discord", "slack_bolt", "slack_sdk", "aiohttp", "sqlalchemy", "asyncio")
"""Libraries whose DEBUG lines hold whole events and requests: members' answers and names."""
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_TRACEBACKS = logging.Formatter()


class RedactSecrets(logging.Filter):
    """Replaces token shapes and the process's known secrets in log records."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        """The text with every secret replaced."""
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for shape, replacement in TOKEN_PARTS:
            text = shape.sub(replacement, text)
        return TOKEN_SHAPES.sub(REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message (arguments merged in) without secrets."""
        message = record.getMessage()
        clean = self.redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self.redact(_TRACEBACKS.formatException(record.exc_info))
        return True


def configure_logging(
    level: str, secrets: Iterable[str], library_debug: bool = False
) -> RedactSecrets:
    """Log to stderr at `level`, every handler scrubbing secrets; libraries at DEBUG if asked.

    Otherwise a library logs at INFO at most, or less if it chose less (SQLAlchemy: WARNING).
    """
    chosen = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    logging.basicConfig(level=chosen, format=LOG_FORMAT)
    logging.getLogger().setLevel(chosen)
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        library.setLevel(chosen if library_debug else max(library.level, chosen, logging.INFO))
    redaction = RedactSecrets(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redaction)
    return redaction
