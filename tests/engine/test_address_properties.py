"""Property tests: any custom_id is read back exactly or refused, never crashes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import Action, Address, parse_address
from bot.model import BadAddress

slugs = st.from_regex(r"[a-z0-9][a-z0-9-]{0,23}", fullmatch=True)
ARG_ACTIONS = [Action.CHOOSE, Action.UP, Action.DOWN, Action.CHECK]
PLAIN_ACTIONS = [Action.ANSWER, Action.REVEAL, Action.NEXT]


@given(st.text(max_size=150))
def test_any_text_is_an_exact_address_or_refused(text: str) -> None:
    try:
        address = parse_address(text)
    except BadAddress as error:
        assert str(error) == "That button is not one this bot understands."
    else:
        assert address.encode() == text


@given(st.integers(1, 10**12 - 1), slugs, st.sampled_from(ARG_ACTIONS), slugs)
def test_addresses_with_an_argument_round_trip(run: int, step: str, action: Action,
                                               arg: str) -> None:
    address = Address(run, step, action, arg)
    assert parse_address(address.encode()) == address


@given(st.integers(1, 10**12 - 1), slugs, st.sampled_from(PLAIN_ACTIONS))
def test_addresses_without_an_argument_round_trip(run: int, step: str, action: Action) -> None:
    address = Address(run, step, action)
    assert parse_address(address.encode()) == address


@given(st.integers(1, 10**6), slugs, st.sampled_from(ARG_ACTIONS), slugs, st.text(min_size=1,
                                                                                   max_size=5))
def test_a_tampered_address_never_reads_as_another_valid_one(
    run: int, step: str, action: Action, arg: str, junk: str
) -> None:
    tampered = Address(run, step, action, arg).encode() + junk
    try:
        parsed = parse_address(tampered)
    except BadAddress:
        return
    assert parsed.encode() == tampered
