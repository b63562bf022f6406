"""Showing what the engine produced in a channel, the same way on every platform.

Steps, closed questions, reveals, moving on, results, timer events and the live "N answered"
counter all go through here to a platform's `Surface`. Each step's message reference is
stored with the engine, so any process (or the same one after a restart) can edit it.

Posts go out in the lesson's order, one run's at a time: whatever moves a run on decides
and posts in the run's turn (`in_turn`, `bot/service/posting.py`). A post the platform did
not answer is tried again, with growing pauses, until it is up; one the channel refused is
posted again from what is stored: by `/lesson repost`, when the lesson moves past refused
results, and at startup. A copy posted again takes the clicks: the older copy's buttons go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import replace

from bot.charts import chart_png
from bot.engine import (
    NOT_POSTED,
    AssignmentCard,
    Closing,
    LessonEngine,
    OwnStep,
    TimerFired,
    moved_past,
    superseded,
)
from bot.i18n import N_, _, current_language, speaking, to_reader
from bot.model import (
    Advance,
    AnyChart,
    Discussion,
    LessonBotError,
    ReasonCard,
    RevealCard,
    RunRecord,
    RunState,
    StepCard,
    SummaryCard,
    describe_chart,
)
from bot.service.live_counter import CounterThrottle
from bot.service.posting import LEASE_SECONDS, PostingTurns
from bot.service.surface import (
    Card,
    DrawnChart,
    Outcome,
    PlatformUnavailable,
    Redrawn,
    Surface,
)

log = logging.getLogger(__name__)

COUNTER_INTERVAL = 3.0
NOT_SHOWN = N_(
    "Saved, but the channel refused the bot's post, so it does not show this yet. Once the "
    "bot may post here, `{command:repost}` posts it (and `{command:next}` posts missed results "
    "before moving on)."
)

UNAVAILABLE = N_(
    "Saved, but the platform did not answer the bot's post ({reason}). The bot keeps trying, "
    "and posts it in the channel as soon as the platform answers."
)
SHARED_TALLIES = 32
"""Questions whose latest tally drawing is kept to share (the most recently answered)."""
RETRY_FIRST, RETRY_LAST = 1.0, 60.0
"""Seconds before posting again what the platform did not answer: doubling, first to last."""

Refused = str | None
"""What to tell the host when the channel refused a post; None when everything was shown."""


class Presenter:
    """Turns engine results into channel messages, in the order members should read them."""

    def __init__(
        self,
        engine: LessonEngine,
        surface: Surface,
        counter_interval: float = COUNTER_INTERVAL,
        turn_lease: float = LEASE_SECONDS,
    ) -> None:
        """`turn_lease`: how long a run's turn outlives a process that died holding it."""
        self.engine = engine
        self.surface = surface
        self.turns = PostingTurns(engine, turn_lease)
        self.counters = CounterThrottle(self._refresh, counter_interval)
        self.retry_first, self.retry_last = RETRY_FIRST, RETRY_LAST
        self._behind: set[int] = set()
        self._retrying: asyncio.Task[None] | None = None
        self._catching_up: asyncio.Task[None] | None = None
        self._redraws: dict[Hashable, Callable[[], Awaitable[None]]] = {}
        self._drawing = asyncio.Lock()
        self.tallies = SharedTallies(self.draw)
        self._editing: weakref.WeakValueDictionary[tuple[int, str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def in_turn(self, run_id: int, decide: Callable[[], Awaitable[Outcome]]) -> Outcome:
        """Decide in the run's turn, which is given back once the outcome has been shown.

        Both speak the run's language, as its channel does; what the member who asked is
        told speaks theirs (`to_reader`). A post the platform did not answer is tried again
        in the background; the member is told so instead of the planned reply.
        """
        language = await self.engine.language_of(run_id)
        turn = await self.turns.take(run_id)
        try:
            with speaking(language):
                outcome = await decide()
        except BaseException:
            await turn.release()
            raise

        async def show() -> str | None:
            try:
                with speaking(language):
                    return await outcome.show()
            except PlatformUnavailable as error:
                self.behind(run_id)
                with to_reader():
                    return _(UNAVAILABLE, reason=error)
            finally:
                await turn.release()

        return replace(outcome, show=show)

    async def step(self, channel: str, card: StepCard) -> str | None:
        """Post a step and remember its message; the message's reference, or None if refused.

        An older copy of the step (this is a repost) is redrawn without its buttons.
        """
        older = await self.engine.step_message(card.run_id, card.message_key)
        ref = await self.post(channel, card)
        if ref is not None:
            await self.engine.remember_message(card.run_id, card.message_key, ref)
            if older is not None and older not in (NOT_POSTED, ref):
                await self._edit_quietly(channel, older, superseded(card))
        return ref

    async def close(self, channel: str, card: StepCard) -> None:
        """Redraw a question's message closed: its final count, no working buttons."""
        self.counters.forget((channel, card.run_id, card.step_id))
        async with self._edit_lock(card.run_id, card.step_id):
            await self._redraw(channel, card)

    async def reveal(self, channel: str, closing: Closing) -> Refused:
        """Close the question, then post its results with their chart (or its discussion)."""
        if isinstance(closing, Discussion):
            return await self.discuss(channel, closing)
        closed, reveal = closing
        await self.close(channel, closed)
        return await self.results(channel, reveal)

    async def discuss(self, channel: str, discussion: Discussion) -> Refused:
        """Close the first answers, post the second vote's card, and reasons in its thread."""
        await self.close(channel, discussion.closed)
        ref = await self.step(channel, discussion.card)
        if ref is None:
            return _(NOT_SHOWN)
        await self.thread(channel, ref, discussion)
        return None

    async def thread(self, channel: str, under: str, discussion: Discussion) -> None:
        """Post the discussion's reasons missing from the thread under `under`, in order.

        Each post is remembered as it goes out (a member's reason also by its own key, so
        hiding it redraws the post), and the thread once all are in, so a process that stopped
        halfway (or another one) posts only the rest when it catches up.
        """
        run_id = discussion.card.run_id
        for key, reason in discussion.thread_posts():
            if await self.engine.step_message(run_id, key) is None:
                ref = await self.post_in_thread(channel, under, discussion.thread_title, reason)
                await self.engine.remember_message(run_id, key, ref or NOT_POSTED)
                if ref is not None and reason.reason_id is not None:
                    await self.engine.remember_message(run_id, reason.message_key, ref)
        await self.engine.remember_message(run_id, discussion.card.thread_key, under)

    async def results(self, channel: str, reveal: RevealCard) -> Refused:
        """Post a question's results and remember their message, or that it was refused."""
        ref: str | None = None
        async with self._results_lock(reveal):
            older = await self.engine.reveal_message(reveal.run_id, reveal.step_id)
            try:
                ref = await self.post(channel, reveal)
            except PlatformUnavailable:
                raise  # nothing stored: the results count as not tried, and are tried again
            except BaseException:
                await self.engine.remember_reveal(reveal.run_id, reveal.step_id, None)
                raise
            await self.engine.remember_reveal(reveal.run_id, reveal.step_id, ref)
            if ref is not None and older is not None and older not in (NOT_POSTED, ref):
                await self._edit_quietly(channel, older, moved_past(reveal))
        return None if ref is not None else _(NOT_SHOWN)

    async def advance(self, channel: str, advance: Advance) -> Refused:
        """Show a move on: the step left closed, its results, then the next step or the end."""
        if advance.discussion is not None:
            return await self.discuss(channel, advance.discussion)
        if advance.closed_card is not None:
            await self.close(channel, advance.closed_card)
        refused = None
        if advance.reveal is not None:  # revealed by this move: posted with Next disabled
            refused = await self.results(channel, advance.left or advance.reveal)
        elif advance.left is not None:
            refused = await self.retire(channel, advance.left)
        if advance.card is not None and await self.step(channel, advance.card) is None:
            refused = _(NOT_SHOWN)
        if advance.summary is not None:
            await self.post(channel, advance.summary)
        return refused

    async def repost(self, channel: str, shown: StepCard | RevealCard) -> Refused:
        """Post again what the channel shows last: the current step, or its question's results."""
        if isinstance(shown, RevealCard):
            return await self.results(channel, shown)
        return None if await self.step(channel, shown) is not None else _(NOT_SHOWN)

    async def retire(self, channel: str, left: RevealCard) -> Refused:
        """Redraw results the lesson moved past, Next disabled; post them if they were refused."""
        async with self._results_lock(left):
            ref = await self.engine.reveal_message(left.run_id, left.step_id)
            if ref is not None and ref != NOT_POSTED:
                await self.surface.edit(channel, ref, left)
        return await self.results(channel, left) if ref == NOT_POSTED else None

    async def stopped(
        self, channel: str, closed: StepCard, summary: SummaryCard, left: RevealCard | None = None
    ) -> None:
        """A run ended early: close its step (and its results' Next), then post its results."""
        await self.close(channel, closed)
        if left is not None:
            await self.retire(channel, left)
        await self.post(channel, summary)

    async def catch_up(self, platform: str) -> None:
        """Post what each active run of a platform shows last, if its post was lost or refused.

        Run at startup: a reveal stored just before the process stopped gets its results
        posted. Each run is caught up in its turn, so one process posts it (a turn left by a
        process that died is taken over, or lapses first); a run whose platform does not
        answer, or whose turn another process still holds, is tried again later.
        """
        for run in await self.engine.active_runs(platform):
            if not await self.catch_up_run(run.id):
                self.behind(run.id)

    def start_catching_up(self, platform: str) -> None:
        """Catch up the platform's active runs in the background, so starting waits for none."""
        self._catching_up = asyncio.get_running_loop().create_task(self.catch_up(platform))

    async def catch_up_run(self, run_id: int) -> bool:
        """Post what the run shows last if it is missing; whether the run is caught up.

        A post the channel refused counts as caught up: the host was told when it was
        refused, and `/lesson repost` or Next post it once the bot may post.
        """
        try:
            async with self.turns.holding(run_id, patience=self.turns.lease + 1):
                run = await self.engine.run(run_id)
                if run is not None and run.state is RunState.ACTIVE:
                    with speaking(run.language):
                        await self._catch_up(run)
        except PlatformUnavailable:
            return False
        except LessonBotError as error:  # still posting elsewhere, or the database is away
            log.info("run %s is not caught up yet: %s", run_id, error)
            return False
        except Exception:
            log.exception("could not post the missing message of run %s", run_id)
            return True
        log.info("run %s is caught up: its channel shows what is stored", run_id)
        return True

    def behind(self, run_id: int) -> None:
        """A post of this run did not reach the platform: try again until it does."""
        self._behind.add(run_id)
        if self._retrying is None or self._retrying.done():
            self._retrying = asyncio.get_running_loop().create_task(self._catch_up_behind())

    async def _catch_up_behind(self) -> None:
        pause = self.retry_first
        while self._behind:
            await asyncio.sleep(pause)
            for run_id in sorted(self._behind):
                if await self.catch_up_run(run_id):
                    self._behind.discard(run_id)
            pause = min(pause * 2, self.retry_last)

    async def _catch_up(self, run: RunRecord) -> None:
        """Post the missing tail of what the run shows last, in the lesson's order.

        A missing post that did arrive (its answer was lost) is found and kept, not posted again.
        """
        posts = await self.engine.last_posts(run)
        first_missing = len(posts)
        while first_missing > 0 and not await self._posted(run.id, posts[first_missing - 1]):
            first_missing -= 1
        channel = run.place.channel
        for shown in posts[first_missing:]:
            found = await self.surface.find(channel, shown)
            if found is None:
                await self.repost(channel, shown)
            elif isinstance(shown, RevealCard):
                await self.engine.remember_reveal(run.id, shown.step_id, found)
            else:
                await self.engine.remember_message(run.id, shown.message_key, found)
        await self._finish_thread(run)

    async def _finish_thread(self, run: RunRecord) -> None:
        """Post the rest of a second vote's thread that a stop or an outage cut short."""
        discussion = await self.engine.unposted_discussion(run)
        if discussion is None:
            return
        under = await self.engine.step_message(run.id, discussion.card.message_key)
        if under is not None and under != NOT_POSTED:
            await self.thread(run.place.channel, under, discussion)

    async def _posted(self, run_id: int, shown: StepCard | RevealCard) -> bool:
        if isinstance(shown, RevealCard):
            ref = await self.engine.reveal_message(run_id, shown.step_id)
        else:
            ref = await self.engine.step_message(run_id, shown.message_key)
        return ref not in (None, NOT_POSTED)

    async def timer_fired(self, event: TimerFired) -> None:
        """Show a timed reveal and/or move on in the run's channel."""
        channel = event.run.place.channel
        if event.reveal is not None:
            await self.reveal(channel, event.reveal)
        if event.advance is not None:
            await self.advance(channel, event.advance)

    def answered(self, channel: str, run_id: int, step_id: str) -> None:
        """A step's answered count changed: its message shows it soon (edits are throttled)."""
        self.counters.touch((channel, run_id, step_id))

    def redraw_soon(self, key: Hashable, redraw: Callable[[], Awaitable[None]]) -> None:
        """Have a posted card's counts redrawn, throttled like the "N answered" counters."""
        self._redraws[key] = redraw
        self.counters.touch(key)

    async def flush(self) -> None:
        """Wait for every scheduled counter edit, and stop retrying posts (at shutdown)."""
        for chore in (self._catching_up, self._retrying):
            if chore is not None:
                chore.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await chore
        await self.counters.flush()

    async def post(self, channel: str, card: Card) -> str | None:
        """Post any card with its chart drawn."""
        chart = None if isinstance(card, AssignmentCard) else card.chart
        return await self.surface.post(channel, card, await self.draw(chart))

    async def redraw_reason(self, channel: str, card: ReasonCard) -> Refused:
        """Redraw a reason's post in its discussion thread (a host hid it), if it has one."""
        ref = await self.engine.step_message(card.run_id, card.message_key)
        if ref is not None:
            await self._edit_quietly(channel, ref, card)
        return None

    async def post_in_thread(self, channel: str, under: str, title: str, card: Card) -> str | None:
        """Post a card with its chart in the thread under the message `under`."""
        chart = await self.draw(None if isinstance(card, AssignmentCard) else card.chart)
        return await self.surface.post_in_thread(channel, under, title, card, chart)

    async def draw(self, chart: AnyChart | None) -> DrawnChart | None:
        """The chart as PNG, drawn one at a time in a worker thread, off the event loop."""
        if chart is None or not self.surface.shows_charts:
            return None
        async with self._drawing:
            png = await asyncio.to_thread(chart_png, chart)
        return DrawnChart(png, chart.title, describe_chart(chart))

    async def draw_own(self, own: OwnStep) -> tuple[OwnStep, DrawnChart | None]:
        """A member's own step with its chart drawn; its tally so far may be a newer one.

        Replies shown together share one drawing of a question's tally so far
        (`SharedTallies`), instead of one drawing each, one after another.
        """
        so_far = own.so_far
        if so_far is None or so_far.chart is None or own.chart is not so_far.chart:
            return own, await self.draw(own.chart)
        if not self.surface.shows_charts:
            return own, None
        shown, drawn = await self.tallies.drawn(so_far)
        return replace(own, so_far=shown), drawn

    async def _refresh(self, key: Hashable) -> None:
        redraw = self._redraws.pop(key, None)
        if redraw is not None:
            await redraw()
            return
        assert isinstance(key, tuple)
        channel, run_id, step_id = key
        async with self._edit_lock(run_id, step_id):
            with speaking(await self.engine.language_of(run_id)):
                try:
                    card = await self.engine.current_card(run_id)
                except LessonBotError:
                    return
                if card.step_id == step_id and not card.closed:
                    await self._redraw(channel, card)

    async def _edit_quietly(self, channel: str, ref: str, card: Redrawn) -> None:
        """Redraw an older copy; one that is gone or cannot be edited is left as it is."""
        try:
            await self.surface.edit(channel, ref, card)
        except Exception as error:
            log.warning("could not take the buttons off an older copy: %s", type(error).__name__)

    async def _redraw(self, channel: str, card: StepCard) -> None:
        ref = await self.engine.step_message(card.run_id, card.message_key)
        if ref is not None:
            await self.surface.edit(channel, ref, card)

    def _results_lock(self, reveal: RevealCard) -> asyncio.Lock:
        """Held while a question's results are posted, so retiring them waits for the post."""
        return self._edit_lock(reveal.run_id, reveal.step_id, "results")

    def _edit_lock(self, run_id: int, step_id: str, part: str = "step") -> asyncio.Lock:
        key = (run_id, step_id, part)
        lock = self._editing.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._editing[key] = lock
        return lock


class SharedTallies:
    """The latest drawing of each question's tally so far, shared by the replies that show it.

    A tally read later holds every answer stored before it (answers are only added), and one
    with more answers was read later. So a reply may show, instead of its own tally, any one
    with more answers: it still counts the member's answer, and it is only more current. While
    one drawing is made, the replies waiting for the same question take it, or the newest
    tally any of them read: one drawing for a wave of answers instead of one each.
    """

    def __init__(self, draw: Callable[[AnyChart], Awaitable[DrawnChart | None]]) -> None:
        self._draw = draw
        self._newest: OrderedDict[Hashable, RevealCard] = OrderedDict()
        self._drawn: dict[Hashable, tuple[RevealCard, DrawnChart | None]] = {}
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def drawn(self, tally: RevealCard) -> tuple[RevealCard, DrawnChart | None]:
        """The tally to show for `tally`, as read, or a newer one, with its chart drawn."""
        key = (tally.run_id, tally.step_id, current_language())
        self._note_newest(key, tally)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            shown = self._drawn.get(key)
            if shown is not None and (shown[0] == tally or shown[0].answered > tally.answered):
                return shown
            newest = self._newest.get(key, tally)
            chosen = newest if newest.answered > tally.answered else tally
            assert chosen.chart is not None
            shown = (chosen, await self._draw(chosen.chart))
            self._drawn[key] = shown
            self._forget_oldest()
            return shown

    def _note_newest(self, key: Hashable, tally: RevealCard) -> None:
        """Keep the tally with the most answers read for the question."""
        newest = self._newest.pop(key, None)
        self._newest[key] = tally if newest is None or tally.answered > newest.answered else newest

    def _forget_oldest(self) -> None:
        """Keep the questions answered most recently only (`SHARED_TALLIES`)."""
        while len(self._newest) > SHARED_TALLIES:
            key, _tally = self._newest.popitem(last=False)
            self._drawn.pop(key, None)
