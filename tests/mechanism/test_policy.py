"""The softmax policy and its policy-gradient step."""

from __future__ import annotations

import numpy as np

from bot.mechanism.policy import (
    log_prob_gradient,
    policy_gradient_step,
    sample_group,
    softmax,
)


def test_softmax_is_a_distribution_even_for_large_logits() -> None:
    probs = softmax(np.array([1000.0, 999.0, 0.0, -5.0]))
    assert abs(probs.sum() - 1.0) < 1e-12
    assert np.all(probs >= 0) and probs[0] > probs[1]


def test_sampling_is_seeded_and_in_range() -> None:
    probs = softmax(np.zeros(4))
    first = sample_group(probs, 8, np.random.default_rng(3))
    again = sample_group(probs, 8, np.random.default_rng(3))
    assert first.tolist() == again.tolist()
    assert first.shape == (8,) and set(first.tolist()) <= {0, 1, 2, 3}


def test_gradient_matches_onehot_minus_probs() -> None:
    probs = softmax(np.array([0.2, -0.1, 0.0, 0.5]))
    picks = np.array([0, 3, 3])
    advantages = np.array([1.0, -0.5, 2.0])
    terms = [adv * (np.eye(4)[pick] - probs) for pick, adv in zip(picks, advantages, strict=True)]
    expected = np.mean(terms, axis=0)
    np.testing.assert_allclose(log_prob_gradient(probs, picks, advantages), expected)


def test_positive_advantage_raises_that_style() -> None:
    logits = np.zeros(4)
    updated = policy_gradient_step(logits, np.array([2, 1]), np.array([1.0, -1.0]), 0.5)
    probs = softmax(updated)
    assert probs[2] > 0.25 > probs[1]
