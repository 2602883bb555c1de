"""Whole hands with a blind chop under the shipped casino profiles (SHOW-08, KILL-06)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dealerassist.profiles import REPO_PROFILES_DIR, get_profile
from dealerassist.rules.actions import (
    Act,
    ActionKind,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
)
from dealerassist.rules.engine import Outcome, apply, legal_actions, new_table
from dealerassist.rules.house_rules import HouseRules
from dealerassist.rules.state import Phase, TableState
from dealerassist.rules.violations import RuleId, RuleViolation

AT = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
DRAW = get_profile("casino-five-card-draw", REPO_PROFILES_DIR)
KILL = get_profile("casino-triple-draw-27-kill", REPO_PROFILES_DIR)
STAKES = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)


def _entry(step: str) -> Act:
    """``"3 raise 20"``, ``"2 draw 3"``, ``"4 fold"``, ``"2 chop"``."""
    seat, kind, *rest = step.split()
    action = ActionKind(kind)
    if action is ActionKind.DRAW:
        return Act(int(seat), action, count=int(rest[0]))
    return Act(int(seat), action, amount=int(rest[0]) if rest else None)


class ChopTable:
    """A 5/10 fixed-limit table under a shipped profile, 500 in each of ``seats``."""

    def __init__(self, rules: HouseRules, variant: Variant, seats: tuple[int, ...]) -> None:
        spec = TableSpec("C1", variant, Structure.FIXED_LIMIT, STAKES, rules.profile_id)
        self.rules = rules
        self.state: TableState = new_table(spec)
        for seat in seats:
            self.run(SeatPlayer(seat, f"P{seat}", 500))

    def run(self, command: object) -> Outcome:
        outcome = apply(self.state, command, self.rules, AT)  # type: ignore[arg-type]
        self.state = outcome.state
        return outcome

    def hand(self, steps: list[str], button: int | None = None) -> Outcome:
        """Start a hand, make every post, then enter ``steps``."""
        outcome = self.run(StartHand(button))
        while self.state.hand is not None and self.state.hand.phase is Phase.POSTING:
            outcome = self.run(Act(self.state.hand.to_act or 0, ActionKind.POST))
        for step in steps:
            outcome = self.run(_entry(step))
        return outcome

    def offered(self) -> list[str]:
        legal = legal_actions(self.state, self.rules, AT)
        return [] if legal is None else [option["action"] for option in legal["legal"]]

    def stacks(self) -> dict[int, int]:
        return {seat.seat: seat.stack for seat in self.state.seats if seat.player}


def test_SHOW_08_accepts_a_chopped_hand_then_a_played_one_under_the_casino_profile() -> None:
    """casino-five-card-draw, five players. Hand 1 (button 1): seats 4, 5 and 1 fold, the
    blinds agree and chop: nobody loses a chip. Hand 2: the button moves to seat 2 (blinds 3
    and 4); seat 5 raises, so a chop by seat 3 is refused and seat 5 wins the blinds."""
    table = ChopTable(DRAW, Variant.FIVE_CARD_DRAW, (1, 2, 3, 4, 5))
    table.hand(["4 fold", "5 fold", "1 fold"], button=1)
    assert table.offered() == ["call", "raise", "fold", "chop"]
    chopped = table.run(_entry("2 chop"))
    assert chopped.result is not None and chopped.result["chopped"] == {"2": 5, "3": 10}
    assert table.stacks() == dict.fromkeys((1, 2, 3, 4, 5), 500)
    table.hand(["5 raise 20", "1 fold", "2 fold"])
    assert table.state.button == 2 and "chop" not in table.offered()
    with pytest.raises(RuleViolation) as refused:
        table.run(_entry("3 chop"))
    assert refused.value.rule_id is RuleId.SHOW_08
    assert "seat(s) 5 still in the hand" in refused.value.message
    for step in ["3 fold", "4 fold"]:
        table.run(_entry(step))
    assert table.stacks() == {1: 500, 2: 500, 3: 495, 4: 490, 5: 515}


def test_KILL_06_refuses_a_chop_when_the_required_kill_sits_in_the_big_blind() -> None:
    """casino-triple-draw-27-kill: seat 4 wins two pots and kills hand 3 from the big blind
    (button 2, small blind 3). Seats 1 and 2 fold to the blinds: no chop is offered and the
    entry is refused with KILL-06 (WSOP 204); the small blind folds and the kill wins."""
    table = ChopTable(KILL, Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, (1, 2, 3, 4))
    table.hand(["3 fold", "4 raise 20", "1 fold", "2 fold"], button=4)
    table.hand(["4 raise 20", "1 fold", "2 fold", "3 fold"])
    assert (table.state.kill_leg, table.state.kill_legs) == (4, 2)
    table.hand(["1 fold", "2 fold"])
    hand = table.state.hand
    assert hand is not None and (hand.kill_seat, hand.big_blind_seat, hand.to_act) == (4, 4, 3)
    assert "chop" not in table.offered()
    with pytest.raises(RuleViolation) as refused:
        table.run(_entry("3 chop"))
    assert refused.value.rule_id is RuleId.KILL_06
    assert "no blind chop when the kill sits in a blind" in refused.value.message
    table.run(_entry("3 fold"))
    assert table.state.hand is not None and table.state.hand.phase is Phase.COMPLETE


def test_SHOW_08_accepts_a_chop_in_a_kill_game_hand_without_a_kill() -> None:
    """casino-triple-draw-27-kill, hand 1 (no kill yet): folded to the blinds, they chop; no
    pot was won, so nobody gets a leg (KILL-02) and the kill button stays neutral."""
    table = ChopTable(KILL, Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, (1, 2, 3, 4))
    outcome = table.hand(["3 fold", "4 fold", "1 chop"], button=4)
    assert outcome.result is not None and outcome.result["chopped"] == {"1": 5, "2": 10}
    assert (table.state.kill_leg, table.state.kill_legs) == (None, 0)
    assert table.stacks() == dict.fromkeys((1, 2, 3, 4), 500)
