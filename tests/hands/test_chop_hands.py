"""Whole hands with a blind chop under the shipped casino profiles (SHOW-08, KILL-06)."""

from __future__ import annotations

import pytest
from profile_table import ProfileTable, entry

from dealerassist.profiles import REPO_PROFILES_DIR, get_profile
from dealerassist.rules.model.actions import (
    Variant,
)
from dealerassist.rules.model.state import Phase
from dealerassist.rules.model.violations import RuleId, RuleViolation

DRAW = get_profile("casino-five-card-draw", REPO_PROFILES_DIR)
KILL = get_profile("casino-triple-draw-27-kill", REPO_PROFILES_DIR)


def test_SHOW_08_accepts_a_chopped_hand_then_a_played_one_under_the_casino_profile() -> None:
    """casino-five-card-draw, five players. Hand 1 (button 1): seats 4, 5 and 1 fold, the
    blinds agree and chop: nobody loses a chip. Hand 2: the button moves to seat 2 (blinds 3
    and 4); seat 5 raises, so a chop by seat 3 is refused and seat 5 wins the blinds."""
    table = ProfileTable(DRAW, Variant.FIVE_CARD_DRAW, (1, 2, 3, 4, 5))
    table.hand(["4 fold", "5 fold", "1 fold"], button=1)
    assert table.offered() == ["call", "raise", "fold", "chop"]
    chopped = table.run(entry("2 chop"))
    assert chopped.result is not None and chopped.result.to_json()["chopped"] == {"2": 5, "3": 10}
    assert table.stacks() == dict.fromkeys((1, 2, 3, 4, 5), 500)
    table.hand(["5 raise 20", "1 fold", "2 fold"])
    assert table.state.button == 2 and "chop" not in table.offered()
    with pytest.raises(RuleViolation) as refused:
        table.run(entry("3 chop"))
    assert refused.value.rule_id is RuleId.SHOW_08
    assert "seat(s) 5 still in the hand" in refused.value.message
    for step in ["3 fold", "4 fold"]:
        table.run(entry(step))
    assert table.stacks() == {1: 500, 2: 500, 3: 495, 4: 490, 5: 515}


def test_KILL_06_refuses_a_chop_when_the_required_kill_sits_in_the_big_blind() -> None:
    """casino-triple-draw-27-kill: seat 4 wins two pots and kills hand 3 from the big blind
    (button 2, small blind 3). Seats 1 and 2 fold to the blinds: no chop is offered and the
    entry is refused with KILL-06 (WSOP 204); the small blind folds and the kill wins."""
    table = ProfileTable(KILL, Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, (1, 2, 3, 4))
    table.hand(["3 fold", "4 raise 20", "1 fold", "2 fold"], button=4)
    # the second pot holds a full bet beyond the blinds (seat 1's raise): KILL-02, WSOP 195
    table.hand(["4 raise 20", "1 raise 30", "2 fold", "3 fold", "4 raise 40", "1 fold"])
    assert (table.state.kill_leg, table.state.kill_legs) == (4, 2)
    table.hand(["1 fold", "2 fold"])
    hand = table.state.hand
    assert hand is not None and (hand.kill_seat, hand.big_blind_seat, hand.to_act) == (4, 4, 3)
    assert "chop" not in table.offered()
    with pytest.raises(RuleViolation) as refused:
        table.run(entry("3 chop"))
    assert refused.value.rule_id is RuleId.KILL_06
    assert "no blind chop when the kill sits in a blind" in refused.value.message
    table.run(entry("3 fold"))
    assert table.state.hand is not None and table.state.hand.phase is Phase.COMPLETE


def test_SHOW_08_accepts_a_chop_in_a_kill_game_hand_without_a_kill() -> None:
    """casino-triple-draw-27-kill, hand 1 (no kill yet): folded to the blinds, they chop; no
    pot was won, so nobody gets a leg (KILL-02) and the kill button stays neutral."""
    table = ProfileTable(KILL, Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, (1, 2, 3, 4))
    outcome = table.hand(["3 fold", "4 fold", "1 chop"], button=4)
    assert outcome.result is not None and outcome.result.to_json()["chopped"] == {"1": 5, "2": 10}
    assert (table.state.kill_leg, table.state.kill_legs) == (None, 0)
    assert table.stacks() == dict.fromkeys((1, 2, 3, 4), 500)
