"""The dealer's instructions and the draw's refusals in the dealer's language: each is a
message ID and parameters (``model/messages/dealing.py``, ``drawing.py``) that the ``rules``
catalog says in Spanish and French with the room's words (talón / talon, descarte / écart,
quemada / brûlée), its nested words and lists translated too; the English stays as it was."""

from __future__ import annotations

import re

import pytest
from engine_table import Table

from dealerassist.api.language import words_for
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.stub import Step
from dealerassist.rules.model.said import render, render_json
from dealerassist.rules.model.violations import RuleId, RuleViolation

# English words no translation may keep
ENGLISH = re.compile(r"\b(seat|stub|discards?|burn|reshuffle|deal|draws?|the|and|cards?)\b", re.I)
RESHUFFLE = Step(
    "reshuffle", 13, 2, (("stub", 1), ("burns", 2), ("seat:1", 3), ("seat:3", 4), ("kept:2", 2))
)


@pytest.mark.parametrize(
    ("locale", "room_words"),
    [
        ("es", ("nuevo talón de 13 cartas", "2 cartas quemadas", "del asiento 3 (4)", " y ")),
        ("fr", ("nouveau talon de 13 cartes", "2 cartes brûlées", "du siège 3 (4)", " et ")),
    ],
)
def test_DRAW_06_guides_the_reshuffle_in_spanish_and_french(
    locale: str, room_words: tuple[str, ...]
) -> None:
    """The reshuffle names its pool piece by piece, the pieces and the seats joined as the
    language joins a list, from the instruction's ``text_id`` and ``params`` alone."""
    made = say.reshuffle(RESHUFFLE)
    assert made["text"] == (
        "Reshuffle for seat 2: shuffle face down and cut the 1 card left in the stub (the bottom "
        "card), 2 burn cards and the discards of seat 1 (3) and seat 3 (4) into a new stub of "
        "13 cards. Keep out the discards of seat 2 (2, its own)."
    )
    text = render_json({"id": made["text_id"], "params": made["params"]}, words_for(locale))
    assert all(word in text for word in room_words), text
    assert not ENGLISH.search(text), text


@pytest.mark.parametrize(("locale", "room_word"), [("es", "descarta"), ("fr", "tire")])
def test_DRAW_01_rejects_a_draw_out_of_turn_in_spanish_and_french(
    locale: str, room_word: str
) -> None:
    """The button may not draw first: the refusal, said in the dealer's language."""
    table = Table([100, 100, 100])
    table.start(button=1)
    while table.hand.phase.value == "betting_1":
        legal = table.legal()
        assert legal is not None
        names = [option["action"] for option in legal["legal"]]
        table.act(legal["seat"], "call" if "call" in names else "check")
    with pytest.raises(RuleViolation) as error:
        table.act(1, "draw", count=2)
    refusal = error.value
    assert refusal.rule_id is RuleId.DRAW_01 and refusal.said is not None
    assert refusal.message == "Seat 2 draws next; seat 1 must wait."
    text = render(refusal.said, words_for(locale))
    assert room_word in text and "2" in text and not ENGLISH.search(text), text


@pytest.mark.parametrize(
    ("locale", "wanted"),
    [
        (
            "es",
            "El asiento 4 pone la ciega grande que no puso (viva) y la ciega pequeña (muerta): 15",
        ),
        ("fr", "Le siège 4 pose la grosse blinde manquée (vive) et la petite blinde (morte) : 15"),
    ],
)
def test_a_post_says_what_it_owes_in_spanish_and_french(locale: str, wanted: str) -> None:
    """BLIND-08: what a seat posts is a list of owed words, each translated."""
    made = say.post(4, 15, ["returning_big_blind", "dead_small_blind"])
    assert made["text"] == "Seat 4 posts the missed big blind (live) and the small blind (dead): 15"
    assert render_json({"id": made["text_id"], "params": made["params"]}, words_for(locale)) == (
        wanted
    )
