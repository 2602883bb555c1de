"""The betting rounds, kill pots and the rake say their words in the dealer's language
(``api/language.py``): a refusal's message and an instruction's text rendered from their
message IDs and parameters by the ``rules`` catalog, nested words and lists included, with
the room's words and no English left."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from engine_table import NO_LIMIT, Table

from dealerassist.api.language import words_for
from dealerassist.rules.hand import kills, rake
from dealerassist.rules.model.actions import Stakes, Structure
from dealerassist.rules.model.house_rules import HouseRules, KillMode, KillRules
from dealerassist.rules.model.outcomes import Instruction
from dealerassist.rules.model.said import render, render_json
from dealerassist.rules.model.violations import RuleId, RuleViolation

# English words of these messages that neither language uses ("kill", "rake", "jackpot" and
# "pot" are the room's words in both; "main" is French)
ENGLISH = {"seat", "may", "call", "raise", "fold", "faces", "bet", "won", "two", "row", "next"}
ENGLISH |= {"hand", "posting", "limits", "doubled", "turn", "button", "over", "drop", "slot"}
ENGLISH |= {"push", "from", "side", "the", "and", "to"}


def _english_left(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower())) & ENGLISH


def _check_facing_the_big_blind() -> RuleViolation:
    table = Table([100, 100, 100, 100], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    with pytest.raises(RuleViolation) as error:
        table.act(4, "check")
    return error.value


def _text(instruction: Instruction | None, locale: str) -> str:
    assert instruction is not None
    data = {"id": instruction["text_id"], "params": instruction["params"]}
    return render_json(data, words_for(locale))


@pytest.mark.parametrize(
    ("locale", "room_words"),
    [
        ("es", ("El asiento 4 tiene una apuesta", "puede igualar 10, subir a 20-100, retirarse")),
        ("fr", ("Le siège 4 a une mise", "peut suivre 10, relancer à 20-100, se coucher")),
    ],
)
def test_a_betting_refusal_lists_the_actions_in_the_room_words(
    locale: str, room_words: tuple[str, ...]
) -> None:
    """GAME-06 a check facing the big blind: the verbs of the legal actions and their list."""
    error = _check_facing_the_big_blind()
    assert error.rule_id is RuleId.GAME_06
    assert error.message == "Seat 4 faces a bet. Seat 4 may call 10, raise to 20-100, fold."
    assert error.said is not None
    said = render(error.said, words_for(locale))
    recorded = error.to_dict()  # as the API answers it and the audit log keeps it
    assert (
        render_json({"id": recorded["message_id"], "params": recorded["params"]}, words_for(locale))
        == said
    )
    for words in room_words:
        assert words in said, said
    assert _english_left(said) == set(), said


@pytest.mark.parametrize(
    ("locale", "room_words"),
    [
        ("es", ("ganó dos botes seguidos", "límites doblados a 20/40", "botón de kill")),
        ("fr", ("a gagné deux pots de suite", "limites doublées à 20/40", "bouton de kill")),
    ],
)
def test_a_kill_instruction_in_the_room_words(locale: str, room_words: tuple[str, ...]) -> None:
    """KILL-02: the seat that won two pots in a row kills the next hand; the limits nested."""
    stakes = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    required = replace(HouseRules(), kill=KillRules(mode=KillMode.REQUIRED))
    made = kills._leg_instruction(3, 2, stakes, required)
    text = _text(made, locale)
    for words in room_words:
        assert words in text, text
    assert _english_left(text) == set(), text


@pytest.mark.parametrize(
    ("locale", "room_words"),
    [
        ("es", ("en la ranura del rake y 1 al jackpot", "; empuje 20 del bote secundario 1")),
        ("fr", ("dans la fente du rake et 1 au jackpot", " ; poussez 20 du pot annexe 1")),
    ],
)
def test_the_drop_in_the_room_words(locale: str, room_words: tuple[str, ...]) -> None:
    """RAKE-01/03: the drop, then each push from its pot, joined as the language joins them."""
    result = {
        "rake": 4,
        "jackpot_drop": 1,
        "pots": [{"shares": {"1": 45}}, {"shares": {"2": 20}}],
    }
    made = rake.drop_instruction(result)
    assert made is not None and made["text"] == (
        "Drop 4 to the rake slot and 1 to the jackpot; push 20 from side pot 1 to seat 2; "
        "push 45 from the main pot to seat 1"
    )
    text = _text(made, locale)
    for words in room_words:
        assert words in text, text
    assert _english_left(text) == set(), text
