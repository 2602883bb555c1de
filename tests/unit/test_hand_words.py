"""Hand names in the dealer's language (dealerassist/rules/cards/hand_words.py): each
category in English, Spanish and French, the lowball numbers, and English word for word as
rankings.describe (the table view's words)."""

from __future__ import annotations

import pytest

from dealerassist.rules.cards.cards import Rank, parse_cards
from dealerassist.rules.cards.hand_words import HandName, describe_in, hand_name
from dealerassist.rules.cards.rankings import Ranking, describe, read_hand

HIGH_HANDS = {
    "Ah Kh Qh Jh Th": ("royal flush", "escalera real", "quinte flush royale"),
    "9s 8s 7s 6s 5s": (
        "straight flush, nine high",
        "escalera de color al nueve",
        "quinte flush hauteur neuf",
    ),
    "Qs Qh Qd Qc 2d": ("four of a kind, queens", "póquer de reinas", "carré de dames"),
    "Kd Kc Ks 8h 8d": (
        "full house, kings full of eights",
        "full de reyes con ochos",
        "full aux rois par les huit",
    ),
    "Ad Jd 9d 6d 3d": ("flush, ace high", "color al as", "couleur hauteur as"),
    "Qc Jd Th 9s 8c": ("straight, queen high", "escalera a la reina", "quinte hauteur dame"),
    "5d 4c 3h 2s Ac": ("straight, five high", "escalera al cinco", "quinte hauteur cinq"),
    "Ah Ad As 9c 4d": ("three of a kind, aces", "trío de ases", "brelan d'as"),
    "Jh Jd 6s 6c 2h": (
        "two pair, jacks and sixes",
        "doble pareja, jotas y seises",
        "deux paires, valets et six",
    ),
    "Th Td 9c 5s 3h": ("pair of tens", "pareja de dieces", "paire de dix"),
    "8h 8c Kd 5s 3h": ("pair of eights", "pareja de ochos", "paire de huit"),
    "Kh Jd 9c 5s 3h": ("king high", "carta alta, rey", "hauteur roi"),
}


@pytest.mark.parametrize(("cards", "names"), list(HIGH_HANDS.items()))
def test_each_high_category_in_each_language(cards: str, names: tuple[str, str, str]) -> None:
    hand = parse_cards(cards)
    got = tuple(describe_in(hand, Ranking.HIGH, locale) for locale in ("en", "es", "fr"))
    assert got == names
    assert got[0] == describe(hand, Ranking.HIGH)  # English as the table view says it


@pytest.mark.parametrize(
    ("cards", "ranking", "names"),
    [
        ("7h 5s 4d 3c 2d", Ranking.DEUCE_TO_SEVEN, ("seven-five low", "siete-cinco", "sept-cinq")),
        ("8h 6s 4d 3c 2d", Ranking.DEUCE_TO_SEVEN, ("eight-six low", "ocho-seis", "huit-six")),
        ("Th 9s 8d 7c 5d", Ranking.DEUCE_TO_SEVEN, ("ten-nine low", "diez-nueve", "dix-neuf")),
        ("5h 4s 3d 2c Ad", Ranking.ACE_TO_FIVE, ("five-four low", "cinco-cuatro", "cinq-quatre")),
    ],
)
def test_lowball_numbers_in_each_language(
    cards: str, ranking: Ranking, names: tuple[str, ...]
) -> None:
    """RANK-05: a low hand is called by its top two cards ("seven-five")."""
    hand = parse_cards(cards)
    assert tuple(describe_in(hand, ranking, locale) for locale in ("en", "es", "fr")) == names
    assert names[0] == describe(hand, ranking)


def test_a_paired_low_hand_is_named_as_a_pair() -> None:
    """In deuce-to-seven a pair is a pair (it loses to any unpaired hand)."""
    hand = parse_cards("9h 9s 4d 3c 2d")
    assert describe_in(hand, Ranking.DEUCE_TO_SEVEN, "es") == "pareja de nueves"
    assert describe_in(hand, Ranking.DEUCE_TO_SEVEN, "fr") == "paire de neuf"


def test_the_parts_are_structured_and_an_unknown_locale_is_english() -> None:
    shape = read_hand(parse_cards("Kd Kc Ks 8h 8d"), Ranking.HIGH)
    name = hand_name(shape, low=False)
    assert name == HandName("full_house", (Rank.KING, Rank.EIGHT))
    assert (
        describe_in(parse_cards("Kd Kc Ks 8h 8d"), Ranking.HIGH, "de")
        == "full house, kings full of eights"
    )
