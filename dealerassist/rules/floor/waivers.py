"""What ``accept_entry`` may waive, and how: the refused entry is applied by the engine with
the one check of the waived rule lifted (IRREG-15 when that rule cannot be lifted).

* turn rules (OPEN-01, BET-08, BLIND-01, SHOW-01): the entry's seat is made the one to act;
  in a betting round the turn then goes back to the skipped seat (BET-08);
* house rules (BET-01 limping, BET-03 cap, BET-06 check-raise, DRAW-02 draw maximum, DRAW-03
  five consecutive): relaxed for that one entry;
* seat flags (DRAW-11 timed out, BET-04/05 betting not reopened): cleared for the seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from dealerassist.rules.hand import betting
from dealerassist.rules.model.actions import Act
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import floor as words
from dealerassist.rules.model.said import Join, Listed
from dealerassist.rules.model.state import HandState, Phase, TableState, evolve, is_betting
from dealerassist.rules.model.violations import RuleId, RuleViolation

TURN_RULES = {RuleId.OPEN_01, RuleId.BET_08, RuleId.BLIND_01, RuleId.SHOW_01}
RELAXED: dict[str, Callable[[HouseRules], HouseRules]] = {
    RuleId.BET_01: lambda r: replace(r, betting=replace(r.betting, allow_limp=True)),
    RuleId.BET_03: lambda r: replace(r, betting=replace(r.betting, max_raises=10**6)),
    RuleId.BET_06: lambda r: replace(r, betting=replace(r.betting, check_raise=True)),
    RuleId.DRAW_02: lambda r: replace(
        r, draw=replace(r.draw, max_cards=5, ace_must_be_shown=False)
    ),
    RuleId.DRAW_03: lambda r: replace(r, draw=replace(r.draw, max_consecutive=5)),
}
PLAYER_FLAGS: dict[str, dict[str, Any]] = {
    RuleId.DRAW_11: {"timed_out": False},
    RuleId.BET_04: {"may_raise": True},
    RuleId.BET_05: {"may_raise": True},
}
WAIVABLE = sorted({*TURN_RULES, *RELAXED, *PLAYER_FLAGS})


def can_waive(rule_id: str) -> bool:
    """Whether ``accept_entry`` can lift this rule's check.

    >>> can_waive("BET-03"), can_waive("DRAW-05")
    (True, False)
    """
    return rule_id in WAIVABLE


def waived(
    state: TableState, hand: HandState, entry: Act, waive: str, rules: HouseRules
) -> tuple[TableState, HouseRules]:
    """The table and the house rules to apply ``entry`` with, ``waive``'s check lifted."""
    if waive in TURN_RULES:
        return evolve(state, hand=evolve(hand, to_act=entry.seat)), rules
    if waive in PLAYER_FLAGS:
        player = evolve(hand.player(entry.seat), **PLAYER_FLAGS[waive])
        return evolve(state, hand=hand.with_player(player)), rules
    if waive in RELAXED:
        return state, RELAXED[waive](rules)
    raise RuleViolation(
        rule_id=RuleId.IRREG_15,
        said=words.NOT_WAIVABLE(waive=waive, waivable=Listed(tuple(WAIVABLE), Join.COMMA)),
        seat=entry.seat,
    )


def back_to_skipped(state: TableState, phase: Phase, skipped: int | None, seat: int) -> TableState:
    """BET-08: after an out-of-turn action the turn goes back to the seat that was skipped."""
    hand = state.hand
    if hand is None or hand.phase is not phase or not is_betting(phase) or skipped in (None, seat):
        return state
    assert skipped is not None
    if betting.needs_action(hand, hand.player(skipped)):
        return evolve(state, hand=evolve(hand, to_act=skipped))
    return state
