"""Tests for dealerassist.rules.cards.rankings: RANK-01..04, words, and exhaustive oracle checks.

pokerkit is the oracle (never imported by the package). The md5 constants are the ones
pokerkit pins in its own ``pokerkit/tests/test_lookups.py`` (0.7.x): every five-card
combination of its deck, in ``itertools.combinations`` order, stably sorted by the
lookup entry (weakest first; for low lookups the best low hand first), each written as
``"".join(repr(card))`` and joined by newlines.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from hashlib import md5
from itertools import chain, combinations, combinations_with_replacement, pairwise

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pokerkit import RegularLowHand, StandardHighHand, StandardLowHand
from pokerkit.hands import Hand

from dealerassist.errors import InvalidInput
from dealerassist.rules.cards import _ranking_tables, rankings
from dealerassist.rules.cards.cards import ALL_CARDS, DECK_32, DECK_52, Card, parse_cards
from dealerassist.rules.cards.rankings import (
    HandCategory,
    Ranking,
    category_of_value,
    describe,
    evaluator,
    hand_category,
    hand_value,
    hand_value_from_indices,
    lookup_table,
    read_hand,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation

HIGH, LOW27, LOW_A5 = Ranking.HIGH, Ranking.DEUCE_TO_SEVEN, Ranking.ACE_TO_FIVE
A7_32, A7_36 = Ranking.ACE_TO_SEVEN_32, Ranking.ACE_TO_SEVEN_36
C = HandCategory


def value(text: str, ranking: Ranking, *, ace_low_straight: bool = True) -> int:
    deck = ranking.deck
    return hand_value(parse_cards(text, deck, count=5), ranking, ace_low_straight=ace_low_straight)


def words(text: str, ranking: Ranking, *, ace_low_straight: bool = True) -> str:
    cards = parse_cards(text, ranking.deck, count=5)
    return describe(cards, ranking, ace_low_straight=ace_low_straight)


def category(text: str, ranking: Ranking, *, ace_low_straight: bool = True) -> HandCategory:
    cards = parse_cards(text, ranking.deck, count=5)
    return hand_category(cards, ranking, ace_low_straight=ace_low_straight)


def ascending(texts: Sequence[str], ranking: Ranking, **options: bool) -> bool:
    """True when each hand is strictly stronger than the one before."""
    values = [value(text, ranking, **options) for text in texts]
    return all(low < high for low, high in pairwise(values))


# --- the table machinery ------------------------------------------------------------


def test_rank_weights_give_every_rank_multiset_its_own_sum() -> None:
    """The 6,175 five-card rank multisets of 13 ranks have distinct weight sums below 2**19."""
    weights = _ranking_tables.RANK_WEIGHTS
    sums = [
        sum(weights[rank] for rank in multiset)
        for multiset in combinations_with_replacement(range(13), 5)
        if multiset[0] != multiset[4]
    ]
    assert len(sums) == len(set(sums)) == 6175
    assert max(sums) <= _ranking_tables.RANK_MASK


def test_suit_lanes_mark_only_flushes() -> None:
    """Five suit lanes sum to a flush lane exactly when the five suits agree."""
    for suits in combinations_with_replacement(range(4), 5):
        lane = sum(_ranking_tables.SUIT_LANES[suit] for suit in suits)
        assert (lane in _ranking_tables.FLUSH_LANES) == (len(set(suits)) == 1)


def test_values_are_dense_and_start_at_one() -> None:
    """Values run 1..N with N the number of distinct hand classes (7,462 for high)."""
    assert lookup_table(HIGH).value_count == 7462
    assert lookup_table(LOW27).value_count == 7462
    assert lookup_table(LOW_A5).value_count == 6175
    assert lookup_table(A7_32).value_count == 840
    assert lookup_table(A7_36).value_count == 1404
    assert lookup_table(HIGH).nbytes() < 2_000_000


def test_fast_path_refuses_a_card_outside_the_deck() -> None:
    """The unchecked evaluator raises IndexError rather than valuing a stripped card."""
    six = parse_cards("6h")[0].index
    with pytest.raises(IndexError):
        evaluator(A7_32)([six, *(card.index for card in DECK_32.cards[:4])])


def test_indices_and_cards_give_the_same_value() -> None:
    """hand_value, hand_value_from_indices and the fast path agree."""
    cards = parse_cards("Kh 9h 7h 5h 2h")
    indices = [card.index for card in cards]
    assert hand_value(cards, HIGH) == hand_value_from_indices(indices, HIGH)
    assert hand_value(cards, HIGH) == evaluator(HIGH)(indices)


# --- checked entry points -------------------------------------------------------------


def test_hand_value_rejects_four_cards() -> None:
    """A hand must have five cards."""
    with pytest.raises(InvalidInput, match="five cards; got 4"):
        hand_value(parse_cards("Kh 9h 7h 5h"), HIGH)


def test_hand_value_rejects_index_that_is_no_card() -> None:
    """Indices outside 0-51 raise InvalidInput."""
    with pytest.raises(InvalidInput, match="must each be 0-51"):
        hand_value_from_indices([0, 1, 2, 3, 52], HIGH)


def test_DECK_01_rejects_duplicate_in_hand() -> None:
    """A hand holding the same card twice is refused with DECK-01."""
    cards = parse_cards("Kh 9h 7h 5h") + parse_cards("Kh")
    with pytest.raises(RuleViolation) as caught:
        hand_value(cards, HIGH)
    assert caught.value.rule_id is RuleId.DECK_01


def test_DECK_01_rejects_deuce_in_stripped_ranking() -> None:
    """A 32-card ranking refuses a hand holding a deuce (DECK-01)."""
    cards = parse_cards("Ah Kd 8c 9h 2s")
    with pytest.raises(RuleViolation, match="2s is not in the 32-card deck"):
        hand_value(cards, A7_32)
    assert hand_value(cards, HIGH) > 0


# --- RANK-01 high ---------------------------------------------------------------------


def test_RANK_01_accepts_standard_category_order() -> None:
    """High card < pair < two pair < trips < straight < flush < full house < quads < SF."""
    assert ascending(
        [
            "Ah Jd 9c 6s 2h",
            "5h 5d 9c 8s 7h",
            "Ah Ad 8c 8s Jh",
            "6h 6d 6c As Kh",
            "9h 8d 7c 6s 5h",
            "Ah Kh 9h 7h 6h",
            "7h 7d 7c 2s 2h",
            "8h 8d 8c 8s Jh",
            "9h 8h 7h 6h 5h",
            "Ah Kh Qh Jh Th",
        ],
        HIGH,
    )


def test_RANK_01_accepts_wheel_as_lowest_straight() -> None:
    """A-2-3-4-5 is a straight, five high: above trips, below 6-5-4-3-2."""
    assert category("As 2d 3c 4h 5s", HIGH) is C.STRAIGHT
    assert ascending(["Ah Ad Ac Ks Qh", "As 2d 3c 4h 5s", "6s 2d 3c 4h 5s"], HIGH)
    assert words("As 2s 3s 4s 5s", HIGH) == "straight flush, five high"


def test_RANK_01_rejects_wrap_around_straight() -> None:
    """Q-K-A-2-3 does not wrap around: it is ace high."""
    assert category("Qs Kd Ac 2h 3s", HIGH) is C.HIGH_CARD
    assert words("Qs Kd Ac 2h 3s", HIGH) == "ace high"


def test_RANK_01_rejects_suit_as_tie_breaker() -> None:
    """The same ranks in other suits tie exactly."""
    assert value("Ah Kd 9c 7s 6h", HIGH) == value("As Kc 9d 7h 6s", HIGH)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ah Kh Qh Jh Th", "royal flush"),
        ("9h 8h 7h 6h 5h", "straight flush, nine high"),
        ("8h 8d 8c 8s Jh", "four of a kind, eights"),
        ("3s 3d 3c Kh Kd", "full house, threes full of kings"),
        ("Kh 9h 7h 5h 2h", "flush, king high"),
        ("9h 8d 7c 6s 5h", "straight, nine high"),
        ("6h 6d 6c As Kh", "three of a kind, sixes"),
        ("As Ad 8c 8s 2d", "two pair, aces and eights"),
        ("5h 5d 9c 8s 7h", "pair of fives"),
        ("Ah Jd 9c 6s 2h", "ace high"),
    ],
)
def test_describe_high_hands(text: str, expected: str) -> None:
    """The dealer reads high hands in the usual words."""
    assert words(text, HIGH) == expected


# --- RANK-02 deuce-to-seven -----------------------------------------------------------


def test_RANK_02_accepts_seven_five_as_best() -> None:
    """7-5-4-3-2 offsuit is the best 2-7 hand: it gets the highest value."""
    assert value("7h 5s 4d 3c 2d", LOW27) == lookup_table(LOW27).value_count
    assert words("7h 5s 4d 3c 2d", LOW27) == "seven-five low"


def test_RANK_02_accepts_catalog_top_ten_in_order() -> None:
    """The ten best 2-7 hands of catalog section 13.2 come out best first."""
    top_ten = ["7-5-4-3-2", "7-6-4-3-2", "7-6-5-3-2", "7-6-5-4-2", "8-5-4-3-2",
               "8-6-4-3-2", "8-6-5-3-2", "8-6-5-4-2", "8-6-5-4-3", "8-7-4-3-2"]  # fmt: skip
    suits = "hsdcd"
    hands = [" ".join(r + s for r, s in zip(h.split("-"), suits, strict=True)) for h in top_ten]
    assert ascending(hands[::-1], LOW27)
    best = lookup_table(LOW27).value_count
    best_values = list(range(best, best - 10, -1))
    assert [value(hand, LOW27) for hand in hands] == best_values


def test_RANK_02_accepts_seed_examples() -> None:
    """8-7-6-4-3 beats J-5-4-3-2; 9-8-7-4-3 beats 9-8-7-5-3; 2-2 beats A-A."""
    assert value("8h 7s 6d 4c 3d", LOW27) > value("Jh 5s 4d 3c 2d", LOW27)
    assert value("9h 8s 7d 4c 3d", LOW27) > value("9h 8s 7d 5c 3d", LOW27)
    assert value("2h 2s 5d 4c 3d", LOW27) > value("Ah As 7d 6c 5d", LOW27)


def test_RANK_02_accepts_catalog_counts_of_nine_or_better() -> None:
    """4 sevens, 14 eights and 34 nines are the 52 unpaired 2-7 hands nine or better."""
    nine_or_better = _unpaired_low_hands(LOW27, lambda top: top <= 9)
    tops = Counter(ranks[0] for ranks in nine_or_better)
    assert (tops[7], tops[8], tops[9]) == (4, 14, 34)
    assert words("Th 5s 4d 3c 2d", LOW27) == "ten-five low"


def test_RANK_02_rejects_wheel_as_straight() -> None:
    """A-2-3-4-5 is ace-five high: beats a pair of deuces, loses to king high."""
    assert category("As 2d 3c 4h 5s", LOW27) is C.HIGH_CARD
    assert words("As 2d 3c 4h 5s", LOW27) == "ace-five low"
    assert ascending(["2h 2s 5d 4c 3d", "As 2d 3c 4h 5s", "Kh 5s 4d 3c 2d"], LOW27)
    assert value("As 2d 3c 4h 5s", LOW27) > value("Ah Kd 3c 4h 5s", LOW27)


def test_RANK_02_rejects_straights_and_flushes_as_low() -> None:
    """Straights and flushes count against the hand; A-K-Q-J-T is a straight."""
    assert value("8h 7s 6d 5c 4d", LOW27) < value("Kh Ks Ad Ac Qd", LOW27)
    assert value("7h 5h 4h 3h 2h", LOW27) < value("8h 7s 6d 5c 4d", LOW27)
    assert category("Ah Ks Qd Jc Td", LOW27) is C.STRAIGHT
    assert words("7h 5h 4h 3h 2h", LOW27) == "flush, seven high"
    assert value("7h 6s 5d 4c 3d", LOW27) > value("8h 7s 6d 5c 4d", LOW27)


# --- RANK-03 ace-to-five --------------------------------------------------------------


def test_RANK_03_accepts_wheel_as_best() -> None:
    """5-4-3-2-A is the best A-5 hand, suited or not."""
    best = lookup_table(LOW_A5).value_count
    assert value("5h 4s 3d 2c Ad", LOW_A5) == value("5h 4h 3h 2h Ah", LOW_A5) == best
    assert words("5h 4s 3d 2c Ad", LOW_A5) == "five-four low"


def test_RANK_03_accepts_catalog_counts_and_order() -> None:
    """1 five, 5 sixes, 15 sevens, 35 eights; 7-6-4-3-2 beats 7-6-5-3-2."""
    eight_or_better = _unpaired_low_hands(LOW_A5, lambda top: top <= 8)
    tops = Counter(ranks[0] for ranks in eight_or_better)
    assert (tops[5], tops[6], tops[7], tops[8]) == (1, 5, 15, 35)
    assert value("7h 6s 4d 3c 2d", LOW_A5) > value("7h 6s 5d 3c 2d", LOW_A5)
    assert ascending(["6h 5s 4d 3c 2d", "6h 5s 4d 3c Ad", "6h 4s 3d 2c Ad"], LOW_A5)


def test_RANK_03_accepts_aces_as_lowest_pair() -> None:
    """A-A-7-6-5 beats 2-2-5-4-3; two pair reads as twos and aces."""
    assert value("Ah As 7d 6c 5d", LOW_A5) > value("2h 2s 5d 4c 3d", LOW_A5)
    assert words("2h 2s Ad Ac 5d", LOW_A5) == "two pair, twos and aces"


def test_RANK_03_rejects_straights_and_flushes() -> None:
    """A 6-5-4-3-2 flush is just six-five low, never a straight or flush."""
    assert category("6h 5h 4h 3h 2h", LOW_A5) is C.HIGH_CARD
    assert value("6h 5h 4h 3h 2h", LOW_A5) == value("6h 5s 4d 3c 2d", LOW_A5)
    assert words("6h 5h 4h 3h 2h", LOW_A5) == "six-five low"


# --- RANK-04 A-7 stripped deck --------------------------------------------------------


def test_RANK_04_accepts_flush_over_full_house() -> None:
    """In the stripped decks a flush beats a full house and loses to four of a kind."""
    for ranking in (A7_32, A7_36):
        assert ascending(["Ah Ad Ac Ks Kh", "Ah Kh 9h 8h 7h", "7h 7d 7c 7s 8h"], ranking)
        assert words("Ah Kh 9h 8h 7h", ranking) == "flush, ace high"


def test_RANK_04_accepts_ace_low_straight_as_lowest() -> None:
    """A-7-8-9-T (32) and A-6-7-8-9 (36) are the lowest straights by default."""
    assert category("Ah 7d 8c 9h Ts", A7_32) is C.STRAIGHT
    assert ascending(["Ah Ad Ac Ks Qh", "Ah 7d 8c 9h Ts", "7h 8d 9c Th Js"], A7_32)
    assert category("Ah 6d 7c 8h 9s", A7_36) is C.STRAIGHT
    assert ascending(["Ah Ad Ac Ks Qh", "Ah 6d 7c 8h 9s", "6h 7d 8c 9h Ts"], A7_36)
    assert words("Ah 6h 7h 8h 9h", A7_36) == "straight flush, nine high"


def test_RANK_04_rejects_ace_low_straight_when_house_says_no() -> None:
    """With ace_low_straight=False, A-7-8-9-T is ace high and its flush a plain flush."""
    assert category("Ah 7d 8c 9h Ts", A7_32, ace_low_straight=False) is C.HIGH_CARD
    assert category("Ah 7h 8h 9h Th", A7_32, ace_low_straight=False) is C.FLUSH
    assert category("Ah 6d 7c 8h 9s", A7_36, ace_low_straight=False) is C.HIGH_CARD


def test_RANK_04_rejects_skipping_ranks_inside_the_36_deck() -> None:
    """In the 36-card deck A-7-8-9-T is no straight: the six is in the deck."""
    assert category("Ah 7d 8c 9h Ts", A7_36) is C.HIGH_CARD


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ranking", "ace_low", "expected"),
    [
        (A7_32, True, (20, 224, 204, 1344, 5100, 10752, 24192, 107520, 52020)),
        (A7_32, False, (16, 224, 208, 1344, 4080, 10752, 24192, 107520, 53040)),
        (A7_36, True, (24, 288, 480, 1728, 6120, 16128, 36288, 193536, 122400)),
        (A7_36, False, (20, 288, 484, 1728, 5100, 16128, 36288, 193536, 123420)),
    ],
)
def test_RANK_04_accepts_catalog_category_counts(
    ranking: Ranking, ace_low: bool, expected: tuple[int, ...]
) -> None:
    """Every hand of the 32/36-card deck falls in the categories of catalog table 13.4."""
    order = (C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND, C.FLUSH, C.FULL_HOUSE, C.STRAIGHT,
             C.THREE_OF_A_KIND, C.TWO_PAIR, C.ONE_PAIR, C.HIGH_CARD)  # fmt: skip
    indices = [card.index for card in ranking.deck.cards]
    counts = _category_counts(ranking, combinations(indices, 5), ace_low_straight=ace_low)
    assert tuple(counts[name] for name in order) == expected
    assert sum(expected) == len(list(combinations(indices, 5)))


# --- exhaustive comparison with pokerkit ----------------------------------------------

_STANDARD_ORDER = list(range(52))  # pokerkit Deck.STANDARD: 2c 2d 2h 2s 3c ... As
_REGULAR_ORDER = list(range(48, 52)) + list(range(48))  # Deck.REGULAR: Ac Ad Ah As 2c ... Ks
_SHORT_DECK_ORDER = list(range(16, 52))  # Deck.SHORT_DECK_HOLDEM: 6c ... As


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ranking", "deck_order", "low", "pinned"),
    [
        (HIGH, _STANDARD_ORDER, False, "488cdd27873395ba75205cd02fb9d6b2"),  # StandardLookup
        (LOW27, _STANDARD_ORDER, True, "3f1565279b892b21f843b9b038ced8f9"),  # Standard2Lookup
        (LOW_A5, _REGULAR_ORDER, True, "28925b97b06a1e674eaabf241a441e15"),  # RegularLookup
        (A7_36, _SHORT_DECK_ORDER, False, "5b46b727ce4526a68d41b0e55939353c"),  # ShortDeck
    ],
)
def test_order_of_all_hands_matches_pokerkit_fingerprint(
    ranking: Ranking, deck_order: list[int], low: bool, pinned: str
) -> None:
    """Sorting every five-card hand by our value reproduces pokerkit's pinned md5."""
    values = list(map(evaluator(ranking), combinations(deck_order, 5)))
    names = [str(ALL_CARDS[index]) for index in deck_order]
    buckets: list[list[str]] = [[] for _ in range(max(values) + 1)]
    for hand_value_, text in zip(values, map("".join, combinations(names, 5)), strict=True):
        buckets[hand_value_].append(text)
    # pokerkit sorts by entry: weakest first for high, best low first for low lookups
    ordered = reversed(buckets) if low else iter(buckets)
    fingerprint = md5("\n".join(chain.from_iterable(ordered)).encode()).hexdigest()
    assert fingerprint == pinned


@pytest.mark.slow
def test_RANK_01_accepts_catalog_category_counts_for_all_hands() -> None:
    """All 2,598,960 high hands fall in the categories of catalog table 13.1."""
    counts = _category_counts(HIGH, combinations(range(52), 5))
    assert counts == {
        C.STRAIGHT_FLUSH: 40, C.FOUR_OF_A_KIND: 624, C.FULL_HOUSE: 3744, C.FLUSH: 5108,
        C.STRAIGHT: 10200, C.THREE_OF_A_KIND: 54912, C.TWO_PAIR: 123552,
        C.ONE_PAIR: 1098240, C.HIGH_CARD: 1302540,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("ranking", "oracle"),
    [(HIGH, StandardHighHand), (LOW27, StandardLowHand), (LOW_A5, RegularLowHand)],
)
def test_random_hands_compare_like_pokerkit(ranking: Ranking, oracle: type[Hand]) -> None:
    """3,000 seeded random pairs of hands compare the same way as pokerkit's hands."""
    generator = random.Random(20261129)
    for _ in range(3000):
        first, second = (generator.sample(DECK_52.cards, 5) for _ in range(2))
        ours = _sign(hand_value(first, ranking) - hand_value(second, ranking))
        theirs_first, theirs_second = oracle(_text(first)), oracle(_text(second))
        theirs = (theirs_first > theirs_second) - (theirs_first < theirs_second)
        assert ours == theirs, (_text(first), _text(second))


def test_read_hand_orders_ranks_by_significance() -> None:
    """A full house reads trips first; a 2-7 flush lists its cards from the top."""
    shape = read_hand(parse_cards("3s 3d 3c Kh Kd"), HIGH)
    assert shape.category is C.FULL_HOUSE
    assert [rank.symbol for rank in shape.ranks] == ["3", "K"]
    assert category_of_value(1, HIGH) is C.HIGH_CARD
    assert category_of_value(lookup_table(HIGH).value_count, HIGH) is C.STRAIGHT_FLUSH


_SUIT_PERMUTATIONS = st.permutations(range(4))
_HANDS = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(hand=_HANDS, suits=_SUIT_PERMUTATIONS, order=st.permutations(range(5)))
def test_values_ignore_card_order_and_suit_names(
    hand: list[int], suits: list[int], order: list[int]
) -> None:
    """Reordering the cards or renaming the suits never changes a value on any scale."""
    renamed = [hand[position] // 4 * 4 + suits[hand[position] % 4] for position in order]
    for ranking in (HIGH, LOW27, LOW_A5):
        assert evaluator(ranking)(hand) == evaluator(ranking)(renamed)


@settings(max_examples=300, deadline=None)
@given(first=_HANDS, second=_HANDS)
def test_deuce_to_seven_reverses_high_except_the_wheel(first: list[int], second: list[int]) -> None:
    """Without A-2-3-4-5 in play, the 2-7 order is exactly the high order reversed."""
    wheel = {12, 0, 1, 2, 3}
    assume(wheel not in ({index // 4 for index in hand} for hand in (first, second)))
    high = _sign(evaluator(HIGH)(first) - evaluator(HIGH)(second))
    assert _sign(evaluator(LOW27)(first) - evaluator(LOW27)(second)) == -high


# --- helpers --------------------------------------------------------------------------


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


def _text(cards: Iterable[Card]) -> str:
    return "".join(map(str, cards))


def _category_counts(
    ranking: Ranking, hands: Iterable[Sequence[int]], *, ace_low_straight: bool = True
) -> dict[HandCategory, int]:
    values = Counter(map(evaluator(ranking, ace_low_straight=ace_low_straight), hands))
    counts: Counter[HandCategory] = Counter()
    for hand_value_, number in values.items():
        counts[category_of_value(hand_value_, ranking, ace_low_straight=ace_low_straight)] += number
    return dict(counts)


def _unpaired_low_hands(ranking: Ranking, keep: Callable[[int], bool]) -> list[tuple[int, ...]]:
    """Distinct unpaired rank sets (as low values, top first) that are high-card hands."""
    found = set()
    for ranks in combinations(range(2, 15), 5):
        low_ranks = tuple(sorted((1 if r == 14 and ranking is LOW_A5 else r for r in ranks),
                                 reverse=True))  # fmt: skip
        cards = [Card.from_index((r - 2) * 4 + position % 2) for position, r in enumerate(ranks)]
        if hand_category(cards, ranking) is C.HIGH_CARD and keep(low_ranks[0]):
            found.add(low_ranks)
    return sorted(found)


# BARGE Appendix A, "Rank of Lowball Hands", the 2-to-7 column (#1 to #56)
BARGE_DEUCE_TO_SEVEN = [
    "75432",
    "76432",
    "76532",
    "76542",
    "85432",
    "86432",
    "86532",
    "86542",
    "86543",
    "87432",
    "87532",
    "87542",
    "87543",
    "87632",
    "87642",
    "87643",
    "87652",
    "87653",
    "95432",
    "96432",
    "96532",
    "96542",
    "96543",
    "97432",
    "97532",
    "97542",
    "97543",
    "97632",
    "97642",
    "97643",
    "97652",
    "97653",
    "97654",
    "98432",
    "98532",
    "98542",
    "98543",
    "98632",
    "98642",
    "98643",
    "98652",
    "98653",
    "98654",
    "98732",
    "98742",
    "98743",
    "98752",
    "98753",
    "98754",
    "98762",
    "98763",
    "98764",
    "T5432",
    "T6432",
    "T6532",
    "T6542",
]


def test_RANK_05_accepts_the_barge_numbers_of_the_strong_deuce_to_seven_lows() -> None:
    """lowball_number gives BARGE's number for each of its 56 listed 2-7 hands (off-suit)."""
    suits = "hdcsh"
    for number, ranks in enumerate(BARGE_DEUCE_TO_SEVEN, start=1):
        cards = parse_cards(" ".join(rank + suit for rank, suit in zip(ranks, suits, strict=True)))
        assert rankings.lowball_number(cards) == number, ranks
