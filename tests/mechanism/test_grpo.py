"""The channel as a GRPO group: mean, sample std and advantages."""

from __future__ import annotations

import numpy as np
import pytest

from bot.i18n import speaking
from bot.mechanism.grpo import (
    group_advantages,
    group_stats,
    group_stats_from_rewards,
    group_text,
)


def test_known_group_gives_published_advantages() -> None:
    stats = group_stats_from_rewards([1, 0, 0, 1, 1, 0, 0, 0])
    assert (stats.correct, stats.wrong, stats.size) == (3, 5, 8)
    assert stats.mean == pytest.approx(0.375)
    assert stats.std == pytest.approx(np.std([1, 0, 0, 1, 1, 0, 0, 0], ddof=1))
    assert stats.adv_correct is not None and round(stats.adv_correct, 2) == 1.21
    assert stats.adv_wrong is not None and round(stats.adv_wrong, 2) == -0.72
    assert stats.std_kind == "the sample standard deviation"


def test_counts_and_list_agree() -> None:
    assert group_stats(3, 5) == group_stats_from_rewards([1, 0, 0, 1, 1, 0, 0, 0])


def test_vector_advantages_match_the_formula() -> None:
    rewards = np.array([1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    expected = (rewards - rewards.mean()) / (rewards.std(ddof=1) + 1e-4)
    np.testing.assert_allclose(group_advantages(rewards), expected)


@pytest.mark.parametrize(("correct", "wrong"), [(4, 0), (0, 4)])
def test_all_equal_group_has_zero_advantages(correct: int, wrong: int) -> None:
    stats = group_stats(correct, wrong)
    assert stats.all_equal
    assert stats.std == 0.0
    present = [adv for adv in (stats.adv_correct, stats.adv_wrong) if adv is not None]
    assert present == [0.0]
    assert np.all(group_advantages([float(correct > 0)] * 4) == 0.0)
    assert any("teaches nothing" in line for line in group_text(stats))


def test_group_of_one_treats_std_as_zero() -> None:
    stats = group_stats(1, 0)
    assert stats.std == 0.0
    assert stats.adv_correct == 0.0
    assert stats.adv_wrong is None
    assert "group of 1" in stats.std_kind
    assert group_advantages([1.0]).tolist() == [0.0]


def test_rarer_success_earns_bigger_advantage() -> None:
    rare = group_stats(1, 7).adv_correct
    common = group_stats(7, 1).adv_correct
    assert rare is not None and common is not None and rare > common


def test_empty_group_is_explained_not_an_error() -> None:
    stats = group_stats(0, 0)
    assert stats.size == 0 and stats.adv_correct is None and stats.adv_wrong is None
    assert group_text(stats) == ["No one has a graded answer yet, so there is no group to compare."]


def test_text_reports_counts_mean_std_and_both_advantages() -> None:
    text = "\n".join(group_text(group_stats(3, 5)))
    for expected in ("**3 of 8**", "0.38", "0.52", "+1.21", "-0.72", "teaches nothing"):
        assert expected in text
    assert "(spread + 0.0001)" in text and text.count("0.0001") == 1
    assert "ddof" not in text and "GRPOTrainer" not in text


@pytest.mark.parametrize("bad", [[2], [-1], [1, 0, 3]])
def test_rewards_must_be_zero_or_one(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="0 or 1"):
        group_stats_from_rewards(bad)


def test_negative_counts_are_rejected() -> None:
    with pytest.raises(ValueError, match="negative"):
        group_stats(-1, 2)


def test_the_group_s_arithmetic_is_written_as_the_language_writes_numbers() -> None:
    stats = group_stats(3, 5)
    english = " ".join(group_text(stats))
    with speaking("es"):
        spanish = " ".join(group_text(stats))
    assert "Group mean **0.38**, spread **0.52**" in english
    assert "a correct answer gets **+1.21**" in english and "**-0.72**" in english
    assert "Media del grupo **0,38**, dispersión **0,52**" in spanish
    assert "**+1,21**" in spanish and "**-0,72**" in spanish and "0,0001" in spanish
