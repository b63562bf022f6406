"""The suite's order: tests marked `slow` are spread through the run, every test kept once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import pytest

from tests.conftest import pytest_collection_modifyitems


@dataclass(frozen=True)
class Item:
    """A collected test, as far as the ordering reads one."""

    name: str
    slow: bool = False

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "slow" and self.slow else None


def ordered(items: list[Item]) -> list[Item]:
    """The items in the order the suite runs them."""
    collected = cast(list[Any], list(items))
    pytest_collection_modifyitems(cast(list[pytest.Item], collected))
    return cast(list[Item], collected)


def test_slow_tests_are_spread_evenly_and_the_others_keep_their_order() -> None:
    items = [Item(f"slow{n}", slow=True) for n in range(4)] + [Item(f"t{n}") for n in range(16)]
    run = ordered(items)
    assert sorted(run, key=items.index) == items
    assert [item.name for item in run if not item.slow] == [f"t{n}" for n in range(16)]
    assert [run.index(item) for item in items if item.slow] == [2, 7, 12, 17]


@pytest.mark.parametrize("slow", [0, 5])
def test_a_run_all_slow_or_with_none_keeps_its_order(slow: int) -> None:
    items = [Item(f"t{n}", slow=bool(slow)) for n in range(slow or 5)]
    assert ordered(items) == items
