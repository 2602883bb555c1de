"""Pots: side pots by all-in level (SHOW-07), uncalled bets, equal splits with odd chips."""

from __future__ import annotations

from dealerassist.rules.hand.pots import (
    Pot,
    build_pots,
    hand_pots,
    return_uncalled,
    split,
    uncalled,
    unmatched,
)
from dealerassist.rules.model.state import HandState, Phase, PlayerState


def test_SHOW_07_guides_one_side_pot_per_all_in_level() -> None:
    """Three all-ins for 20, 50 and 100 against a caller of 100 make three pots."""
    committed = {1: 20, 2: 50, 3: 100, 4: 100}
    pots = build_pots(committed, [1, 2, 3, 4])
    assert pots == [Pot(80, (1, 2, 3, 4)), Pot(90, (2, 3, 4)), Pot(100, (3, 4))]
    assert sum(pot.amount for pot in pots) == sum(committed.values())


def test_SHOW_07_guides_folded_chips_into_the_pots_they_reached() -> None:
    """A folded seat's chips stay in the pots but it is eligible for none."""
    pots = build_pots({1: 30, 2: 10, 3: 60}, [2, 3])
    assert pots == [Pot(30, (2, 3)), Pot(70, (3,))]


def test_dead_money_goes_to_the_main_pot() -> None:
    """Dead money (a big-blind ante) joins the first pot only."""
    assert build_pots({1: 10, 2: 40}, [1, 2], dead=15) == [Pot(35, (1, 2)), Pot(30, (2,))]


def test_uncalled_bet_is_the_excess_over_the_second_highest_bet() -> None:
    """Only the part of the top bet nobody matched comes back."""
    assert uncalled({1: 100, 2: 60, 3: 60}) == (1, 40)
    assert uncalled({1: 60, 2: 60}) is None


def test_SHOW_09_guides_equal_shares_for_equal_hands() -> None:
    """A pot divisible by the winners splits evenly."""
    assert split(60, [1, 3], [1, 2, 3]) == {1: 30, 3: 30}


def test_SHOW_06_guides_odd_chips_one_each_from_the_button() -> None:
    """Two odd chips among three winners go to the first two clockwise from the button."""
    assert split(62, [1, 2, 4], [4, 1, 2, 3]) == {4: 21, 1: 21, 2: 20}


def _showdown(*players: PlayerState) -> HandState:
    return HandState(1, Phase.SHOWDOWN, 1, players)


def test_SHOW_07_accepts_killed_hands_chips_no_live_hand_matched_going_back() -> None:
    """Seat 1 all in for 30 is the last live hand; seats 2 and 3 (killed) put in 40 each: the
    10 each over seat 1's 30 go back to them, and the main pot of 90 is seat 1's alone."""
    hand = _showdown(
        PlayerState(1, 0, committed=30),
        PlayerState(2, 60, committed=40, folded=True),
        PlayerState(3, 60, committed=40, folded=True),
    )
    assert unmatched(hand) == {2: 10, 3: 10}
    back = return_uncalled(hand)
    assert [(p.stack, p.committed, p.returned) for p in back.players] == [
        (0, 30, 0),
        (70, 30, 10),
        (70, 30, 10),
    ]
    assert hand_pots(back) == [Pot(90, (1,))]


def test_SHOW_07_rejects_returning_a_folded_seats_chips_a_live_hand_matched() -> None:
    """A folded seat's chips up to the highest live commitment stay in the pots: seat 3 folded
    at 20 under seat 2's 40, nothing goes back, the side pot is seat 2's."""
    hand = _showdown(
        PlayerState(1, 0, committed=10),
        PlayerState(2, 60, committed=40),
        PlayerState(3, 80, committed=20, folded=True),
    )
    assert unmatched(hand) == {}
    assert return_uncalled(hand) == hand
    assert hand_pots(hand) == [Pot(30, (1, 2)), Pot(40, (2,))]
