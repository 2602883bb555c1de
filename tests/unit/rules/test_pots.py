"""Pots: side pots by all-in level (SHOW-07), uncalled bets, equal splits with odd chips."""

from __future__ import annotations

from dealerassist.rules.pots import Pot, build_pots, split, uncalled


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
