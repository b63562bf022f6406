"""The slash commands: `/lesson ...` for hosts; `/lesson-forget-me` and `/lesson-me` for all.

Each hands its verb and options to the service, whose verbs check who may do what.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.interactions import Interaction
from bot.engine import MAX_TIMER_SECONDS, MIN_TIMER_SECONDS, LessonCatalog
from bot.i18n import N_, SOURCE_LANGUAGE, _, language_of, speaking
from bot.model import clip
from bot.service import CommandArgs, language_choices

log = logging.getLogger(__name__)

HOST_PERMISSIONS = discord.Permissions(manage_guild=True)
TimerSeconds = app_commands.Range[int, MIN_TIMER_SECONDS, MAX_TIMER_SECONDS]
RunId = app_commands.Range[int, 1, None]
ReasonNumber = app_commands.Range[int, 1, None]
FORGET_ME = N_("lesson-forget-me")
LESSON_ME = N_("lesson-me")
LESSON = N_("lesson")
MAX_CHOICE_NAME = 100
MAX_CHOICES = 25
NO_ARGS = CommandArgs()

PLAIN_VERBS = {
    N_("reveal"): N_("Close the question and show the results."),
    N_("next"): N_("Move the lesson on to the next step."),
    N_("stop"): N_("End the lesson early and post the results."),
    N_("results"): N_("See the results so far, privately."),
    N_("repost"): N_("Post the current step again (hosts)."),
    N_("help"): N_("List the commands and the lessons, privately."),
    N_("close"): N_("Close this channel's assignment early and post its results (hosts)."),
    N_("progress"): N_("How far members got in this channel's assignment, privately (hosts)."),
    N_("continue"): N_("Back to your own step of this channel's assignment, privately."),
}
HELP_NOTE = N_(
    "On Discord, forget-me is its own command, open to every member: "
    "`{command:forget-me} [confirm]`. So is `{command:me}`: back to your own step of the "
    "assignment here, or its results once it has closed. Hosts have Manage Server or the role "
    "LESSON_HOST_ROLE_ID names."
)
FORGET_ME_DESCRIPTION = N_(
    "See what lessons stored about you on this server; confirm to delete it."
)
LESSON_ME_DESCRIPTION = N_("Back to your own step of this channel's assignment, or its results.")
OPTION_NAMES = (
    N_("lesson"), N_("timer"), N_("recall"), N_("due"), N_("remind"), N_("run"), N_("number"),
    N_("confirm"), N_("language"), N_("page"),
)
"""The options' names, as the catalog holds them: discord.py asks for each one's translation."""
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")
"""What Discord takes as a command or option name: lowercase letters, digits, - and _."""
NAME_LOCATIONS = frozenset({
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
})

RunVerb = Callable[[Interaction, str, CommandArgs], Awaitable[None]]
"""Runs a verb of the service for the member who typed the command."""
PlainCommand = app_commands.Command[Any, ..., None]
Choices = list[app_commands.Choice[str]]


RECALL_HELP = N_("When members get a private recall check after the lesson: 3d, 2d,9d or off.")
LANGUAGE_HELP = N_("The run's language (default: the server's, where the lesson has it).")


class LessonCommands(app_commands.Group):
    """`/lesson ...`: shown by default to members with Manage Server; checked again here."""

    def __init__(self, run: RunVerb, catalog: LessonCatalog) -> None:
        super().__init__(
            name=LESSON,
            description=N_("Run the interactive RLVR lesson in this channel."),
            default_permissions=HOST_PERMISSIONS,
            guild_only=True,
        )
        self.run = run
        self.catalog = catalog
        for verb, description in PLAIN_VERBS.items():
            self.add_command(verb_command(verb, description, run))

    @app_commands.command(
        name=N_("start"), description=N_("Start a lesson in this channel (hosts).")
    )
    @app_commands.describe(
        lesson=N_("Which lesson to run (default: the RLVR lesson)."),
        timer=N_("Seconds each step stays open before it reveals and moves on by itself."),
        recall=RECALL_HELP,
        language=LANGUAGE_HELP,
    )
    async def start_lesson(
        self, interaction: Interaction, lesson: str | None = None,
        timer: TimerSeconds | None = None, recall: str | None = None,
        language: str | None = None,
    ) -> None:
        """Start a run here and post its first step."""
        args = CommandArgs(lesson=lesson, timer=timer, recall=recall, language=language,
                           place_language=str(interaction.guild_locale or ""))
        await self.run(interaction, "start", args)

    @app_commands.command(
        name=N_("assign"),
        description=N_("Assign a lesson: members take it privately by a due time."),
    )
    @app_commands.describe(
        due=N_("When it closes: 90m, 2h, 3d, 1w, 1d12h, or a UTC date like 2026-12-10 17:00."),
        lesson=N_("Which lesson to assign (default: the RLVR lesson)."),
        remind=N_("How long before the due time to remind (e.g. 1d), or a UTC date."),
        recall=RECALL_HELP,
        language=LANGUAGE_HELP,
    )
    async def assign_lesson(
        self,
        interaction: Interaction,
        due: str,
        lesson: str | None = None,
        remind: str | None = None,
        recall: str | None = None,
        language: str | None = None,
    ) -> None:
        """Assign a lesson here and post its card."""
        args = CommandArgs(lesson=lesson, due=due, remind=remind, recall=recall,
                           language=language, place_language=str(interaction.guild_locale or ""))
        await self.run(interaction, "assign", args)

    @start_lesson.autocomplete("lesson")
    @assign_lesson.autocomplete("lesson")
    async def lesson_names(self, interaction: Interaction, current: str) -> Choices:
        """Lessons whose id starts with what the host typed."""
        suggested = self.catalog.suggest(current)[:MAX_CHOICES]
        return [lesson_choice(self.catalog, lesson_id) for lesson_id in suggested]

    @start_lesson.autocomplete("language")
    @assign_lesson.autocomplete("language")
    async def language_names(self, interaction: Interaction, current: str) -> Choices:
        """The languages the chosen lesson (or the default one) and the bot both have."""
        lesson = getattr(interaction.namespace, "lesson", None)
        offered = language_choices(self.catalog, lesson, current)[:MAX_CHOICES]
        return [app_commands.Choice(name=name, value=code) for code, name in offered]

    @app_commands.command(
        name=N_("export"), description=N_("A run held here: its answers as CSV (hosts).")
    )
    @app_commands.describe(
        run=N_("The run number (default: this channel's current or last run).")
    )
    async def export_answers(self, interaction: Interaction, run: RunId | None = None) -> None:
        """Send a run's answers privately, as `run-<id>.csv`."""
        await self.run(interaction, "export", CommandArgs(run=run))

    @app_commands.command(
        name=N_("reasons"), description=N_("Members' reasons here, numbered, privately (hosts).")
    )
    @app_commands.describe(page=N_("Which page of them (default: the last, the newest)."))
    async def reasons(self, interaction: Interaction, page: ReasonNumber | None = None) -> None:
        """Members' reasons in this channel's lesson, numbered, a page at a time."""
        await self.run(interaction, "reasons", CommandArgs(page=page))

    @app_commands.command(
        name=N_("hide"), description=N_("Hide a member's reason by its number (hosts).")
    )
    @app_commands.describe(number=N_("The reason's number, from /lesson reasons."))
    async def hide_reason(self, interaction: Interaction, number: ReasonNumber) -> None:
        """Hide a reason of this channel's lesson: it is never shown again."""
        await self.run(interaction, "hide", CommandArgs(number=number))


def verb_command(verb: str, description: str, run: RunVerb) -> PlainCommand:
    """A command without options, named after the verb it runs."""

    async def run_verb(interaction: Interaction) -> None:
        await run(interaction, verb, NO_ARGS)

    return app_commands.Command(name=verb, description=description, callback=run_verb)


def forget_me_command(run: RunVerb) -> PlainCommand:
    """`/lesson-forget-me [confirm]`: any member sees, then deletes, their answers here."""

    @app_commands.command(name=FORGET_ME, description=FORGET_ME_DESCRIPTION)
    @app_commands.describe(confirm=N_("True deletes; without it you see what would be deleted."))
    @app_commands.guild_only()
    async def forget_me(interaction: Interaction, confirm: bool = False) -> None:
        await run(interaction, "forget-me", CommandArgs(confirm=confirm))

    return forget_me


def way_back_command(run: RunVerb) -> PlainCommand:
    """`/lesson-me`: any member gets back to their own step here, or sees the results."""

    @app_commands.command(name=LESSON_ME, description=LESSON_ME_DESCRIPTION)
    @app_commands.guild_only()
    async def lesson_me(interaction: Interaction) -> None:
        await run(interaction, "me", NO_ARGS)

    return lesson_me


def discord_command(verb: str) -> str:
    """A lesson command as a Discord client shows it in the current language: `/lección detener`.

    forget-me and the way back (`me`) are commands of their own, open to every member.
    """
    own = {"forget-me": FORGET_ME, "me": LESSON_ME}
    if verb in own:
        return "/" + _(own[verb])
    return " ".join(["/" + _(LESSON), *([_(verb)] if verb else [])])


def lesson_choice(catalog: LessonCatalog, lesson_id: str) -> app_commands.Choice[str]:
    """An autocomplete entry: the lesson id with its title."""
    name = clip(f"{lesson_id} · {catalog.get(lesson_id).title}", MAX_CHOICE_NAME)
    return app_commands.Choice(name=name, value=lesson_id)


class CatalogTranslator(app_commands.Translator):
    """The commands' names and descriptions from the bot's catalogs, for each Discord locale.

    A locale of a language the bot speaks (es-ES and es-419 are Spanish) gets the catalog's
    words; any other, and a string the catalog leaves as it is, gets none: Discord shows the
    English. A translated name Discord would refuse is left out, and logged.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalog's words for `string` in `locale`'s language; None to keep the English."""
        language = language_of(locale.value)
        if language == SOURCE_LANGUAGE:
            return None
        with speaking(language):
            translated = _(string.message)
        if translated == string.message:
            return None
        if context.location in NAME_LOCATIONS and not is_discord_name(translated):
            log.warning("left out a command name Discord would refuse: %r", translated)
            return None
        return translated


def is_discord_name(name: str) -> bool:
    """Whether Discord takes `name` for a command or an option: lowercase, no spaces, ≤32."""
    return DISCORD_NAME.fullmatch(name) is not None and name == name.lower()


async def sync_commands(
    tree: app_commands.CommandTree[discord.Client], guild_id: int | None
) -> None:
    """Register the commands: on one server at once when given, otherwise globally."""
    if guild_id is None:
        await tree.sync()
        return
    guild = discord.Object(id=guild_id)
    tree.copy_global_to(guild=guild)
    await tree.sync(guild=guild)
