"""Unicode clean-up: what is graded must be what is displayed."""

from __future__ import annotations

import pytest

from bot.verifier.errors import ReadError
from bot.verifier.normalize import normalize_text, preview


@pytest.mark.parametrize("minus", ["\u2212", "\u2013", "\u2012", "\u2010", "\ufe63", "\uff0d"])
def test_minus_sign_lookalikes_become_hyphen_minus(minus: str) -> None:
    assert normalize_text(f"{minus}3") == "-3"


@pytest.mark.parametrize("invisible", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])
def test_zero_width_characters_are_stripped(invisible: str) -> None:
    assert normalize_text(f"1{invisible}000") == "1000"


@pytest.mark.parametrize(
    "control", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
                "\u2069", "\u200e", "\u200f"]
)
def test_text_direction_controls_are_refused(control: str) -> None:
    with pytest.raises(ReadError, match="text-direction"):
        normalize_text(f"1{control}2")


@pytest.mark.parametrize("hidden", ["\x00", "\x1b", "\u2062", "\U000e0041"])
def test_other_hidden_characters_are_refused(hidden: str) -> None:
    with pytest.raises(ReadError, match="hidden character"):
        normalize_text(f"1{hidden}2")


def test_nfkc_folds_full_width_digits() -> None:
    assert normalize_text("１２") == "12"


def test_superscripts_become_explicit_powers() -> None:
    assert normalize_text("x²") == "x^(2)"
    assert normalize_text("10⁻³") == "10^(-3)"


def test_vulgar_fractions_are_bracketed() -> None:
    assert normalize_text("½") == "(1/2)"


def test_mixed_numbers_with_vulgar_fractions_are_refused() -> None:
    with pytest.raises(ReadError, match="mixed number"):
        normalize_text("1½")


def test_maths_symbols_are_spelled_out() -> None:
    assert normalize_text("3×4÷2") == "3*4/2"
    assert normalize_text("2π").split() == ["2", "pi"]


def test_preview_drops_hidden_characters_and_truncates() -> None:
    assert preview("a\u202eb\x00c") == "abc"
    shown = preview("x" * 1_000_000)
    assert len(shown) <= 60 and shown.endswith("…")
