"""Logging that never shows a secret: known secret values and token shapes are redacted."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

TOKEN_SHAPES = re.compile(r"\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]+|https://hooks\.slack\.com/[^\s,'\"]+")
"""Slack's bot, user, refresh and app-level tokens, and response_urls, whatever their value."""
REDACTED = "[redacted]"
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


def configure_logging(level: str, secrets: Iterable[str]) -> RedactSecrets:
    """Log to stderr at `level`, every handler scrubbing secrets."""
    logging.basicConfig(level=level.upper(), format=LOG_FORMAT)
    redaction = RedactSecrets(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redaction)
    return redaction
