"""The end of a draw: owed fifth cards and fouled hands (DRAW-03, DRAW-10)."""

from __future__ import annotations

from dealerassist.rules.fifth_cards import finish_draw, fouled_notice, splits
from dealerassist.rules.house_rules import DrawRules, HouseRules
from dealerassist.rules.state import HandState, Phase, PlayerState
from dealerassist.rules.stub import Step
from dealerassist.rules.violations import RuleId


def test_DRAW_10_rejects_a_hand_left_short_after_the_draw() -> None:
    """Count mode: a seat whose fifth card cannot be dealt is fouled, with a notice; its
    cards go to the muck and its chips stay in the pot."""
    players = (
        PlayerState(seat=1, stack=90, committed=10, held=4, drawn=(5,), pile=(5,)),
        PlayerState(seat=2, stack=90, committed=10, held=5, drawn=(0,)),
        PlayerState(seat=3, stack=90, committed=10, held=5, drawn=(0,)),
    )
    hand = HandState(
        hand_no=1, phase=Phase.DRAW_1, button=3, players=players, come_back=(1,), stub=0
    )
    after, steps, fouled = finish_draw(hand, HouseRules(), 1)
    assert steps == (Step("stop", 0, 1),)
    assert fouled == ((1, 4),)
    assert after.player(1).folded and after.player(1).held == 0
    assert (after.muck, after.pot) == (4, 30)
    notice = fouled_notice(1, 4)
    assert notice.rule_id is RuleId.DRAW_10 and "foul" in notice.message


def test_DRAW_10_accepts_five_card_hands_after_the_draw() -> None:
    """Nobody is fouled when every live hand has five cards."""
    players = tuple(PlayerState(seat=s, stack=90, held=5, drawn=(1,)) for s in (1, 2))
    hand = HandState(hand_no=1, phase=Phase.DRAW_1, button=2, players=players, stub=20)
    after, steps, fouled = finish_draw(hand, HouseRules(), 1)
    assert (steps, fouled) == ((), ())
    assert not any(p.folded for p in after.players)


def test_DRAW_03_splits_only_five_card_draws_where_the_house_splits_them() -> None:
    """max_consecutive 4 splits a five-card draw; four cards or max_consecutive 5 do not."""
    five_in_a_row = HouseRules(draw=DrawRules(max_consecutive=5))
    assert (splits(5, HouseRules()), splits(4, HouseRules()), splits(5, five_in_a_row)) == (
        True,
        False,
        False,
    )
