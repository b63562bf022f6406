"""Slack host rights: an admin or owner of the request's own team, asked again within a minute."""

from __future__ import annotations

import pytest

from bot.engine import LessonEngine
from bot.model import NoActiveRun, Place
from bot.slack_adapter import SlackBot
from fakes.fake_slack import DROP, TEAM_ID
from fakes.slack_driver import CHANNEL, HOST, TOTAL, SlackDriver
from tests.slack_adapter.test_host_rights_lookup import Clock

PLACE = Place("slack", TEAM_ID, CHANNEL)
GUEST_ADMIN = "UGUESTADMIN"
CANNOT_CHECK = "Could not check your host rights just now, so nothing was done."


@pytest.mark.parametrize(
    "failure",
    [{"status": DROP}, {"status": 200, "error": "fatal_error"}],
    ids=["network error", "Slack error"],
)
async def test_a_host_whose_rights_slack_cannot_tell_is_told_privately(
    slack: SlackDriver, engine: LessonEngine, failure: dict[str, object]
) -> None:
    slack.fake.fail_next("users.info", times=100, **failure)  # type: ignore[arg-type]
    assert await slack.command("start") == 200
    await slack.wait_ephemeral(HOST, CANNOT_CHECK)
    with pytest.raises(NoActiveRun):
        await engine.run_in(PLACE)
    slack.fake.fail_next("users.info", times=0)
    await slack.start()  # the failure was not remembered


async def test_another_organisations_admin_is_no_host(
    slack: SlackDriver, engine: LessonEngine
) -> None:
    slack.fake.admins.add(GUEST_ADMIN)
    slack.fake.home_teams[GUEST_ADMIN] = "T0OTHER"
    assert await slack.command("start", GUEST_ADMIN) == 200
    await slack.wait_ephemeral(GUEST_ADMIN, "Only a lesson host can start a lesson.")
    with pytest.raises(NoActiveRun):
        await engine.run_in(PLACE)


async def test_a_demoted_admin_loses_host_rights_within_a_minute(
    slack: SlackDriver, slack_bot: SlackBot, engine: LessonEngine
) -> None:
    clock = Clock()
    slack_bot.requests.hosts.clock = clock
    await slack.start()
    slack.fake.admins.discard(HOST)
    clock.now += 60
    assert await slack.command("next") == 200
    await slack.wait_ephemeral(HOST, "Only a lesson host can move the lesson on.")
    run = await engine.run_in(PLACE)
    assert run.step_index == 0
    assert not slack.posts_in(CHANNEL, f"Step 2/{TOTAL}")
