"""Play mode speaking Spanish: its prompts, hints and notes are the catalog's Spanish."""

from __future__ import annotations

import io

from bot.engine import LessonEngine
from bot.i18n import speaking
from bot.play.console import Console
from bot.play.session import PlayOptions, PlaySession, welcome_text
from tests.play.test_play_service import scripted_answers


async def test_a_prompt_asks_and_hints_in_spanish() -> None:
    out = io.StringIO()
    console = Console(io.StringIO("7\nx\ny\n"), out)
    with speaking("es"):
        assert await console.ask_number("Tu respuesta", 3) is None
    assert out.getvalue().splitlines() == [
        "Tu respuesta [1-3, Enter para saltar]: 7",
        "'7' no es una respuesta válida aquí. Escribe un número del 1 al 3 o pulsa Enter "
        "para saltar.",
        "Tu respuesta [1-3, Enter para saltar]: x",
        "'x' no es una respuesta válida aquí. Escribe un número del 1 al 3 o pulsa Enter "
        "para saltar.",
        "Tu respuesta [1-3, Enter para saltar]: y",
        "'y' no es una respuesta válida aquí. Escribe un número del 1 al 3 o pulsa Enter "
        "para saltar.",
        "Omitido tras 3 respuestas no válidas.",
    ]


def test_the_welcome_says_who_answers_in_spanish() -> None:
    with speaking("es"):
        alone, with_classmates = welcome_text(0), welcome_text(4)
    assert alone == (
        "Eres el anfitrión y el único miembro. Escribe q en cualquier momento para parar."
    )
    assert with_classmates.startswith(
        "Eres el anfitrión y un miembro. También responden 4 compañeros simulados. No son "
        "personas reales"
    )


async def test_a_lesson_played_in_spanish_prompts_in_spanish(engine: LessonEngine) -> None:
    out = io.StringIO()
    console = Console(io.StringIO(scripted_answers(up="+", down="-")), out)
    with speaking("es"):
        await PlaySession(engine, console, PlayOptions(seed=3, classmates=2)).run()
    shown = out.getvalue()
    assert "Pulsa Enter para seguir (q para parar): " in shown
    assert "Tu predicción [1-" in shown
    assert ": ¿pulgar arriba o abajo? [+/-, Enter para saltar] +" in shown
    assert "no es una respuesta válida" not in shown
    assert "Tu respuesta [Enter para seguir]: " in shown
    assert "Press Enter" not in shown and "Your answer" not in shown
