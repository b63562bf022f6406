"""Where a click's time goes: statements per operation, and time per store method."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine


@dataclass
class Traffic:
    """What went to the database while a block ran."""

    statements: list[str] = field(default_factory=list)
    checkouts: int = 0


@contextmanager
def counting_traffic(database: AsyncEngine) -> Iterator[Traffic]:
    """Count the statements sent and the pool connections checked out while the block runs."""
    traffic = Traffic()

    def statement(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        traffic.statements.append(sql)

    def checkout(*_args: Any) -> None:
        traffic.checkouts += 1

    event.listen(database.sync_engine, "before_cursor_execute", statement)
    event.listen(database.sync_engine.pool, "checkout", checkout)
    try:
        yield traffic
    finally:
        event.remove(database.sync_engine, "before_cursor_execute", statement)
        event.remove(database.sync_engine.pool, "checkout", checkout)


class TimedStore:
    """A store wrapper that adds up the wall time spent in each of its coroutine methods."""

    def __init__(self, store: object) -> None:
        self._store = store
        self.totals: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def __getattr__(self, name: str) -> Any:
        """The store's attribute, timed when it is a coroutine method."""
        attribute = getattr(self._store, name)
        if not callable(attribute) or name.startswith("_"):
            return attribute
        return self._timed(name, attribute)

    def _timed(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.totals[name] += (time.perf_counter() - started) * 1000
                self.calls[name] += 1

        return timed

    def per_operation(self, operations: int) -> dict[str, float]:
        """Milliseconds per operation spent in each store method."""
        return {name: total / operations for name, total in sorted(self.totals.items())}
