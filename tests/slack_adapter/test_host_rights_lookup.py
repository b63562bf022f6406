"""Looked-up host rights: listed hosts, a short memory, and a look-up that fails answered."""

from __future__ import annotations

import pytest

from bot.model import Place
from bot.slack_adapter.host_rights import HOST_RIGHTS_SECONDS, HostRights, RightsUnknown

PLACE = Place("slack", "T1", "C1")


class Clock:
    """A monotonic clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Platform:
    """Who the platform says is a host, and every question it was asked."""

    def __init__(self, hosts: set[str]) -> None:
        self.hosts = hosts
        self.down = False
        self.asked: list[tuple[str, str]] = []

    async def lookup(self, user_id: str, workspace: str) -> bool | None:
        self.asked.append((user_id, workspace))
        return None if self.down else user_id in self.hosts


async def test_a_demotion_counts_once_the_remembered_answer_is_older_than_its_bound() -> None:
    platform, clock = Platform({"U1"}), Clock()
    rights = HostRights(platform.lookup, clock=clock)
    actor = rights.actor("U1", "ann", PLACE)
    assert await actor.rights()
    platform.hosts.clear()
    clock.now += HOST_RIGHTS_SECONDS - 1
    assert await actor.rights()  # still remembered
    clock.now += 1
    assert not await actor.rights()
    assert platform.asked == [("U1", "T1"), ("U1", "T1")]
    assert HOST_RIGHTS_SECONDS < 60


async def test_rights_are_asked_per_workspace_and_listed_hosts_are_never_asked() -> None:
    platform = Platform({"U1"})
    rights = HostRights(platform.lookup, listed={"ULISTED"})
    assert await rights.is_host("ULISTED", "T1")
    assert await rights.is_host("U1", "T1") and await rights.is_host("U1", "T2")
    assert platform.asked == [("U1", "T1"), ("U1", "T2")]


async def test_a_failed_look_up_is_an_error_the_member_is_told_and_is_not_remembered() -> None:
    platform = Platform({"U1"})
    rights = HostRights(platform.lookup)
    platform.down = True
    with pytest.raises(RightsUnknown, match="Could not check your host rights"):
        await rights.is_host("U1", "T1")
    platform.down = False
    assert await rights.is_host("U1", "T1")
