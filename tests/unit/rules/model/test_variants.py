"""The games as data: draws, bet sizes per round, deck and ranking."""

from __future__ import annotations

from dealerassist.rules.model.actions import Stakes, Variant
from dealerassist.rules.model.house_rules import HouseRules, StrippedDeckRule, StrippedRules
from dealerassist.rules.model.variants import (
    deck_size,
    game,
    limit_bet_size,
    minimum_bet,
    ranking_name,
)

STAKES = Stakes(small_bet=10, big_bet=20)


def test_triple_draw_has_four_rounds_with_the_big_bet_from_the_third() -> None:
    """GAME-03: small, small, big, big."""
    sizes = [limit_bet_size(Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, n, STAKES) for n in (1, 2, 3, 4)]
    assert game(Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW).betting_rounds == 4
    assert sizes == [10, 10, 20, 20]


def test_single_draw_games_double_after_the_draw() -> None:
    """BET-02: small bet before the draw, big bet after."""
    for variant in (Variant.FIVE_CARD_DRAW, Variant.DEUCE_TO_SEVEN_SINGLE_DRAW):
        assert [limit_bet_size(variant, n, STAKES) for n in (1, 2)] == [10, 20]


def test_stripped_deck_size_depends_on_players_and_house_rule() -> None:
    """GAME-05: 32 cards up to four players, 36 with five; fixed_32 always 32."""
    rules = HouseRules()
    fixed = HouseRules(stripped=StrippedRules(deck_rule=StrippedDeckRule.FIXED_32))
    assert deck_size(Variant.ACE_TO_SEVEN_STRIPPED, 4, rules) == 32
    assert deck_size(Variant.ACE_TO_SEVEN_STRIPPED, 5, rules) == 36
    assert deck_size(Variant.ACE_TO_SEVEN_STRIPPED, 5, fixed) == 32
    assert deck_size(Variant.FIVE_CARD_DRAW, 6, rules) == 52


def test_each_variant_names_its_ranking() -> None:
    """Cards speak with the variant's scale."""
    assert ranking_name(Variant.FIVE_CARD_DRAW, 52) == "high"
    assert ranking_name(Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, 52) == "deuce_to_seven"
    assert ranking_name(Variant.ACE_TO_SEVEN_STRIPPED, 32) == "ace_to_seven_32"


def test_minimum_bet_is_the_big_blind_or_min_bet() -> None:
    """BET-05: the larger of the big blind and min_bet; ante games fall back to the small bet."""
    assert minimum_bet(Stakes(small_blind=5, big_blind=10)) == 10
    assert minimum_bet(Stakes(big_blind=10, min_bet=20)) == 20
    assert minimum_bet(Stakes(ante=1, small_bet=4)) == 4
