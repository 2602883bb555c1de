"""Write the ``rules`` domain's template (``dealerassist/translations/rules.pot``) from the
messages the engine and the API say (``said.MESSAGES``): one entry per message, its ID as
the context (``msgctxt``), its English as the msgid, its plural as msgid_plural.

``make i18n`` runs it, then ``pybabel update`` and ``compile`` as for the other domains.

    .venv/bin/python tools/rules_pot.py [OUTPUT]
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from dealerassist.api import language  # registers the engine's messages and the titles
from dealerassist.rules.model.said import MESSAGES

DATE = datetime(2026, 12, 2, tzinfo=UTC)
OUTPUT = Path(language.TRANSLATIONS) / f"{language.DOMAIN}.pot"


def catalog() -> Catalog:
    # a fixed date: the template changes only when a message does
    pot = Catalog(project="dealerassist", domain=language.DOMAIN, fuzzy=False, creation_date=DATE)
    for message in sorted(MESSAGES.values(), key=lambda m: m.id):
        if message.id.startswith("test."):  # made up by the tests (none is imported here)
            continue
        if not message.english:
            raise ValueError(f"{message.id}: an empty message cannot be translated")
        msgid: str | tuple[str, str] = message.english
        if message.plural is not None:
            msgid = (message.english, message.plural)
        flags = ("python-brace-format",) if message.fields() else ()
        pot.add(msgid, context=message.id, flags=flags)
    return pot


def main(argv: list[str]) -> int:
    output = Path(argv[0]) if argv else OUTPUT
    with output.open("wb") as out:
        write_po(out, catalog(), omit_header=False, sort_output=True, width=100)
    print(f"{output}: {len(MESSAGES)} messages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
