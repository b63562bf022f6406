"""The Web API: the service's surface on Slack, and every private reply to a member.

A failed call is logged and swallowed: what the engine stored stands. The client retries
rate limits, server errors and lost connections, over one keep-alive session per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.engine import OwnStep
from bot.i18n import N_, _
from bot.model import SLACK_ALT_TEXT_LIMIT, Place, RevealCard, StepCard, clip
from bot.service import (
    Card,
    DrawnChart,
    Effect,
    FileReply,
    PlatformUnavailable,
    Presenter,
    Redrawn,
    Renderer,
    effects,
    render,
)
from bot.slack_adapter.blocks import (
    MAX_FALLBACK_TEXT,
    Block,
    card_message,
    own_step_message,
    results_messages,
    to_mrkdwn,
    to_plain,
)
from bot.slack_adapter.forms import answer_view
from bot.slack_adapter.members import SlackRequest

log = logging.getLogger(__name__)

RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
CONNECTION_ERROR_RETRIES = 2
DEFAULT_API_URL = "https://slack.com/api/"
API_ERRORS = (SlackClientError, aiohttp.ClientError, asyncio.TimeoutError)
HOST_FLAGS = ("is_admin", "is_owner", "is_primary_owner")
UNAVAILABLE_ERRORS = {"ratelimited", "service_unavailable", "fatal_error", "internal_error",
                      "request_timeout"}
"""Web API errors that say Slack could not do it now, rather than that it will not."""
SENT_PRIVATELY = N_(
    "Your lesson is in your direct messages with me (under Apps). Only you see your answers "
    "there; the channel sees how many started and finished."
)
CANNOT_MESSAGE = N_(
    "I could not send you a direct message, so I cannot show you the lesson. "
    "Check that you allow direct messages from apps, then press Start again."
)
NO_ANSWER = N_(
    "Slack did not answer, so your step did not reach your direct messages. Try again in a "
    "moment: press Start on the assignment's card, or type `{command:continue}` in its channel."
)
CHANNEL_LINK = re.compile(r"&lt;#([A-Z0-9]+)&gt;")
"""A channel link (`<#C123>`) as escaping leaves it; the bot's own texts put it back."""
_UNSAFE = re.compile(r"[^a-z0-9]+")
Blocks = list[Block] | None


def make_client(token: str, base_url: str | None = None) -> AsyncWebClient:
    """A client on `base_url` (Slack's by default) that waits out 429s and retries 5xx."""
    url = (base_url or DEFAULT_API_URL).strip() or DEFAULT_API_URL
    url = url if url.endswith("/") else url + "/"
    return AsyncWebClient(token=token, base_url=url, retry_handlers=retries())


def retries() -> list[AsyncRetryHandler]:
    """Wait out 429s, retry 5xx and dropped connections a few times."""
    return [
        AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
        AsyncServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
        AsyncConnectionErrorRetryHandler(max_retry_count=CONNECTION_ERROR_RETRIES),
    ]


@contextlib.asynccontextmanager
async def shared_session(client: AsyncWebClient) -> AsyncIterator[None]:
    """One keep-alive HTTP session (not one TLS connection per call) while the block runs."""
    timeout = aiohttp.ClientTimeout(total=client.timeout)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        client.session = session
        try:
            yield
        finally:
            client.session = None


def describe(error: BaseException) -> str:
    """A short, secret-free description of a failed call."""
    if isinstance(error, SlackApiError):
        return str(error.response.get("error", "unknown_error"))
    return type(error).__name__


async def safely(method: str, call: Awaitable[AsyncSlackResponse]) -> AsyncSlackResponse | None:
    """Await a Web API call; log and return None if it fails."""
    try:
        return await call
    except API_ERRORS as error:
        log.warning("%s failed: %s", method, describe(error))
        return None


def unavailable(error: BaseException) -> bool:
    """Whether a failed call means Slack did not answer (try later), not that it refused."""
    if not isinstance(error, SlackApiError):
        return True  # no answer at all: a dropped connection, a timeout
    status = getattr(error.response, "status_code", 200)
    return status >= 500 or error.response.get("error") in UNAVAILABLE_ERRORS


def chart_filename(title: str) -> str:
    """A tidy file name from a chart's title."""
    slug = _UNSAFE.sub("-", to_plain(title).lower()).strip("-")[:40]
    return f"{slug or 'chart'}.png"


class SlackSurface:
    """Channel messages (the service's `Surface`) and private replies, through one client."""

    shows_charts = True
    shows_own_steps = True
    back_verb = "continue"

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def post(
        self, channel: str, card: Card, chart: DrawnChart | None, thread_ts: str | None = None
    ) -> str | None:
        """Post a card, then share its chart; the message's ts, or None if Slack refused.

        With `thread_ts`, both go in the thread of that message.
        """
        text, blocks = card_message(card)
        call = self.client.chat_postMessage(
            channel=channel,
            text=clip(text, MAX_FALLBACK_TEXT),
            blocks=blocks,
            thread_ts=thread_ts,
            unfurl_links=False,  # no link previews: a member's reason may link to anyone's page
            unfurl_media=False,
        )
        try:
            response = await call
        except API_ERRORS as error:
            log.warning("chat.postMessage failed: %s", describe(error))
            if unavailable(error):
                raise PlatformUnavailable(describe(error)) from error
            return None
        if chart is not None:
            await self.share_chart(channel, chart, thread_ts)
        return str(response["ts"])

    async def post_in_thread(
        self, channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        """Reply in the thread of the message whose ts is `under`, the chart shared there too."""
        return await self.post(channel, card, chart, thread_ts=under)

    async def edit(self, channel: str, ref: str, card: Redrawn) -> bool:
        """Redraw a step's, a reveal's or an assignment's message from its card."""
        text, blocks = card_message(card)
        return await self.update(channel, ref, text, blocks)

    async def find(self, channel: str, card: StepCard | RevealCard) -> str | None:
        """None: reading a channel's history would need the app to ask for more scopes."""
        return None

    async def update(self, channel: str, ts: str, text: str, blocks: list[Block]) -> bool:
        """Replace a message's text and blocks; whether it worked."""
        call = self.client.chat_update(
            channel=channel, ts=ts, text=clip(text, MAX_FALLBACK_TEXT), blocks=blocks
        )
        return await safely("chat.update", call) is not None

    async def is_admin(self, user_id: str, team: str) -> bool | None:
        """Whether users.info shows an admin or owner of `team` itself; None if it failed."""
        response = await safely("users.info", self.client.users_info(user=user_id))
        if response is None:
            return None
        user = response.get("user") or {}
        return user.get("team_id") == team and any(bool(user.get(f)) for f in HOST_FLAGS)

    async def locale_of(self, user_id: str) -> str | None:
        """The member's Slack locale from users.info ("" if none is set); None if it failed."""
        call = self.client.users_info(user=user_id, include_locale=True)
        response = await safely("users.info", call)
        if response is None:
            return None
        return str((response.get("user") or {}).get("locale") or "")

    async def open_view(self, trigger_id: str, view: dict[str, Any]) -> None:
        """Open a modal for the click that carried `trigger_id`."""
        await safely("views.open", self.client.views_open(trigger_id=trigger_id, view=view))

    async def tell(self, request: SlackRequest, text: str, blocks: Blocks = None) -> None:
        """A message only the member sees: to the request's response_url, else chat.postEphemeral.

        A response_url answers one interaction and is not held to chat.postEphemeral's limit
        per workspace; a request without one (an answer form) or whose URL fails falls back.
        """
        text = clip(text, MAX_FALLBACK_TEXT)
        if request.response_url and await self.respond(request.response_url, text, blocks):
            return
        call = self.client.chat_postEphemeral(
            channel=request.channel, user=request.user_id, text=text, blocks=blocks
        )
        await safely("chat.postEphemeral", call)

    async def respond(self, url: str, text: str, blocks: Blocks) -> bool:
        """Post an ephemeral reply to a response_url on the shared session; whether it went."""
        hook = AsyncWebhookClient(url, session=self.client.session, retry_handlers=retries())
        try:
            sent = await hook.send(
                text=text, blocks=blocks, response_type="ephemeral", replace_original=False
            )
        except API_ERRORS as error:
            log.warning("reply to response_url failed: %s", describe(error))
            return False
        if sent.status_code != 200:
            log.warning("reply to response_url failed: HTTP %s", sent.status_code)
        return sent.status_code == 200

    async def send_file(self, user: str, reply: FileReply) -> str:
        """Upload a file into a direct message with `user` (im:write); what to tell them."""
        channel = await self.direct_channel(user)
        sent = channel and await self.upload(channel, reply.data, reply.filename, reply.title)
        if sent:
            return _(
                "{text} Sent to you in a direct message as `{filename}`.",
                text=reply.text, filename=reply.filename,
            )
        return _("Could not send `{filename}` to you. Please try again.", filename=reply.filename)

    async def direct_channel(self, user: str) -> str | None:
        """The direct message between the app and `user` (im:write); None if it cannot open."""
        opened = await safely("conversations.open", self.client.conversations_open(users=user))
        channel = (opened.get("channel") or {}).get("id") if opened is not None else None
        return str(channel) if channel else None

    async def post_direct(
        self, user_id: str, text: str, blocks: Blocks = None, channel: str | None = None
    ) -> str:
        """Post in the app's direct message with a member (opened unless given); its channel.

        Raise the client's error if Slack refuses or does not answer.
        """
        if channel is None:
            opened = await self.client.conversations_open(users=user_id)
            channel = str((opened.get("channel") or {}).get("id") or "")
        await self.client.chat_postMessage(
            channel=channel, text=text, blocks=blocks, unfurl_links=False, unfurl_media=False
        )
        return channel

    async def message_member(
        self, place: Place, user_id: str, text: str, card: StepCard | None = None
    ) -> bool:
        """The app's direct message to a member (a card, if given); False if Slack refuses it."""
        text = CHANNEL_LINK.sub(r"<#\1>", clip(to_mrkdwn(text), MAX_FALLBACK_TEXT))
        blocks = None if card is None else card_message(card)[1]
        try:
            await self.post_direct(user_id, text, blocks)
        except API_ERRORS as error:
            log.info("could not message a member privately: %s", describe(error))
            if unavailable(error):
                raise PlatformUnavailable(describe(error)) from error
            return False
        return True

    async def show_own(self, request: SlackRequest, own: OwnStep, chart: DrawnChart | None) -> None:
        """A member's own step of an assignment, posted in their direct message with the app.

        Asked from the channel (Start, `/lesson continue`), the member is also told there,
        privately, where to find it. If it cannot be posted they are told why: Slack did not
        answer (try again), or it refused (direct messages from apps are off).
        """
        direct = request.channel if request.in_direct_message else None
        text, blocks = own_step_message(own)
        try:
            channel = await self.post_direct(request.user_id, text, blocks, direct)
        except API_ERRORS as error:
            log.warning("could not show a member their own step: %s", describe(error))
            await self.tell(request, _(NO_ANSWER if unavailable(error) else CANNOT_MESSAGE))
            return
        if chart is not None:
            await self.share_chart(channel, chart)
        if not direct:
            await self.tell(request, _(SENT_PRIVATELY))

    async def share_chart(self, channel: str, chart: DrawnChart, thread: str | None = None) -> bool:
        """Share a chart's PNG in a channel or thread, titled and described for screen readers."""
        title = to_plain(chart.title)
        alt_text = clip(chart.description, SLACK_ALT_TEXT_LIMIT)
        return await self.upload(channel, chart.png, chart_filename(title), title, alt_text, thread)

    async def upload(
        self, channel: str, data: bytes, filename: str, title: str,
        alt_text: str | None = None, thread_ts: str | None = None,
    ) -> bool:
        """Share a file in a channel (or a thread) with the files v2 upload flow; whether it went.

        An image's `alt_text` is what a screen reader reads for it (Slack's `alt_txt`).
        """
        call = self.client.files_upload_v2(
            channel=channel, content=data, filename=filename, title=title, alt_txt=alt_text,
            thread_ts=thread_ts,
        )
        return await safely("files_upload_v2", call) is not None


class SlackEffects:
    """Shows the service's effects to the member of one Slack request (an ack confirms)."""

    def __init__(self, surface: SlackSurface, presenter: Presenter) -> None:
        self.surface = surface
        self.presenter = presenter
        self.table: dict[type[Any], Renderer[SlackRequest]] = {
            effects.PrivateText: self._text, effects.Refusal: self._text,
            effects.AnswerReceipt: self._text, effects.Confirmation: _nothing,
            effects.AlreadyHandled: _nothing, effects.PrivateResults: self._results,
            effects.FileReply: self._file, effects.FormToOpen: self._form,
            effects.OwnStepShown: self._own_step, effects.OwnStepAnswered: self._next_turn,
            effects.ReasonHidden: self._redraw_clicked, effects.CheckMovedOn: self._redraw_clicked,
        }

    async def show(self, request: SlackRequest, shown: tuple[Effect, ...]) -> None:
        """Show each effect to the member who sent `request`, in order."""
        await render(self.table, request, shown)

    async def _text(self, request: SlackRequest, effect: effects.Said) -> None:
        await self.surface.tell(request, to_mrkdwn(effect.text))

    async def _results(self, request: SlackRequest, effect: effects.PrivateResults) -> None:
        for text, blocks in results_messages(effect.summary):
            await self.surface.tell(request, text, blocks)

    async def _file(self, request: SlackRequest, effect: effects.FileReply) -> None:
        told = await self.surface.send_file(request.user_id, effect)
        await self.surface.tell(request, to_mrkdwn(told))

    async def _form(self, request: SlackRequest, effect: effects.FormToOpen) -> None:
        await self.surface.open_view(request.trigger_id, answer_view(effect, request.channel))

    async def _own_step(self, request: SlackRequest, effect: effects.OwnStepShown) -> None:
        step = effect.step  # in their direct message; what still counts is said first
        if step.card is None:  # finished: no step to show, only what they did
            await self.surface.tell(request, to_mrkdwn(effect.text))
            return
        if step.text:
            await self.surface.tell(request, to_mrkdwn(step.text))
        await self.surface.show_own(request, *await self.presenter.draw_own(step))

    async def _next_turn(self, request: SlackRequest, effect: effects.OwnStepAnswered) -> None:
        await self.surface.tell(request, to_mrkdwn(effect.text))
        if effect.step.turn and effect.step.card is not None:
            await self.surface.show_own(request, *await self.presenter.draw_own(effect.step))

    async def _redraw_clicked(self, request: SlackRequest, effect: effects.RedrawClicked) -> None:
        if request.message_ts:
            text, blocks = card_message(effect.card)
            await self.surface.update(request.channel, request.message_ts, text, blocks)


async def _nothing(request: SlackRequest, effect: effects.AlreadyHandled) -> None:
    """Nothing to show: the ack said it, or another delivery was answered."""
