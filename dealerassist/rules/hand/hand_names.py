"""The shown hands in words for the dealer ("three of a kind, aces", "seven-five low"):
the table view's ``shown_as``, so the tablet reads each shown hand out as the players do.

Only in the view (never in the state nor the audit): a hand with a joker or an unknown card,
or fewer than five cards, has no name here (the result says who won)."""

from __future__ import annotations

from dealerassist.errors import InvalidInput
from dealerassist.rules.cards import rankings
from dealerassist.rules.cards.cards import DECK_52, parse_cards
from dealerassist.rules.cards.joker import JOKER
from dealerassist.rules.hand.dealing import HAND_SIZE, UNKNOWN
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import TableState
from dealerassist.rules.model.variants import ranking_name


def shown_names(state: TableState, rules: HouseRules) -> dict[str, str]:
    """``{seat: words}`` for each hand shown in the current (or last) hand.

    The ranking is the game's (a stripped deck's ace-to-seven by its size)."""
    hand = state.hand
    if hand is None:
        return {}
    ranking = rankings.Ranking(ranking_name(state.spec.variant, hand.deck))
    names: dict[str, str] = {}
    for player in hand.players:
        shown = player.shown or ()
        if len(shown) != HAND_SIZE or JOKER in shown or UNKNOWN in shown:
            continue
        try:
            cards = parse_cards(" ".join(shown), DECK_52)
            names[str(player.seat)] = rankings.describe(
                cards, ranking, ace_low_straight=rules.stripped.ace_low_straight
            )
        except (InvalidInput, ValueError, KeyError):
            continue
    return names
