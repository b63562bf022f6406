"""Button addresses: read back exactly, and forged ones refused."""

from __future__ import annotations

import pytest

from bot.engine import Action, Address, parse_address
from bot.model import BadAddress


@pytest.mark.parametrize(
    "address",
    [
        Address(1, "what-changed", Action.CHOOSE, "checkable-reward"),
        Address(987654321012, "a" * 24, Action.CHECK, "b" * 24),
        Address(42, "intro", Action.NEXT),
    ],
)
def test_addresses_round_trip_within_discords_limit(address: Address) -> None:
    encoded = address.encode()
    assert len(encoded) <= 100
    assert parse_address(encoded) == address


@pytest.mark.parametrize(
    "text",
    [
        "",
        "rl:",
        "rl:0:intro:next",
        "rl:-1:intro:next",
        "rl:1:intro:explode",
        "rl:1:intro:choose",
        "rl:1:intro:next:extra",
        "rl:1:INTRO:next",
        "rl:1:intro:choose:a:b",
        "xx:1:intro:next",
        "rl:1:intro:next\n",
        "rl:" + "9" * 200 + ":intro:next",
        "rl:1:intro:choose:" + "a" * 30,
    ],
)
def test_forged_addresses_are_refused(text: str) -> None:
    with pytest.raises(BadAddress):
        parse_address(text)
