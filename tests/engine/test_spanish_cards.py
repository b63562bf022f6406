"""A run spoken in Spanish: its card, receipts, reveal, chart description and results."""

from __future__ import annotations

import pytest

from bot.engine import Action, Address, LessonEngine
from bot.i18n import speaking
from bot.model import LineChart, UnknownChoice, describe_chart
from lessons.schema import PredictionStep, VerifierStep
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST, start_at

ENGLISH_CHROME = (
    "answered",
    "Reveal",
    "Step",
    "chose the right answer",
    "this channel",
    "Bar chart",
    "Bars show",
    "the right answer",
    "took part",
    "Results:",
    "in progress",
)


def english_left(engine: LessonEngine, texts: list[str]) -> list[str]:
    """The English interface words still in `texts`, once the lesson's own words are taken out."""
    lesson = engine.catalog.get()
    own = [lesson.title, *(step.title for step in lesson.steps)]
    own += [c.label for step in lesson.steps for c in getattr(step, "choices", ())]
    for words in sorted(own, key=len, reverse=True):
        texts = [text.replace(words, "") for text in texts]
    return [word for word in ENGLISH_CHROME for text in texts if word in text]


async def test_a_prediction_card_and_its_receipts_speak_spanish(engine: LessonEngine) -> None:
    with speaking("es"):
        card = await start_at(engine, "prediction")
        step = engine.catalog.get().step_by_id(card.step_id)
        assert isinstance(step, PredictionStep)
        right = step.correct_choice
        assert right is not None
        receipt = await engine.choose(card.run_id, card.step_id, ALICE, right.id)
        current = await engine.current_card(card.run_id)
        counter = current.counter_text
        with pytest.raises(UnknownChoice) as refused:
            await engine.choose(card.run_id, card.step_id, BOB, "made-up")
    host_labels = [button.label for button in current.buttons if button.host_only]
    assert host_labels == ["Revelar"]
    assert current.unit == "Paso"
    assert counter == "1 respondió"
    assert receipt.full_text() == (
        f"Tu elección: **{right.label}**. Puedes cambiar de opinión hasta que se revele."
    )
    assert str(refused.value) == "'made-up' no es una de las opciones de esta pregunta."
    assert english_left(engine, [counter, *host_labels, receipt.full_text()]) == []


async def test_a_reveal_its_chart_description_and_the_results_speak_spanish(
    engine: LessonEngine,
) -> None:
    with speaking("es"):
        card = await start_at(engine, "prediction")
        step = engine.catalog.get().step_by_id(card.step_id)
        assert isinstance(step, PredictionStep)
        right = step.correct_choice
        assert right is not None
        wrong = next(choice for choice in step.choices if not choice.correct)
        await engine.choose(card.run_id, card.step_id, ALICE, right.id)
        await engine.choose(card.run_id, card.step_id, BOB, wrong.id)
        _closed, reveal = await engine.reveal(card.run_id, HOST)
        assert reveal.chart is not None
        description = describe_chart(reveal.chart)
        summary = await engine.results(card.run_id)
    assert "Eligieron la respuesta correcta: 1 de 2 (50\xa0%)." in reveal.notes
    assert reveal.chart.title == f"{step.title}: predicciones de este canal (respondieron: 2)"
    assert reveal.chart.legend == (("✓", "la respuesta correcta"),)
    assert description.startswith(f"Gráfico de barras: {step.title}: predicciones de este canal")
    assert "Las barras muestran el % de este canal." in description
    assert "1 de 2 (50\xa0%)" in description
    assert [button.label for button in reveal.buttons if button.host_only] == ["Siguiente"]
    assert summary.title.startswith("Resultados: ")
    assert "2 miembros participaron." in summary.lines
    lesson = engine.catalog.get()
    assert summary.lines[0] == f"En curso, paso 2 de {len(lesson.steps)}."
    assert f"**{step.title}**: 1 de 2 aciertos (50\xa0%)" in summary.lines
    assert summary.chart is not None
    assert summary.chart.value_label == "% de quienes respondieron que acertaron"
    shown = [*reveal.notes, reveal.chart.title, description, summary.title, *summary.lines]
    assert english_left(engine, shown) == []


async def test_outside_spanish_the_same_reveal_stays_english(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, PredictionStep)
    right = step.correct_choice
    assert right is not None
    await engine.choose(card.run_id, card.step_id, ALICE, right.id)
    _closed, reveal = await engine.reveal(card.run_id, HOST)
    assert reveal.chart is not None
    assert "1 of 1 (100%) chose the right answer." in reveal.notes
    assert describe_chart(reveal.chart).startswith(f"Bar chart: {step.title}: this channel's")


async def test_the_mechanism_card_and_its_line_chart_speak_spanish(engine: LessonEngine) -> None:
    with speaking("es"):
        card = await start_at(engine, "verifier")
        step = engine.catalog.get().step_by_id(card.step_id)
        assert isinstance(step, VerifierStep)
        polished = step.attempts[0]
        for attempt in step.attempts:
            await engine.rate(card.run_id, step.id, ALICE, attempt.id, attempt == polished)
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None and isinstance(advance.card.chart, LineChart)
        chart = advance.card.chart
        description = describe_chart(chart)
        more = Address(card.run_id, advance.card.step_id, Action.MORE)
        told = (await engine.click(more, ALICE, CHANNEL)).receipt
    assert told is not None
    mechanism = advance.card
    headings = [section.heading for section in mechanism.sections]
    text = "\n".join(section.text for section in mechanism.sections)
    assert headings == ["Qué aprendió el modelo de juguete"]
    assert "**Pulgar arriba:** " in text and "**Verificador:** " in text
    assert "**Cómo se entrenó**" in told.text and "Supuestos: " in told.text
    assert "pasos de entrenamiento por ejecución" in told.text
    assert chart.title.startswith("Política softmax de juguete sobre los intentos de la lección")
    assert [panel.title for panel in chart.panels] == [
        "Recompensa: pulgar arriba", "Recompensa: verificador", "Recompensa: verificador ingenuo"
    ]
    assert description.startswith("Gráfico de líneas: Política softmax")
    assert "con la probabilidad de cada línea del paso de entrenamiento 0 al " in description
    assert "Line chart" not in description and "Thumbs-up" not in text
