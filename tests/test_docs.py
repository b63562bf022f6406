"""The docs against the code: settings, commands, Slack scopes, make targets and CLI commands.

Each check is a function of the texts it compares, so each test also runs it once on a copy
broken on purpose and sees it fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
import yaml
from discord import app_commands

from bot.cli import cli
from bot.discord_adapter.commands import (
    FORGET_ME,
    LessonCommands,
    forget_me_command,
    way_back_command,
)
from bot.engine import LessonCatalog
from bot.service import VERBS, CommandArgs
from bot.settings import Settings
from bot.slack_adapter.scopes import METHOD_SCOPES, bot_scopes, methods_called

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
MANIFESTS = sorted((ROOT / "slack").glob("manifest*.yml"))
VERB_NAMES = [verb.name for verb in VERBS]


def read(path: Path) -> str:
    """A file's text."""
    return path.read_text(encoding="utf-8")


# Settings ---------------------------------------------------------------------------------

def documented_settings(page: str) -> set[str]:
    """The variables a configuration page's table names, one per row."""
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", page, flags=re.M))


def settings_drift(page: str) -> tuple[set[str], set[str]]:
    """Settings missing from the page, and variables on it the settings do not read."""
    known = {name.upper() for name in Settings.model_fields}
    documented = documented_settings(page)
    return known - documented, documented - known


def test_every_setting_is_on_the_configuration_page_and_no_other() -> None:
    assert settings_drift(read(DOCS / "configuration.md")) == (set(), set())


def test_the_settings_check_fails_on_a_page_that_drifted() -> None:
    page = read(DOCS / "configuration.md")
    broken = re.sub(r"^\| `CHECKER_TURN` \|.*\n", "", page, flags=re.M)
    broken += "| `CHECKER_SPEED` | `1` | not a setting |\n"
    assert settings_drift(broken) == ({"CHECKER_TURN"}, {"CHECKER_SPEED"})


# Commands ---------------------------------------------------------------------------------

Tree = list[app_commands.Command[Any, ..., Any] | app_commands.Group]
"""Commands as a Discord command tree holds them."""


async def no_verb(_interaction: Any, _verb: str, _args: CommandArgs) -> None:
    """A command callback that is never called: the tree is only read."""


def discord_tree() -> Tree:
    """The commands the Discord bot registers."""
    return [
        LessonCommands(no_verb, LessonCatalog()),
        forget_me_command(no_verb),
        way_back_command(no_verb),
    ]


def discord_spelling(verb: str) -> str:
    """How a verb is typed on Discord: forget-me is its own command, the rest under /lesson."""
    return f"/{FORGET_ME}" if verb == "forget-me" else f"/lesson {verb}"


def discord_names(tree: Tree) -> set[str]:
    """Every command of a tree as typed: `/lesson start`, `/lesson-forget-me`."""
    names: set[str] = set()
    for command in tree:
        if isinstance(command, app_commands.Group):
            names.update(f"/{command.name} {sub.name}" for sub in command.commands)
        else:
            names.add(f"/{command.name}")
    return names


def verbs_missing_from_discord(names: set[str]) -> set[str]:
    """Verbs of the command table that the Discord tree lacks."""
    return {verb for verb in VERB_NAMES if discord_spelling(verb) not in names}


def verbs_missing_from_manifest(manifest: dict[str, Any]) -> set[str]:
    """Verbs of the command table that the manifest's /lesson usage hint lacks."""
    (command,) = manifest["features"]["slash_commands"]
    typed = {usage.split()[0] for usage in command["usage_hint"].split(" | ")}
    return set(VERB_NAMES) - typed


def table_commands(page: str) -> dict[str, list[str]]:
    """Each platform's table on the commands page ("## On Discord"): its rows' first cells."""
    tables: dict[str, list[str]] = {}
    for section in re.split(r"^## On ", page, flags=re.M)[1:]:
        platform, _, body = section.partition("\n")
        tables[platform] = re.findall(r"^\| (`[^|]*`) *\|", body, flags=re.M)
    return tables


def verbs_missing_from_page(page: str) -> dict[str, set[str]]:
    """Per platform, the verbs its table on the commands page lacks, as typed there."""
    typed = {
        "Discord": lambda verb: re.compile(rf"`{re.escape(discord_spelling(verb.name))}[ `]"),
        "Slack": lambda verb: re.compile(rf"`/lesson {re.escape(verb.usage)}`"),
    }
    tables = table_commands(page)
    return {
        platform: {
            verb.name for verb in VERBS
            if not any(spelling(verb).match(cell) for cell in tables.get(platform, []))
        }
        for platform, spelling in typed.items()
    }


def test_every_verb_is_in_each_platforms_table_on_the_commands_page() -> None:
    assert verbs_missing_from_page(read(DOCS / "commands.md")) == {
        "Discord": set(), "Slack": set(),
    }


def test_the_commands_page_check_fails_without_a_verb_in_one_platforms_table() -> None:
    page = read(DOCS / "commands.md")
    broken = re.sub(r"^\| `/lesson repost`.*\n", "", page, flags=re.M)
    assert verbs_missing_from_page(broken) == {"Discord": {"repost"}, "Slack": {"repost"}}
    slack = page.index("## On Slack")
    no_close = page[:slack] + re.sub(r"^\| `/lesson close`.*\n", "", page[slack:], flags=re.M)
    assert verbs_missing_from_page(no_close) == {"Discord": set(), "Slack": {"close"}}


def test_every_verb_is_in_the_discord_command_tree() -> None:
    assert verbs_missing_from_discord(discord_names(discord_tree())) == set()


def discord_rows_missing(names: set[str], page: str) -> set[str]:
    """Discord commands without a row in the page's Discord table."""
    discord_part = page.split("## On Slack", 1)[0]
    return {name for name in names if f"| `{name}" not in discord_part}


def test_every_discord_command_has_a_row_on_the_commands_page() -> None:
    names = discord_names(discord_tree())
    assert "/lesson-me" in names
    assert discord_rows_missing(names, read(DOCS / "commands.md")) == set()


def test_the_discord_rows_check_fails_without_a_command_row() -> None:
    page = read(DOCS / "commands.md")
    broken = re.sub(r"^\| `/lesson-me`.*\n", "", page, flags=re.M)
    assert discord_rows_missing(discord_names(discord_tree()), broken) == {"/lesson-me"}


def test_the_discord_check_fails_on_a_tree_without_a_verb() -> None:
    group, _forget_me, _way_back = discord_tree()
    assert isinstance(group, app_commands.Group)
    group.remove_command("results")
    assert verbs_missing_from_discord(discord_names([group])) == {"results", "forget-me"}


def test_every_verb_is_in_both_slack_manifests_slash_command() -> None:
    assert [path.name for path in MANIFESTS] == ["manifest.http.yml", "manifest.yml"]
    for path in MANIFESTS:
        assert verbs_missing_from_manifest(yaml.safe_load(read(path))) == set(), path.name


def test_the_manifest_command_check_fails_without_a_verb() -> None:
    manifest = yaml.safe_load(read(MANIFESTS[0]))
    (command,) = manifest["features"]["slash_commands"]
    command["usage_hint"] = command["usage_hint"].replace(" | export [run]", "")
    assert verbs_missing_from_manifest(manifest) == {"export"}


# Slack scopes -----------------------------------------------------------------------------

def scope_drift(manifest: dict[str, Any]) -> tuple[set[str], set[str]]:
    """Scopes the code needs that the manifest lacks, and scopes it asks for that none needs."""
    asked = set(manifest["oauth_config"]["scopes"]["bot"])
    return bot_scopes() - asked, asked - bot_scopes()


def unlisted_methods(sources: Iterable[str]) -> set[str]:
    """Web API methods the sources call that the method-to-scope list lacks, and the reverse."""
    return methods_called(sources) ^ METHOD_SCOPES.keys()


def bot_sources() -> list[str]:
    """Every Python source of the bot."""
    return [read(path) for path in sorted((ROOT / "bot").rglob("*.py"))]


def test_each_manifest_asks_for_exactly_the_scopes_of_the_methods_called() -> None:
    for path in MANIFESTS:
        assert scope_drift(yaml.safe_load(read(path))) == (set(), set()), path.name


def test_the_scope_check_fails_on_a_manifest_missing_or_adding_a_scope() -> None:
    manifest = yaml.safe_load(read(MANIFESTS[0]))
    scopes = manifest["oauth_config"]["scopes"]["bot"]
    scopes.remove("users:read")
    scopes.append("channels:history")
    assert scope_drift(manifest) == ({"users:read"}, {"channels:history"})


READING_BACK = ("channels:history", "groups:history")
"""The scopes reading a channel back would take (`conversations.history`, in public and private
channels). No manifest asks for them; the Slack page says what doing without them means."""


def slack_page_drift(page: str) -> set[str]:
    """Scopes the Slack page's table lists or lacks against the code's, and those reading a
    channel back would take that the page does not name."""
    listed = set(re.findall(r"^ *\| `([a-z]+(?::[a-z]+)?)` +\|", page, flags=re.M))
    return (listed ^ bot_scopes()) | {scope for scope in READING_BACK if f"`{scope}`" not in page}


def test_the_slack_page_lists_the_scopes_asked_for_and_explains_reading_back() -> None:
    assert slack_page_drift(read(DOCS / "slack.md")) == set()
    for path in MANIFESTS:
        asked = yaml.safe_load(read(path))["oauth_config"]["scopes"]["bot"]
        assert not set(READING_BACK) & set(asked), path.name


def test_the_slack_page_check_fails_on_a_missing_row_or_an_unexplained_scope() -> None:
    page = read(DOCS / "slack.md")
    assert slack_page_drift(page.replace("`groups:history`", "it")) == {"groups:history"}
    assert slack_page_drift(page.replace("| `im:write`", "| im:write")) == {"im:write"}


def test_every_web_api_method_the_code_calls_has_its_scope_listed() -> None:
    assert unlisted_methods(bot_sources()) == set()


def test_the_method_check_fails_on_a_call_missing_from_the_list() -> None:
    broken = [*bot_sources(), "await self.client.reactions_add(channel=c, name='tada')"]
    assert unlisted_methods(broken) == {"reactions.add"}


# Make targets and CLI commands ----------------------------------------------------------

def code_in(page: str) -> list[str]:
    """The code a Markdown page shows: fenced blocks and inline spans."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", page, flags=re.M | re.S)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", page, flags=re.M | re.S)
    return blocks + re.findall(r"`([^`\n]+)`", prose)


def make_targets() -> set[str]:
    """The Makefile's targets."""
    return set(re.findall(r"^([a-z][\w-]*):", read(ROOT / "Makefile"), flags=re.M))


def unknown_make_targets(pages: Iterable[str]) -> set[str]:
    """`make X` named in the pages' code with no target X."""
    named = {
        target
        for page in pages
        for code in code_in(page)
        for target in re.findall(r"(?:^|[\s;|&(])make ([a-z][\w-]*)", code, flags=re.M)
    }
    return named - make_targets()


COMMAND_LINE = re.compile(
    r"(?:(?<![\w:@./-])|(?<=bin/))(?:lessonbot|python -m bot)((?: [a-z][\w-]*)+)"
)
"""A command line as typed: `lessonbot db upgrade`, not the end of a URL's `/lessonbot`."""


def unknown_commands(pages: Iterable[str]) -> set[str]:
    """`lessonbot ...` or `python -m bot ...` commands in the pages' code the CLI lacks."""
    unknown = set()
    for page in pages:
        for code in code_in(page):
            for words in COMMAND_LINE.findall(code):
                command: click.Command = cli
                typed = "lessonbot"
                for word in words.split():
                    if not isinstance(command, click.Group):
                        break
                    typed += f" {word}"
                    found = command.commands.get(word)
                    if found is None:
                        unknown.add(typed)
                        break
                    command = found
    return unknown


def test_every_make_target_named_in_the_docs_exists() -> None:
    assert unknown_make_targets(read(page) for page in PAGES) == set()
    assert {"play", "test", "lock"} <= make_targets()


def test_the_make_target_check_fails_on_a_target_that_does_not_exist() -> None:
    assert unknown_make_targets(["Run `make play`, then `make deploy`."]) == {"deploy"}


def test_every_command_named_in_the_docs_exists() -> None:
    assert unknown_commands(read(page) for page in PAGES) == set()


def test_the_command_check_fails_on_commands_that_do_not_exist() -> None:
    page = "```sh\nlessonbot launch\npython -m bot lessons publish x.yaml\nlessonbot play\n```\n"
    assert unknown_commands([page]) == {"lessonbot launch", "lessonbot lessons publish"}


def broken_links(path: Path, page: str) -> set[str]:
    """Relative links of a page whose file does not exist."""
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page)
    return {t for t in targets if "://" not in t and not (path.parent / t).exists()}


def test_every_relative_link_in_the_docs_leads_to_a_file() -> None:
    for path in PAGES:
        assert broken_links(path, read(path)) == set(), path.name


def test_the_link_check_fails_on_a_missing_file() -> None:
    assert broken_links(DOCS / "x.md", "[a](slack.md) [b](nothing.md#x)") == {"nothing.md"}


MAX_CLICK_PATH = 8
"""A reader follows one click from the platform event to the database in at most this many files."""


def click_path(readme: str) -> list[str]:
    """The files of the README's "How a click flows" list, in order."""
    section = readme.split("## How a click flows", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. `([^`]+)`", section, flags=re.MULTILINE)


def click_path_problems(readme: str) -> list[str]:
    """What is wrong with the README's click path: too long, repeated or naming no file."""
    files = click_path(readme)
    problems = [f"{name} does not exist" for name in files if not (ROOT / name).is_file()]
    if not files or len(files) > MAX_CLICK_PATH:
        problems.append(f"{len(files)} files on the path")
    if len(set(files)) != len(files):
        problems.append("a file is listed twice")
    return problems


def test_the_readme_follows_one_click_through_at_most_eight_existing_files() -> None:
    readme = read(ROOT / "README.md")
    assert click_path_problems(readme) == []
    assert click_path(readme)[0].startswith("bot/discord_adapter/")
    assert click_path(readme)[-1].startswith("storage/")


def test_the_click_path_check_fails_on_a_moved_file_and_on_a_long_path() -> None:
    readme = read(ROOT / "README.md")
    moved = readme.replace("bot/engine/steps/prediction.py", "bot/engine/steps/choices.py")
    assert click_path_problems(moved) == ["bot/engine/steps/choices.py does not exist"]
    steps = "".join(f"{n}. `README.md`: step.\n" for n in range(1, 10))
    long = readme.replace("## How a click flows\n", "## How a click flows\n" + steps, 1)
    assert "files on the path" in " ".join(click_path_problems(long))
