"""Floor rulings through the engine: every effect, the IRREG-14 deadline, holds and the journal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_table import AT, NO_LIMIT, Table

from dealerassist.errors import InvalidInput
from dealerassist.rules.engine import view
from dealerassist.rules.floor.ruling_options import options_for
from dealerassist.rules.floor.rulings import can_rule
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    AddChips,
    RemovePlayer,
    SeatPlayer,
    Stakes,
    Structure,
    command_from_dict,
    command_to_dict,
)
from dealerassist.rules.model.house_rules import (
    BettingRules,
    DrawRules,
    HouseRules,
    IrregularityRules,
    MisdealDeadline,
    OpenRequirement,
    OpenRules,
)
from dealerassist.rules.model.ruling_commands import (
    AcceptEntry,
    AdjustStack,
    Award,
    ClearFalseOpener,
    Effect,
    HoldPot,
    KillHand,
    Misdeal,
    MoveButton,
    ReleasePot,
    ReopenBetting,
    Ruling,
    VoidLast,
    ruling_from_dict,
)
from dealerassist.rules.model.state import Phase, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation


def _rule(table: Table, *effects: Effect, decision: str = "custom", **fields: Any) -> Any:
    fields.setdefault("note", "floor decided")
    return table.run(Ruling(decision=decision, effects=effects, **fields))


def _three() -> Table:
    """Three players of 100, button 1: seat 2 posts 5, seat 3 posts 10, seat 1 acts first."""
    table = Table([100, 100, 100])
    table.start(button=1)
    return table


def _refused(table: Table, command: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        table.run(command)
    return refused.value


def test_accept_entry_binds_an_out_of_turn_check_and_backs_up_to_the_skipped_seat() -> None:
    """BET-08 waived: seat 3's out-of-turn check stands and seat 2 acts next."""
    table = _three()
    table.act(1, "call")
    check = Act(3, ActionKind.CHECK)
    assert _refused(table, check).rule_id is RuleId.BET_08
    _rule(table, AcceptEntry(check, "BET-08"), rule_id="BET-08", decision="action_stands")
    assert table.hand.player(3).acted and table.hand.to_act == 2
    table.act(2, "call")
    assert table.hand.phase is Phase.DRAW_1


def test_accept_entry_binds_a_raise_over_the_cap() -> None:
    """BET-03 waived: a fifth raise the cap refused is recorded as made."""
    table = _three()
    table.act(1, "raise", amount=20)
    table.act(2, "raise", amount=30)
    table.act(3, "raise", amount=40)
    fifth = Act(1, ActionKind.RAISE, amount=50)
    assert _refused(table, fifth).rule_id is RuleId.BET_03
    outcome = _rule(table, AcceptEntry(fifth, "BET-03"), rule_id="BET-03", decision="accept_entry")
    assert table.hand.current_bet == 50 and table.hand.player(1).stack == 50
    assert {"type": "entry_accepted", "waived": "BET-03", "seat": 1} in outcome.events_json()


def test_IRREG_15_rejects_a_waiver_the_engine_cannot_lift() -> None:
    """IRREG-15: accept_entry refuses a rule it cannot waive and names those it can."""
    table = _three()
    entry = Act(1, ActionKind.CALL)
    refused = _refused(table, Ruling("custom", note="x", effects=(AcceptEntry(entry, "DRAW-05"),)))
    assert refused.rule_id is RuleId.IRREG_15 and "BET-03" in refused.message


def test_IRREG_15_accepts_a_discretionary_ruling_with_its_reason() -> None:
    """IRREG-15: a discretionary ruling with a reason is recorded (here it kills a hand)."""
    table = _three()
    _rule(table, KillHand(1), decision="discretionary", rule_id="IRREG-15", note="angle shot")
    assert table.hand.player(1).folded


def test_void_last_rebuilds_the_hand_without_the_last_action() -> None:
    """void_last 1 undoes a raise exactly: the same state as if it had never been entered."""
    table = _three()
    table.act(1, "call")
    expected = table.state
    table.act(2, "raise", amount=20)
    outcome = _rule(table, VoidLast(1), rule_id="SHOW-11", decision="correct_before_push")
    assert table.state.hand == expected.hand and table.state.seats == expected.seats
    assert table.state.hand_log == expected.hand_log
    voided = next(e for e in outcome.events_json() if e["type"] == "voided")
    assert voided["actions"][0]["action"] == "raise"


def test_void_last_reopens_a_finished_hand_before_the_next_one() -> None:
    """Voiding the fold that ended the hand puts the hand back in play, stacks unpaid."""
    table = _three()
    table.act(1, "fold")
    table.act(2, "fold")
    assert table.hand.phase is Phase.COMPLETE and table.stacks()[3] == 105
    _rule(table, VoidLast(1))
    assert table.hand.phase is Phase.BETTING_1 and table.hand.to_act == 2
    assert table.stacks()[3] == 100


def test_void_last_keeps_an_accepted_entry_that_came_before() -> None:
    """The journal keeps a ruling's accepted entry, so a later void replays it."""
    table = _three()
    table.act(1, "call")
    _rule(table, AcceptEntry(Act(3, ActionKind.CHECK), "BET-08"))
    table.act(2, "call")
    _rule(table, VoidLast(1))
    assert table.hand.player(3).acted and table.hand.to_act == 2


def test_void_last_refuses_more_actions_than_the_hand_has() -> None:
    """void_last cannot reach before the hand's first action."""
    table = _three()
    table.act(1, "call")
    assert _refused(table, Ruling("custom", note="x", effects=(VoidLast(9),))).rule_id == "IRREG-15"


def test_kill_hand_leaves_the_chips_in_the_pot_and_moves_the_turn() -> None:
    """kill_hand on the seat to act: dead, its small blind stays in, the big blind acts."""
    table = _three()
    table.act(1, "call")
    _rule(table, KillHand(2), rule_id="IRREG-13", decision="no_redress")
    assert table.hand.player(2).folded and table.hand.pot == 25 and table.hand.to_act == 3


def test_IRREG_13_accepts_a_killed_no_limit_reraise_going_back_to_the_raise_it_raised() -> None:
    """No limit 5/10: seat 1 raises to 30, seat 2 re-raises to 100 and is killed before anyone
    acts. Its 70 over seat 1's 30 goes back; seat 3 faces seat 1's raise (call 20) and the
    smallest raise is to 50 again (seat 1's raise of 20), not to 100 after the dead 70."""
    table = Table([200, 200, 200], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=30)
    table.act(2, "raise", amount=100)
    _rule(table, KillHand(2), rule_id="IRREG-13", decision="no_redress")
    hand = table.hand
    assert hand.player(2).stack == 170 and hand.player(2).committed == 30
    assert hand.current_bet == 30 and hand.last_aggressor == 1 and hand.to_act == 3
    assert table.legal()["legal"] == [  # type: ignore[index]
        {"action": "call", "amount": 20},
        {"action": "raise", "min": 50, "max": 200},
        {"action": "fold"},
    ]
    refused = _refused(table, Act(3, ActionKind.CALL, amount=90))
    assert refused.rule_id is RuleId.GAME_06 and "A call is 20" in refused.message


def test_IRREG_13_rejects_returning_a_killed_big_blind_nobody_raised() -> None:
    """A killed big blind is no uncalled bet, though it is the round's highest: seat 4 folds,
    the big blind (seat 3) is killed, and the button (seat 1) still faces 10, not 5."""
    table = Table([100] * 4)
    table.start(button=1)
    table.act(4, "fold")
    _rule(table, KillHand(3), rule_id="IRREG-13", decision="no_redress")
    hand = table.hand
    assert hand.player(3).stack == 90 and hand.player(3).returned == 0
    assert hand.pot == 15 and hand.current_bet == 10 and hand.to_act == 1
    assert table.legal()["legal"][0] == {"action": "call", "amount": 10}  # type: ignore[index]


def test_kill_hand_of_the_last_opponent_ends_the_hand() -> None:
    """Killing all but one hand awards the pot to the one left."""
    table = _three()
    table.act(1, "fold")
    outcome = _rule(table, KillHand(2))
    assert outcome.result is not None and table.stacks() == {1: 100, 2: 95, 3: 105}


def test_misdeal_returns_every_chip_and_the_redeal_keeps_the_button() -> None:
    """IRREG-01: chips back as at the start; the next hand (no. 2) has the same button."""
    table = _three()
    table.act(1, "raise", amount=20)
    outcome = _rule(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert outcome.result is not None and outcome.result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100} and table.hand.phase is Phase.COMPLETE
    table.start()
    assert table.hand.hand_no == 2 and table.hand.button == 1 and table.hand.big_blind_seat == 3


def test_award_gives_the_pot_to_the_seats_named_with_odd_chip_left_of_button() -> None:
    """award [2, 3] splits 25 as 13 to seat 2 (first left of the button) and 12 to seat 3."""
    table = _three()
    table.act(1, "call")
    outcome = _rule(table, Award((2, 3)), rule_id="SHOW-04", decision="share_remaining")
    assert outcome.result is not None and outcome.result.to_json()["pots"][0]["shares"] == {
        "2": 13,
        "3": 12,
    }
    assert table.stacks() == {1: 90, 2: 108, 3: 102}


def _short_all_in() -> Table:
    """Seat 1 (25 chips, button) is all in: main pot 75 (seats 2, 3, 1), side pot 10 (2, 3)."""
    table = Table([25, 100, 100])
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "call")
    table.act(3, "raise", amount=30)
    table.act(1, "call")
    table.act(2, "call")
    return table


def _award_pots(table: Table, *pots: tuple[int, ...]) -> Any:
    return _rule(table, Award(pots=pots))


def test_SHOW_07_accepts_an_award_pot_by_pot_with_odd_chips_as_at_a_showdown() -> None:
    """Main pot 75 split by seats 1 and 2 (odd chip to seat 2, first left of the button), the
    side pot 10 to seat 3; one result entry per pot, each marked by_ruling."""
    table = _short_all_in()
    outcome = _award_pots(table, (1, 2), (3,))
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"] == [
        {"amount": 75, "eligible": [2, 3, 1], "winners": [1, 2], "shares": {"2": 38, "1": 37},
         "odd_chip": 2, "by_ruling": True},
        {"amount": 10, "eligible": [2, 3], "winners": [3], "shares": {"3": 10},
         "odd_chip": None, "by_ruling": True},
    ]  # fmt: skip
    assert outcome.result.to_json()["winnings"] == {"1": 37, "2": 38, "3": 10}
    assert table.hand.phase is Phase.COMPLETE and table.stacks() == {1: 37, 2: 108, 3: 80}
    texts = [i["text"] for i in outcome.instructions if i["code"] == "award"]
    assert texts[-1] == "Push 10 from side pot 1 to seat 3"


def test_SHOW_07_award_pot_by_pot_counts_the_pots_after_the_uncalled_bet_goes_back() -> None:
    """Seat 1's raise to 20 is called by nobody: 10 go back, leaving a main pot of 15 (all
    three) and a side pot of 10 (seats 1 and 3)."""
    table = _three()
    table.act(1, "raise", amount=20)
    outcome = _award_pots(table, (2,), (3,))
    assert outcome.result is not None and outcome.result.to_json()["returned"] == {"1": 10}
    assert [p["amount"] for p in outcome.result.to_json()["pots"]] == [15, 10]
    assert table.stacks() == {1: 90, 2: 110, 3: 100}


def test_SHOW_07_rejects_awarding_a_side_pot_to_a_seat_not_in_it() -> None:
    """Seat 1 is all in for 25: it cannot share the side pot it did not match; the refusal
    names the seat, the pot and why, and lists the pots."""
    table = _short_all_in()
    before = table.state
    refused = _refused(table, Ruling("custom", note="n", effects=(Award(pots=((1,), (1,))),)))
    assert refused.rule_id is RuleId.SHOW_07 and refused.seat == 1
    assert "Seat 1 cannot share side pot 1 (10, seats 2, 3)" in refused.message
    assert "put in 25" in refused.message
    assert refused.allowed[1] == {"pot": "side pot 1", "amount": 10, "eligible": [2, 3]}
    assert table.state == before


def test_SHOW_07_rejects_awarding_a_pot_to_a_folded_seat() -> None:
    """A folded hand is eligible for no pot."""
    table = _three()
    table.act(1, "fold")
    refused = _refused(table, Ruling("custom", note="n", effects=(Award(pots=((1,),)),)))
    assert refused.rule_id is RuleId.SHOW_07 and "folded" in refused.message


def test_SHOW_07_rejects_an_award_that_does_not_name_every_pot() -> None:
    """Naming one pot when the hand has two is refused with the list of the pots, so the
    floor can re-enter the award; naming three is refused too."""
    table = _short_all_in()
    for pots in (((1,),), ((1,), (2,), (3,))):
        refused = _refused(table, Ruling("custom", note="n", effects=(Award(pots=pots),)))
        assert refused.rule_id is RuleId.SHOW_07
        assert "the main pot 75 (seats 2, 3, 1); side pot 1 10 (seats 2, 3)" in refused.message
    table = _three()
    table.act(1, "raise", amount=20)
    refused = _refused(table, Ruling("custom", note="n", effects=(Award(pots=((2,),)),)))
    assert "after the uncalled 10 went back to seat 1" in refused.message


@pytest.mark.parametrize(
    ("award", "message"),
    [
        ({"pots": []}, "list of 1 to 10 seat lists"),
        ({"pots": [[1], []]}, "side pot 1 needs a non-empty list"),
        ({"pots": [[2, 3, 2]]}, "seat 2 twice in the main pot"),
        ({"pots": [[1]], "seats": [1]}, "not both"),
        ({"pots": [[0]]}, "each seat in pots must be at least 1"),
        ({"pots": [2, 3]}, "the main pot needs a non-empty list"),
        ({}, "award needs 'seats'"),
    ],
)
def test_award_pots_must_be_non_empty_seat_lists_without_a_seat_twice(
    award: dict[str, Any], message: str
) -> None:
    """An empty pot list, an empty pot, a seat twice in one pot, or seats and pots together
    are invalid input."""
    data = {"type": "ruling", "decision": "custom", "effects": [{"effect": "award", **award}]}
    with pytest.raises(InvalidInput, match=message):
        command_from_dict(data)


def test_award_names_seats_or_pots_and_keeps_its_seats_json() -> None:
    """award with seats writes only seats (recorded rulings hash the same); with pots only pots;
    a value naming both or neither cannot be made."""
    assert command_to_dict(Ruling("custom", effects=(Award((2, 3)),)))["effects"] == [
        {"effect": "award", "seats": [2, 3]}
    ]
    ruling = Ruling("custom", effects=(Award(pots=((1, 2), (2,))),))
    assert command_to_dict(ruling)["effects"] == [{"effect": "award", "pots": [[1, 2], [2]]}]
    assert command_from_dict(command_to_dict(ruling)) == ruling
    for fields in ({}, {"seats": (1,), "pots": ((1,),)}):
        with pytest.raises(InvalidInput):
            Award(**fields)


def test_adjust_stack_in_the_hand_and_between_hands() -> None:
    """adjust_stack takes chips from behind in a hand at once; chips added in a hand wait
    beside the stack until it is over (GAME-06 table stakes); between hands it changes the
    seat's stack."""
    table = _three()
    _rule(table, AdjustStack(1, -7))
    assert table.hand.player(1).stack == 93
    _rule(table, AdjustStack(1, 10))
    assert (table.hand.player(1).stack, table.hand.player(1).added) == (93, 10)
    _rule(table, Misdeal())
    assert table.stacks()[1] == 103  # the hand's posts back, both corrections kept
    _rule(table, AdjustStack(2, -30))
    assert table.stacks()[2] == 70
    with pytest.raises(InvalidInput):
        _rule(table, AdjustStack(2, -71))


def test_move_button_sets_the_next_hands_button() -> None:
    """IRREG-12: between hands the next button goes to the seat named."""
    table = _three()
    _rule(table, Misdeal(), MoveButton(3), decision="misdeal_and_correct", rule_id="IRREG-12")
    table.start()
    assert table.hand.button == 3 and table.hand.small_blind_seat == 1


def test_move_button_refuses_a_hand_in_play_and_an_empty_seat() -> None:
    """The button does not move mid-hand (IRREG-15) nor to a seat without a player (BLIND-03)."""
    table = _three()
    assert _refused(table, Ruling("custom", note="x", effects=(MoveButton(3),))).rule_id == (
        "IRREG-15"
    )
    _rule(table, Misdeal())
    assert _refused(table, Ruling("custom", note="x", effects=(MoveButton(5),))).rule_id == (
        "BLIND-03"
    )


def test_reopen_betting_gives_a_seat_that_acted_the_turn_again() -> None:
    """DRAW-08 raised-pot exception: seat 1 acts again and may raise."""
    table = _three()
    table.act(1, "call")
    _rule(table, ReopenBetting(1), rule_id="DRAW-08", decision="raised_pot_exception")
    assert table.hand.to_act == 1
    assert any(a["action"] == "raise" for a in table.legal()["legal"])  # type: ignore[index]


def test_SHOW_11_rejects_entries_while_the_pot_is_held() -> None:
    """SHOW-11: a held pot stops the dealer's entries and an award until released."""
    table = _three()
    _rule(table, HoldPot(), rule_id="SHOW-11", decision="hold")
    assert _refused(table, Act(1, ActionKind.CALL)).rule_id is RuleId.SHOW_11
    held = Ruling("custom", note="x", effects=(Award((1,)),))
    assert _refused(table, held).rule_id is RuleId.SHOW_11


def test_SHOW_11_accepts_entries_after_the_release() -> None:
    """SHOW-11: after release_pot the hand goes on; release and award may share one ruling."""
    table = _three()
    _rule(table, HoldPot())
    _rule(table, ReleasePot(), rule_id="SHOW-11", decision="release")
    table.act(1, "call")
    _rule(table, HoldPot())
    outcome = _rule(table, ReleasePot(), Award((1,)))
    assert outcome.result is not None


def test_IRREG_14_rejects_a_ruling_on_a_closed_hand() -> None:
    """IRREG-14: once hand 2 starts, hand 1 cannot be voided or killed any more."""
    table = _three()
    table.act(1, "fold")
    table.act(2, "fold")
    table.start()
    late = Ruling("custom", note="late", hand_no=1, effects=(VoidLast(1),))
    assert _refused(table, late).rule_id is RuleId.IRREG_14
    unexplained = Ruling("late_adjustment", rule_id="IRREG-14", hand_no=1,
                         effects=(AdjustStack(3, -5),))  # fmt: skip
    assert _refused(table, unexplained).rule_id is RuleId.IRREG_14
    assert not can_rule(table.state, late)


def test_IRREG_14_accepts_a_late_stack_adjustment_with_a_note() -> None:
    """IRREG-14: a stack adjustment with a note is still possible on an earlier hand."""
    table = _three()
    table.act(1, "fold")
    table.act(2, "fold")
    table.start()
    before = table.hand.player(3).stack
    _rule(table, AdjustStack(3, -5), decision="late_adjustment", rule_id="IRREG-14",
          hand_no=1, note="pot miscounted")  # fmt: skip
    assert table.hand.player(3).stack == before - 5


def test_decision_must_be_one_of_the_rules_options() -> None:
    """A decision code the catalog does not list for the rule, or custom without a note, is
    invalid input."""
    table = _three()
    with pytest.raises(InvalidInput):
        table.run(Ruling("kill_absent", rule_id="IRREG-01"))
    with pytest.raises(InvalidInput):
        table.run(Ruling("custom"))


def test_options_cover_every_floor_rule_and_always_offer_custom_and_discretionary() -> None:
    """Each F rule has its own options; any rule also gets custom and discretionary."""
    floor_rules = ["DEAL-02", "DECK-01", "DECK-05", "DECK-06", "BLIND-03", "BLIND-10",
                   "BLIND-15", "OPEN-04", "OPEN-05", "OPEN-06", "OPEN-07", "OPEN-08",
                   "OPEN-10", "BET-07", "BET-08", "BET-09", "DRAW-08", "DRAW-10", "IRREG-01",
                   "IRREG-05", "IRREG-07", "IRREG-08", "IRREG-09", "IRREG-10", "IRREG-12",
                   "IRREG-13", "SHOW-04", "KILL-07"]  # fmt: skip
    for rule_id in floor_rules:
        decisions = [option.decision for option in options_for(rule_id)]
        assert len(decisions) > 2 and decisions[-2:] == ["custom", "discretionary"], rule_id
    assert [o.decision for o in options_for("BET-02")][:2] == ["uphold", "accept_entry"]


def test_ruling_round_trips_through_json() -> None:
    """command_from_dict(command_to_dict(r)) == r, the refused entry included."""
    ruling = Ruling(
        "accept_entry", rule_id="BET-03", note="n", hand_no=4, call_id="c1",
        effects=(AcceptEntry(Act(1, ActionKind.RAISE, amount=50), "BET-03"), AdjustStack(2, -3),
                 Award((1, 2)), KillHand(3), MoveButton(1), ReopenBetting(2), HoldPot(),
                 ReleasePot()),
    )  # fmt: skip
    assert command_from_dict(command_to_dict(ruling)) == ruling
    assert command_from_dict(command_to_dict(Ruling("misdeal", effects=(Misdeal(),))))


def test_structural_effects_come_first() -> None:
    """void_last or misdeal after another effect is invalid input."""
    data = {"type": "ruling", "decision": "custom", "effects": [
        {"effect": "kill_hand", "seat": 1}, {"effect": "misdeal"}]}  # fmt: skip
    with pytest.raises(InvalidInput):
        command_from_dict(data)


def test_the_journal_survives_the_state_json() -> None:
    """before_hand and hand_log round-trip through the state's JSON form."""
    table = _three()
    table.act(1, "call")
    _rule(table, AdjustStack(1, 1))
    state = table.state
    assert len(state.hand_log) == 5
    assert json.loads(state.hand_log[0])["command"] == {"type": "start_hand", "button": 1}
    assert json.loads(state.before_hand or "{}")["hand"] is None
    assert TableState.from_dict(state.to_dict()) == state


def test_kill_hand_in_the_draw_passes_the_turn_to_the_next_drawer() -> None:
    """Killing the seat due to draw moves the draw on; killing the last drawer starts betting."""
    table = _three()
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 2
    _rule(table, KillHand(2))
    assert table.hand.to_act == 3
    table.act(3, "draw", count=1)
    _rule(table, KillHand(1))
    assert table.hand.phase is Phase.COMPLETE and table.stacks()[3] == 120


def test_kill_hand_at_the_showdown_awards_the_other_hand() -> None:
    """At the showdown a killed hand leaves the pot to the hand still tabled."""
    table = _three()
    table.act(1, "fold")
    table.act(2, "call")
    table.act(3, "check")
    table.act(2, "draw", count=1)
    table.act(3, "draw", count=1)
    table.act(2, "check")
    table.act(3, "check")
    assert table.hand.phase is Phase.SHOWDOWN
    outcome = _rule(table, KillHand(table.hand.to_act))
    assert outcome.result is not None and outcome.result.to_json()["pots"][0]["amount"] == 20


def test_accept_entry_binds_a_draw_over_the_house_maximum() -> None:
    """DRAW-02 waived: a four-card draw the house limit of three refused is recorded."""
    table = Table([100, 100, 100], rules=HouseRules(draw=DrawRules(max_cards=3)))
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    four = Act(2, ActionKind.DRAW, count=4)
    assert _refused(table, four).rule_id is RuleId.DRAW_02
    _rule(table, AcceptEntry(four, "DRAW-02"), rule_id="DRAW-02", decision="accept_entry")
    assert table.hand.player(2).drawn == (4,) and table.hand.to_act == 3


def test_accept_entry_takes_an_action_of_a_seat_in_the_hand() -> None:
    """accept_entry for a seat not dealt in is refused (IRREG-15)."""
    table = Table([100, 100, 100, 0])
    table.start(button=1)
    ruling = Ruling("custom", note="x", effects=(AcceptEntry(Act(4, ActionKind.CALL), "BET-08"),))
    assert _refused(table, ruling).rule_id is RuleId.IRREG_15


@pytest.mark.parametrize(
    "effect",
    [ReleasePot(), ReopenBetting(1), Award((1,)), KillHand(1), Misdeal(), VoidLast(1)],
)
def test_effects_need_a_hand_they_can_act_on(effect: Effect) -> None:
    """Between hands (or before any), hand effects are refused with IRREG-15."""
    table = Table([100, 100, 100])
    assert _refused(table, Ruling("custom", note="x", effects=(effect,))).rule_id == "IRREG-15"


def test_hand_effects_wait_for_the_deal() -> None:
    """While the blinds are posted, a kill or an award is refused; a hold is possible (and a
    second hold is refused: only a release may follow)."""
    table = Table([100, 100, 100])
    table.start(button=1, post=False)
    for effect in (KillHand(2), Award((2,))):
        assert _refused(table, Ruling("custom", note="x", effects=(effect,))).rule_id == (
            "IRREG-15"
        )
    _rule(table, HoldPot())
    twice = Ruling("custom", note="x", effects=(HoldPot(),))
    assert _refused(table, twice).rule_id is RuleId.SHOW_11


def test_reopen_betting_only_in_a_betting_round() -> None:
    """In the draw there is no betting to reopen (IRREG-15)."""
    table = _three()
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    assert _refused(table, Ruling("custom", note="x", effects=(ReopenBetting(2),))).rule_id == (
        "IRREG-15"
    )


def test_the_table_view_shows_a_held_pot() -> None:
    """The tablet and the console see ``pot_held`` in the hand's view."""
    table = _three()
    _rule(table, HoldPot())
    assert view(table.state, table.rules, AT)["hand"]["pot_held"] is True


def test_accept_entry_binds_a_big_blind_posted_before_the_small_blind() -> None:
    """BLIND-01 waived: the big blind's early post stands; the small blind still owes."""
    table = Table([100, 100, 100])
    table.start(button=1, post=False)
    early = Act(3, ActionKind.POST)
    assert _refused(table, early).rule_id is RuleId.BLIND_01
    _rule(table, AcceptEntry(early, "BLIND-01"))
    assert table.hand.player(3).owes == 0 and table.hand.to_act == 2


def test_accept_entry_binds_a_check_raise_the_house_forbids() -> None:
    """BET-06 waived: after the draw a check-raise the profile refuses is recorded."""
    table = Table([100, 100, 100], rules=HouseRules(betting=BettingRules(check_raise=False)))
    table.start(button=1)
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        table.act(seat, action)
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=1)
    table.act(2, "check")
    table.act(3, "bet", amount=20)
    table.act(1, "call")
    check_raise = Act(2, ActionKind.RAISE, amount=40)
    assert _refused(table, check_raise).rule_id is RuleId.BET_06
    _rule(table, AcceptEntry(check_raise, "BET-06"))
    assert table.hand.current_bet == 40 and table.hand.to_act == 3


def test_void_after_the_hand_replays_the_seating_that_followed() -> None:
    """A player seated after the hand ended is still seated when a void reopens the hand;
    a player who left cannot be put back in a hand in play, so that void is refused."""
    table = _three()
    table.act(1, "fold")
    table.act(2, "fold")
    table.run(SeatPlayer(4, "P4", 80))
    _rule(table, VoidLast(1))
    assert table.state.seat(4).player == "P4" and table.hand.to_act == 2
    table.act(2, "fold")
    table.run(RemovePlayer(2))
    refused = _refused(table, Ruling("custom", note="x", effects=(VoidLast(1),)))
    assert refused.rule_id is RuleId.GAME_01 and table.state.seat(2).player is None


def _deadline(deadline: MisdealDeadline) -> Table:
    """Three players of 100, button 1, under a misdeal deadline; blinds posted."""
    table = Table([100, 100, 100], rules=HouseRules(irregularities=IrregularityRules(deadline)))
    table.start(button=1)
    return table


def test_IRREG_02_accepts_a_misdeal_before_two_players_have_acted() -> None:
    """two_players_acted (RRoP): the posts and one call are not two players acting yet."""
    table = _deadline(MisdealDeadline.TWO_PLAYERS_ACTED)
    table.act(1, "call")
    outcome = _rule(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert outcome.result is not None and outcome.result.to_json()["misdeal"] is True


def test_IRREG_02_refuses_a_misdeal_after_two_players_have_acted() -> None:
    """After a call and a second player's action the hand is played out: IRREG-02, unchanged."""
    table = _deadline(MisdealDeadline.TWO_PLAYERS_ACTED)
    table.act(1, "call")
    table.act(2, "call")
    before = table.state
    refused = _refused(table, Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert refused.rule_id is RuleId.IRREG_02 and "Too late for a misdeal" in refused.message
    assert table.state is before


def test_IRREG_02_accepts_a_fouled_deck_misdeal_after_the_deadline() -> None:
    """A fouled deck (DECK-01) voids the hand whatever the action."""
    table = _deadline(MisdealDeadline.TWO_PLAYERS_ACTED)
    table.act(1, "call")
    table.act(2, "call")
    outcome = _rule(table, Misdeal(), rule_id="DECK-01", decision="void_refund")
    assert outcome.result is not None and outcome.result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


def test_IRREG_02_substantial_action_is_two_actions_with_chips_or_three() -> None:
    """TDA 36: a fold and a check are not substantial; a call after them is."""
    table = Table([100] * 4, rules=HouseRules(irregularities=IrregularityRules(
        MisdealDeadline.SUBSTANTIAL_ACTION)))  # fmt: skip
    table.start(button=1)
    table.act(4, "fold")
    table.act(1, "fold")
    misdeal = Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),))
    assert table.run(misdeal).result is not None  # two folds: still a misdeal
    table.start(post=True)
    table.act(table.hand.to_act, "call")
    table.act(table.hand.to_act, "fold")
    assert _refused(table, misdeal).rule_id is RuleId.IRREG_02


def test_IRREG_02_without_a_house_deadline_the_floor_may_always_declare_a_misdeal() -> None:
    """misdeal_deadline = none (the default): no deadline is checked, as before the option."""
    table = _three()
    table.act(1, "call")
    table.act(2, "call")
    assert _rule(table, Misdeal(), rule_id="IRREG-01", decision="misdeal").result.to_json()[
        "misdeal"
    ]


# -- OPEN-08: the floor lifts a false opener's wait -------------------------------------------


def _false_opener(showdown: bool = False) -> Table:
    """Jacks or better, antes 2: seat 3, all in for part of its ante, declares the pot open.
    Either the others fold and the floor rules OPEN-08 false_open_all_in, or (``showdown``)
    seat 1 calls and seat 3 shows tens at the showdown (OPEN-05): seat 3 waits until a legally
    opened pot has been won. It rebuys."""
    rules = HouseRules(open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER))
    table = Table([100, 100, 1], stakes=Stakes(ante=2, small_bet=10, big_bet=20), rules=rules)
    table.start(button=2)
    table.act(3, "bet")
    if showdown:
        table.act(1, "call")
        table.act(2, "fold")
        table.act(3, "draw", count=1)
        table.act(1, "draw", count=1)
        shown = {1: "9h 8d 2c 5d 4s", 3: "Th Ts 3c 6d 8s"}
        while table.hand.phase is Phase.SHOWDOWN:
            seat = table.hand.to_act
            table.act(seat, "show", cards=shown[seat])
    else:
        table.act(1, "fold")
        table.act(2, "fold")
        table.run(Ruling("false_open_all_in", rule_id="OPEN-08"))
    table.run(AddChips(3, 30))
    assert table.state.seat(3).false_opener
    return table


def _lift(table: Table, **named: Any) -> Any:
    effect = ClearFalseOpener(**named)
    return _rule(table, effect, rule_id="OPEN-08", decision="lift_wait", note="open was legal")


def test_OPEN_08_accepts_the_floor_lifting_a_false_opener_s_wait() -> None:
    """The floor finds seat 3's open legal: the mark is gone (view and state), the ruling and
    its effect are recorded, and seat 3 is dealt in the next hand."""
    table = _false_opener()
    assert "lift_wait" in [option.decision for option in options_for("OPEN-08")]
    outcome = _lift(table, seat=3)
    assert not table.state.seat(3).false_opener
    assert "false_opener" not in view(table.state, table.rules, AT)["seats"][2]
    assert {"type": "ruling", "rule_id": "OPEN-08", "decision": "lift_wait",
            "effects": ["clear_false_opener"]} in outcome.events_json()  # fmt: skip
    assert {"type": "false_opener_cleared", "seat": 3, "player": "P3"} in outcome.events_json()
    table.start()
    assert table.hand.has(3) and table.hand.waiting == ()


def test_OPEN_08_accepts_lifting_the_wait_of_a_player_away_by_his_id() -> None:
    """Seat 3 left while he waited: the floor names him by ID; when he sits down again (another
    seat) he is dealt in at once."""
    table = _false_opener(showdown=True)
    table.run(RemovePlayer(3))
    assert table.state.false_openers_away == ("P3",)
    outcome = _lift(table, player="P3")
    assert table.state.false_openers_away == ()
    assert {"type": "false_opener_cleared", "seat": None, "player": "P3"} in outcome.events_json()
    table.run(SeatPlayer(5, "P3", 60))
    assert not table.state.seat(5).false_opener
    table.start()
    assert table.hand.has(5) and table.hand.waiting == ()


def test_OPEN_08_accepts_lifting_a_wait_during_a_hand_and_a_misdeal_keeps_it_lifted() -> None:
    """Seat 3 waits out the hand in play; the floor lifts the mark then (he stays without cards
    in this hand) and then declares a misdeal: the lift stands, he is dealt in the redeal."""
    table = _false_opener()
    table.start()
    assert table.hand.waiting == ((3, "OPEN-08"),)
    _lift(table, seat=3)
    assert not table.state.seat(3).false_opener and not table.hand.has(3)
    _rule(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert not table.state.seat(3).false_opener
    table.start()
    assert table.hand.has(3) and table.hand.waiting == ()


def test_OPEN_08_refuses_lifting_the_wait_of_a_seat_or_player_not_marked() -> None:
    """Seat 1 and player P9 do not wait as false openers: refused with OPEN-08, naming who
    does wait; the table is unchanged and seat 3 still waits."""
    table = _false_opener()
    before = table.state
    error = _refused(table, Ruling("lift_wait", rule_id="OPEN-08", effects=(ClearFalseOpener(1),)))
    assert error.rule_id is RuleId.OPEN_08 and error.seat == 1
    assert "Seat 1 does not wait as a false opener" in error.message
    assert "seat 3 (P3)" in error.message
    assert error.allowed == [{"effect": "clear_false_opener", "seat": 3}]
    lift_p9 = Ruling("lift_wait", rule_id="OPEN-08", effects=(ClearFalseOpener(player="P9"),))
    error = _refused(table, lift_p9)
    assert error.rule_id is RuleId.OPEN_08 and "Player P9" in error.message
    assert table.state is before and table.state.seat(3).false_opener


def test_OPEN_08_refuses_lifting_a_wait_when_nobody_is_marked() -> None:
    """No false opener at the table: nothing to clear (OPEN-08), nothing allowed."""
    table = _three()
    error = _refused(table, Ruling("lift_wait", rule_id="OPEN-08", effects=(ClearFalseOpener(2),)))
    assert error.rule_id is RuleId.OPEN_08 and "Nobody waits as one" in error.message
    assert error.allowed == []


def test_OPEN_08_clear_false_opener_names_a_seat_or_a_player_not_both() -> None:
    """The effect's JSON: one of seat or player; it round-trips through the journal form."""
    for body in ({"effect": "clear_false_opener"},
                 {"effect": "clear_false_opener", "seat": 3, "player": "P3"}):  # fmt: skip
        with pytest.raises(InvalidInput, match="exactly one of 'seat'"):
            ruling_from_dict({"type": "ruling", "decision": "lift_wait", "effects": [body]}, None)
    for named in ({"seat": 3}, {"player": "P3"}):
        data = {"type": "ruling", "decision": "lift_wait", "rule_id": "OPEN-08",
                "effects": [{"effect": "clear_false_opener", **named}]}  # fmt: skip
        ruling = command_from_dict(data)
        assert command_to_dict(ruling)["effects"] == data["effects"]
