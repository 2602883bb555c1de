"""Hand rankings for every game we deal: values (higher is stronger), categories and words.

Rules enforced here: RANK-01 (high), RANK-02 (deuce-to-seven), RANK-03 (ace-to-five) and
RANK-04 (A-7 stripped deck, flush above full house, optional ace-low straight).

``hand_value`` is the checked entry point; ``evaluator`` returns the unchecked fast path
for the showdown and simulations (five card indices in, an int out). Lookup tables are
built lazily, once per ranking, on first use (see ``_ranking_tables``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import NoReturn

from dealerassist.errors import InvalidInput
from dealerassist.rules.cards._ranking_tables import LookupTable, build_table
from dealerassist.rules.cards.cards import (
    ALL_CARDS,
    DECK_32,
    DECK_36,
    DECK_52,
    Card,
    DeckSpec,
    Rank,
    check_cards_in_deck,
    format_cards,
)
from dealerassist.rules.model.messages import cards as say
from dealerassist.rules.model.said import Said

Evaluator = Callable[[Sequence[int]], int]


class Ranking(StrEnum):
    """The hand scales of our games; each names its deck."""

    HIGH = "high"
    DEUCE_TO_SEVEN = "deuce_to_seven"
    ACE_TO_FIVE = "ace_to_five"
    ACE_TO_SEVEN_32 = "ace_to_seven_32"
    ACE_TO_SEVEN_36 = "ace_to_seven_36"

    @property
    def deck(self) -> DeckSpec:
        return _DECKS[self]

    @property
    def is_low(self) -> bool:
        """True for lowball scales, where the lower hand wins (and gets the higher value)."""
        return self in (Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_FIVE)


class HandCategory(StrEnum):
    """What a hand is made of, independent of how a scale orders the categories."""

    HIGH_CARD = "high_card"
    ONE_PAIR = "one_pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"


@dataclass(frozen=True, slots=True)
class HandShape:
    """A hand read on one scale: its category and its ranks in order of significance."""

    category: HandCategory
    ranks: tuple[Rank, ...]


_C = HandCategory
_STANDARD_ORDER = (  # weakest first for high; best first for deuce-to-seven
    _C.HIGH_CARD,
    _C.ONE_PAIR,
    _C.TWO_PAIR,
    _C.THREE_OF_A_KIND,
    _C.STRAIGHT,
    _C.FLUSH,
    _C.FULL_HOUSE,
    _C.FOUR_OF_A_KIND,
    _C.STRAIGHT_FLUSH,
)
_STRIPPED_ORDER = (  # RANK-04: flush above full house, below four of a kind
    _C.HIGH_CARD,
    _C.ONE_PAIR,
    _C.TWO_PAIR,
    _C.THREE_OF_A_KIND,
    _C.STRAIGHT,
    _C.FULL_HOUSE,
    _C.FLUSH,
    _C.FOUR_OF_A_KIND,
    _C.STRAIGHT_FLUSH,
)
_ACE_TO_FIVE_ORDER = (  # RANK-03: best first, no straights or flushes
    _C.HIGH_CARD,
    _C.ONE_PAIR,
    _C.TWO_PAIR,
    _C.THREE_OF_A_KIND,
    _C.FULL_HOUSE,
    _C.FOUR_OF_A_KIND,
)
_PATTERNS = {
    (1, 1, 1, 1, 1): _C.HIGH_CARD,
    (2, 1, 1, 1): _C.ONE_PAIR,
    (2, 2, 1): _C.TWO_PAIR,
    (3, 1, 1): _C.THREE_OF_A_KIND,
    (3, 2): _C.FULL_HOUSE,
    (4, 1): _C.FOUR_OF_A_KIND,
}
_CATEGORIES = tuple(HandCategory)
_DECKS = {
    Ranking.HIGH: DECK_52,
    Ranking.DEUCE_TO_SEVEN: DECK_52,
    Ranking.ACE_TO_FIVE: DECK_52,
    Ranking.ACE_TO_SEVEN_32: DECK_32,
    Ranking.ACE_TO_SEVEN_36: DECK_36,
}
_STRIPPED = (Ranking.ACE_TO_SEVEN_32, Ranking.ACE_TO_SEVEN_36)


@dataclass(frozen=True, slots=True)
class _Scale:
    """How one ranking reads and orders hands."""

    deck: DeckSpec
    order: tuple[HandCategory, ...]  # high scales: weakest first; low scales: best first
    low: bool
    ace_low: bool  # ace-to-five: the ace is the lowest card
    wheel: bool  # the ace may play below the deck's lowest rank in a straight

    @property
    def straights_and_flushes(self) -> bool:
        return HandCategory.STRAIGHT in self.order

    def value(self, rank: Rank) -> int:
        return 1 if self.ace_low and rank is Rank.ACE else int(rank)


def _scale(ranking: Ranking, ace_low_straight: bool) -> _Scale:
    deck = ranking.deck
    match ranking:
        case Ranking.HIGH:
            return _Scale(deck, _STANDARD_ORDER, low=False, ace_low=False, wheel=True)
        case Ranking.DEUCE_TO_SEVEN:
            return _Scale(deck, _STANDARD_ORDER, low=True, ace_low=False, wheel=False)
        case Ranking.ACE_TO_FIVE:
            return _Scale(deck, _ACE_TO_FIVE_ORDER, low=True, ace_low=True, wheel=False)
        case _:
            return _Scale(deck, _STRIPPED_ORDER, low=False, ace_low=False, wheel=ace_low_straight)


def _read_ranks(ranks: Sequence[Rank], flush: bool, scale: _Scale) -> HandShape:
    counts = Counter(ranks)
    groups = tuple(sorted(counts, key=lambda rank: (counts[rank], scale.value(rank)), reverse=True))
    if scale.straights_and_flushes:
        top = _straight_top(groups, scale.deck.ranks[0], scale.wheel)
        if top is not None:
            return HandShape(_C.STRAIGHT_FLUSH if flush else _C.STRAIGHT, (top,))
        if flush:
            return HandShape(_C.FLUSH, groups)
    return HandShape(_PATTERNS[tuple(sorted(counts.values(), reverse=True))], groups)


def _straight_top(groups: tuple[Rank, ...], lowest: Rank, wheel: bool) -> Rank | None:
    """The top card of a straight (ace-low: the fourth card), or None (RANK-01, RANK-04)."""
    if len(groups) != 5:
        return None
    if groups[0] - groups[4] == 4:
        return groups[0]
    if wheel and groups[0] is Rank.ACE and groups[1] == lowest + 3 and groups[4] == lowest:
        return groups[1]
    return None


def _strength(shape: HandShape, scale: _Scale) -> tuple[int, ...]:
    key = (scale.order.index(shape.category), *map(scale.value, shape.ranks))
    return tuple(-part for part in key) if scale.low else key


_TABLES: dict[tuple[Ranking, bool], LookupTable] = {}
_EVALUATORS: dict[tuple[Ranking, bool], Evaluator] = {}


def lookup_table(ranking: Ranking, *, ace_low_straight: bool = True) -> LookupTable:
    """The ranking's table, built on first use (about 50 ms) and kept in memory.

    >>> table = lookup_table(Ranking.HIGH)  # built once, then kept
    >>> lookup_table(Ranking.HIGH) is table
    True
    """
    key = (ranking, ace_low_straight or ranking not in _STRIPPED)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _build(_scale(*key))
    return table


def _build(scale: _Scale) -> LookupTable:
    deck_ranks = scale.deck.ranks
    positions = [deck_ranks.index(card.rank) if card in scale.deck else None for card in ALL_CARDS]

    def read_shape(multiset: tuple[int, ...], flush: bool) -> tuple[tuple[int, ...], int]:
        shape = _read_ranks([deck_ranks[p] for p in multiset], flush, scale)
        return _strength(shape, scale), _CATEGORIES.index(shape.category)

    return build_table(positions, read_shape, flushes=scale.straights_and_flushes)


def evaluator(ranking: Ranking, *, ace_low_straight: bool = True) -> Evaluator:
    """The unchecked fast path: five distinct card indices of the ranking's deck -> value.

    No validation: a card outside the deck raises IndexError, a repeated card gives a
    meaningless value. Use ``hand_value`` for anything entered by a person.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> value = evaluator(Ranking.DEUCE_TO_SEVEN)
    >>> value([card.index for card in parse_cards("7h 5s 4d 3c 2d")])  # the best 2-7 low
    7462
    """
    key = (ranking, ace_low_straight or ranking not in _STRIPPED)
    function = _EVALUATORS.get(key)
    if function is None:
        table = lookup_table(ranking, ace_low_straight=key[1])
        flushes = _scale(*key).straights_and_flushes
        function = _with_flushes(table) if flushes else _without_flushes(table)
        _EVALUATORS[key] = function
    return function


def _with_flushes(table: LookupTable) -> Evaluator:
    codes, lanes = table.card_codes, table.lanes

    def value_of(indices: Sequence[int]) -> int:
        a, b, c, d, e = indices
        x = codes[a] + codes[b] + codes[c] + codes[d] + codes[e]
        return lanes[x >> 19][x & 0x7FFFF]

    return value_of


def _without_flushes(table: LookupTable) -> Evaluator:
    codes, row = table.rank_codes, table.plain

    def value_of(indices: Sequence[int]) -> int:
        a, b, c, d, e = indices
        return row[codes[a] + codes[b] + codes[c] + codes[d] + codes[e]]

    return value_of


def hand_value(cards: Sequence[Card], ranking: Ranking, *, ace_low_straight: bool = True) -> int:
    """The hand's value on ``ranking``: higher is stronger, equal is a tie (RANK-01..04).

    For the lowball scales the better low hand gets the higher value. Raises
    ``InvalidInput`` unless there are five cards and ``RuleViolation`` (DECK-01) for a
    duplicate or a card outside the ranking's deck. ``ace_low_straight`` (RANK-04)
    matters only for the A-7 stripped-deck rankings.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> hand_value(parse_cards("7h 5s 4d 3c 2d"), Ranking.DEUCE_TO_SEVEN)
    7462
    >>> hand_value(parse_cards("7h 5s 4d 3c 2d"), Ranking.HIGH)  # the worst high hand
    1
    """
    if len(cards) != 5:
        _refuse_count(len(cards), cards)
    first, second, third, fourth, fifth = cards
    indices = (first.index, second.index, third.index, fourth.index, fifth.index)
    _check_distinct_in_deck(indices, ranking.deck)
    return evaluator(ranking, ace_low_straight=ace_low_straight)(indices)


def hand_value_from_indices(
    indices: Sequence[int], ranking: Ranking, *, ace_low_straight: bool = True
) -> int:
    """``hand_value`` for card indices (``Card.index``), with the same checks.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> indices = [card.index for card in parse_cards("7h 5s 4d 3c 2d")]
    >>> hand_value_from_indices(indices, Ranking.DEUCE_TO_SEVEN)
    7462
    """
    if len(indices) != 5:
        _refuse_count(len(indices), [ALL_CARDS[i] for i in indices if 0 <= i < len(ALL_CARDS)])
    if not all(0 <= index < len(ALL_CARDS) for index in indices):
        raise InvalidInput(f"Card indices {list(indices)} must each be 0-51.")
    _check_distinct_in_deck(indices, ranking.deck)
    return evaluator(ranking, ace_low_straight=ace_low_straight)(indices)


def hand_category(
    cards: Sequence[Card], ranking: Ranking, *, ace_low_straight: bool = True
) -> HandCategory:
    """The category the hand counts as on ``ranking`` (ace-to-five has no straights/flushes).

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> hand_category(parse_cards("Ah Ad 8c 8s 3d"), Ranking.HIGH)
    <HandCategory.TWO_PAIR: 'two_pair'>
    """
    value = hand_value(cards, ranking, ace_low_straight=ace_low_straight)
    return category_of_value(value, ranking, ace_low_straight=ace_low_straight)


def category_of_value(
    value: int, ranking: Ranking, *, ace_low_straight: bool = True
) -> HandCategory:
    """The category of a value returned by ``hand_value`` or ``evaluator``.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> category_of_value(hand_value(parse_cards("Ah Ad 8c 8s 3d"), Ranking.HIGH), Ranking.HIGH)
    <HandCategory.TWO_PAIR: 'two_pair'>
    """
    table = lookup_table(ranking, ace_low_straight=ace_low_straight)
    return _CATEGORIES[table.category_of_value[value]]


def read_hand(
    cards: Sequence[Card], ranking: Ranking, *, ace_low_straight: bool = True
) -> HandShape:
    """The hand's category and its ranks in order of significance on ``ranking``.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> read_hand(parse_cards("Ah Ad 8c 8s 3d"), Ranking.HIGH)  # doctest: +NORMALIZE_WHITESPACE
    HandShape(category=<HandCategory.TWO_PAIR: 'two_pair'>,
              ranks=(<Rank.ACE: 14>, <Rank.EIGHT: 8>, <Rank.THREE: 3>))
    """
    hand_value(cards, ranking, ace_low_straight=ace_low_straight)  # the same checks
    flush = len({card.suit for card in cards}) == 1
    return _read_ranks([card.rank for card in cards], flush, _scale(ranking, ace_low_straight))


def describe(cards: Sequence[Card], ranking: Ranking, *, ace_low_straight: bool = True) -> str:
    """Words for the dealer: "seven-five low", "flush, king high", "two pair, aces and eights".

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> describe(parse_cards("7h 5s 4d 3c 2d"), Ranking.DEUCE_TO_SEVEN)
    'seven-five low'
    """
    return describe_said(cards, ranking, ace_low_straight=ace_low_straight).english()


def describe_said(
    cards: Sequence[Card], ranking: Ranking, *, ace_low_straight: bool = True
) -> Said:
    """``describe`` as a message (``model/messages/cards.py``), said in any language.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> describe_said(parse_cards("Ah Ad As 9c 4d"), Ranking.HIGH).message.id
    'cards.hand_three_of_a_kind'
    """
    shape = read_hand(cards, ranking, ace_low_straight=ace_low_straight)
    return name_said(shape, low=ranking.is_low)


def name_said(shape: HandShape, *, low: bool) -> Said:
    """A hand's name as a message: its key and the English words of the ranks it names.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> name_said(read_hand(parse_cards("Ah Ad 8c 8s 3d"), Ranking.HIGH), low=False).english()
    'two pair, aces and eights'
    """
    key, ranks = name_parts(shape, low=low)
    return say.hand(key, tuple(rank.name.lower() for rank in ranks))


_NAME_KEYS = {
    _C.STRAIGHT_FLUSH: "straight_flush",
    _C.FOUR_OF_A_KIND: "four_of_a_kind",
    _C.FULL_HOUSE: "full_house",
    _C.FLUSH: "flush",
    _C.STRAIGHT: "straight",
    _C.THREE_OF_A_KIND: "three_of_a_kind",
    _C.TWO_PAIR: "two_pair",
    _C.ONE_PAIR: "one_pair",
    _C.HIGH_CARD: "high_card",
}


def name_parts(shape: HandShape, *, low: bool) -> tuple[str, tuple[Rank, ...]]:
    """The parts of a hand's name: a key (``messages.cards.HAND_KEYS``) and the ranks it
    names. A low hand without a pair or better is named by its two top cards
    ("seven-five"); a full house and two pair name two ranks, a royal flush none.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> name_parts(read_hand(parse_cards("7h 5s 4d 3c 2d"), Ranking.DEUCE_TO_SEVEN), low=True)
    ('low', (<Rank.SEVEN: 7>, <Rank.FIVE: 5>))
    """
    first, *rest = shape.ranks
    if shape.category is _C.STRAIGHT_FLUSH and first is Rank.ACE and not low:
        return "royal_flush", ()
    if shape.category is _C.HIGH_CARD and low:
        return "low", (first, rest[0])
    named = 2 if shape.category in (_C.FULL_HOUSE, _C.TWO_PAIR) else 1
    return _NAME_KEYS[shape.category], (first, *rest[: named - 1])


def _refuse_count(count: int, cards: Iterable[Card]) -> NoReturn:
    raise InvalidInput(f"A hand has five cards; got {count} ({format_cards(cards)}).")


def _check_distinct_in_deck(indices: Sequence[int], deck: DeckSpec) -> None:
    """Raise RuleViolation (DECK-01) on a repeated card or one outside ``deck``."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    if mask.bit_count() != len(indices) or mask & ~deck.index_mask:
        check_cards_in_deck([ALL_CARDS[i] for i in indices], deck)


# -- RANK-05: lowball hand numbers (dealer vocabulary) --------------------------------------

NUMBERED_UP_TO = 10  # hands ten-high or better get a number (#1 75432 ... #121 T9875)


def _deuce_to_seven_numbers() -> dict[tuple[int, ...], int]:
    """Every unpaired, non-straight 2-7 rank set ten-high or better, best first, numbered from
    one (BARGE Appendix A: #1 75432, #5 85432, #19 95432, #53 T5432)."""
    sets = [
        ranks
        for ranks in combinations(range(NUMBERED_UP_TO, 1, -1), 5)  # each set high card first
        if ranks[0] - ranks[4] != 4  # five in a row is a straight (the ace is high in 2-7)
    ]
    return {ranks: number for number, ranks in enumerate(sorted(sets), start=1)}


_DEUCE_TO_SEVEN_NUMBERS = _deuce_to_seven_numbers()


def lowball_number(cards: Sequence[Card]) -> int | None:
    """RANK-05: the number a strong 2-7 low goes by ("number one" is 7-5-4-3-2), or None for a
    pair, a straight, a flush or a hand rougher than ten-high.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> lowball_number(parse_cards("7h 5d 4c 3s 2d")), lowball_number(parse_cards("8c 5d 4c 3s 2d"))
    (1, 5)
    >>> lowball_number(parse_cards("7h 5h 4h 3h 2h")), lowball_number(parse_cards("Ah 5d 4c 3s 2d"))
    (None, None)
    """
    if len({card.suit for card in cards}) == 1:
        return None
    ranks = tuple(sorted((int(card.rank) for card in cards), reverse=True))
    return _DEUCE_TO_SEVEN_NUMBERS.get(ranks)
