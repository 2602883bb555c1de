"""RAKE-01 / RAKE-03: the house's take from each pot is whole chips of the table's smallest chip.

TDA 2024 Rule 20: "First, odd chips will be broken into the smallest denomination in play": no
chip below it exists at the table, so the house cannot take part of one. A profile's
``rake.chip_unit`` is that chip (``rules/hand/rake.py``); the rake and the jackpot drop come
from a pot only in multiples of it, and a pot holding less than one such chip gives nothing.
"""

from __future__ import annotations

from dealerassist.rules.hand.pots import Pot
from dealerassist.rules.hand.rake import Take, collect
from dealerassist.rules.model.house_rules import Collection, HouseRules, RakeRules
from dealerassist.rules.model.state import HandState, Phase

DRAWN = HandState(2, Phase.SHOWDOWN, 1, ())


def _rules(**options: object) -> HouseRules:
    return HouseRules(rake=RakeRules(chip_unit=5, **options))  # type: ignore[arg-type]


def test_RAKE_01_refuses_to_take_part_of_a_chip_from_a_pot_below_the_chip_unit() -> None:
    """The hypothesis example (five-card draw, pot limit, seed 39679): a pot of 3 (short
    all-in blinds) under a 15-chip rake per hand in chips of 5 gave 3 to the rake slot, a
    take no 5-chip table can make. It gives nothing now; the wrong take (3) is refused."""
    rules = _rules(collection=Collection.PER_HAND, per_hand=15, cap=20, no_draw_no_drop=True)
    takes = collect(DRAWN, [Pot(3, (4, 1, 2))], rules)
    assert takes == [Take(rake=0, jackpot_drop=0)]
    assert takes != [Take(rake=3, jackpot_drop=0)]


def test_RAKE_01_accepts_a_rake_per_hand_in_whole_chips_main_pot_first() -> None:
    """15 a hand in chips of 5 from a main pot of 3 and a side pot of 12: the main pot holds
    no whole chip, so 10 (two chips) comes from the side pot, never 3 + 9 or 3 + 12."""
    rules = _rules(collection=Collection.PER_HAND, per_hand=15)
    takes = collect(DRAWN, [Pot(3, (1, 2, 3)), Pot(12, (2, 3))], rules)
    assert takes == [Take(0, 0), Take(10, 0)]


def test_RAKE_01_accepts_a_percent_rake_rounded_down_to_the_chip_unit() -> None:
    """All of a pot of 23 in chips of 5 (percent 100, no cap) is 20: the 3 left is no chip."""
    rules = _rules(collection=Collection.PERCENT, percent=100)
    assert collect(DRAWN, [Pot(23, (1, 2))], rules) == [Take(20, 0)]


def test_RAKE_03_accepts_a_jackpot_drop_only_from_a_pot_holding_a_whole_chip() -> None:
    """A drop of 5 in chips of 5 after a draw: the main pot of 3 cannot give it (not 3 + 2
    from two pots), the side pot of 12 does."""
    rules = _rules(jackpot_drop=5)
    takes = collect(DRAWN, [Pot(3, (1, 2, 3)), Pot(12, (2, 3))], rules)
    assert takes == [Take(0, 0), Take(0, 5)]
    assert takes != [Take(0, 3), Take(0, 2)]
