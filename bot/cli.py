"""The command line: `python -m bot ...` and `lessonbot ...`."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click
from pydantic import ValidationError

from bot.i18n import available_languages
from bot.settings import Settings
from bot.verifier.languages import LANGUAGES

DISTRIBUTION = "rlvr-lessonbot"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=DISTRIBUTION, prog_name="lessonbot")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """The RLVR lesson bot: run the lesson in a terminal, on Discord or on Slack."""
    if ctx.obj is None:
        ctx.obj = Settings()


@cli.command()
@click.option("--lesson", "lesson", default=None, help="Lesson id or path to a lesson YAML file.")
@click.option("--seed", default=7, show_default=True, help="Seed for the simulated classmates.")
@click.option(
    "--classmates",
    default=12,
    show_default=True,
    type=click.IntRange(0, 200),
    help="How many simulated classmates join.",
)
@click.option(
    "--charts",
    "charts",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each reveal's chart as a PNG file into this folder.",
)
@click.option(
    "--assigned",
    is_flag=True,
    help="Try the assigned mode: everyone takes the lesson at their own pace, then you close it.",
)
@click.option(
    "--recall",
    is_flag=True,
    help="Instead of playing the lesson, take the delayed recall check of a run played before "
    "in this database (the latest, or --run) now: the clock moves on to it, then you see what "
    "the channel kept, a simulation with the classmates' forgetting rates stated.",
)
@click.option(
    "--run",
    "run_id",
    default=None,
    type=click.IntRange(min=1),
    help="With --recall: the run whose check to take (its id, as play printed it).",
)
@click.option(
    "--lang",
    "language",
    default=None,
    type=click.Choice(available_languages(), case_sensitive=False),
    help="Play the lesson in this language (its translation and play's own words).",
)
@click.pass_obj
def play(
    settings: Settings,
    lesson: str | None,
    seed: int,
    classmates: int,
    charts: Path | None,
    assigned: bool,
    recall: bool,
    run_id: int | None,
    language: str | None,
) -> None:
    """Play the lesson in the terminal with simulated classmates, or take a run's recall check."""
    from bot.play.main import play_lesson
    from bot.play.session import PlayOptions

    if run_id is not None and not recall:
        raise click.UsageError("--run names the run whose check --recall takes: add --recall.")
    chosen = language.lower() if language else None
    options = PlayOptions(lesson, seed, classmates, charts, assigned, recall, chosen, run_id)
    sys.exit(asyncio.run(play_lesson(settings, options)))


@cli.group()
def lessons() -> None:
    """Check and describe lesson files."""


@lessons.command("validate")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.pass_obj
def lessons_validate(settings: Settings, files: tuple[Path, ...]) -> None:
    """Validate lesson files (all shipped lessons when none are given)."""
    from bot.lesson_check import validate_command

    sys.exit(asyncio.run(validate_command(list(files), settings.checker_timeout)))


@lessons.command("schema")
@click.option(
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the JSON Schema to this file instead of printing it.",
)
def lessons_schema(output: Path | None) -> None:
    """Print the JSON Schema of the lesson format, for editors."""
    from lessons.schema import Lesson

    text = json.dumps(Lesson.model_json_schema(), indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@lessons.command("list")
def lessons_list() -> None:
    """List the lessons shipped with the bot."""
    from bot.engine import LessonCatalog
    from lessons.reading import lesson_length

    catalog = LessonCatalog()
    for lesson_id in catalog.ids():
        lesson = catalog.get(lesson_id)
        click.echo(f"{lesson_id}\t{lesson.title} ({lesson_length(lesson)})")


@cli.group()
def db() -> None:
    """Manage the database."""


@db.command("upgrade")
@click.option("--revision", default="head", show_default=True)
@click.pass_obj
def db_upgrade(settings: Settings, revision: str) -> None:
    """Apply migrations to DATABASE_URL."""
    from storage.migrate import upgrade_sync

    upgrade_sync(settings.database_url, revision)
    click.echo(f"Database is at revision {revision}.")


@cli.command()
@click.pass_obj
def health(settings: Settings) -> None:
    """Exit 0 if the running bot's heartbeat in HEALTH_FILE is fresh, 1 if not (health checks)."""
    from bot.process.upkeep import health_report

    if settings.health_file is None:
        raise click.UsageError("HEALTH_FILE is not set: the bot writes no heartbeat to check.")
    healthy, line = health_report(settings.health_file, settings.health_interval)
    click.echo(line, err=not healthy)
    sys.exit(0 if healthy else 1)


@cli.command()
@click.argument("answer")
@click.argument("gold_argument", metavar="[GOLD]", required=False)
@click.option("--gold", help="The known-correct answer (or give it after ANSWER).")
@click.option("--unit", help="The unit the answer is in, such as km/h or degrees.")
@click.option("--accept", multiple=True,
              help="Another accepted spelling of a gold answer in words (repeatable).")
@click.option("--language", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="The language the answer is written in (es: 3,5 is 3.5).")
def verify(
    answer: str, gold_argument: str | None, gold: str | None, unit: str | None,
    accept: tuple[str, ...], language: str,
) -> None:
    """Grade ANSWER against the gold and show what the checker read (exit 0, 1 or 2)."""
    from bot.verifier.cli import verify_command
    from bot.verifier.units import find_unit, known_units

    if (gold_argument is None) == (gold is None):
        raise click.UsageError("Give the gold answer once: after ANSWER, or with --gold.")
    if unit is not None and find_unit(unit) is None:
        raise click.BadParameter(f"'{unit}' is not a unit I know ({known_units()}).",
                                 param_hint="--unit")
    sys.exit(verify_command(
        answer, gold_argument or gold or "", unit=unit, accept=accept, language=language
    ))


@cli.command()
@click.option("--votes", required=True,
              help="Thumbs-ups per attempt of the lesson, e.g. polished=7,thorough=2,hedge=1 "
                   "(an attempt's id, its label or one word of it).")
@click.option("--raters", type=int, default=None,
              help="How many people rated each attempt [default: the highest count].")
@click.option("--seed", default=0, show_default=True, help="Seed for the training runs.")
@click.option("--steps", default=300, show_default=True, help="GRPO steps per run.")
@click.option("--lesson", "lesson_id", default="rlvr", show_default=True,
              help="The lesson whose attempts the toy picks from.")
@click.option("--chart", "chart_path", default=None, type=click.Path(),
              help="Also write the training chart to this PNG file.")
def mechanism(votes: str, raters: int | None, seed: int, steps: int, lesson_id: str,
              chart_path: str | None) -> None:
    """Train the toy policy on thumbs-up votes, a checker and a naive checker; print the result."""
    from bot.mechanism.cli import MechanismOptions, mechanism_command
    from bot.play.console import Console

    options = MechanismOptions(seed, steps, raters, lesson_id, chart_path)
    sys.exit(mechanism_command(votes, options, Console().show))


@cli.command("discord")
@click.pass_obj
def discord_command(settings: Settings) -> None:
    """Run the bot on Discord (needs DISCORD_TOKEN)."""
    from bot.discord_adapter.run import run_discord_command

    sys.exit(run_discord_command(settings))


@cli.command()
@click.option("--http", "http_mode", is_flag=True,
              help="Serve HTTP at /slack/events instead of Socket Mode.")
@click.option("--port", default=3000, show_default=True, type=click.IntRange(1, 65535),
              help="HTTP port (with --http).")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="HTTP bind address (with --http).")
@click.pass_obj
def slack(settings: Settings, http_mode: bool, port: int, host: str) -> None:
    """Run the bot on Slack: Socket Mode, or HTTP with --http."""
    from bot.slack_adapter.run import slack_command

    sys.exit(slack_command(settings, http_mode, port, host))


@cli.command()
@click.option("--run", "run_id", required=True, type=int, help="The run to export.")
@click.option("--output", type=click.Path(path_type=Path), default=None,
              help="Write the CSV to this file instead of printing it.")
@click.pass_obj
def export(settings: Settings, run_id: int, output: Path | None) -> None:
    """Export every answer of a run as CSV."""
    from bot.data_commands import export_command

    sys.exit(asyncio.run(export_command(settings.database_url, run_id, output)))


@cli.command()
@click.option("--platform", required=True, type=click.Choice(["discord", "slack", "terminal"]))
@click.option("--workspace", required=True, help="Discord server id or Slack team id.")
@click.option("--user", "user_id", required=True, help="The member's platform user id.")
@click.option("--confirm", is_flag=True, help="Delete; without it, only say what would go.")
@click.pass_obj
def forget(settings: Settings, platform: str, workspace: str, user_id: str, confirm: bool) -> None:
    """Say what is stored about a member in a workspace; with --confirm, delete it."""
    from bot.data_commands import forget_command

    forgetting = forget_command(settings.database_url, platform, workspace, user_id, confirm)
    sys.exit(asyncio.run(forgetting))


def main() -> None:
    """Entry point of the console script and of `python -m bot`."""
    try:
        settings = Settings()
    except ValidationError as error:
        sys.exit(settings_problem(error))
    cli(obj=settings)


def settings_problem(error: ValidationError) -> str:
    """One line per bad setting, naming its variable, for a person to fix."""
    lines = []
    for problem in error.errors():
        variable = "_".join(str(part) for part in problem["loc"]).upper()
        lines.append(f"{variable}: {problem['msg'].removeprefix('Value error, ')}")
    return "Cannot start, a setting is wrong (environment or .env):\n" + "\n".join(lines)
