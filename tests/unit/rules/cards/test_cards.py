"""Tests for dealerassist.rules.cards.cards: card values, decks and parsing dealer entries."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerassist.errors import InvalidInput
from dealerassist.rules.cards import cards as cards_module
from dealerassist.rules.cards.cards import (
    ALL_CARDS,
    DECK_32,
    DECK_36,
    DECK_52,
    DECKS_BY_SIZE,
    Card,
    Rank,
    Suit,
    can_cards_be_in_deck,
    format_cards,
    parse_card,
    parse_cards,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation


def test_card_text_and_index_round_trip() -> None:
    """Every card prints as rank+suit and its index maps back to the same card."""
    assert [card.index for card in ALL_CARDS] == list(range(52))
    assert all(Card.from_index(card.index) is card for card in ALL_CARDS)
    assert str(Card(Rank.SEVEN, Suit.HEARTS)) == "7h"
    assert str(Card.from_index(0)) == "2c"
    assert str(Card.from_index(51)) == "As"


def test_cards_compare_by_value_not_identity() -> None:
    """Equal rank and suit make equal, hashable cards; order is by rank then suit."""
    built = Card(Rank.ACE, Suit.SPADES)
    assert built == Card.from_index(51)
    assert hash(built) == hash(Card.from_index(51))
    assert Card(Rank.KING, Suit.SPADES) < Card(Rank.ACE, Suit.CLUBS)
    assert Card(Rank.ACE, Suit.CLUBS) < Card(Rank.ACE, Suit.DIAMONDS)


def test_card_is_frozen() -> None:
    """A card cannot be changed after it is made."""
    card = Card(Rank.TWO, Suit.CLUBS)
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE  # type: ignore[misc]


def test_decks_hold_the_right_ranks() -> None:
    """The 52, 32 (7-A) and 36 (6-A) decks hold four suits of their ranks."""
    assert (DECK_52.size, DECK_32.size, DECK_36.size) == (52, 32, 36)
    assert DECK_32.ranks[0] is Rank.SEVEN
    assert DECK_36.ranks[0] is Rank.SIX
    assert DECK_52.ranks == tuple(Rank)
    assert DECKS_BY_SIZE[32] is DECK_32
    assert DECK_32.describe() == "32-card deck (seven to ace)"


@pytest.mark.parametrize(
    "text",
    ["7h 5s 4d 3c 2d", "7h5s4d3c2d", "7H 5S 4D 3C 2D", "7h,5s, 4d,3c ,2d", "7♥ 5♠ 4♦ 3♣ 2♦"],
)
def test_parse_cards_accepts_spaced_compact_and_any_case(text: str) -> None:
    """Spaced, compact, upper-case, comma-separated and symbol-suit entries all parse."""
    assert format_cards(parse_cards(text)) == "7h 5s 4d 3c 2d"


def test_parse_cards_reads_ten_as_10_or_t() -> None:
    """The ten may be written "10" or "T", also in compact entries."""
    assert format_cards(parse_cards("10h Td 10c")) == "Th Td Tc"
    assert format_cards(parse_cards("10hJd")) == "Th Jd"


def test_parse_cards_with_count() -> None:
    """A matching count passes; an empty entry is no cards."""
    assert len(parse_cards("As Ks Qs Js Ts", count=5)) == 5
    assert parse_cards("  ") == ()
    assert parse_card("qd") == Card(Rank.QUEEN, Suit.DIAMONDS)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("7h 5s 1d", "Unknown rank '1'"),
        ("7h Zs", "Unknown rank 'Z'"),
        ("7h 5x", "Unknown suit 'x'"),
        ("7h 5", "has no suit"),
    ],
)
def test_parse_cards_rejects_malformed_text(text: str, words: str) -> None:
    """Unknown ranks or suits, or a missing suit, raise InvalidInput naming the problem."""
    with pytest.raises(InvalidInput, match=words):
        parse_cards(text)


def test_parse_cards_rejects_wrong_count() -> None:
    """Four cards where five were expected raise InvalidInput saying how many to enter."""
    with pytest.raises(InvalidInput, match="Expected 5 cards, got 4"):
        parse_cards("7h 5s 4d 3c", count=5)


def test_DECK_01_accepts_every_card_of_a_stripped_deck() -> None:
    """All 32 cards of the 7-A deck are accepted in one entry."""
    text = format_cards(DECK_32.cards)
    assert parse_cards(text, DECK_32, count=32) == DECK_32.cards
    assert can_cards_be_in_deck(DECK_36.cards, DECK_36)


def test_DECK_01_rejects_six_in_32_card_deck() -> None:
    """A six entered at a 32-card table is refused with DECK-01 and the seat."""
    with pytest.raises(RuleViolation) as caught:
        parse_cards("Ah 6d 8c 9h Ts", DECK_32, seat=4)
    assert caught.value.rule_id is RuleId.DECK_01
    assert caught.value.seat == 4
    assert "6d is not in the 32-card deck (seven to ace)" in caught.value.message
    assert caught.value.allowed == ({"deck": "stripped-32", "lowest_rank": "7"},)


def test_DECK_01_rejects_five_in_36_card_deck() -> None:
    """A five is not in the 36-card (6-A) deck."""
    assert not can_cards_be_in_deck(parse_cards("5h 6h"), DECK_36)
    with pytest.raises(RuleViolation, match="DECK-01"):
        parse_cards("5h", DECK_36)


def test_DECK_01_rejects_duplicate_card() -> None:
    """The same card entered twice is refused with DECK-01."""
    with pytest.raises(RuleViolation) as caught:
        parse_cards("7h 5s 7H 3c 2d")
    assert caught.value.rule_id is RuleId.DECK_01
    assert "7h is entered twice" in caught.value.message
    assert not can_cards_be_in_deck(parse_cards("Kd") * 2, DECK_52)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="23456789TtJjQqKkAa10cdhsCDHS♣♦♥♠♧ ,\t\nxZ", max_size=24))
def test_the_card_lookup_reads_every_entry_as_the_character_reader_does(text: str) -> None:
    """The fast path (a dictionary lookup per card) and the reader it falls back to give
    the same cards, or the same error, for any entry."""

    def outcome(read: Callable[[str], Iterable[Card]]) -> object:
        try:
            return list(read(text))
        except InvalidInput as error:
            return str(error)

    assert outcome(cards_module._tokens) == outcome(cards_module._read_tokens)
