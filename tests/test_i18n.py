"""The message catalogs: extraction up to date, every language complete, placeholders kept."""

from __future__ import annotations

import gettext
import re
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import bot.i18n
from bot.i18n import (
    COMMAND_FIELD,
    LOCALE_DIR,
    UnsafeMessage,
    _,
    available_languages,
    decimal,
    language_of,
    message_fields,
    ngettext,
    percent,
    speaking,
)

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+(?::[\w-]*)?)\}(?!\})")
"""A `{name}` placeholder, or a command named as `{command:stop}` (the verb kept as it is)."""


def extracted_ids() -> set[str | tuple[str, ...]]:
    """The message ids `make messages` would put in the template today."""
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT / "bot", method_map=[("**.py", "python")]
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def read_catalog(path: Path) -> Catalog:
    """A .po or .pot file as a Babel catalog."""
    with path.open("rb") as handle:
        return read_po(handle)


def entries(catalog: Catalog) -> list[Message]:
    """A catalog's messages, without its header."""
    return [message for message in catalog if message.id]


def message_key(message: Message) -> str | tuple[str, ...]:
    """A message's id as extraction gives it: a string, or (singular, plural)."""
    return message.id if isinstance(message.id, str) else tuple(message.id)


def forms(message: Message) -> str | tuple[str, ...]:
    """A message's translation as a string, or its plural forms as a tuple (.po and .mo alike)."""
    return message.string if isinstance(message.string, str) else tuple(message.string)


def translations() -> list[Path]:
    """Every language's catalog."""
    return sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))


def placeholders(text: str) -> set[str]:
    """The `{name}` placeholders of a string."""
    return set(PLACEHOLDER.findall(text))


def unsafe_fields(form: str, source: str) -> bool:
    """Whether a translation that is filled holds a field other than `{name}` or `{command:verb}`.

    A message with no placeholders and no command is shown as written, so its braces are text.
    """
    if not placeholders(source) and COMMAND_FIELD not in form:
        return False
    try:
        message_fields(form)
    except UnsafeMessage:
        return True
    return False


def test_the_template_holds_every_string_marked_in_the_code() -> None:
    """A string added or changed under bot/ without `make messages` fails here."""
    template = {message_key(m) for m in entries(read_catalog(LOCALE_DIR / "messages.pot"))}
    marked = extracted_ids()
    assert sorted(map(str, marked - template)) == [], "run `make messages`"
    assert sorted(map(str, template - marked)) == [], "run `make messages`"


@pytest.mark.parametrize("path", translations(), ids=lambda path: path.parent.parent.name)
def test_a_language_translates_every_template_string(path: Path) -> None:
    """Every string of the template has a translation, none fuzzy, with the same placeholders."""
    template = {message_key(m) for m in entries(read_catalog(LOCALE_DIR / "messages.pot"))}
    catalog = read_catalog(path)
    problems = []
    have = {message_key(m): m for m in entries(catalog)}
    problems += [f"missing: {key!r}" for key in sorted(map(str, template - set(have)))]
    for key, message in have.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        if not all(forms) or len(forms) < (catalog.num_plurals if len(sources) > 1 else 1):
            problems.append(f"untranslated: {key!r}")
        wanted = set().union(*(placeholders(source) for source in sources))
        if any(placeholders(form) - wanted for form in forms) or (
            forms[0] and placeholders(forms[0]) != placeholders(sources[0])
        ):
            problems.append(f"placeholders differ: {key!r}")
        if any(unsafe_fields(form, sources[0]) for form in forms if form):
            problems.append(f"unsafe field: {key!r}")
    assert problems == []


@pytest.mark.parametrize("path", translations(), ids=lambda path: path.parent.parent.name)
def test_the_compiled_catalog_matches_its_source(path: Path) -> None:
    """The shipped .mo says what the .po says: `make compile-messages` was run."""
    compiled = path.with_suffix(".mo")
    assert compiled.exists(), f"{compiled} is missing: run `make compile-messages`"
    source = {message_key(m): forms(m) for m in entries(read_catalog(path))}
    built = {message_key(m): forms(m) for m in entries(read_mo(BytesIO(compiled.read_bytes())))}
    assert built == source, "run `make compile-messages`"


def test_each_language_speaks_its_catalog() -> None:
    """Inside `speaking(language)`, `_` gives the catalog's translation of each string."""
    for path in translations():
        language = path.parent.parent.name
        for message in entries(read_catalog(path)):
            if isinstance(message.id, str) and not placeholders(message.id):
                with speaking(language):
                    assert _(message.id) == message.string


def test_platform_locales_map_to_the_languages_the_bot_has() -> None:
    """Discord's `es-ES` and `es-419`, Slack's `es-LA`, speak Spanish; unknown ones English."""
    assert "es" in available_languages()
    assert [language_of(x) for x in ("es-ES", "es-419", "es_LA", "de", None)] == [
        "es",
        "es",
        "es",
        "en",
        "en",
    ]


def test_numbers_follow_the_language() -> None:
    """A percentage and a decimal as each language writes them."""
    with speaking("es"):
        assert (percent(0.5), decimal(3.5)) == ("50\xa0%", "3,5")
    with speaking("en-US"):
        assert (percent(0.5), decimal(3.5), decimal(1234.5)) == ("50%", "3.5", "1,234.5")


def test_plurals_and_placeholders_fill_by_name() -> None:
    """`ngettext` picks the form by count and fills `{count}` and other names."""
    assert ngettext("{count} member", "{count} members", 1) == "1 member"
    assert ngettext("{count} of {total}", "{count} of {total}", 3, total=5) == "3 of 5"


SECRET_READER = "{command.__format__.__globals__[_command_namer]} {values.__class__} {count!r}"
"""Fields a hostile translation could hold to read the bot's own objects."""


class HostileCatalog(gettext.NullTranslations):
    """A catalog whose every translation tries to read the bot's objects through its fields."""

    def gettext(self, message: str) -> str:
        return SECRET_READER + message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return SECRET_READER + (singular if n == 1 else plural)


def test_a_translation_reads_nothing_through_its_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """A translation with attribute, index or conversion fields is refused: the source is shown."""
    monkeypatch.setattr(bot.i18n, "catalog", lambda language: HostileCatalog())
    usage = "Usage: `{command:hide} <number>`, with a number from `{command:reasons}`."
    assert _(usage) == "Usage: `/lesson hide <number>`, with a number from `/lesson reasons`."
    assert _("{name} joined", name="{count}") == "{count} joined"
    assert ngettext("{count} member", "{count} members", 2) == "2 members"


@pytest.mark.parametrize(
    "message",
    ["{command.__format__}", "{values[0]}", "{count!r}", "{count:>10}", "{0}", "{", "a }", "{}"],
)
def test_only_bare_names_and_commands_are_fields(message: str) -> None:
    """Anything in braces but `{name}`, `{command:verb}`, `{{` and `}}` is refused."""
    with pytest.raises(UnsafeMessage):
        message_fields(message)
    assert message_fields("{{a}} {count} {command:stop} {command:}") == [
        "count",
        "command:stop",
        "command:",
    ]
