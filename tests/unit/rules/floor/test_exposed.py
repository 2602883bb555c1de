"""A card exposed by the dealer on the initial deal: kept or replaced, the burn, a misdeal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_table import AT, NO_LIMIT, StoredTable, Table, cards_accounted

from dealerassist.errors import InvalidInput
from dealerassist.rules.engine import view
from dealerassist.rules.floor.exposed import keep_ranks_problem, keeps
from dealerassist.rules.hand.stub import reshuffle
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    Structure,
    Variant,
    command_from_dict,
    command_to_dict,
)
from dealerassist.rules.model.house_rules import HouseRules, IrregularityRules
from dealerassist.rules.model.ruling_commands import Misdeal, Ruling, VoidLast
from dealerassist.rules.model.state import Phase, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation

LIMIT_27 = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="75432"))
WSOP = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="none"))
DEALS = {1: "2c 3c 4c 5c 6d", 2: "Ah Ad Ac Kd Ks", 3: "9h 9d 9c 9s Qd"}


def _cards(rules: HouseRules = LIMIT_27, table_class: type[Table] = Table) -> Table:
    """Card-mode 2-7 triple draw, three players of 100, button 3: seat 1 is dealt first."""
    table = table_class(
        [100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules, mode=Mode.CARD
    )
    table.start(button=3)
    return table


def _dealt(rules: HouseRules = LIMIT_27, table_class: type[Table] = Table) -> Table:
    table = _cards(rules, table_class)
    for seat, cards in DEALS.items():
        table.act(seat, "deal", cards=cards)
    return table


def _counts(rules: HouseRules = LIMIT_27) -> Table:
    """Count-mode 2-7 triple draw, three players of 100, button 3, dealt automatically."""
    table = Table([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules)
    table.start(button=3)
    return table


def _refused(table: Table, seat: int, **fields: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, "exposed", **fields)
    return caught.value


def _codes(table: Table) -> list[str]:
    assert table.outcome is not None
    return [item["code"] for item in table.outcome.instructions]


# -- the house option ------------------------------------------------------------------------


def test_IRREG_03_accepts_the_catalog_keep_ranks() -> None:
    """ "any", "none" and rank symbols are valid; limit 2-7 keeps a 7 and replaces a 6."""
    assert [keep_ranks_problem(value) for value in ("any", "none", "75432", "A2345")] == [None] * 4
    assert keeps(LIMIT_27, "7") and not keeps(LIMIT_27, "6") and not keeps(LIMIT_27, "K")
    assert keeps(HouseRules(), "6") and keeps(HouseRules(), "Jk")
    assert not keeps(WSOP, "2") and not keeps(LIMIT_27, "Jk")


@pytest.mark.parametrize("value", ["", "7x", "77", "all", "7,5", "t"])
def test_IRREG_03_rejects_a_keep_ranks_value_that_is_no_set_of_ranks(value: str) -> None:
    """Anything but "any", "none" or distinct upper-case rank symbols is named as wrong."""
    assert keep_ranks_problem(value) is not None


# -- card mode -------------------------------------------------------------------------------


def test_IRREG_03_accepts_a_kept_rank_in_card_mode() -> None:
    """A 7 exposed in limit 2-7 stays in the hand: nothing moves, the dealer is told to keep."""
    table = _dealt()
    before = table.hand
    outcome = table.act(1, "exposed", cards="5c")
    assert _codes(table) == ["keep"]
    assert "Seat 1 keeps the exposed 5c" in outcome.instructions[0]["text"]
    assert table.hand.players == before.players and table.hand.exposed == 1
    assert table.hand.phase is Phase.BETTING_1 and table.hand.to_act == before.to_act


def test_IRREG_03_accepts_a_replaced_card_during_the_deal_as_the_burn() -> None:
    """A 6 exposed while dealing: out of the hand into the burn pile; the seat gets one card
    from the stub when every seat has five, then the betting starts."""
    table = _cards()
    table.act(1, "deal", cards=DEALS[1])
    outcome = table.act(1, "exposed", cards="6d")
    assert _codes(table) == ["replace"]
    assert "the burn" in outcome.instructions[0]["text"]
    hand = table.hand
    seat = hand.player(1)
    assert (seat.held, seat.pending, seat.cards) == (4, 1, ("2c", "3c", "4c", "5c"))
    assert (hand.burns, hand.stub, hand.exposed_burn) == (1, 47, "6d")
    assert hand.phase is Phase.DEAL and hand.to_act == 2  # the deal goes on first
    table.act(2, "deal", cards=DEALS[2])
    table.act(3, "deal", cards=DEALS[3])
    assert table.hand.to_act == 1
    assert table.legal() == {"seat": 1, "phase": "deal", "legal": [{"action": "deal", "count": 1}]}
    table.act(1, "deal", cards="7s")
    hand = table.hand
    assert hand.player(1).cards == ("2c", "3c", "4c", "5c", "7s") and hand.player(1).held == 5
    assert hand.phase is Phase.BETTING_1 and (hand.stub, hand.burns) == (36, 1)
    assert cards_accounted(table.hand) == 52


def test_IRREG_03_accepts_a_replaced_card_right_after_the_deal() -> None:
    """Entered after the last deal, before any betting: the hand goes back to the deal for the
    replacement, then the first round starts again exactly as it stood."""
    table = _dealt()
    betting = table.hand
    outcome = table.act(1, "exposed", cards="6d")
    assert {"type": "phase", "phase": "deal"} in outcome.events_json()
    assert table.hand.phase is Phase.DEAL and table.hand.to_act == 1
    table.act(1, "deal", cards="8h")
    hand = table.hand
    assert hand.phase is Phase.BETTING_1 and hand.to_act == betting.to_act == 3
    assert (hand.current_bet, hand.raises, hand.pot) == (
        betting.current_bet,
        betting.raises,
        betting.pot,
    )
    assert cards_accounted(table.hand) == 52


def test_IRREG_03_refuses_to_deal_the_burned_exposed_card_again() -> None:
    """The exposed card is known in the burn pile (DECK-01): it cannot be the replacement."""
    table = _dealt()
    table.act(1, "exposed", cards="6d")
    with pytest.raises(RuleViolation) as caught:
        table.act(1, "deal", cards="6d")
    assert caught.value.rule_id is RuleId.DECK_01
    assert "is the burn" in caught.value.message


def test_IRREG_03_accepts_the_burned_card_back_after_a_reshuffle() -> None:
    """A reshuffle takes the burns into the new stub, the exposed card with them."""
    table = _dealt()
    table.act(1, "exposed", cards="6d")
    table.act(1, "deal", cards="8h")
    hand = reshuffle(table.hand, 1, table.rules, 1)
    assert hand.exposed_burn is None and hand.burns == 0


def test_IRREG_03_rejects_a_player_choosing_to_keep_a_replaced_rank() -> None:
    """The player never chooses: keeping a 6 in limit 2-7 is refused, replace is allowed."""
    table = _dealt()
    refusal = _refused(table, 1, cards=("6d",), option="keep")
    assert refusal.rule_id is RuleId.IRREG_03 and refusal.seat == 1
    assert "The player never chooses (player chose to keep an exposed 6)" in refusal.message
    assert list(refusal.allowed) == [{"action": "exposed", "seat": 1, "option": "replace"}]
    table.act(1, "exposed", cards="6d", option="replace")
    assert table.hand.player(1).pending == 1


def test_IRREG_03_rejects_a_player_choosing_to_replace_a_kept_rank() -> None:
    """Nor may the player ask to have a kept 7 replaced."""
    table = _dealt()
    table.act(1, "exposed", cards="5c", option="keep")
    refusal = _refused(_dealt(), 1, cards=("5c",), option="replace")
    assert refusal.rule_id is RuleId.IRREG_03 and "chose to replace" in refusal.message


def test_IRREG_03_rejects_an_exposed_card_not_in_the_seats_hand() -> None:
    """Card mode: the exposed card must be one of the seat's five."""
    refusal = _refused(_dealt(), 2, cards=("6d",))
    assert refusal.rule_id is RuleId.IRREG_03
    assert refusal.message.startswith("6d is not in seat 2's hand")


def test_IRREG_03_rejects_an_unknown_card_as_the_exposed_card() -> None:
    """Card mode: "??" is no exposed card; one card, not two."""
    assert "Enter the exposed card itself" in _refused(_dealt(), 1, cards=("??",)).message
    assert "one exposed card" in _refused(_dealt(), 1, cards=("6d", "5c")).message


def test_IRREG_03_rejects_an_exposed_card_for_a_seat_not_dealt_yet() -> None:
    """The seat's deal is entered first, then its exposed card."""
    table = _cards()
    refusal = _refused(table, 2, cards=("Ah",))
    assert refusal.rule_id is RuleId.IRREG_03 and "enter its deal first" in refusal.message
    assert list(refusal.allowed) == [{"action": "deal", "count": 5}]


def test_IRREG_03_rejects_an_exposed_entry_after_the_first_betting_action() -> None:
    """Once anyone has acted the deal is over: an exposed entry is refused."""
    table = _counts()
    table.act(3, "call")
    refusal = _refused(table, 2, rank="6")
    assert refusal.rule_id is RuleId.IRREG_03 and "initial deal" in refusal.message
    assert refusal.allowed  # what seat 2 may do instead


def test_IRREG_03_rejects_an_exposed_entry_in_the_draw() -> None:
    """A card exposed in the draw is IRREG-04's (rules/floor/exposed_draw.py), not this entry."""
    table = _counts()
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    assert table.hand.phase is Phase.DRAW_1
    refusal = _refused(table, 1, rank="9")
    assert refusal.rule_id is RuleId.IRREG_04 and "IRREG-04" in refusal.message


def test_IRREG_03_rejects_a_seat_not_in_the_hand() -> None:
    """A seat without a hand cannot have a card exposed."""
    table = Table([100, 100, 0, 100], rules=LIMIT_27)
    table.start(button=4)
    assert _refused(table, 3, rank="6").rule_id is RuleId.IRREG_03


# -- count mode ------------------------------------------------------------------------------


def test_IRREG_03_accepts_a_replaced_rank_in_count_mode() -> None:
    """Count mode: the exposed 6 is the burn and the stub gives one card at once."""
    table = StoredTable([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=LIMIT_27)
    table.start(button=3)
    outcome = table.act(2, "exposed", rank="6")
    assert _codes(table) == ["replace"]
    assert outcome.instructions[0]["text"] == (
        "Seat 2's exposed 6 is replaced (this house keeps only 7, 5, 4, 3, 2): put it in the "
        "burn pile (it is the burn) and deal seat 2 one card from the stub"
    )
    hand = table.hand
    assert (hand.stub, hand.burns, hand.player(2).held) == (36, 1, 5)
    assert hand.phase is Phase.BETTING_1 and hand.to_act == 3
    assert {
        "type": "exposed",
        "seat": 2,
        "exposed": "6",
        "ruling": "replace",
    } in outcome.events_json()
    assert cards_accounted(table.hand) == 52


def test_IRREG_03_accepts_every_rank_kept_in_draw_high() -> None:
    """The default (draw high, RRoP-DH #3): any exposed card is kept; a card entered is read
    for its rank."""
    table = Table([100, 100, 100])
    table.start(button=3)
    table.act(2, "exposed", cards="Kd")
    assert _codes(table) == ["keep"] and table.hand.burns == 0


def test_IRREG_03_accepts_a_wsop_replacement_of_any_rank() -> None:
    """WSOP lowball replaces every exposed card, a deuce too."""
    table = _counts(WSOP)
    table.act(1, "exposed", rank="2")
    assert _codes(table) == ["replace"] and table.hand.burns == 1


@pytest.mark.parametrize(
    ("fields", "words"),
    [({"rank": "1"}, "no rank of this deck"), ({}, "enter the exposed card's rank")],
)
def test_IRREG_03_rejects_a_count_mode_entry_without_a_rank_of_the_deck(
    fields: dict[str, Any], words: str
) -> None:
    """Count mode needs the rank of a card of the deck."""
    assert words in _refused(_counts(), 1, **fields).message


def test_IRREG_03_rejects_a_rank_stripped_from_the_deck() -> None:
    """A 3 is no card of the 32-card deck."""
    table = Table([100, 100, 100], Variant.ACE_TO_SEVEN_STRIPPED)
    table.start(button=3)
    assert "no rank of this deck (789TJQKA)" in _refused(table, 1, rank="3").message


# -- IRREG-01: two exposed cards ---------------------------------------------------------------


def test_IRREG_01_guides_a_misdeal_on_a_second_exposed_card() -> None:
    """The second exposed card is taken, nothing moves, and the dealer calls the floor, whose
    misdeal ruling then voids the hand."""
    table = _counts()
    table.act(1, "exposed", rank="6")
    before = table.hand
    outcome = table.act(2, "exposed", rank="K")
    (notice,) = outcome.notices
    assert notice.rule_id is RuleId.IRREG_01 and notice.seat == 2
    assert "2 cards exposed by the dealer" in notice.message and "call the floor" in notice.message
    assert (table.hand.stub, table.hand.burns, table.hand.exposed) == (before.stub, 1, 2)
    outcome = table.run(Ruling(decision="misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert outcome.result is not None and outcome.result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


def test_IRREG_01_refuses_to_call_a_misdeal_on_one_exposed_card() -> None:
    """One exposed card is no misdeal: no IRREG-01 notice."""
    table = _counts()
    outcome = table.act(1, "exposed", rank="6")
    assert not [n for n in outcome.notices if n.rule_id is RuleId.IRREG_01]


# -- journal, state, view ----------------------------------------------------------------------


def test_IRREG_03_accepts_void_last_of_an_exposed_entry() -> None:
    """void_last replays the journal without the exposed entry: the hand as dealt."""
    table = _dealt()
    dealt = table.state
    table.act(1, "exposed", cards="6d")
    table.run(Ruling(decision="custom", note="misentry", effects=(VoidLast(1),)))
    assert table.state.hand == dealt.hand


def test_IRREG_03_accepts_void_last_of_a_later_action_replaying_the_exposed_entry() -> None:
    """A void after the replacement replays the exposed entry and the replacement deal."""
    table = _dealt(table_class=StoredTable)
    table.act(1, "exposed", cards="6d")
    table.act(1, "deal", cards="8h")
    expected = table.state.hand
    table.act(3, "call")
    table.run(Ruling(decision="custom", note="misentry", effects=(VoidLast(1),)))
    assert table.state.hand == expected and table.hand.exposed_burn == "6d"


def test_exposed_command_round_trips_and_old_commands_keep_their_json() -> None:
    """The rank is written only when set: every earlier action encodes as before."""
    command = Act(2, ActionKind.EXPOSED, rank="T", option="keep")
    data = command_to_dict(command)
    assert data["rank"] == "T" and command_from_dict(json.loads(json.dumps(data))) == command
    assert list(command_to_dict(Act(1, ActionKind.CALL))) == [
        "type", "seat", "action", "amount", "count", "ace_shown", "cards", "discards",
    ]  # fmt: skip
    parsed = command_from_dict({"type": "action", "seat": 1, "action": "exposed", "rank": "10"})
    assert isinstance(parsed, Act) and parsed.rank == "T"
    with pytest.raises(InvalidInput):
        command_from_dict({"type": "action", "seat": 1, "action": "exposed", "rank": 7})


def test_exposed_state_round_trips_and_a_plain_state_has_no_exposed_fields() -> None:
    """The exposed fields are written only when set, and read back."""
    table = _dealt()
    assert "exposed" not in table.state.to_dict()["hand"]
    table.act(1, "exposed", cards="6d")
    data = json.loads(json.dumps(table.state.to_dict()))
    assert (data["hand"]["exposed"], data["hand"]["exposed_burn"]) == (1, "6d")
    assert TableState.from_dict(data) == table.state


def test_the_view_offers_the_exposed_entry_only_in_the_initial_deal() -> None:
    """The view names the seats dealt in and the house's keep ranks until the first action."""
    table = _counts()
    shown = view(table.state, table.rules, AT)["exposed"]
    assert shown == {"action": "exposed", "seats": [1, 2, 3], "keep_ranks": "75432"}
    table.act(3, "fold")
    assert view(table.state, table.rules, AT)["exposed"] is None


def test_structure_does_not_change_the_keep_ranks() -> None:
    """The house option alone decides: a no-limit table with the limit profile keeps a 7."""
    table = Table(
        [100, 100, 100], Variant.DEUCE_TO_SEVEN_SINGLE_DRAW, Structure.NO_LIMIT, NO_LIMIT, LIMIT_27
    )
    table.start(button=3)
    table.act(1, "exposed", rank="7")
    assert _codes(table) == ["keep"]
