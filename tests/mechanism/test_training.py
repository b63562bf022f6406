"""GRPO training of the toy style policy on the three rewards, for fixed seeds."""

from __future__ import annotations

import numpy as np
import pytest

from bot.mechanism.rewards import checked_probabilities, reward_probabilities
from bot.mechanism.training import TrainingSettings, train_all, train_policy

FLATTERING_SHARES = {"flattering": 0.7, "hedging": 0.1, "careful": 0.2}
CAREFUL_SHARES = {"flattering": 0.1, "hedging": 0.1, "careful": 0.8}
CHECKER = {"careful": 1.0}
NAIVE = {"careful": 1.0, "hedging": 1.0}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_flattering_votes_train_a_flatterer_and_checkers_do_not(seed: int) -> None:
    runs = train_all(FLATTERING_SHARES, CHECKER, NAIVE, seed=seed)
    assert runs.thumbs_up.preferred_style == "flattering"
    assert runs.thumbs_up.final_probs["flattering"] > 0.8
    assert runs.checker.preferred_style == "careful"
    assert runs.checker.final_probs["careful"] > 0.8
    assert runs.naive_checker.preferred_style == "hedging"
    assert runs.naive_checker.final_probs["hedging"] > 0.8


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_careful_votes_train_a_careful_model(seed: int) -> None:
    runs = train_all(CAREFUL_SHARES, CHECKER, NAIVE, seed=seed)
    assert runs.thumbs_up.preferred_style == "careful"


def test_run_completes_the_requested_steps_and_records_history() -> None:
    runs = train_all(FLATTERING_SHARES, CHECKER, NAIVE, seed=0, steps=300)
    for run in runs:
        steps = [step for step, _ in run.history]
        assert run.steps == 300
        assert steps == list(range(0, 301, 10))
        assert run.history[0][1] == (0.25, 0.25, 0.25, 0.25)
        assert all(sum(probs) == pytest.approx(1.0, abs=1e-3) for _, probs in run.history)


def test_last_step_is_recorded_when_not_a_multiple() -> None:
    run = train_policy("x", reward_probabilities(CHECKER), TrainingSettings(steps=25))
    assert [step for step, _ in run.history] == [0, 10, 20, 25]


def test_same_seed_same_history_and_other_seed_differs() -> None:
    first = train_all(FLATTERING_SHARES, CHECKER, NAIVE, seed=7, steps=50)
    again = train_all(FLATTERING_SHARES, CHECKER, NAIVE, seed=7, steps=50)
    other = train_all(FLATTERING_SHARES, CHECKER, NAIVE, seed=8, steps=50)
    assert first == again
    assert first.thumbs_up.history != other.thumbs_up.history


def test_no_reward_means_no_learning() -> None:
    runs = train_all({}, CHECKER, NAIVE, seed=0, steps=100)
    assert runs.thumbs_up.final_probs == dict.fromkeys(runs.thumbs_up.styles, 0.25)


def test_careful_passes_checkers_only_at_its_hit_rate() -> None:
    naive = checked_probabilities(NAIVE, careful_hit_rate=0.7)
    np.testing.assert_allclose(naive, [0.0, 0.0, 1.0, 0.7])
    np.testing.assert_allclose(reward_probabilities(FLATTERING_SHARES), [0.7, 0.0, 0.1, 0.2])


@pytest.mark.parametrize("rewards", [{"polite": 1.0}, {"careful": 1.5}, {"careful": -0.1}])
def test_reward_mappings_are_validated(rewards: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        reward_probabilities(rewards)


@pytest.mark.parametrize(
    "settings",
    [TrainingSettings(steps=0), TrainingSettings(group_size=1), TrainingSettings(learning_rate=0)],
)
def test_bad_settings_are_rejected(settings: TrainingSettings) -> None:
    with pytest.raises(ValueError):
        train_policy("x", reward_probabilities(CHECKER), settings)
