"""GRPO training of the toy policy over the lesson's attempts, for fixed seeds."""

from __future__ import annotations

import pytest

from bot.mechanism import Reward, TrainingSettings, train_policy
from tests.mechanism.helpers import ATTEMPTS, trained

POLISHED = {"polished": (7, 0), "thorough": (2, 5), "hedge": (1, 6), "second-look": (0, 7)}
LABELS = tuple(a.label for a in ATTEMPTS)
CHECKER = Reward("checker", "", (0.0, 0.0, 0.0, 1.0))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_polished_votes_train_a_polished_toy_and_the_checker_a_second_look(seed: int) -> None:
    runs = trained(POLISHED, seed=seed)
    assert runs.thumbs_up.favourite == "The polished one"
    assert runs.thumbs_up.final_probs["The polished one"] > 0.8
    assert runs.checker.favourite == "The second look"
    assert runs.checker.final_probs["The second look"] > 0.8


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_naive_checker_keeps_the_hedge_alive_beside_the_right_answer(seed: int) -> None:
    final = trained(POLISHED, seed=seed).naive_checker.final_probs
    assert final["The hedge"] + final["The second look"] > 0.9
    assert final["The hedge"] > 0.15


def test_run_completes_the_requested_steps_and_records_history() -> None:
    for run in trained(POLISHED, steps=300):
        assert run.steps == 300
        assert [step for step, _ in run.history] == list(range(0, 301, 10))
        assert run.history[0][1] == (0.25, 0.25, 0.25, 0.25)
        assert all(sum(probs) == pytest.approx(1.0, abs=1e-3) for _, probs in run.history)


def test_last_step_is_recorded_when_not_a_multiple() -> None:
    run = train_policy(CHECKER, LABELS, TrainingSettings(steps=25))
    assert [step for step, _ in run.history] == [0, 10, 20, 25]


def test_same_seed_same_history_and_other_seed_differs() -> None:
    first, again, other = (trained(POLISHED, seed=s, steps=50) for s in (7, 7, 8))
    assert first == again
    assert first.thumbs_up.history != other.thumbs_up.history


@pytest.mark.parametrize("chances", [(1.0,), (0.0, 0.0, 0.0, 1.5), (0.0, 0.0, 0.0, -0.1)])
def test_a_reward_needs_one_chance_in_0_to_1_per_attempt(chances: tuple[float, ...]) -> None:
    with pytest.raises(ValueError):
        train_policy(Reward("x", "", chances), LABELS, TrainingSettings())


@pytest.mark.parametrize(
    "settings",
    [TrainingSettings(steps=0), TrainingSettings(group_size=1), TrainingSettings(learning_rate=0)],
)
def test_bad_settings_are_rejected(settings: TrainingSettings) -> None:
    with pytest.raises(ValueError):
        train_policy(CHECKER, LABELS, settings)


def test_a_lesson_with_three_attempts_trains_over_three() -> None:
    labels = ("A", "B", "C")
    run = train_policy(Reward("checker", "", (0.0, 1.0, 0.0)), labels, TrainingSettings())
    assert run.favourite == "B" and len(run.history[-1][1]) == 3
