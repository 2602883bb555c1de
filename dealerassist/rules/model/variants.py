"""The draw games as data: draws, the bet size of each round, the deck and the ranking."""

from __future__ import annotations

from dataclasses import dataclass

from dealerassist.rules.model.actions import Stakes
from dealerassist.rules.model.house_rules import HouseRules, StrippedDeckRule, Variant


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One variant: its draws, first big-bet round, ranking and player limit (GAME-01..05)."""

    variant: Variant
    draws: int
    big_bet_from_round: int
    ranking: str
    max_players: int

    @property
    def betting_rounds(self) -> int:
        return self.draws + 1


GAMES: dict[Variant, GameSpec] = {
    Variant.FIVE_CARD_DRAW: GameSpec(Variant.FIVE_CARD_DRAW, 1, 2, "high", 6),
    Variant.DEUCE_TO_SEVEN_SINGLE_DRAW: GameSpec(
        Variant.DEUCE_TO_SEVEN_SINGLE_DRAW, 1, 2, "deuce_to_seven", 6
    ),
    Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW: GameSpec(
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, 3, 3, "deuce_to_seven", 6
    ),
    Variant.ACE_TO_SEVEN_STRIPPED: GameSpec(Variant.ACE_TO_SEVEN_STRIPPED, 1, 2, "ace_to_seven", 5),
}


def game(variant: Variant) -> GameSpec:
    """The game data of a variant.

    >>> game(Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW).betting_rounds
    4
    """
    return GAMES[variant]


def deck_size(variant: Variant, players: int, rules: HouseRules) -> int:
    """GAME-05: 52 cards (53 with the joker), or 32 (36 with a fifth player under
    ``by_players``) in A-7 stripped.

    >>> deck_size(Variant.ACE_TO_SEVEN_STRIPPED, 5, HouseRules())
    36
    """
    if variant is not Variant.ACE_TO_SEVEN_STRIPPED:
        return 53 if rules.deck.joker else 52  # DECK-02..04: the joker is a 53rd card
    if rules.stripped.deck_rule is StrippedDeckRule.BY_PLAYERS and players >= 5:
        return 36
    return 32


def ranking_name(variant: Variant, deck: int) -> str:
    """The ``rankings.Ranking`` value that decides the showdown.

    >>> ranking_name(Variant.ACE_TO_SEVEN_STRIPPED, 36)
    'ace_to_seven_36'
    """
    name = game(variant).ranking
    if name == "ace_to_seven":
        return f"ace_to_seven_{deck}"
    return name


def small_bet(stakes: Stakes) -> int:
    """The fixed-limit small bet; the big blind (or 1) when the spec leaves it 0."""
    return stakes.small_bet or stakes.big_blind or max(stakes.min_bet, 1)


def big_bet(stakes: Stakes) -> int:
    """The fixed-limit big bet; twice the small bet when the spec leaves it 0."""
    return stakes.big_bet or 2 * small_bet(stakes)


def limit_bet_size(variant: Variant, betting_round: int, stakes: Stakes) -> int:
    """BET-02: small bet before the big-bet round of the variant, big bet from it on.

    >>> limit_bet_size(Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, 2, Stakes(small_bet=10, big_bet=20))
    10
    >>> limit_bet_size(Variant.FIVE_CARD_DRAW, 2, Stakes(small_bet=10, big_bet=20))
    20
    """
    if betting_round >= game(variant).big_bet_from_round:
        return big_bet(stakes)
    return small_bet(stakes)


def minimum_bet(stakes: Stakes) -> int:
    """BET-05: the minimum bet in no limit and pot limit: the big blind or ``min_bet``."""
    return max(stakes.big_blind, stakes.min_bet) or stakes.small_bet or max(stakes.ante, 1)
