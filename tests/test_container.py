"""The container files, checked without a Docker engine: the Dockerfile parsed by Docker's own
parser, its entrypoint run here as the image would run it, and compose.yaml read as compose
reads it."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import dockerfile
import pytest
import yaml
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from bot.cli import cli
from bot.settings import Settings
from storage.migrate import alembic_config

ROOT = Path(__file__).resolve().parents[1]
INSTRUCTIONS = dockerfile.parse_file(str(ROOT / "Dockerfile"))
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
UNREACHABLE = "postgresql+asyncpg://nobody@127.0.0.1:9/none"


def instructions(name: str) -> list[dockerfile.Command]:
    """The Dockerfile's instructions of one kind, in order."""
    return [command for command in INSTRUCTIONS if command.cmd == name.upper()]


def image_environment() -> dict[str, str]:
    """The variables the image sets with ENV."""
    values = [command.value for command in instructions("ENV")]
    return {pairs[n]: pairs[n + 1] for pairs in values for n in range(0, len(pairs), 2)}


def run_entrypoint(
    arguments: list[str], database_url: str, folder: Path
) -> tuple[int, str, str]:
    """Run the image's ENTRYPOINT with `arguments` as its command, with this checkout's bot."""
    entrypoint = instructions("ENTRYPOINT")[-1]
    assert entrypoint.json, "ENTRYPOINT should be in exec form, so signals reach the bot"
    bin_folder = str(Path(sys.executable).parent)
    environment = {"PATH": bin_folder + ":/usr/bin:/bin", "DATABASE_URL": database_url}
    finished = subprocess.run(
        [*entrypoint.value, *arguments], cwd=folder, env=environment,
        capture_output=True, text=True, timeout=120, check=False,
    )
    return finished.returncode, finished.stdout, finished.stderr


def test_the_image_runs_as_an_unprivileged_user_after_installing() -> None:
    users = instructions("USER")
    assert users and users[-1].value[0] not in {"root", "0"}
    last_run = max(command.start_line for command in instructions("RUN"))
    assert users[-1].start_line > last_run
    creates_the_user = f"useradd --create-home --uid 10001 {users[-1].value[0]}"
    assert creates_the_user in instructions("RUN")[-1].original


def test_the_image_copies_what_installing_and_migrating_need_and_no_secret() -> None:
    copied = {source for command in instructions("COPY") for source in command.value[:-1]}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = project["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {name.rstrip("*") for name in found}
    data = project["tool"]["setuptools"]["data-files"].values()
    data_folders = {Path(pattern).parts[0] for patterns in data for pattern in patterns}
    assert data_folders == {"alembic"}
    needed = {"requirements.lock", "pyproject.toml", project["project"]["readme"], "LICENSE",
              *packages, *data_folders}
    assert copied == needed
    assert all((ROOT / source).exists() for source in copied)
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert ".env" in ignored and "*.db" in ignored


def test_the_image_installs_the_locked_dependencies_before_copying_the_code() -> None:
    copies, runs = instructions("COPY"), instructions("RUN")
    (lock,) = [copy for copy in copies if "requirements.lock" in copy.value]
    installs = [run for run in runs if "pip install" in run.original]
    assert installs[0].original.endswith("pip install --requirement requirements.lock")
    assert lock.start_line < installs[0].start_line < min(
        copy.start_line for copy in copies if copy is not lock
    )
    assert "pip install --no-deps ." in installs[1].original
    assert len(installs) == 2


def test_the_image_exposes_the_http_mode_port() -> None:
    assert instructions("EXPOSE")[-1].value == ("3000",)
    assert "--port 3000" in (ROOT / "Dockerfile").read_text(encoding="utf-8")


@pytest.mark.parametrize("package", ["bot", "lessons", "storage"])
def test_the_copied_packages_import_nothing_left_out_of_the_image(package: str) -> None:
    left_out = re.compile(r"^\s*(?:from|import) (?:fakes|tests|benchmarks)\b", re.MULTILINE)
    offenders = [str(path.relative_to(ROOT)) for path in (ROOT / package).rglob("*.py")
                 if left_out.search(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_image_settings_are_real_settings_and_keep_the_database_on_the_volume() -> None:
    environment = image_environment()
    bot_settings = {key.lower(): value for key, value in environment.items()
                    if not key.startswith(("PYTHON", "PIP_"))}
    settings = Settings(_env_file=None, **bot_settings)
    volume = instructions("VOLUME")[-1].value[0].rstrip("/")
    assert str(make_url(settings.database_url).database).startswith(volume + "/")
    assert settings.health_file is not None and settings.health_interval > 0


def test_the_health_check_runs_the_health_command() -> None:
    healthcheck = instructions("HEALTHCHECK")[-1]
    assert healthcheck.json and healthcheck.value[:3] == ("CMD", "lessonbot", "health")
    assert "health" in cli.commands
    assert "HEALTH_FILE" in image_environment()


def test_the_entrypoint_migrates_then_runs_the_command(tmp_path: Path) -> None:
    database = tmp_path / "lessonbot.db"
    url = f"sqlite+aiosqlite:///{database}"
    status, output, errors = run_entrypoint(["lessons", "list"], url, tmp_path)
    assert status == 0, errors
    assert "Database is at revision head." in errors
    assert output.startswith("rlvr\t")  # only the command's own output: an export stays CSV
    with sqlite3.connect(database) as connection:
        (revision,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    assert revision == ScriptDirectory.from_config(alembic_config(url)).get_current_head()


def test_the_entrypoint_stops_before_the_command_if_migrating_fails(tmp_path: Path) -> None:
    status, output, _ = run_entrypoint(["lessons", "list"], UNREACHABLE, tmp_path)
    assert status != 0 and "rlvr\t" not in output


def test_the_default_command_and_compose_commands_are_bot_commands() -> None:
    commands = cli.commands
    assert instructions("CMD")[-1].value[0] in commands
    assert COMPOSE["services"]["bot"]["command"][0] in commands


def interpolated(value: str, variables: dict[str, str]) -> str:
    """`value` with compose's `${NAME}` and `${NAME:?message}` replaced from `variables`."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda match: variables[match.group(1)], value)


def test_compose_runs_the_bot_on_its_postgres_once_that_is_healthy() -> None:
    postgres, bot = COMPOSE["services"]["postgres"], COMPOSE["services"]["bot"]
    assert bot["build"] == "." and bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    variables = {"POSTGRES_PASSWORD": "s3cret-pass"}
    url = make_url(interpolated(bot["environment"]["DATABASE_URL"], variables))
    assert url.drivername == "postgresql+asyncpg" and url.host == "postgres"
    assert url.username == postgres["environment"]["POSTGRES_USER"]
    assert url.database == postgres["environment"]["POSTGRES_DB"]
    assert url.password == interpolated(postgres["environment"]["POSTGRES_PASSWORD"], variables)
    assert postgres["volumes"][0].split(":")[0] in COMPOSE["volumes"]


def test_compose_takes_secrets_from_dot_env_and_holds_none_itself() -> None:
    bot = COMPOSE["services"]["bot"]
    assert bot["env_file"] == [{"path": ".env", "required": False}]
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert not re.search(r"(TOKEN|SECRET)\s*:", text)
    password = COMPOSE["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"]
    assert password.startswith("${POSTGRES_PASSWORD:?")


def test_an_install_without_the_migrations_says_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("storage.migrate.SOURCE_MIGRATIONS", tmp_path / "alembic")
    monkeypatch.setattr("storage.migrate.INSTALLED_MIGRATIONS", tmp_path / "share")
    with pytest.raises(FileNotFoundError, match="reinstall the bot"):
        alembic_config("sqlite+aiosqlite:///unused.db")
