"""Every message the engine says (``model/said.py``), listed by area, one module each.

An ID is ``area.what`` and stable: the audit log stores it, and the ``rules`` gettext
domain (``make i18n``: ``tools/rules_pot.py`` writes ``translations/rules.pot`` from these
modules) translates it. Importing this package registers them all in ``said.MESSAGES``.
"""

from dealerassist.rules.model.messages import (
    betting,
    cards,
    commands,
    correction,
    dealing,
    drawing,
    engine,
    exposed,
    floor,
    irregular,
    kills,
    model,
    opening,
    options,
    rake,
    table,
)

__all__ = [
    "betting",
    "cards",
    "commands",
    "correction",
    "dealing",
    "drawing",
    "engine",
    "exposed",
    "floor",
    "irregular",
    "kills",
    "model",
    "opening",
    "options",
    "rake",
    "table",
]
