"""Missing settings name their variable; secrets never show in logs or reprs."""

from __future__ import annotations

import io
import logging

import pytest
from pydantic import SecretStr

from bot.engine import LessonEngine
from bot.process.log_redaction import RedactSecrets
from bot.settings import MissingSetting
from bot.slack_adapter import build_app, build_slack_bot
from bot.slack_adapter.run import http_credentials, slack_command, socket_mode_credentials
from tests.slack_adapter.conftest import slack_settings

SLACK_VARIABLES = ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET")


@pytest.fixture(autouse=True)
def no_slack_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings in these tests come only from the arguments."""
    for variable in SLACK_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


def test_socket_mode_names_the_missing_app_token() -> None:
    with pytest.raises(MissingSetting, match="SLACK_APP_TOKEN is not set"):
        socket_mode_credentials(slack_settings())


def test_http_mode_names_the_missing_signing_secret() -> None:
    with pytest.raises(MissingSetting, match="SLACK_SIGNING_SECRET is not set"):
        http_credentials(slack_settings(slack_signing_secret=None))


def test_the_app_names_the_missing_bot_token() -> None:
    with pytest.raises(MissingSetting, match="SLACK_BOT_TOKEN is not set"):
        build_app(slack_settings(slack_bot_token=SecretStr(" ")), engine=object())  # type: ignore[arg-type]


def test_the_command_exits_with_the_variable_named(capsys: pytest.CaptureFixture[str]) -> None:
    settings = slack_settings(slack_signing_secret=None)
    assert slack_command(settings, http=True, port=3999, host="127.0.0.1") == 2
    assert "SLACK_SIGNING_SECRET is not set" in capsys.readouterr().err


def test_credentials_never_print_their_secrets() -> None:
    settings = slack_settings(slack_app_token=SecretStr("xapp-1-A0-secretvalue"))
    credentials = socket_mode_credentials(settings)
    assert "secretvalue" not in repr(credentials)
    assert "xoxb" not in repr(credentials)


def test_log_lines_are_scrubbed_of_tokens_and_secrets() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets(["my-signing-secret"]))
    logger = logging.getLogger("tests.slack_adapter.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("token %s and %s", "xoxb-123-456-abcdef", "my-signing-secret")
        logger.warning("app token xapp-1-A2-345-fedcba")
        logger.warning("url: https://hooks.slack.com/actions/T1/42/abcdsecret, body: {}")
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    assert "abcdef" not in output and "my-signing-secret" not in output
    assert "fedcba" not in output and "abcdsecret" not in output
    assert output.count("[redacted]") == 4


def test_burst_handling_follows_its_one_switch(engine: LessonEngine) -> None:
    for on in (True, False):
        bot = build_slack_bot(slack_settings(burst_handling=on), engine)
        assert bot.requests.inflight.acks.enabled is on


def test_a_bot_token_in_the_environment_draws_no_warning_that_it_goes_unused(
    engine: LessonEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-from-the-environment")
    caplog.set_level(logging.WARNING)
    build_slack_bot(slack_settings(), engine)
    assert [r.getMessage() for r in caplog.records if r.name.startswith("slack_bolt")] == []
