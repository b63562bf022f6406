"""Members see the bot in their own Slack language: users.info's locale, asked once a while."""

from __future__ import annotations

import asyncio

from bot.service.member_locales import LOCALE_SECONDS, MemberLocales
from bot.slack_adapter import SlackBot
from fakes.fake_slack import block_texts
from fakes.slack_driver import ALICE, BOB, CHANNEL, HOST, SlackDriver, step_number
from tests.slack_adapter.test_host_rights_lookup import Clock

IN_YOUR_DMS = "Your lesson is in your direct messages"
EN_TU_MD = "Tu lección está en tus mensajes directos"


class HeldLookup:
    """A users.info look-up that answers "es-ES" once `answer` is set; who was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.answer = asyncio.Event()

    async def __call__(self, user_id: str) -> str | None:
        self.asked.append(user_id)
        await self.answer.wait()
        return "es-ES"


async def start_assignment(slack: SlackDriver, member: str) -> str:
    """The host assigns the lesson; `member` presses Start. The action_id of Start."""
    if not slack.posts_in(CHANNEL, "Assignment"):
        assert await slack.command("assign due:3d") == 200
    card = await slack.wait_post("Assignment", channel=CHANNEL)
    start = slack.button(card, "Start")
    assert await slack.click(start, member, card) == 200
    return start


async def test_each_member_is_told_privately_in_their_slack_language(slack: SlackDriver) -> None:
    slack.fake.locales[ALICE] = "es-ES"
    await start_assignment(slack, ALICE)
    await start_assignment(slack, BOB)

    await slack.wait_ephemeral(ALICE, EN_TU_MD)
    await slack.wait_ephemeral(BOB, IN_YOUR_DMS)
    await slack.fake.wait_for(lambda _: slack.fake.direct_messages(BOB))
    (for_alice,) = slack.fake.direct_messages(ALICE)
    (for_bob,) = slack.fake.direct_messages(BOB)
    assert "A tu ritmo, solo tú lo ves · paso 1 de" in block_texts(for_alice.args["blocks"])
    assert "Your own pace, only you see this · step 1 of" in block_texts(for_bob.args["blocks"])
    assert slack.ephemerals(ALICE, IN_YOUR_DMS) == slack.ephemerals(BOB, EN_TU_MD) == []


async def test_an_answer_form_opens_in_the_member_s_language(slack: SlackDriver) -> None:
    slack.fake.locales[ALICE] = "es-419"
    await slack.start()
    card = await slack.go_to_step(step_number("your-turn"))
    view = await slack.open_answer_form(card, ALICE)
    assert view["close"]["text"] == "Cancelar"


async def test_a_member_s_locale_is_asked_once_while_it_stands(
    slack: SlackDriver, slack_bot: SlackBot
) -> None:
    clock = Clock()
    slack_bot.requests.locales.clock = clock
    slack.fake.locales[ALICE] = "es-ES"
    start = await start_assignment(slack, ALICE)
    await slack.wait_ephemeral(ALICE, EN_TU_MD)
    card = slack.posts_in(CHANNEL, "Assignment")[0]
    assert await slack.click(start, ALICE, card) == 200
    await slack.fake.wait_for(lambda _: len(slack.ephemerals(ALICE)) == 2)
    assert slack.fake.user_lookups(locale=True).count(ALICE) == 1

    clock.now += LOCALE_SECONDS
    slack.fake.locales[ALICE] = "en-GB"  # she changed her Slack language
    assert await slack.click(start, ALICE, card) == 200
    await slack.wait_ephemeral(ALICE, IN_YOUR_DMS)
    assert slack.fake.user_lookups(locale=True).count(ALICE) == 2


async def test_when_slack_cannot_say_the_member_is_answered_in_english(
    slack: SlackDriver,
) -> None:
    slack.fake.locales[ALICE] = "es-ES"
    assert await slack.command("assign due:3d") == 200
    await slack.wait_post("Assignment", channel=CHANNEL)
    slack.fake.fail_next("users.info", times=100, status=200, error="fatal_error")
    start = await start_assignment(slack, ALICE)
    await slack.wait_ephemeral(ALICE, IN_YOUR_DMS)

    slack.fake.fail_next("users.info", times=0)
    card = slack.posts_in(CHANNEL, "Assignment")[0]
    assert await slack.click(start, ALICE, card) == 200  # the failure was not remembered
    await slack.wait_ephemeral(ALICE, EN_TU_MD)


async def test_requests_arriving_together_share_one_look_up() -> None:
    lookup = HeldLookup()
    locales = MemberLocales(lookup)
    waiting = [asyncio.ensure_future(locales.locale(ALICE)) for _ in range(3)]
    await asyncio.sleep(0)
    lookup.answer.set()
    assert await asyncio.gather(*waiting) == ["es-ES"] * 3
    assert lookup.asked == [ALICE]


async def test_a_slow_look_up_is_not_waited_for_but_counts_once_it_arrives() -> None:
    answer = asyncio.Event()

    async def lookup(user_id: str) -> str | None:
        await answer.wait()
        return "es-ES"

    locales = MemberLocales(lookup, patience=0.01)
    assert await locales.locale(ALICE) == ""  # English meanwhile
    answer.set()
    await asyncio.sleep(0)
    assert await locales.locale(ALICE) == "es-ES"


async def test_the_remembered_locales_are_bounded() -> None:
    async def lookup(user_id: str) -> str | None:
        return "es-ES"

    locales = MemberLocales(lookup, size=2)
    for user in ("U1", "U2", "U3"):
        await locales.locale(user)
    assert locales.remembered() == 2


async def test_spanish_replies_name_the_commands_slack_knows(slack: SlackDriver) -> None:
    slack.fake.locales[HOST] = "es-ES"
    await slack.start()
    assert await slack.command("start") == 200
    told = await slack.wait_ephemeral(HOST, "Ya hay una lección en directo en este canal")
    assert "Detenla con `/lesson stop` antes de empezar otra." in told.args["text"]


async def test_a_burst_of_new_members_is_not_held_up_by_look_ups() -> None:
    lookup = HeldLookup()
    locales = MemberLocales(lookup, patience=60.0, most=2)
    waiting = [asyncio.ensure_future(locales.locale(user)) for user in ("U1", "U2")]
    await asyncio.sleep(0)
    assert await locales.locale("U3") == ""  # two in flight already: English, at once
    lookup.answer.set()
    assert await asyncio.gather(*waiting) == ["es-ES", "es-ES"]
    assert await locales.locale("U3") == "es-ES"  # looked up on a later request
    assert lookup.asked == ["U1", "U2", "U3"]


async def test_under_a_burst_a_new_member_is_looked_up_only_afterwards() -> None:
    asked: list[str] = []

    async def lookup(user_id: str) -> str | None:
        asked.append(user_id)
        return "es-ES"

    locales = MemberLocales(lookup, most=2)
    assert await locales.locale(ALICE, wait=False) == ""  # the burst's ack waits for nothing
    assert asked == []
    await asyncio.gather(*(locales.learn(user) for user in (ALICE, BOB, "U3", ALICE)))
    assert sorted(asked) == sorted([ALICE, BOB, "U3"])  # once each, two at a time at most
    assert await locales.locale(ALICE, wait=False) == "es-ES"
