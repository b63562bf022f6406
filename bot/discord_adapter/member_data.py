"""Members' data: anyone removes their own answers; a host exports a run as a CSV file."""

from __future__ import annotations

from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.hosts import member_of, place_of
from bot.discord_adapter.outgoing import Outgoing
from bot.engine import BadInput, NoActiveRun

DEFAULT_UPLOAD_LIMIT = 8 * 1024 * 1024
NO_RUN_HERE = "No lesson has run in this channel yet. Name a run with the `run` option."
TOO_LARGE = (
    "Run {run_id}'s answers are too large to attach here ({size} bytes). "
    "On the bot's machine: `python -m bot export --run {run_id}`."
)


async def forget_me(context: AdapterContext, interaction: Interaction) -> str:
    """Delete what the member answered in this server; the engine says how much went."""
    member = member_of(interaction, context.host_role)
    return await context.engine.forget_member(place_of(interaction), member)


async def export_run(
    context: AdapterContext, interaction: Interaction, run_id: int | None
) -> Outgoing:
    """A run's answers as `run-<id>.csv`: the named run, else this channel's current or last."""
    member = member_of(interaction, context.host_role)
    try:
        chosen, table = await context.engine.export_here(place_of(interaction), member, run_id)
    except NoActiveRun:
        raise BadInput(NO_RUN_HERE) from None
    data = table.encode("utf-8")
    limit = interaction.filesize_limit or DEFAULT_UPLOAD_LIMIT
    if len(data) > limit:
        raise BadInput(TOO_LARGE.format(run_id=chosen, size=len(data)))
    rows = max(0, data.count(b"\n") - 1)
    text = f"Run {chosen}: {rows} stored answers. Treat the file as personal data."
    return Outgoing(text, attachments=[(f"run-{chosen}.csv", data)])

