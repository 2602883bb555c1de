"""Card identities: the deck, where known cards are, and the checks on dealt cards."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dealerassist.rules.hand.dealing import card_locations, check_dealt, deck_cards
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import HandState, Phase, PlayerState
from dealerassist.rules.model.violations import RuleId, RuleViolation


def hand() -> HandState:
    players = (
        PlayerState(seat=1, stack=0, held=4, cards=("2c", "3c", "4c", "??"), pile_cards=(("Kd",),)),
        PlayerState(seat=2, stack=0, held=5, cards=("2d", "3d", "4d", "5d", "6d")),
    )
    return HandState(hand_no=1, phase=Phase.DRAW_1, button=2, players=players, muck_cards=("Ah",))


def test_decks_have_52_36_and_32_cards() -> None:
    """DECK-01: the three decks."""
    assert [len(deck_cards(size)) for size in (52, 36, 32)] == [52, 36, 32]


def test_card_locations_name_hands_piles_and_muck_but_not_unknowns() -> None:
    """Every known card has one place; ?? has none."""
    where = card_locations(hand())
    assert where["Kd"] == "pile:1:1"
    assert where["2d"] == "hand:2"
    assert where["Ah"] == "muck"
    assert "??" not in where


def test_card_locations_among_some_cards_is_the_full_map_cut_to_them() -> None:
    """The narrowed scan a deal uses gives the same places as the whole map."""
    full = card_locations(hand())
    for among in ({"Kd", "2d"}, {"Ah", "9s"}, {"9s"}, {"3c", "5d", "Ah", "Kd"}):
        expected = {card: place for card, place in full.items() if card in among}
        assert card_locations(hand(), frozenset(among)) == expected


def test_check_dealt_counts_cards_coming_from_the_reshuffle_pool() -> None:
    """A fresh card passes; the seat's own discard and a held card are refused."""
    assert check_dealt(hand(), 1, ("9s",), 1, HouseRules(), 1, []) == 0
    with pytest.raises(RuleViolation) as own:
        check_dealt(hand(), 1, ("Kd",), 1, HouseRules(), 1, [])
    assert own.value.rule_id is RuleId.DRAW_06
    with pytest.raises(RuleViolation) as held:
        check_dealt(hand(), 1, ("2d",), 1, HouseRules(), 1, [])
    assert held.value.rule_id is RuleId.DECK_01


def test_the_joker_deck_has_53_cards() -> None:
    """DECK-02..04: the 53-card deck is the 52 cards and the joker."""
    assert len(deck_cards(53)) == 53 and "Jk" in deck_cards(53) and "Jk" not in deck_cards(52)


def test_check_dealt_names_the_rule_of_a_wrong_count_or_a_foreign_card() -> None:
    """DEAL-01 on the deal, IRREG-07/08 on a draw; DECK-05 for a stray joker or stripped rank,
    DECK-01 for a joker spelt otherwise in a joker game."""
    cases = [
        (("9s", "8s"), 1, 0, 52, RuleId.DEAL_01),
        (("9s", "8s"), 1, 1, 52, RuleId.IRREG_07),
        (("9s",), 2, 1, 52, RuleId.IRREG_08),
        (("Xx",), 1, 1, 52, RuleId.DECK_05),
        (("Xx",), 1, 1, 53, RuleId.DECK_01),
    ]
    for cards, count, draw_round, deck, rule in cases:
        state = replace(hand(), deck=deck)
        with pytest.raises(RuleViolation) as error:
            check_dealt(state, 1, cards, count, HouseRules(), draw_round, [])
        assert error.value.rule_id is rule, cards
    assert check_dealt(replace(hand(), deck=53), 1, ("Jk",), 1, HouseRules(), 1, []) == 0
