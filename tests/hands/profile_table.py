"""A fixed-limit table under a shipped profile, played from short step strings (whole-hand tests
of kills and blind chops)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from dealerassist.rules.engine import Outcome, apply, legal_actions, new_table
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
)
from dealerassist.rules.model.house_rules import HouseRules, KillAction, SecondLeg
from dealerassist.rules.model.state import Phase, TableState

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


# The game and stakes each shipped profile is dealt at in the rule-book tests (blinds 5/10,
# limits 10/20; the home game antes 2): one table for every test file that plays them.
LIMIT = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
NO_LIMIT = Stakes(small_blind=5, big_blind=10)
ANTES = Stakes(ante=2, small_bet=10, big_bet=20)
GAMES: dict[str, tuple[Variant, Structure, Stakes]] = {
    "casino-five-card-draw": (Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, LIMIT),
    "casino-triple-draw-27": (Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, Structure.FIXED_LIMIT, LIMIT),
    "casino-triple-draw-27-kill": (
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        LIMIT,
    ),
    "casino-triple-draw-27-optional-kill": (
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        LIMIT,
    ),
    "single-draw-27-no-limit": (Variant.DEUCE_TO_SEVEN_SINGLE_DRAW, Structure.NO_LIMIT, NO_LIMIT),
    "pot-limit-five-card-draw": (Variant.FIVE_CARD_DRAW, Structure.POT_LIMIT, NO_LIMIT),
    "home-game-five-card-draw": (Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, ANTES),
}
STAKES = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)


def entry(step: str) -> Act:
    """``"3 raise 20"``, ``"2 draw 3"``, ``"1 show 7h 5s 4d 3c 2d"``, ``"4 fold"``, ``"2 chop"``."""
    seat, kind, *rest = step.split()
    action = ActionKind(kind)
    if action in (ActionKind.BET, ActionKind.RAISE, ActionKind.CALL, ActionKind.POST) and rest:
        return Act(int(seat), action, amount=int(rest[0]))
    if action is ActionKind.DRAW:
        return Act(int(seat), action, count=int(rest[0]))
    if rest:
        return Act(int(seat), action, cards=tuple(rest))
    return Act(int(seat), action)


class ProfileTable:
    """A table at 5/10 blinds, 10/20 limits, under ``rules``, with 500 in each of ``seats``."""

    def __init__(self, rules: HouseRules, variant: Variant, seats: tuple[int, ...]) -> None:
        spec = TableSpec("K1", variant, Structure.FIXED_LIMIT, STAKES, rules.profile_id)
        self.rules = rules
        self.state: TableState = new_table(spec)
        for seat in seats:
            self.run(SeatPlayer(seat, f"P{seat}", 500))
        self.outcome: Outcome | None = None

    def run(self, command: object) -> Outcome:
        self.outcome = apply(self.state, command, self.rules, AT)  # type: ignore[arg-type]
        self.state = self.outcome.state
        return self.outcome

    def hand(
        self, steps: list[str], button: int | None = None, kill_seat: int | None = None
    ) -> Outcome:
        """Start a hand, make every post, then enter ``steps``."""
        outcome = self.run(StartHand(button, kill_seat))
        while self.state.hand is not None and self.state.hand.phase is Phase.POSTING:
            outcome = self.run(Act(self.state.hand.to_act or 0, ActionKind.POST))
        for step in steps:
            outcome = self.run(entry(step))
        return outcome

    def offered(self) -> list[str]:
        """The actions the seat to act is offered."""
        legal = legal_actions(self.state, self.rules, AT)
        return [] if legal is None else [option["action"] for option in legal["legal"]]

    def stacks(self) -> dict[int, int]:
        return {seat.seat: seat.stack for seat in self.state.seats if seat.player}

    def leg(self) -> tuple[int | None, int]:
        return self.state.kill_leg, self.state.kill_legs


def kills_as_before(rules: HouseRules) -> HouseRules:
    """``rules`` with the kill readings of the kill profiles' versions before issue 20 (the
    kill acts last before the draw; a second leg is the pot less the kill blind, the blinds
    counted): the whole hands written for those versions replay as they were dealt; the new
    readings (KILL-02, WSOP 195; KILL-04, WSOP 194) are tested in test_rulebook_draw_points."""
    kill = replace(rules.kill, action=KillAction.LAST, second_leg=SecondLeg.POT_LESS_KILL_BLIND)
    return replace(rules, kill=kill)
