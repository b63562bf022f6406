"""What each `/lesson` command does: call the engine, post in the channel, say what happened."""

from __future__ import annotations

from bot.discord_adapter.charts import draw_chart
from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.hosts import channel_of, member_of, place_of
from bot.discord_adapter.outgoing import Outgoing
from bot.discord_adapter.render import summary_message

REVEALED = "Revealed. The results are posted in the channel."
STOPPED = "Stopped the lesson. The results are posted in the channel."
REPOSTED = "Posted the current step again; its earlier buttons keep working too."


async def start_here(
    context: AdapterContext, interaction: Interaction, lesson: str | None, timer: int | None
) -> str:
    """Start a run in the interaction's channel and post its first step."""
    member = member_of(interaction, context.host_role)
    card = await context.engine.start(place_of(interaction), member, lesson, timer)
    await context.publisher.show_step(channel_of(interaction), card)
    paced = f" Each step moves on after {timer} s." if timer else ""
    return f"Started run {card.run_id} ({card.total} steps).{paced}"


async def reveal_here(context: AdapterContext, interaction: Interaction) -> str:
    """Reveal the channel's open question and post its results."""
    engine = context.engine
    run = await engine.find_run(place_of(interaction))
    closed, reveal = await engine.reveal(run.id, member_of(interaction, context.host_role))
    await context.publisher.show_reveal(channel_of(interaction), closed, reveal)
    return REVEALED


async def next_here(context: AdapterContext, interaction: Interaction) -> str:
    """Move the channel's run on and post what that produced."""
    engine = context.engine
    run = await engine.find_run(place_of(interaction))
    advance = await engine.advance(run.id, member_of(interaction, context.host_role))
    await context.publisher.show_advance(channel_of(interaction), advance)
    return "Moved on." if advance.card else "That was the last step; results are posted."


async def stop_here(context: AdapterContext, interaction: Interaction) -> str:
    """Stop the channel's run, close its open question and post the results."""
    engine = context.engine
    run = await engine.find_run(place_of(interaction))
    left = await engine.closed_card(run)
    summary = await engine.stop(run.id, member_of(interaction, context.host_role))
    await context.publisher.close_step(left)
    await context.publisher.show_summary(channel_of(interaction), summary)
    return STOPPED


async def results_here(context: AdapterContext, interaction: Interaction) -> Outgoing:
    """The channel's results so far (revealed questions only), for whoever asked."""
    summary = await context.engine.results_here(place_of(interaction))
    return summary_message(summary, await draw_chart(summary.chart))


async def repost_here(context: AdapterContext, interaction: Interaction) -> str:
    """Post the current step again, e.g. when Discord lost the message during an outage."""
    host = member_of(interaction, context.host_role)
    card = await context.engine.repost(place_of(interaction), host)
    await context.publisher.show_step(channel_of(interaction), card)
    return REPOSTED
