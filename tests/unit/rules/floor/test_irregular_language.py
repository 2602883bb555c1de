"""The irregularities' words in the dealer's language (``messages/irregular.py`` and
``messages/exposed.py``, rendered by ``api/language.py`` from the ``rules`` catalog): a
refusal with the house rule and the phase nested in it, an instruction with where the card
goes nested in it, a notice whose count decides the grammar; no English word is left."""

from __future__ import annotations

import re
from typing import Any

import pytest
from engine_table import Table

from dealerassist.api.language import words_for
from dealerassist.rules.hand.fifth_cards import fouled_notice
from dealerassist.rules.model.actions import Mode, Variant
from dealerassist.rules.model.house_rules import HouseRules, IrregularityRules
from dealerassist.rules.model.said import render, render_json
from dealerassist.rules.model.violations import RuleViolation

LIMIT_27 = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="75432"))
DEALS = {1: "7h 5c 4s 3d 2c", 2: "8h 6d 4d 3s 2d", 3: "Ah Ad Qc Qs Js"}
ENGLISH = re.compile(r"\b(seat|the|card|cards|exposed|house|player|keeps|draw|discards)\b")


def _dealt(mode: Mode = Mode.CARD) -> Table:
    table = Table([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=LIMIT_27, mode=mode)
    table.start(button=3)
    if mode is Mode.CARD:
        for seat, cards in DEALS.items():
            table.act(seat, "deal", cards=cards)
    return table


def _refused(table: Table, seat: int, **fields: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, "exposed", **fields)
    assert caught.value.said is not None
    return caught.value


def _no_english(text: str) -> None:
    assert ENGLISH.search(text) is None, text


def test_IRREG_03_refusal_in_spanish_and_french() -> None:
    """The player may not choose: the house rule (its ranks listed) is nested in the refusal."""
    refusal = _refused(_dealt(), 2, cards=("8h",), option="keep")
    assert refusal.message.startswith("The player never chooses (player chose to keep")
    assert refusal.said is not None and refusal.said.message.id == "irregular.never_chooses_keep"
    spanish = render(refusal.said, words_for("es"))
    french = render(refusal.said, words_for("fr"))
    assert "El jugador nunca elige" in spanish and "conserva solo 7, 5, 4, 3, 2" in spanish
    assert "Le joueur ne choisit jamais" in french and "ne garde que 7, 5, 4, 3, 2" in french
    assert "option 'replace'" in spanish and "option 'replace'" in french  # the entry's code
    _no_english(spanish)
    _no_english(french)


def test_IRREG_03_refusal_names_the_phase_in_the_rooms_words() -> None:
    """After the first betting action the deal is over: the phase is said as a word."""
    table = _dealt(Mode.COUNT)
    table.act(3, "call")
    refusal = _refused(table, 2, rank="6")
    assert refusal.said is not None and "the hand is in betting_1" in refusal.message
    spanish = render(refusal.said, words_for("es"))
    french = render(refusal.said, words_for("fr"))
    assert "«Ronda de apuestas 1»" in spanish and "reparto inicial" in spanish
    assert "« Tour d'enchères 1 »" in french and "donne initiale" in french
    _no_english(spanish)
    _no_english(french)


def test_IRREG_04_instruction_in_spanish_and_french() -> None:
    """An instruction carries its ID and parameters: where the card goes is a nested word."""
    table = _dealt()
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    table.act(1, "draw", discards="")
    table.act(2, "draw", discards="8h")
    table.act(2, "deal", cards="Kc")
    table.act(2, "exposed", cards="Kc")
    assert table.outcome is not None
    owed = table.outcome.instructions[0]
    assert owed["text_id"] == "irregular.replacement_owed"
    said = {"id": owed["text_id"], "params": owed["params"]}
    spanish = render_json(said, words_for("es"))
    french = render_json(said, words_for("fr"))
    assert spanish == (
        "El asiento 2 no puede tomar la carta expuesta Kc: póngala con los descartes (el "
        "asiento 2 nunca puede recuperarla). Se debe un reemplazo al asiento 2 al final del "
        "descarte"
    )
    assert "mettez-la avec l'écart" in french and "Remplaçante due au siège 2" in french
    _no_english(spanish)
    _no_english(french)


def test_DRAW_10_notice_says_one_card_or_several() -> None:
    """The count decides the grammar in Spanish and French (the English always said cards)."""
    one, four = fouled_notice(3, 1), fouled_notice(3, 4)
    assert one.said is not None and four.said is not None
    assert "Seat 3 has 1 cards after the draw" in one.message
    assert "tiene 1 carta después del descarte" in render(one.said, words_for("es"))
    assert "tiene 4 cartas después del descarte" in render(four.said, words_for("es"))
    assert "a 1 carte après le tirage" in render(one.said, words_for("fr"))
    assert "a 4 cartes après le tirage" in render(four.said, words_for("fr"))
    _no_english(render(four.said, words_for("fr")))


def test_every_phase_has_its_word() -> None:
    """The phase words are listed by value (the message modules import no model module)."""
    from dealerassist.rules.model.messages import irregular
    from dealerassist.rules.model.state import Phase

    assert set(irregular.PHASES) == {phase.value for phase in Phase}
    assert all(irregular.PHASES[phase]().english() == phase.value for phase in Phase)
