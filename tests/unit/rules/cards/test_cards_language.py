"""The cards' words in the dealer's language (``model/messages/cards.py``): a hand's name as
a message renders from the ``rules`` catalog exactly as ``hand_words`` (and the pages'
hand_words.js) names it in Spanish and French, and a DECK-01 refusal names the deck in the
room's words."""

from __future__ import annotations

import pytest

from dealerassist.api.language import words_for
from dealerassist.rules.cards.cards import DECK_32, Rank, check_cards_in_deck, parse_cards
from dealerassist.rules.cards.hand_words import HandName, said, words
from dealerassist.rules.cards.rankings import Ranking, describe, describe_said
from dealerassist.rules.model.messages.cards import HAND_KEYS
from dealerassist.rules.model.said import render
from dealerassist.rules.model.violations import RuleId, RuleViolation


def _every_name() -> list[HandName]:
    """Every key with every rank it can name (two ranks for the keys that name two)."""
    names = [HandName("royal_flush", ())]
    for key in HAND_KEYS:
        if key == "royal_flush":
            continue
        if key in ("full_house", "two_pair", "low"):
            names += [HandName(key, (a, b)) for a in Rank for b in Rank if a != b]
        else:
            names += [HandName(key, (rank,)) for rank in Rank]
    return names


@pytest.mark.parametrize("locale", ["en", "es", "fr"])
def test_every_hand_name_renders_as_hand_words_names_it(locale: str) -> None:
    """The catalog's hand names and hand_words' tables say every hand the same way."""
    language = words_for(locale)
    for name in _every_name():
        assert render(said(name), language) == words(name, locale), name


@pytest.mark.parametrize(
    ("cards", "ranking", "spanish", "french"),
    [
        ("Ah Ad As 9c 4d", Ranking.HIGH, "trío de ases", "brelan d'as"),
        ("7h 5s 4d 3c 2d", Ranking.DEUCE_TO_SEVEN, "siete-cinco", "sept-cinq"),
        (
            "Qh Jh Th 9h 8h",
            Ranking.HIGH,
            "escalera de color a la reina",
            "quinte flush hauteur dame",
        ),
    ],
)
def test_a_described_hand_in_spanish_and_french(
    cards: str, ranking: Ranking, spanish: str, french: str
) -> None:
    hand = parse_cards(cards)
    made = describe_said(hand, ranking)
    assert made.english() == describe(hand, ranking)
    assert render(made, words_for("es")) == spanish
    assert render(made, words_for("fr")) == french


@pytest.mark.parametrize(
    ("locale", "wanted"),
    [
        ("es", "6d no está en la baraja de 32 cartas (del siete al as);"),
        ("fr", "6d n'est pas dans le jeu de 32 cartes (du sept à l'as) ;"),
    ],
)
def test_DECK_01_rejects_a_stripped_card_in_spanish_and_french(locale: str, wanted: str) -> None:
    with pytest.raises(RuleViolation) as error:
        check_cards_in_deck(parse_cards("Ah 6d"), DECK_32)
    refusal = error.value
    assert refusal.rule_id is RuleId.DECK_01 and refusal.said is not None
    assert refusal.message.startswith("6d is not in the 32-card deck (seven to ace); check")
    assert render(refusal.said, words_for(locale)).startswith(wanted)
