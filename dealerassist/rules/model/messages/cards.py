"""What the cards say (``rules/cards/``): a card the deck does not hold or entered twice
(DECK-01), the deck's name, and a hand's name ("three of a kind, aces", "seven-five low").

A rank is said in four forms, because the room's languages put it in different shapes where
English says the same word: ``RANK`` ("ace": es "as", fr "as"), ``RANKS`` ("aces"), ``HIGH``
("ace" in "straight, ace high": es "al as", "a la reina") and ``OF_RANKS`` ("aces" in
"pair of aces": es "de ases", fr "d'as", "de rois"). Each is keyed by the rank's English
word (``Rank.name.lower()``: "two" … "ace"); the model may not import ``cards``.
"""

from dealerassist.rules.model.said import Message, Said

RANK_WORDS = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)


def _plural(word: str) -> str:
    return "sixes" if word == "six" else f"{word}s"


RANK = {word: Message(f"cards.rank_{word}", word) for word in RANK_WORDS}
RANKS = {word: Message(f"cards.ranks_{word}", _plural(word)) for word in RANK_WORDS}
HIGH = {word: Message(f"cards.high_{word}", word) for word in RANK_WORDS}
OF_RANKS = {word: Message(f"cards.of_{word}", _plural(word)) for word in RANK_WORDS}

# a hand's name, by the key rules/cards/hand_words.py gives it
ROYAL_FLUSH = Message("cards.hand_royal_flush", "royal flush")
STRAIGHT_FLUSH = Message("cards.hand_straight_flush", "straight flush, {high} high")
FOUR_OF_A_KIND = Message("cards.hand_four_of_a_kind", "four of a kind, {rank}")
FULL_HOUSE = Message("cards.hand_full_house", "full house, {three} full of {pair}")
FLUSH = Message("cards.hand_flush", "flush, {high} high")
STRAIGHT = Message("cards.hand_straight", "straight, {high} high")
THREE_OF_A_KIND = Message("cards.hand_three_of_a_kind", "three of a kind, {rank}")
TWO_PAIR = Message("cards.hand_two_pair", "two pair, {high} and {low}")
ONE_PAIR = Message("cards.hand_one_pair", "pair of {rank}")
HIGH_CARD = Message("cards.hand_high_card", "{rank} high")
LOW = Message("cards.hand_low", "{high}-{next} low")

# DECK-01 (rules/cards/cards.py)
DECK = Message("cards.deck", "{size}-card deck ({lowest} to ace)")
NOT_IN_DECK = Message(
    "cards.not_in_deck",
    "{card} is not in the {deck}; check the card and re-enter it (a stripped or foreign card "
    "fouls the deck).",
)
ENTERED_TWICE = Message(
    "cards.entered_twice",
    "{card} is entered twice; each card exists once in the deck — re-enter the cards (two "
    "identical cards foul the deck).",
)

# a hand's name by its key: the message and, for each rank it names, the slot and the form
_HANDS: dict[str, tuple[Message, tuple[tuple[str, dict[str, Message]], ...]]] = {
    "royal_flush": (ROYAL_FLUSH, ()),
    "straight_flush": (STRAIGHT_FLUSH, (("high", HIGH),)),
    "four_of_a_kind": (FOUR_OF_A_KIND, (("rank", OF_RANKS),)),
    "full_house": (FULL_HOUSE, (("three", RANKS), ("pair", RANKS))),
    "flush": (FLUSH, (("high", HIGH),)),
    "straight": (STRAIGHT, (("high", HIGH),)),
    "three_of_a_kind": (THREE_OF_A_KIND, (("rank", OF_RANKS),)),
    "two_pair": (TWO_PAIR, (("high", RANKS), ("low", RANKS))),
    "one_pair": (ONE_PAIR, (("rank", OF_RANKS),)),
    "high_card": (HIGH_CARD, (("rank", RANK),)),
    "low": (LOW, (("high", RANK), ("next", RANK))),
}
HAND_KEYS = tuple(_HANDS)


def hand(key: str, ranks: tuple[str, ...]) -> Said:
    """The name of a hand of ``key`` naming ``ranks`` (English words, best first).

    >>> hand("three_of_a_kind", ("ace",)).english()
    'three of a kind, aces'
    """
    message, slots = _HANDS[key]
    return message(**{slot: form[word]() for (slot, form), word in zip(slots, ranks, strict=True)})
