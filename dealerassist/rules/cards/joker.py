"""The joker ("bug"): the value of four cards and the joker on each scale (DECK-02..04).

A hand holding the joker is valued by the best card the joker may stand for under the
game's rule, then compared like any other hand (``rankings.hand_value`` values):

- high (DECK-02): the bug is an ace, or any card that completes a straight, a flush or a
  straight flush (in a flush that is the highest card of the suit missing from the hand);
  four aces and the bug are five aces, above a royal flush;
- ace-to-five (DECK-03): the lowest rank not already in the hand;
- deuce-to-seven (DECK-04): the lowest card that neither pairs nor completes a straight
  (nor a flush), i.e. the best low hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dealerassist.errors import InvalidInput
from dealerassist.rules.cards.cards import ALL_CARDS, DECK_52, Card, Rank, check_cards_in_deck
from dealerassist.rules.cards.rankings import HandCategory, Ranking, category_of_value, evaluator

JOKER = "Jk"  # how a joker is entered and shown
_FILLS = (HandCategory.STRAIGHT, HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH)
_JOKER_SCALES = (Ranking.HIGH, Ranking.ACE_TO_FIVE, Ranking.DEUCE_TO_SEVEN)


@cache
def five_aces() -> int:
    """DECK-02: the value of four aces and the bug, one above the best hand without it.

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> five_aces() > joker_value(parse_cards("Ks Qs Js Ts"), Ranking.HIGH)
    True
    """
    royal = [card.index for card in ALL_CARDS if card.rank >= Rank.TEN and card.suit.value == "s"]
    return evaluator(Ranking.HIGH)(royal) + 1


def joker_value(cards: Sequence[Card], ranking: Ranking) -> int:
    """Four distinct cards and the joker -> the hand's value on ``ranking`` (higher wins).

    >>> from dealerassist.rules.cards.cards import parse_cards
    >>> from dealerassist.rules.cards.rankings import describe
    >>> describe(joker_cards(parse_cards("6s 5d 4c 3h"), Ranking.DEUCE_TO_SEVEN),
    ...          Ranking.DEUCE_TO_SEVEN)
    'eight-six low'
    """
    if ranking not in _JOKER_SCALES:
        raise InvalidInput(f"The {ranking.value} ranking is not played with a joker.")
    if len(cards) != 4:
        raise InvalidInput(f"A hand with the joker has four other cards; got {len(cards)}.")
    check_cards_in_deck(cards, DECK_52)
    if ranking is Ranking.HIGH and all(card.rank is Rank.ACE for card in cards):
        return five_aces()
    value, _ = _best(cards, ranking)
    return value


def joker_cards(cards: Sequence[Card], ranking: Ranking) -> tuple[Card, ...]:
    """The five cards the hand plays as: the four held and the card the joker stands for
    (four aces and the bug play as four aces; their value is ``five_aces``)."""
    if ranking is Ranking.HIGH and all(card.rank is Rank.ACE for card in cards):
        return tuple(cards)
    joker_value(cards, ranking)  # the same checks
    _, stands_for = _best(cards, ranking)
    return (*cards, stands_for)


def _best(cards: Sequence[Card], ranking: Ranking) -> tuple[int, Card]:
    value_of = evaluator(ranking)
    held = [card.index for card in cards]
    best: tuple[int, Card] | None = None
    for card in ALL_CARDS:
        if card.index in held:
            continue
        value = value_of((*held, card.index))
        if ranking is Ranking.HIGH and not _bug_may_be(card, value):
            continue
        if best is None or value > best[0]:
            best = (value, card)
    assert best is not None  # an ace not held always qualifies
    return best


def _bug_may_be(card: Card, value: int) -> bool:
    """DECK-02: the bug is an ace, or completes a straight, a flush or a straight flush."""
    return card.rank is Rank.ACE or category_of_value(value, Ranking.HIGH) in _FILLS
