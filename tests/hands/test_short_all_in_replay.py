"""``replay-permissive`` plays pokerkit 0.7.7's short all-in rule exactly (BET-04/05,
``short_all_in = "pokerkit"``), proved on hands pokerkit dealt and adjudicated.

``tests/data/phh/generated/pokerkit-0.7.7-short-all-ins`` holds 2,500 hands written by
``tests/data/phh/generated/make_short_allins.py`` (seeded): fixed-limit 2-7 triple draw and
no-limit 2-7 single draw, each with an all-in opening bet short of a bet after checks, short
all-ins in a row, or a raise by a player pokerkit reopened. Every one replays through
``dealerassist replay``'s machinery to pokerkit's finishing stacks; under the profile version
before the option a good share of them is refused, which is what the option fixed.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory

from dealerassist.audit.phh.reader import parse_phh
from dealerassist.profiles import get_profile, profile_version
from dealerassist.replay import finishing_stacks, replay_file, replay_hand
from dealerassist.rules.model.house_rules import HouseRules

GENERATED = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "phh"
    / "generated"
    / "pokerkit-0.7.7-short-all-ins"
)
# replay-permissive as it was before ``short_all_in = "pokerkit"`` (the full-bet rule)
FULL_BET_VERSION = "c1f73d7cf30ae3e1973812cd362d84e95d1bb8705068bc01b99c037b76a272b3"
HANDS = 2500


@pytest.fixture(scope="module")
def rules() -> HouseRules:
    return get_profile("replay-permissive")


@pytest.fixture(scope="module")
def files() -> list[Path]:
    return sorted(GENERATED.rglob("*.phh"))


def test_BET_05_every_generated_short_all_in_hand_replays_to_pokerkits_stacks(
    rules: HouseRules, files: list[Path]
) -> None:
    """pokerkit 0.7.7 ``State._verify_completion_betting_or_raising``: the 2,500 hands (1,250
    F2L3D, 1,250 N2L1D) each replay under ``replay-permissive`` to the finishing stacks
    pokerkit recorded (``dealerassist replay``'s ``replay_file``)."""
    assert len(files) == HANDS
    assert {path.parent.name for path in files} == {"F2L3D", "N2L1D"}
    failed = [
        (path.name, result.error) for path in files if not (result := replay_file(path, rules)).ok
    ]
    assert failed == []


def test_BET_05_the_full_bet_rule_refuses_many_of_them(files: list[Path]) -> None:
    """The version before the option (a short all-in reopens only as one full bet; the cap
    counts full bets only) refuses or misplays a good share of pokerkit's hands: what
    ``short_all_in = "pokerkit"`` fixes. Recorded hands keep replaying under that version."""
    old = profile_version("replay-permissive", FULL_BET_VERSION)
    assert old.betting.short_all_in.value == "full_bet"
    wrong = [path for path in files[::5] if not replay_file(path, old).ok]
    assert len(wrong) >= len(files[::5]) // 5


# -- minimal hands of pokerkit's rule, each checked against pokerkit --------------------------

# round 2: p1 checks, p2 bets all in 1 (half the bet of 2): pokerkit reopens the betting to p1,
# who raises to 3 (the full-bet rule would let p1 only call)
OPENING_AFTER_A_CHECK = """
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [20, 3, 20]
actions = ['d dh p1 7h6c4c3d2c', 'd dh p2 KsKdTs9c8s', 'd dh p3 QhQcJd8c3h',
  'p3 cc', 'p1 cc', 'p2 cc',
  'p1 sd', 'p2 sd', 'p3 sd',
  'p1 cc', 'p2 cbr 1', 'p3 cc', 'p1 cbr 3', 'p3 f',
  'p1 sd', 'p2 sd',
  'p1 sd', 'p2 sd',
  'p1 sm 7h6c4c3d2c', 'p2 sm KsKdTs9c8s']
finishing_stacks = [26, 0, 17]
"""

# after the draw: p1 bets 4 and p2 raises to 8; p3 all in to 9, p1 calls, p2 calls: p2, who
# acted, faces one short all-in (1 of the largest raise, 4): pokerkit refuses p2 a raise
SHORT_ALL_IN_OVER_A_RAISE = """
variant = 'N2L1D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [50, 50, 11]
actions = ['d dh p1 7h6c4c3d2c', 'd dh p2 KsKdTs9c8s', 'd dh p3 QhQcJd8c3h',
  'p3 cc', 'p1 cc', 'p2 cc',
  'p1 sd', 'p2 sd', 'p3 sd',
  'p1 cbr 4', 'p2 cbr 8', 'p3 cbr 9', 'p1 cc', 'p2 cc',
  'p3 sm QhQcJd8c3h', 'p1 sm 7h6c4c3d2c', 'p2 sm KsKdTs9c8s']
finishing_stacks = [72, 39, 0]
"""


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(HandHistory.loads(text))
    return list(states[-1].stacks)


@pytest.mark.parametrize("text", [OPENING_AFTER_A_CHECK, SHORT_ALL_IN_OVER_A_RAISE])
def test_minimal_short_all_in_hands_are_what_pokerkit_plays(text: str, rules: HouseRules) -> None:
    """Both minimal hands are legal pokerkit hands with these stacks, and replay to them."""
    hand = parse_phh(text)
    assert hand.finishing_stacks is not None
    assert _pokerkit_stacks(text) == list(hand.finishing_stacks)
    assert finishing_stacks(replay_hand(hand, rules), hand.player_count) == list(
        hand.finishing_stacks
    )


def test_BET_04_pokerkit_reopens_a_checker_to_a_short_all_in_opening_bet(rules: HouseRules) -> None:
    """pokerkit: an opening bet is at least the round's largest increment so far (none), so
    even an all-in bet of 1 into a bet of 2 reopens the betting to p1, who checked; the
    full-bet rule of the version before refuses p1's raise to 3 (BET-04)."""
    hand = parse_phh(OPENING_AFTER_A_CHECK)
    old = profile_version("replay-permissive", FULL_BET_VERSION)
    with pytest.raises(Exception, match="BET-04"):
        replay_hand(hand, old)


def test_BET_05_pokerkit_refuses_the_raise_of_a_player_facing_a_short_all_in(
    rules: HouseRules,
) -> None:
    """pokerkit: p2 acted (raised to 8) and faces only p3's short all-in (1, less than the
    largest raise of 4): pokerkit refuses it a raise (its call, 1, is less than 4); so does
    the engine: the same hand with p2 raising to 13 is refused with BET-05."""
    text = SHORT_ALL_IN_OVER_A_RAISE.replace("'p2 cc',\n  'p3 sm", "'p2 cbr 13',\n  'p3 sm")
    with pytest.raises(Exception, match="BET-05"):
        replay_hand(parse_phh(text), rules)
    with warnings.catch_warnings(), pytest.raises(ValueError):
        warnings.simplefilter("ignore")
        list(HandHistory.loads(text))
