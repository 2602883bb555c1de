"""The joker ("bug"): what it stands for on each scale (DECK-02, DECK-03, DECK-04)."""

from __future__ import annotations

import itertools

import pytest

from dealerassist.errors import InvalidInput
from dealerassist.rules.cards.cards import ALL_CARDS, Card, Rank, Suit, parse_cards
from dealerassist.rules.cards.joker import five_aces, joker_cards, joker_value
from dealerassist.rules.cards.rankings import Ranking, describe, hand_value

HIGH = Ranking.HIGH
LOW_A5 = Ranking.ACE_TO_FIVE
LOW_27 = Ranking.DEUCE_TO_SEVEN
SUITS = tuple(Suit)


def plays_as(text: str, ranking: Ranking) -> str:
    cards = joker_cards(parse_cards(text, count=4), ranking)
    return describe(cards, ranking)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Ad Kc Kd", "full house, aces full of kings"),
        ("Kc Kd 7s 3h", "pair of kings"),
        ("7c 7d 7h 2s", "three of a kind, sevens"),
        ("2h 5h 9h Jh", "flush, ace high"),
        ("9c 8d 7h 6s", "straight, ten high"),
        ("2c 3d 4h 5s", "straight, six high"),
        ("As Ks Qs Js", "royal flush"),
        ("9h 8h 6h 5h", "straight flush, nine high"),
        ("Ac Ad Ah 2s", "four of a kind, aces"),
    ],
)
def test_DECK_02_accepts_the_bug_as_an_ace_or_a_straight_or_flush_card(
    text: str, expected: str
) -> None:
    """Draw high: the bug is an ace, or fills a straight, flush or straight flush."""
    assert plays_as(text, HIGH) == expected


def test_DECK_02_accepts_the_highest_missing_card_of_the_suit_in_a_flush() -> None:
    """With the ace of hearts held, the bug completes the flush as the queen (not the ace)."""
    cards = joker_cards(parse_cards("Ah Kh 9h 5h"), HIGH)
    assert str(cards[-1]) == "Qh"


def test_DECK_02_accepts_five_aces_as_the_top_hand() -> None:
    """Four aces and the bug beat a royal flush."""
    royal = hand_value(parse_cards("As Ks Qs Js Ts"), HIGH)
    assert joker_value(parse_cards("Ac Ad Ah As"), HIGH) == five_aces() > royal


@pytest.mark.parametrize("text", ["Kc Kd 7s 3h", "7c 7d 7h 2s", "Qc Qd 4h 4s", "Jc Td 5h 2s"])
def test_DECK_02_rejects_the_bug_as_any_other_wild_card(text: str) -> None:
    """The bug never pairs a king, a seven or a queen: it plays as an ace instead."""
    held = parse_cards(text)
    stands_for = joker_cards(held, HIGH)[-1]
    assert stands_for.rank is Rank.ACE
    fully_wild = max(hand_value((*held, card), HIGH) for card in ALL_CARDS if card not in held)
    if any(card.rank is not Rank.ACE for card in held):
        assert joker_value(held, HIGH) < fully_wild


def _independent_high(held: tuple[Card, ...]) -> int:
    """DECK-02 written out plainly: an ace, or a card that makes a straight or a flush."""
    if all(card.rank is Rank.ACE for card in held):
        return five_aces()
    values = []
    for card in ALL_CARDS:
        if card in held:
            continue
        hand = (*held, card)
        ranks = sorted({int(c.rank) for c in hand})
        wheel = ranks == [2, 3, 4, 5, 14]
        straight = len(ranks) == 5 and (ranks[4] - ranks[0] == 4 or wheel)
        flush = len({c.suit for c in hand}) == 1
        if card.rank is Rank.ACE or straight or flush:
            values.append(hand_value(hand, HIGH))
    return max(values)


def _rank_sets(size: int = 4) -> list[tuple[Rank, ...]]:
    """Every multiset of four ranks (at most four of a rank)."""
    return list(itertools.combinations_with_replacement(tuple(Rank), size))


def _suited(ranks: tuple[Rank, ...], pattern: tuple[int, ...]) -> tuple[Card, ...] | None:
    """The ranks dealt in the given suits, or None if that repeats a card."""
    cards = tuple(Card(rank, SUITS[suit]) for rank, suit in zip(ranks, pattern, strict=True))
    return cards if len(set(cards)) == 4 else None


PATTERNS = [(0, 0, 0, 0), (0, 0, 0, 1), (0, 1, 2, 3), (1, 0, 0, 0), (3, 2, 1, 0)]


@pytest.mark.slow
def test_DECK_02_accepts_the_plain_rule_for_every_rank_set_and_suit_pattern() -> None:
    """All 1,820 four-rank multisets in five suit patterns: the bug's value is the best ace,
    straight or flush completion (five aces on top)."""
    checked = 0
    for ranks in _rank_sets():
        for pattern in PATTERNS:
            held = _suited(ranks, pattern)
            if held is not None:
                assert joker_value(held, HIGH) == _independent_high(held), held
                checked += 1
    assert checked > 4000


def test_DECK_03_accepts_the_lowest_rank_missing_from_the_hand() -> None:
    """A-3-4-7 and the joker is read as 7-4-3-2-A."""
    assert plays_as("Ac 3d 4h 7s", LOW_A5) == "seven-four low"
    assert joker_cards(parse_cards("Ac 3d 4h 7s"), LOW_A5)[-1].rank is Rank.TWO


def test_DECK_03_accepts_the_wheel_from_any_four_of_its_cards() -> None:
    """Any four of A-2-3-4-5 and the joker make the best A-5 hand."""
    wheel = hand_value(parse_cards("5c 4d 3h 2s Ac"), LOW_A5)
    for held in itertools.combinations(parse_cards("5c 4d 3h 2s Ac"), 4):
        assert joker_value(held, LOW_A5) == wheel


def test_DECK_03_rejects_a_joker_that_pairs_the_hand() -> None:
    """The joker never pairs: with A-2-3-4 held it is the five, not another ace."""
    assert joker_cards(parse_cards("Ac 2d 3h 4s"), LOW_A5)[-1].rank is Rank.FIVE


def test_DECK_03_accepts_the_lowest_missing_rank_for_every_rank_set() -> None:
    """All 1,820 four-rank multisets: the joker is the lowest rank (ace low) not held."""
    order = [Rank.ACE, *[rank for rank in Rank if rank is not Rank.ACE]]
    for ranks in _rank_sets():
        held = _suited(ranks, (0, 1, 2, 3))
        if held is None:
            continue
        missing = next(rank for rank in order if rank not in ranks)
        expected = hand_value((*held, Card(missing, SUITS[0])), LOW_A5)
        assert joker_value(held, LOW_A5) == expected, held


def test_DECK_04_accepts_the_lowest_card_that_neither_pairs_nor_makes_a_straight() -> None:
    """6-5-4-3 and the joker is 8-6-5-4-3, not a seven or a deuce (straights)."""
    assert plays_as("6s 5d 4c 3h", LOW_27) == "eight-six low"


def test_DECK_04_rejects_a_joker_that_completes_a_flush() -> None:
    """Four spades: the joker is a deuce of another suit, not a spade."""
    stands_for = joker_cards(parse_cards("7s 5s 4s 3s"), LOW_27)[-1]
    assert stands_for.rank is Rank.TWO and stands_for.suit is not Suit.SPADES


def _lowest_27(ranks: tuple[Rank, ...]) -> Rank:
    for rank in Rank:
        candidate = sorted({*map(int, ranks), int(rank)})
        straight = len(candidate) == 5 and candidate[4] - candidate[0] == 4
        if rank not in ranks and not straight:
            return rank
    raise AssertionError(ranks)


def test_DECK_04_accepts_the_catalog_rule_for_every_rank_set() -> None:
    """All 1,820 four-rank multisets, rainbow: the joker is the lowest rank that neither pairs
    nor completes a straight (A high, no wheel in 2-7)."""
    for ranks in _rank_sets():
        held = _suited(ranks, (0, 1, 2, 3))
        if held is None:
            continue
        expected = hand_value((*held, Card(_lowest_27(ranks), SUITS[0])), LOW_27)
        assert joker_value(held, LOW_27) == expected, held


def test_DECK_02_rejects_a_joker_hand_without_four_other_cards() -> None:
    """Four cards and the joker make a hand; three do not, nor a stripped-deck scale."""
    with pytest.raises(InvalidInput):
        joker_value(parse_cards("Ac Kd Qh"), HIGH)
    with pytest.raises(InvalidInput):
        joker_value(parse_cards("Ac Kd Qh Js"), Ranking.ACE_TO_SEVEN_32)
