"""The table's refusals and instructions said in Spanish and French (``messages/table.py``,
``messages/engine.py``): rendered from their message ID and parameters through the ``rules``
catalog, in the card room's words, with no English left."""

from __future__ import annotations

import pytest
from engine_table import Table

from dealerassist.api.language import words_for
from dealerassist.rules.engine import _options_text
from dealerassist.rules.model.actions import ActionKind, ChangeSeat
from dealerassist.rules.model.messages import engine as engine_words
from dealerassist.rules.model.messages import model as model_words
from dealerassist.rules.model.messages import table as table_words
from dealerassist.rules.model.said import Said, render
from dealerassist.rules.model.state import Owed, Phase
from dealerassist.rules.model.violations import RuleId, RuleViolation

ENGLISH_WORDS = ("seat", "post", "blind", "must", "wait", "owes", "exactly", "hand", "call")


def _refusal(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as error:
        table.act(seat, action, **fields)
    return error.value


def _said(refusal: RuleViolation) -> Said:
    assert refusal.said is not None
    return refusal.said


def _no_english(text: str) -> None:
    words = {word.strip(".,;:()").lower() for word in text.split()}
    assert not words & set(ENGLISH_WORDS), text


def test_a_posting_refusal_in_spanish_and_french() -> None:
    """BLIND-01: seat 3 posts before seat 2, then seat 2 posts the wrong amount."""
    table = Table([100, 100, 100])
    table.start(button=1, post=False)
    first = _refusal(table, 3, "post")
    assert first.rule_id is RuleId.BLIND_01
    assert first.message == "Seat 2 posts first; seat 3 must wait."
    spanish = render(_said(first), words_for("es"))
    french = render(_said(first), words_for("fr"))
    assert spanish == "El asiento 2 pone primero; el asiento 3 debe esperar."
    assert french == "Le siège 2 pose d'abord ; le siège 3 doit attendre."
    exactly = _refusal(table, 2, "post", amount=1)
    assert exactly.message == "Seat 2 owes 5; post exactly 5."
    for locale, word in (("es", "ponga"), ("fr", "pose")):
        text = render(_said(exactly), words_for(locale))
        assert word in text and "5" in text
        _no_english(text)


def test_a_seat_change_in_the_hand_says_what_it_may_do_in_each_language() -> None:
    """BLIND-12: a seat dealt into the hand may change seats when it is over; the nested
    "change seats" is said in the language too."""
    table = Table([100, 100, 100], max_seats=6)
    table.start(button=1)
    with pytest.raises(RuleViolation) as error:
        table.run(ChangeSeat(seat=1, to=5))
    said = _said(error.value)
    assert (
        error.value.message == "Seat 1 is in the hand; it may change seats when the hand is over."
    )
    spanish = render(said, words_for("es"))
    french = render(said, words_for("fr"))
    assert "cambiar de asiento" in spanish and "changer de siège" in french
    _no_english(spanish)
    _no_english(french)


def test_the_legal_actions_in_words_in_each_language() -> None:
    """The engine's list of legal actions (a refused chop names them): "call 5, raise to 20 or
    fold" in the room's verbs and the language's "or"."""
    said = _options_text(
        [
            {"action": "call", "amount": 5},
            {"action": "raise", "min": 20, "max": 40},
            {"action": "fold"},
        ]
    )
    assert isinstance(said, Said)
    assert said.english() == "call 5, raise to 20-40 or fold"
    assert render(said, words_for("es")) == "igualar 5, subir a 20-40 o retirarse"
    assert render(said, words_for("fr")) == "suivre 5, relancer à 20-40 ou se coucher"


def test_every_action_and_phase_has_its_words() -> None:
    """The engine's word tables list every ActionKind and Phase (written out, not imported)."""
    assert set(engine_words.ACTIONS) == {kind.value for kind in ActionKind}
    assert set(engine_words.PHASES) == {phase.value for phase in Phase}
    assert set(table_words.PARTS) >= {part.value for part in Owed} - {"kill"}


def test_one_voided_action_is_said_as_one_in_spanish() -> None:
    """The English always wrote "action(s)"; Spanish and French say one action as one."""
    said = model_words.VOID_AT_MOST(count=1)
    assert said.english() == "The hand has 1 action(s); void at most that many."
    assert "1 acción;" in render(said, words_for("es"))
    assert "3 actions" in render(model_words.VOID_AT_MOST(count=3), words_for("fr"))
