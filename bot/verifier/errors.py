"""The two ways the checker signals trouble: unreadable input and a broken checker."""

from __future__ import annotations


class ReadError(ValueError):
    """Raised when a piece of text cannot be read as one answer; the message is user-facing."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CheckerError(RuntimeError):
    """Raised when the checker itself cannot work, such as a worker that will not start."""
