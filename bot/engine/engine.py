"""The lesson engine: one object composed of smaller parts, with every operation adapters call."""

from __future__ import annotations

from bot.engine.catalog import LessonCatalog
from bot.engine.core import Clock, RunCore, utc_now
from bot.engine.dispatch import Dispatch
from bot.engine.host_actions import HostActions
from bot.engine.known_runs import KnownRuns
from bot.engine.member_actions import MemberActions
from bot.engine.member_data import MemberData
from bot.engine.platform_messages import PlatformMessages
from bot.engine.ports import AnswerChecker, RunStore
from bot.engine.run_views import RunViews
from bot.engine.step_tallies import StepTallies
from bot.engine.verdicts import AttemptVerdicts
from lessons.schema import DEFAULT_MAX_TRIES


class LessonEngine:
    """All lesson operations, free of any platform or database code.

    Each operation is a method of the part that does it, offered here under the same name.
    """

    def __init__(
        self,
        store: RunStore,
        checker: AnswerChecker,
        catalog: LessonCatalog | None = None,
        clock: Clock = utc_now,
        max_tries: int = DEFAULT_MAX_TRIES,
    ) -> None:
        """`max_tries` caps free-answer tries at steps whose lesson sets no `max_tries`."""
        self.store = store
        self.checker = checker
        self.catalog = catalog or LessonCatalog()
        self.core = RunCore(store, self.catalog, clock)
        tallies = StepTallies(store)
        verdicts = AttemptVerdicts(checker)
        self.views = RunViews(self.core, tallies, verdicts)
        self.members = MemberActions(self.core, store, checker, verdicts, max_tries)
        self.hosts = HostActions(self.core, tallies, self.views)
        forgetters = (self.core.known_runs.forget_host, self.members.turns.forget)
        self.member_data = MemberData(self.core, store, forgetters)
        self.messages = PlatformMessages(store)
        self.dispatch = Dispatch(self.core, self.members, self.hosts)
        self._offer_runs_and_views()
        self._offer_actions()
        self._offer_records()

    @property
    def clock(self) -> Clock:
        """The engine's source of the current time."""
        return self.core.clock

    @property
    def known_runs(self) -> KnownRuns:
        """Runs as first loaded, kept in memory."""
        return self.core.known_runs

    def _offer_runs_and_views(self) -> None:
        self.find_run = self.core.find_run
        self.get_run = self.core.get_run
        self.active_runs = self.core.active_runs
        self.run_here = self.core.run_here
        self.current_card = self.views.current_card
        self.closed_card = self.views.closed_card
        self.card_for = self.views.card_for

    def _offer_actions(self) -> None:
        self.start = self.hosts.start
        self.reveal = self.hosts.reveal
        self.advance = self.hosts.advance
        self.stop = self.hosts.stop
        self.repost = self.hosts.repost
        self.current_post = self.hosts.current_post
        self.last_posts = self.hosts.last_posts
        self.passed_reveal = self.hosts.passed_reveal
        self.results = self.hosts.results
        self.results_here = self.hosts.results_here
        self.choose = self.members.choose
        self.rate = self.members.rate
        self.run_checker = self.members.run_checker
        self.submit_answer = self.members.submit_answer
        self.click = self.dispatch.click
        self.fire_due_timers = self.dispatch.fire_due_timers
        self.fire_timer = self.dispatch.fire_timer
        self.due_runs = self.core.due_runs

    def _offer_records(self) -> None:
        self.forget_member = self.member_data.forget_member
        self.forget_preview = self.member_data.forget_preview
        self.on_forget = self.member_data.on_forget
        self.export_here = self.member_data.export_here
        self.export_run = self.member_data.export_run
        self.first_delivery = self.messages.first_delivery
        self.remember_message = self.messages.remember_message
        self.step_message = self.messages.step_message
        self.remember_reveal = self.messages.remember_reveal
        self.reveal_message = self.messages.reveal_message
