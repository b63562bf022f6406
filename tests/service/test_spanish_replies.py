"""A member or host speaking Spanish gets the service's replies, errors and progress in Spanish."""

from __future__ import annotations

from bot.engine import AssignmentCard
from bot.i18n import speaking
from bot.model import RecallProgress
from bot.service import help_text
from bot.service.assignments import card_lines
from bot.service.recalls import progress_line
from tests.seen import seen
from tests.service.test_assignments import ALICE, HOST, Bot, start_of

WHEN_ES = (
    "una duración como `90m`, `2h`, `3d`, `1w` o `1d12h`, o una fecha UTC como `2026-12-10` "
    "o `2026-12-10 17:00`"
)


def posted_card(bot: Bot) -> AssignmentCard:
    """The assignment card posted in the channel."""
    (card,) = bot.surface.posted(AssignmentCard)
    assert isinstance(card, AssignmentCard)
    return card


async def test_a_due_time_that_is_not_a_time_is_refused_in_spanish(bot: Bot) -> None:
    with speaking("es-ES"):
        outcome = await bot.run(HOST, "assign", due="pronto")
    assert outcome.reply == (
        "`pronto` no es un momento válido. Uso: `/lesson assign [lesson] due:<cuándo> "
        "[remind:<cuánto antes>] [recall:<cuándo>] [language:<código>]`, donde <cuándo> es "
        f"{WHEN_ES}."
    )
    assert bot.surface.posts == []


async def test_a_typed_command_that_cannot_be_read_is_refused_in_spanish(bot: Bot) -> None:
    with speaking("es"):
        refused = await seen(await bot.service.command_text(HOST, "export 1 2"))
    assert refused.reply == (
        "Uso: `/lesson export [número de sesión]` (sin número: la última sesión de este canal)."
    )


async def test_a_host_hears_the_assignment_and_its_progress_in_spanish(bot: Bot) -> None:
    with speaking("es"):
        outcome = await bot.run(HOST, "assign", due="3d")
        card = posted_card(bot)
        await bot.click(ALICE, start_of(card))
        progress = await bot.run(HOST, "progress")
        lines = card_lines(card)
    assert outcome.done == (
        f"Tarea asignada: sesión {card.run_id} ({card.steps} pasos), fecha límite "
        "2026-01-04 12:00 UTC. Los miembros pulsan Empezar en su tarjeta para hacerla en privado."
    )
    assert lines[:2] == [
        f"{card.steps} pasos, unos {card.minutes} minutos. Fecha límite: 2026-01-04 12:00 UTC.",
        "Pulsa Empezar para hacerla en privado, a tu ritmo. "
        "Los resultados se publicarán aquí cuando se cierre.",
    ]
    assert isinstance(progress.reply, str)
    reply = progress.reply.splitlines()
    assert reply[0] == f"**Sesión {card.run_id} · {card.title} · vence el 2026-01-04 12:00 UTC**"
    assert reply[1] == "Empezaron: 1 · Terminaron: 0"
    assert reply[-1] == "No se les pudo escribir: 0"


async def test_a_timed_start_is_confirmed_in_spanish(bot: Bot) -> None:
    with speaking("es"):
        started = await bot.run(HOST, "start", timer=90, language="es")
        stopped = await bot.run(HOST, "stop")
    assert started.done is not None and started.done.startswith("Sesión ")
    assert started.done.endswith(" pasos). Cada paso avanza a los 90 s.")
    assert stopped.done == "Lección detenida. Los resultados están publicados en el canal."


def test_the_help_and_the_recall_progress_speak_spanish() -> None:
    with speaking("es"):
        text = help_text(["rlvr"])
        line = progress_line(RecallProgress(planned=4, sent=3, answered=2, unreachable=1))
    lines = text.splitlines()
    assert lines[0] == "**`/lesson` da una lección interactiva en este canal.**"
    assert "• `/lesson results`: mira los resultados hasta ahora (solo los ves tú)" in lines
    assert (
        "• `/lesson forget-me [confirm]`: mira lo que se guarda sobre ti en este espacio de "
        "trabajo; con `confirm`, bórralo (los resultados ya revelados conservan sus recuentos)"
    ) in lines
    assert (
        "• `/lesson stop`: termina la lección antes de tiempo y publica los resultados "
        "(solo anfitriones)"
    ) in lines
    assert lines[-1] == "Lecciones: rlvr"
    assert line == "Repasos: 3 enviados de 4 previstos, 2 respondidos, 1 sin poder entregarse."
