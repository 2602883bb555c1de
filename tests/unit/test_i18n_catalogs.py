"""The pages' catalogs (dealerassist/translations) are complete: every string the sources
ask for (``pybabel extract`` over the Python code, the templates and the scripts' t("..."))
has a Spanish and a French translation, keeps the English's named parameters, and the
committed .mo files are the .po files compiled (``make i18n``)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from dealerassist.api import language  # noqa: F401 (registers the engine's messages and titles)
from dealerassist.rules.model.said import MESSAGES, Message

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "dealerassist" / "translations"
LOCALES = ("es", "fr")
PARAM = re.compile(r"(?<!\{)\{(\w+)\}")


def _extracted(domain: str) -> set[str]:
    """The msgids the sources hold now, as `make i18n` extracts them."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    if domain == "scripts":
        where = ROOT / "dealerassist" / "web" / "static"
        keywords = {"t": None}
    else:
        where = ROOT / "dealerassist"
        keywords = {
            "_": None,
            "_l": None,
            "gettext": None,
            "ngettext": (1, 2),
            "lazy_gettext": None,
        }
    found: set[str] = set()
    for filename, _lineno, message, _comments, _context in extract_from_dir(
        str(where), method_map, options_map, keywords=keywords
    ):
        if domain == "messages" and filename.startswith("web/static"):
            continue
        found.add(message if isinstance(message, str) else message[0])
    return found


def _catalog(locale: str, domain: str) -> Catalog:
    with (TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return read_po(po, locale=locale)


@pytest.mark.parametrize("domain", ["messages", "scripts"])
@pytest.mark.parametrize("locale", LOCALES)
def test_every_extracted_message_is_translated(locale: str, domain: str) -> None:
    """A msgid with no entry, an empty one or a fuzzy one is missing (run `make i18n`, then
    translate the new entries)."""
    wanted = _extracted(domain)
    assert wanted, "nothing extracted: babel.cfg no longer finds the sources"
    missing = _missing(_catalog(locale, domain), wanted)
    assert missing == [], f"{locale}/{domain}.po lacks translations of {missing}"


def _missing(catalog: Catalog, wanted: set[str]) -> list[str]:
    return sorted(
        msgid
        for msgid in wanted
        if (entry := catalog.get(msgid)) is None or not entry.string or entry.fuzzy
    )


@pytest.mark.parametrize("domain", ["messages", "scripts", "rules"])
@pytest.mark.parametrize("locale", LOCALES)
def test_translations_keep_the_named_parameters(locale: str, domain: str) -> None:
    """t("Table {table} opened.") must not lose nor invent a {name} in translation."""
    wrong = [
        (entry.id, entry.string)
        for entry in _catalog(locale, domain)
        if entry.id and _params(entry.id) != _params(entry.string)
    ]
    assert wrong == []


def _params(text: str | tuple[str, ...] | list[str]) -> set[str]:
    """The {name}s of a msgid or msgstr (of each plural form, together)."""
    forms = (text,) if isinstance(text, str) else tuple(text)
    return {name for form in forms for name in PARAM.findall(form)}


# -- the engine's words: the rules domain, one entry per message ID (rules/model/said.py) --


def _said() -> list[Message]:
    """The messages the service says (``test.*`` ones are made up by tests, never said)."""
    return [message for message in MESSAGES.values() if not message.id.startswith("test.")]


def _rules_missing(catalog: Catalog) -> list[str]:
    return sorted(
        message.id
        for message in _said()
        if (entry := catalog.get(_rules_msgid(message), context=message.id)) is None
        or not entry.string
        or not all(entry.string if isinstance(entry.string, tuple) else (entry.string,))
        or entry.fuzzy
    )


def _rules_msgid(message: Message) -> str | tuple[str, str]:
    return message.english if message.plural is None else (message.english, message.plural)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_engine_message_id_is_translated(locale: str) -> None:
    """Every message the engine (or the API) can say has its Spanish and its French, under
    its ID as the context and its English as the msgid: a new or reworded message fails
    here until `make i18n` and a translation."""
    assert len(MESSAGES) > 15
    assert _rules_missing(_catalog(locale, "rules")) == []


def test_the_engine_message_check_sees_a_missing_or_reworded_message() -> None:
    catalog = _catalog("fr", "rules")
    reworded = next(m for m in _said() if m.plural is None)
    entry = catalog.get(reworded.english, context=reworded.id)
    assert entry is not None
    catalog.delete(reworded.english, context=reworded.id)
    catalog.add(reworded.english + " (old words)", entry.string, context=reworded.id)
    assert _rules_missing(catalog) == [reworded.id]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_catalog_holds_no_message_that_is_gone(locale: str) -> None:
    """Every entry of rules.po is a message the code says now, in its English now: a
    removed or reworded message leaves no stale entry (`make i18n` drops it)."""
    listed = {(entry.context, str(entry.id)) for entry in _catalog(locale, "rules") if entry.id}
    wanted = {(m.id, str(_rules_msgid(m))) for m in _said()}
    assert listed - wanted == set()


@pytest.mark.parametrize("domain", ["messages", "scripts", "rules"])
@pytest.mark.parametrize("locale", LOCALES)
def test_committed_mo_is_the_po_compiled(locale: str, domain: str) -> None:
    """The service reads the .mo files: one older than its .po serves stale words."""
    compiled = io.BytesIO()
    write_mo(compiled, _catalog(locale, domain))
    mo = (TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.mo").read_bytes()
    assert mo == compiled.getvalue(), "run `make i18n` and commit the .mo files"


def test_the_completeness_check_sees_a_missing_translation() -> None:
    """The check fails on an absent, an empty or a fuzzy entry (not a vacuous pass)."""
    catalog = _catalog("es", "scripts")
    wanted = {"Table {table} opened.", "Verified.", "Required.", "A msgid nobody translated"}
    catalog["Verified."].string = ""
    catalog["Required."].flags.add("fuzzy")
    assert _missing(catalog, wanted) == ["A msgid nobody translated", "Required.", "Verified."]


SCRIPT_CALL = re.compile(r'\bt\("((?:[^"\\]|\\.)*)"')


def test_every_scripts_t_call_is_extracted() -> None:
    """Babel's JavaScript extractor does not see a t("...") within another t()'s arguments
    (nor one in a template literal there): such a string would have no catalog entry and
    show in English. Every t("...") literal of the scripts must be among the extracted."""
    extracted = _extracted("scripts")
    unseen = []
    for script in sorted((ROOT / "dealerassist" / "web" / "static").glob("*.js")):
        for found in SCRIPT_CALL.finditer(script.read_text()):
            text = json.loads(f'"{found[1]}"')
            if text not in extracted:
                unseen.append(f"{script.name}: {text}")
    assert unseen == ["i18n.js: ..."], unseen  # i18n.js's own comment shows t("...")
