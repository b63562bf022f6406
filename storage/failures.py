"""Database failures turned into the engine's `StoreUnavailable`, logged once per outage."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError, TimeoutError

from bot.model.errors import StoreUnavailable

log = logging.getLogger("storage")
P = ParamSpec("P")
R = TypeVar("R")
UNREACHABLE = (OperationalError, InterfaceError, TimeoutError, OSError, ConnectionError)


class OutageLog:
    """Logs the first failure of an outage and the recovery, not every failed call."""

    def __init__(self) -> None:
        self.failing = False

    def failed(self, error: BaseException) -> None:
        """Note a failure; log it only if the database was fine until now."""
        if not self.failing:
            log.error("database unavailable: %s", type(error).__name__)
        self.failing = True

    def succeeded(self) -> None:
        """Note a success; log the recovery after an outage."""
        if self.failing:
            log.warning("database reachable again")
        self.failing = False


OUTAGES = OutageLog()


def translate_failures(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Wrap a store method so an unreachable or locked database raises `StoreUnavailable`."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            result = await method(*args, **kwargs)
        except IntegrityError:
            raise
        except UNREACHABLE as error:
            OUTAGES.failed(error)
            raise StoreUnavailable() from error
        OUTAGES.succeeded()
        return result

    return wrapper


def guard_public_methods(cls: type[Any]) -> type[Any]:
    """Apply `translate_failures` to every public coroutine method of a store class."""
    for name in dir(cls):
        attribute = getattr(cls, name)
        if not name.startswith("_") and callable(attribute) and _is_coroutine(attribute):
            setattr(cls, name, translate_failures(attribute))
    return cls


def _is_coroutine(function: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(function)
