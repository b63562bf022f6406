"""Members' data: `/lesson forget-me` for anyone, `/lesson export [run]` for hosts."""

from __future__ import annotations

import csv
import functools
import io

from bot.engine import BadInput
from bot.slack_adapter.acking import Show
from bot.slack_adapter.context import SlackContext
from bot.slack_adapter.payloads import Actor

EXPORT_USAGE = "Usage: `/lesson export [run id]` (without an id: this channel's latest run)."


def export_run_id(args: tuple[str, ...]) -> int | None:
    """The run id named after `export`, or None for this channel's run."""
    if not args:
        return None
    if len(args) == 1 and args[0].isascii() and args[0].isdigit() and len(args[0]) <= 18:
        return int(args[0])
    raise BadInput(EXPORT_USAGE)


def csv_rows(text: str) -> int:
    """How many answer rows a CSV export holds (its header not counted)."""
    return max(0, len(list(csv.reader(io.StringIO(text)))) - 1)


def export_filename(run_id: int) -> str:
    """The file name a host receives."""
    return f"lesson-run-{run_id}-answers.csv"


class MemberDataCommands:
    """The verbs about what is stored of members."""

    def __init__(self, context: SlackContext) -> None:
        self.context = context

    async def forget_me(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson forget-me`: delete what the member answered in this workspace."""
        member = await self.context.member(actor, needs_rights=False)
        text = await self.context.engine.forget_member(actor.place, member)
        return functools.partial(self.context.tell, actor, text)

    async def export(self, actor: Actor, args: tuple[str, ...]) -> Show:
        """`/lesson export [run]`: a run's answers as CSV, sent to the host privately."""
        run_id = export_run_id(args)
        host = await self.context.member(actor)
        chosen, table = await self.context.engine.export_here(actor.place, host, run_id)
        return functools.partial(self._deliver, actor, chosen, table)

    async def _deliver(self, actor: Actor, run_id: int, table: str) -> None:
        """Upload the CSV into a direct message with the host; say where it went."""
        sent = await self.context.messages.send_file_privately(
            actor.user_id, table, export_filename(run_id), f"Answers of lesson run {run_id}"
        )
        if sent:
            text = (
                f"Sent the answers of run {run_id} ({csv_rows(table)} rows) to you "
                "in a direct message. Keep the file private."
            )
        else:
            text = f"Could not send the answers of run {run_id} to you. Please try again."
        await self.context.tell(actor, text)
