"""Cards, the three decks we deal (52, 32, 36) and parsing of dealer card entries.

A card's ``index`` (``rank ordinal * 4 + suit ordinal``, 0 = 2c … 51 = As) is the small
integer the hand evaluator works with; ``Card.from_index`` turns it back into a card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import lru_cache

from dealerassist.errors import InvalidInput
from dealerassist.rules.model.messages import cards as say
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.violations import RuleId, RuleViolation

RANK_SYMBOLS = "23456789TJQKA"
SUIT_SYMBOLS = "cdhs"
_SUIT_ALIASES = {"♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h", "♠": "s", "♤": "s"}
_SEPARATORS = " \t\r\n,"


class Rank(IntEnum):
    """A card rank; an ``IntEnum`` because ranks are compared (ace high, 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The one-letter symbol: ``Rank.TEN.symbol == "T"``."""
        return RANK_SYMBOLS[self - 2]

    @property
    def ordinal(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self - 2


class Suit(StrEnum):
    """A card suit; suits never rank for the pot (SHOW-10)."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def ordinal(self) -> int:
        """0 for clubs, 1 diamonds, 2 hearts, 3 spades."""
        return SUIT_SYMBOLS.index(self.value)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; ``str(card)`` is ``"7h"`` and ``card.index`` is its 0–51 number."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.rank.ordinal * 4 + self.suit.ordinal)

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.value}"

    @staticmethod
    def from_index(index: int) -> Card:
        """The card numbered ``index`` (0 = 2c, 51 = As).

        >>> str(Card.from_index(51))
        'As'
        """
        return ALL_CARDS[index]


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """The composition of a deck in use: its name and its cards, lowest first."""

    name: str
    cards: tuple[Card, ...]
    index_mask: int = field(init=False, repr=False, compare=False)
    ranks: tuple[Rank, ...] = field(init=False, repr=False, compare=False)  # lowest first

    def __post_init__(self) -> None:
        mask = 0
        for card in self.cards:
            mask |= 1 << card.index
        object.__setattr__(self, "index_mask", mask)
        object.__setattr__(self, "ranks", tuple(sorted({card.rank for card in self.cards})))

    @property
    def size(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.index_mask >> card.index & 1)

    def describe(self) -> str:
        """``"32-card deck (seven to ace)"``."""
        return self.said().english()

    def said(self) -> Said:
        """``describe`` as a message, said in any language."""
        lowest = say.RANK[self.ranks[0].name.lower()]()
        return say.DECK(size=self.size, lowest=lowest)


def _deck(name: str, lowest: Rank) -> DeckSpec:
    return DeckSpec(name, tuple(card for card in ALL_CARDS if card.rank >= lowest))


DECK_52 = _deck("standard-52", Rank.TWO)
DECK_32 = _deck("stripped-32", Rank.SEVEN)
DECK_36 = _deck("stripped-36", Rank.SIX)
DECKS_BY_SIZE: dict[int, DeckSpec] = {deck.size: deck for deck in (DECK_52, DECK_32, DECK_36)}


def parse_cards(
    text: str,
    deck: DeckSpec = DECK_52,
    count: int | None = None,
    *,
    seat: int | None = None,
) -> tuple[Card, ...]:
    """Read a dealer entry such as ``"7h 5s 4d 3c 2d"`` or ``"7h5s4d3c2d"`` (DECK-01).

    Ranks ``2-9 T J Q K A`` (or ``10``), suits ``c d h s`` (or ♣♦♥♠), any case, separated
    by spaces, commas or nothing. Malformed text or the wrong number of cards raises
    ``InvalidInput``; a duplicate or a card outside ``deck`` raises ``RuleViolation``
    (DECK-01) for ``seat``.

    >>> [str(card) for card in parse_cards("10h ks", count=2)]
    ['Th', 'Ks']
    """
    cards = _read_entry(text)
    if count is not None and len(cards) != count:
        raise InvalidInput(
            f"Expected {count} cards, got {len(cards)} in {text!r}; enter exactly {count}."
        )
    check_cards_in_deck(cards, deck, seat=seat)
    return cards


def parse_card(text: str, deck: DeckSpec = DECK_52) -> Card:
    """Read exactly one card (``"Qd"``).

    >>> parse_card("Qd")
    Card(rank=<Rank.QUEEN: 12>, suit=<Suit.DIAMONDS: 'd'>)
    """
    return parse_cards(text, deck, count=1)[0]


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of cards: ``"7h 5s 4d 3c 2d"``.

    >>> format_cards(parse_cards("7h5s4d3c2d"))
    '7h 5s 4d 3c 2d'
    """
    return " ".join(map(str, cards))


def check_cards_in_deck(cards: Iterable[Card], deck: DeckSpec, *, seat: int | None = None) -> None:
    """Raise ``RuleViolation`` (DECK-01) on a duplicate or a card the deck does not hold.

    The first wrong card, in entry order, is the one reported. Cards are tested as bits of
    the deck's and the entry's index masks (no set of cards, no hashing).

    >>> check_cards_in_deck(parse_cards("Ah Kd"), DECK_32)  # A-7 stripped: both are in it
    >>> check_cards_in_deck(parse_cards("Ah 6d"), DECK_32)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dealerassist.rules.model.violations.RuleViolation: DECK-01: 6d is not in the 32-card deck ...
    """
    allowed_mask, seen = deck.index_mask, 0
    for card in cards:
        bit = 1 << card.index
        if not allowed_mask & bit:
            raise RuleViolation(
                rule_id=RuleId.DECK_01,
                said=say.NOT_IN_DECK(card=str(card), deck=deck.said()),
                seat=seat,
                allowed=({"deck": deck.name, "lowest_rank": deck.ranks[0].symbol},),
            )
        if seen & bit:
            raise RuleViolation(
                rule_id=RuleId.DECK_01,
                said=say.ENTERED_TWICE(card=str(card)),
                seat=seat,
            )
        seen |= bit


def can_cards_be_in_deck(cards: Iterable[Card], deck: DeckSpec) -> bool:
    """True when every card is in ``deck`` and none repeats (DECK-01).

    >>> can_cards_be_in_deck(parse_cards("Ah Kd"), DECK_32)
    True
    >>> can_cards_be_in_deck((parse_card("Ah"), parse_card("Ah")), DECK_52)
    False
    """
    try:
        check_cards_in_deck(cards, deck)
    except RuleViolation:
        return False
    return True


def _spellings() -> dict[str, Card]:
    """Every way one card may be entered (rank in any case or ``10``, suit in any case or
    as a suit symbol), to the card."""
    spelled: dict[str, Card] = {}
    suit_texts = {suit: {suit.value, suit.value.upper()} for suit in Suit}
    for alias, symbol in _SUIT_ALIASES.items():
        suit_texts[Suit(symbol)].add(alias)
    for card in ALL_CARDS:
        ranks = {card.rank.symbol, card.rank.symbol.lower()} | (
            {"10"} if card.rank == 10 else set()
        )
        for rank in ranks:
            for suit in suit_texts[card.suit]:
                spelled[rank + suit] = card
    return spelled


_SPELLED = _spellings()


@lru_cache(maxsize=4096)  # a hand's cards are read several times (show, strength, notices)
def _read_entry(text: str) -> tuple[Card, ...]:
    """The cards of an entry, remembered: the same texts come back all through a showdown."""
    return tuple(_tokens(text))


def _tokens(text: str) -> Iterable[Card]:
    """The cards of an entry: a dictionary lookup per card; anything it cannot read goes
    to the character-by-character reader, which says what is wrong."""
    cards: list[Card] = []
    for word in text.replace(",", " ").split():
        position, size = 0, len(word)
        while position < size:
            card = _SPELLED.get(word[position : position + 2])
            if card is None:
                card = _SPELLED.get(word[position : position + 3])
                if card is None:
                    return _read_tokens(text)
                position += 1
            cards.append(card)
            position += 2
    return cards


def _read_tokens(text: str) -> Iterable[Card]:
    compact = "".join(ch for ch in text if ch not in _SEPARATORS)
    position = 0
    while position < len(compact):
        rank, position = _read_rank(compact, position, text)
        suit, position = _read_suit(compact, position, text)
        yield ALL_CARDS[rank.ordinal * 4 + suit.ordinal]


def _read_rank(compact: str, position: int, text: str) -> tuple[Rank, int]:
    if compact.startswith("10", position):
        return Rank.TEN, position + 2
    symbol = compact[position].upper()
    if symbol not in RANK_SYMBOLS:
        raise InvalidInput(
            f"Unknown rank {compact[position]!r} in {text!r}; ranks are 2-9, T (or 10), J, Q, K, A."
        )
    return Rank(RANK_SYMBOLS.index(symbol) + 2), position + 1


def _read_suit(compact: str, position: int, text: str) -> tuple[Suit, int]:
    if position >= len(compact):
        raise InvalidInput(f"The last card in {text!r} has no suit; suits are c, d, h, s.")
    raw = compact[position]
    symbol = _SUIT_ALIASES.get(raw, raw.lower())
    if symbol not in SUIT_SYMBOLS:
        raise InvalidInput(f"Unknown suit {raw!r} in {text!r}; suits are c, d, h, s.")
    return Suit(symbol), position + 1
