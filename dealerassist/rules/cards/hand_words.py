"""A hand's name in the dealer's language: English, Spanish or French, as the room says it.

Pure data: the category and ranks a hand is read as (:class:`rankings.HandShape`) give the
structured parts (:class:`HandName`: a category key, its ranks, low or not), and
:func:`words` puts them in one language's words ("three of a kind, aces" / "trío de ases" /
"brelan d'as"; lowball "seven-five low" / "siete-cinco" / "sept-cinq"). English is word for
word what :func:`rankings.describe` says. No translation framework here (the engine stays
pure): the web layer picks the locale, these tables give the words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealerassist.rules.cards.cards import Card, Rank
from dealerassist.rules.cards.rankings import HandShape, Ranking, name_parts, read_hand
from dealerassist.rules.model.messages import cards as say
from dealerassist.rules.model.said import Said

LOCALES = ("en", "es", "fr")

# rank -> (singular, plural)
_RANKS: dict[str, dict[Rank, tuple[str, str]]] = {
    "en": {rank: (rank.name.lower(), f"{rank.name.lower()}s") for rank in Rank}
    | {Rank.SIX: ("six", "sixes")},
    "es": {
        Rank.ACE: ("as", "ases"),
        Rank.KING: ("rey", "reyes"),
        Rank.QUEEN: ("reina", "reinas"),
        Rank.JACK: ("jota", "jotas"),
        Rank.TEN: ("diez", "dieces"),
        Rank.NINE: ("nueve", "nueves"),
        Rank.EIGHT: ("ocho", "ochos"),
        Rank.SEVEN: ("siete", "sietes"),
        Rank.SIX: ("seis", "seises"),
        Rank.FIVE: ("cinco", "cincos"),
        Rank.FOUR: ("cuatro", "cuatros"),
        Rank.THREE: ("tres", "treses"),
        Rank.TWO: ("dos", "doses"),
    },
    "fr": {
        Rank.ACE: ("as", "as"),
        Rank.KING: ("roi", "rois"),
        Rank.QUEEN: ("dame", "dames"),
        Rank.JACK: ("valet", "valets"),
        Rank.TEN: ("dix", "dix"),
        Rank.NINE: ("neuf", "neuf"),
        Rank.EIGHT: ("huit", "huit"),
        Rank.SEVEN: ("sept", "sept"),
        Rank.SIX: ("six", "six"),
        Rank.FIVE: ("cinq", "cinq"),
        Rank.FOUR: ("quatre", "quatre"),
        Rank.THREE: ("trois", "trois"),
        Rank.TWO: ("deux", "deux"),
    },
}

# key -> template per locale: {1}/{2} a rank's singular, {1s}/{2s} its plural, {de1s} French
# "de"/"d'" before the plural, {al1} Spanish "al"/"a la" before the singular
_TEMPLATES: dict[str, dict[str, str]] = {
    "royal_flush": {"en": "royal flush", "es": "escalera real", "fr": "quinte flush royale"},
    "straight_flush": {
        "en": "straight flush, {1} high",
        "es": "escalera de color {al1}",
        "fr": "quinte flush hauteur {1}",
    },
    "four_of_a_kind": {
        "en": "four of a kind, {1s}",
        "es": "póquer de {1s}",
        "fr": "carré {de1s}",
    },
    "full_house": {
        "en": "full house, {1s} full of {2s}",
        "es": "full de {1s} con {2s}",
        "fr": "full aux {1s} par les {2s}",
    },
    "flush": {"en": "flush, {1} high", "es": "color {al1}", "fr": "couleur hauteur {1}"},
    "straight": {"en": "straight, {1} high", "es": "escalera {al1}", "fr": "quinte hauteur {1}"},
    "three_of_a_kind": {
        "en": "three of a kind, {1s}",
        "es": "trío de {1s}",
        "fr": "brelan {de1s}",
    },
    "two_pair": {
        "en": "two pair, {1s} and {2s}",
        "es": "doble pareja, {1s} y {2s}",
        "fr": "deux paires, {1s} et {2s}",
    },
    "one_pair": {"en": "pair of {1s}", "es": "pareja de {1s}", "fr": "paire {de1s}"},
    "high_card": {"en": "{1} high", "es": "carta alta, {1}", "fr": "hauteur {1}"},
    "low": {"en": "{1}-{2} low", "es": "{1}-{2}", "fr": "{1}-{2}"},
}


@dataclass(frozen=True, slots=True)
class HandName:
    """A hand's name as parts: ``key`` (one of the templates), the ranks it names."""

    key: str
    ranks: tuple[Rank, ...]


def hand_name(shape: HandShape, *, low: bool) -> HandName:
    """The parts of a hand's name: a low hand without a pair or better is named by its two
    top cards ("seven-five"), as :func:`rankings.describe` does."""
    return HandName(*name_parts(shape, low=low))


def said(name: HandName) -> Said:
    """``name`` as a message (``model/messages/cards.py``): what the engine puts into an
    instruction or a refusal, rendered by the ``rules`` catalog in the dealer's language with
    the words of these tables (a test holds the two to each other).

    >>> said(HandName("three_of_a_kind", (Rank.ACE,))).english()
    'three of a kind, aces'
    """
    return say.hand(name.key, tuple(rank.name.lower() for rank in name.ranks))


def words(name: HandName, locale: str) -> str:
    """``name`` in ``locale``'s words (an unknown locale is English)."""
    lang = locale if locale in LOCALES else "en"
    ranks = _RANKS[lang]
    fill: dict[str, str] = {}
    for i, rank in enumerate(name.ranks, start=1):
        singular, plural = ranks[rank]
        fill[f"{i}"] = singular
        fill[f"{i}s"] = plural
        fill[f"de{i}s"] = f"d'{plural}" if plural[0] in "aeiou" else f"de {plural}"
        fill[f"al{i}"] = f"a la {singular}" if rank in (Rank.QUEEN, Rank.JACK) else f"al {singular}"
    text = _TEMPLATES[name.key][lang]
    for slot, value in fill.items():
        text = text.replace("{" + slot + "}", value)
    return text


def describe_in(
    cards: Sequence[Card], ranking: Ranking, locale: str, *, ace_low_straight: bool = True
) -> str:
    """Five cards' name on ``ranking`` in ``locale``'s words.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> describe_in(parse_cards("Ah Ad As 9c 4d"), Ranking.HIGH, "fr")
    "brelan d'as"
    >>> describe_in(parse_cards("7h 5s 4d 3c 2d"), Ranking.DEUCE_TO_SEVEN, "es")
    'siete-cinco'
    """
    shape = read_hand(cards, ranking, ace_low_straight=ace_low_straight)
    return words(hand_name(shape, low=ranking.is_low), locale)
