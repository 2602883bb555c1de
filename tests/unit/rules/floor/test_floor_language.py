"""The floor's words (``rules/model/messages/floor.py``) in the floor manager's language: a
ruling's refusal, the showdown's and the chop's, rendered from their message IDs by the
``rules`` catalog in Spanish and French, and their English byte for byte as the engine has
always written it."""

from __future__ import annotations

import re

import pytest
from engine_table import Table

from dealerassist.api.language import words_for
from dealerassist.rules.hand.chop import chop_refusal
from dealerassist.rules.model.actions import Act, ActionKind
from dealerassist.rules.model.house_rules import BlindRules, HouseRules
from dealerassist.rules.model.ruling_commands import (
    Award,
    ClearFalseOpener,
    Effect,
    HoldPot,
    MoveButton,
    Ruling,
)
from dealerassist.rules.model.said import Said, render, render_json
from dealerassist.rules.model.violations import RuleId, RuleViolation


def _refused(table: Table, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        table.run(command)
    assert refused.value.said is not None, "a refusal of the floor's says a message ID"
    return refused.value


def _ruling(*effects: Effect) -> Ruling:
    return Ruling(decision="custom", note="floor decided", effects=effects)


def _short_all_in() -> Table:
    """Seat 1 (25 chips, button) is all in: main pot 75 (seats 2, 3, 1), side pot 10 (2, 3)."""
    table = Table([25, 100, 100])
    table.start(button=1)
    for seat, action, amount in ((1, "raise", 20), (2, "call", None), (3, "raise", 30),
                                 (1, "call", None), (2, "call", None)):  # fmt: skip
        table.act(seat, action, **({} if amount is None else {"amount": amount}))
    return table


def _words(said: Said, locale: str) -> list[str]:
    return re.findall(r"[A-Za-zÀ-ÿ']+", render(said, words_for(locale)))


ENGLISH_WORDS = {"seat", "seats", "the", "award", "names", "side", "hand", "has", "winners", "each"}


def test_SHOW_07_a_refused_award_in_spanish_and_french() -> None:
    """The award names one pot of two: the pots are listed by their names in the room's
    words (nested messages), seats and chips as numbers, no English word left."""
    table = _short_all_in()
    refused = _refused(table, _ruling(Award(pots=((1,),))))
    assert refused.rule_id is RuleId.SHOW_07 and refused.said is not None
    assert refused.message == (
        "The award names 1 pot but the hand has 2: the main pot 75 (seats 2, 3, 1); side pot 1 "
        "10 (seats 2, 3). Name the winners of each pot, main pot first."
    )
    spanish = render(refused.said, words_for("es"))
    assert "el bote principal 75 (asientos 2, 3, 1); el bote secundario 1 10" in spanish
    french = render(refused.said, words_for("fr"))
    assert "le pot principal 75 (sièges 2, 3, 1) ; le pot annexe 1 10" in french
    for locale in ("es", "fr"):
        assert not ENGLISH_WORDS & {w.lower() for w in _words(refused.said, locale)}, locale


def test_SHOW_07_the_plural_and_the_uncalled_bet_in_the_english_as_always() -> None:
    """Three pots named of two (after the uncalled raise went back): "pots", and the words
    the engine wrote before message IDs, byte for byte."""
    table = Table([100, 100, 100])
    table.start(button=1)
    table.act(1, "raise", amount=20)
    refused = _refused(table, _ruling(Award(pots=((1,), (2,), (3,)))))
    assert refused.message == (
        "The award names 3 pots but the hand has 2 after the uncalled 10 went back to seat 1: "
        "the main pot 15 (seats 2, 3, 1); side pot 1 10 (seats 3, 1). Name the winners of each "
        "pot, main pot first."
    )
    assert refused.said is not None
    assert "nombra 3 botes" in render(refused.said, words_for("es"))
    assert "nomme 3 pots" in render(refused.said, words_for("fr"))


def test_SHOW_07_an_award_to_seats_every_pot_in_the_english_as_always() -> None:
    """An all-in seat named for every pot: the advice lists each pot with "; " as before."""
    table = _short_all_in()
    refused = _refused(table, _ruling(Award(seats=(1,))))
    assert refused.message == (
        "Seat 1 cannot share side pot 1 (10, seats 2, 3): it put in 25 in all and wins only what "
        "it matched from each opponent. An award to seats gives them every pot: name seats among "
        "2, 3, or award pot by pot (the main pot 75 to seats among 2, 3, 1; side pot 1 10 to "
        "seats among 2, 3)."
    )
    assert refused.said is not None
    french = render(refused.said, words_for("fr"))
    assert french.startswith("Le siège 1 ne peut pas partager le pot annexe 1 (10, sièges 2, 3)")


def test_SHOW_11_the_held_pot_refuses_the_dealer_in_spanish_and_french() -> None:
    table = Table([100, 100, 100])
    table.start(button=1)
    table.run(_ruling(HoldPot()))
    refused = _refused(table, Act(1, ActionKind.CALL))
    assert refused.said is not None and refused.said.message.id == "floor.pot_held_wait"
    assert "retiene el bote" in render(refused.said, words_for("es"))
    assert "retient le pot" in render(refused.said, words_for("fr"))
    twice = _refused(table, _ruling(HoldPot()))
    assert twice.message == "The pot is held; release it before hold_pot."
    assert twice.said is not None and render(twice.said, words_for("es")) == (
        "El bote está retenido; libérelo antes de hold_pot."
    )


def test_OPEN_08_and_BLIND_03_lists_in_the_english_as_always() -> None:
    """Nobody waits as a false opener; the button's seats listed in brackets as before."""
    table = Table([100, 100, 100])
    refused = _refused(table, _ruling(ClearFalseOpener(seat=2)))
    assert refused.message == (
        "Seat 2 does not wait as a false opener (OPEN-08): nothing to clear. Nobody waits as one."
    )
    assert refused.said is not None and render(refused.said, words_for("es")) == (
        "El asiento 2 no espera como falso abridor (OPEN-08): nada que levantar. Nadie espera "
        "como tal."
    )
    button = _refused(table, _ruling(MoveButton(5)))
    assert button.message == "Seat 5 cannot take the button: give it to one of [1, 2, 3]."
    assert button.said is not None
    assert "déselo a uno de [1, 2, 3]" in render(button.said, words_for("es"))


def test_SHOW_08_the_chop_and_its_refusal_in_the_dealers_language() -> None:
    """The blinds chop: the offer and the instruction (what each blind takes back) carry
    their message IDs, said in Spanish; the reason a chop is refused is a message too."""
    table = Table([500, 500, 500, 500], rules=HouseRules(blinds=BlindRules(chop=True)))
    table.start(button=1)
    table.act(4, "fold")
    table.act(1, "fold")
    legal = table.legal()
    assert legal is not None
    offer = next(a for a in legal["legal"] if a["action"] == "chop")
    assert offer["text_id"] == "floor.chop_offer" and offer["params"] == {}
    assert offer["text"].startswith("Only when both blinds agree: each blind takes back")
    step = table.act(2, "chop").instructions[-1]
    assert step["text"] == (
        "The blinds agreed to chop: seat 2 takes back 5, seat 3 takes back 10; no pot, no "
        "showdown: muck both hands"
    )
    assert step.get("text_id") == "floor.chopped"
    spanish = render_json({"id": step["text_id"], "params": step["params"]}, words_for("es"))
    assert spanish == (
        "Las ciegas acordaron repartir: el asiento 2 recupera 5, el asiento 3 recupera 10; sin "
        "bote, sin enseñar: tire las dos manos"
    )
    table = Table([500, 500, 500, 500])
    table.start(button=1)
    refusal = chop_refusal(table.hand, 2, table.rules)
    assert refusal is not None and refusal[0] is RuleId.SHOW_08
    assert refusal[1].english() == "this table's house rules do not allow chopping the blinds"
    assert "no permiten repartir las ciegas" in render(refusal[1], words_for("es"))
    assert "ne permettent pas aux blindes de partager" in render(refusal[1], words_for("fr"))
