"""Kill pots (KILL-01..06): the kill blind, the multiplied limits, legs, order, obligations;
the voluntary kill of an optional-kill game."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from engine_table import AT, StoredTable, Table

from dealerassist.audit.replay import LEGACY_STATE_FORM, state_sha256
from dealerassist.errors import InvalidInput
from dealerassist.rules.engine import apply, new_table, view
from dealerassist.rules.hand.kills import next_leg
from dealerassist.rules.model.actions import (
    ChangeSeat,
    CreateTable,
    Mode,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
)
from dealerassist.rules.model.house_rules import (
    BlindRules,
    HouseRules,
    KillMode,
    KillRules,
    KillSize,
    MissedBlindsReturn,
)
from dealerassist.rules.model.ruling_commands import KillHand, Misdeal, Ruling
from dealerassist.rules.model.state import TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation

KILL = replace(HouseRules(), kill=KillRules(mode=KillMode.REQUIRED))
HALF_KILL = replace(HouseRules(), kill=KillRules(mode=KillMode.REQUIRED, size=KillSize.HALF))
OPTIONAL = replace(HouseRules(), kill=KillRules(mode=KillMode.OPTIONAL))


def _raise(table: Table, seat: int, amount: int) -> None:
    table.act(seat, "raise", amount=amount)


def one_win(rules: HouseRules = KILL) -> Table:
    """Four seats of 500 (players P1..P4); seat 1 wins hand 1 (button 4): a leg up."""
    table = Table([500, 500, 500, 500], rules=rules)
    table.start(button=4)
    table.act(3, "fold")
    table.act(4, "fold")
    _raise(table, 1, 20)
    table.act(2, "fold")
    return table


def two_wins(rules: HouseRules = KILL) -> Table:
    """Seat 1 wins hand 1 (``one_win``) and hand 2 (a pot of 25, more than a big bet), so it
    must kill hand 3 (button 2: small blind 3, big blind 4)."""
    table = one_win(rules)
    table.start()
    table.act(4, "fold")
    _raise(table, 1, 20)
    table.act(2, "fold")
    table.act(3, "fold")
    return table


def kill_pot(rules: HouseRules = KILL) -> Table:
    """Hand 3 of ``two_wins`` with every post made: seat 1 killed it, seat 2 acts first."""
    table = two_wins(rules)
    table.start()
    return table


def _refused(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, action, **fields)
    return caught.value


# -- KILL-01: the kill blind and the limits ----------------------------------------------------


def test_KILL_01_accepts_the_doubled_raise_before_the_draw() -> None:
    """In a full-kill pot the raise over the kill blind of 20 is to 40 (limits 20/40)."""
    table = kill_pot()
    assert table.hand.kill_seat == 1 and table.hand.current_bet == 20
    assert {"action": "raise", "min": 40, "max": 40} in (table.legal() or {})["legal"]
    _raise(table, 2, 40)
    assert table.hand.player(2).bet == 40


def test_KILL_01_rejects_a_raise_at_the_old_size_naming_the_kill() -> None:
    """A raise to 30 (the kill blind plus the unkilled small bet) is refused with BET-02."""
    table = kill_pot()
    refusal = _refused(table, 2, "raise", amount=30)
    assert refusal.rule_id is RuleId.BET_02
    assert "the kill is on: seat 1 killed the pot, limits are doubled to 20/40" in refusal.message
    assert "raise to 40" in refusal.message


def test_KILL_01_accepts_the_doubled_big_bet_after_the_draw() -> None:
    """After the draw of five-card draw the bet is the doubled big bet, 40; 20 is refused."""
    table = kill_pot()
    for seat in (2, 3, 4):
        table.act(seat, "fold" if seat != 2 else "call")
    table.act(1, "check")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    refusal = _refused(table, 1, "bet", amount=20)
    assert refusal.rule_id is RuleId.BET_02 and "limits are doubled" in refusal.message
    table.act(1, "bet", amount=40)
    assert table.hand.current_bet == 40


def test_KILL_01_rejects_a_kill_post_of_the_big_blind() -> None:
    """The kill seat posting 10 (a big blind) is refused: it owes the kill blind of 20."""
    table = two_wins()
    table.run(StartHand())
    table.act(3, "post")
    table.act(4, "post")
    refusal = _refused(table, 1, "post", amount=10)
    assert refusal.rule_id is RuleId.KILL_01
    assert refusal.message == "Seat 1 owes 20 (the kill blind); post exactly 20."


def test_KILL_01_accepts_a_half_kill_of_one_and_a_half_times() -> None:
    """A half kill is a kill blind of 15 and limits of 15/30 at 5/10 stakes."""
    table = kill_pot(HALF_KILL)
    assert table.hand.player(1).bet == 15
    assert {"action": "raise", "min": 30, "max": 30} in (table.legal() or {})["legal"]


def test_KILL_01_refuses_half_kill_stakes_that_do_not_divide() -> None:
    """A half-kill table with a small bet of 15 is refused at creation: 22.5 is no chip count."""
    stakes = Stakes(small_blind=5, big_blind=10, small_bet=15, big_bet=30)
    spec = TableSpec("K", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "k", 6, Mode.COUNT)
    with pytest.raises(RuleViolation) as caught:
        apply(new_table(spec), CreateTable(spec), HALF_KILL, AT)
    assert caught.value.rule_id is RuleId.KILL_01
    assert "must all be even" in caught.value.message
    even = replace(spec, stakes=replace(stakes, small_bet=10, big_bet=20))
    assert apply(new_table(even), CreateTable(even), HALF_KILL, AT).state.table_id == "K"


def test_KILL_01_refuses_a_no_limit_table_under_a_kill_profile() -> None:
    """A kill profile deals fixed limit only: a no-limit table under it is refused."""
    spec = TableSpec("K", Variant.FIVE_CARD_DRAW, Structure.NO_LIMIT, Stakes(5, 10), "k")
    with pytest.raises(RuleViolation) as caught:
        apply(new_table(spec), CreateTable(spec), KILL, AT)
    assert caught.value.rule_id is RuleId.KILL_01 and "fixed_limit" in caught.value.message


# -- KILL-02: legs and the required kill ---------------------------------------------------------


def test_KILL_02_guides_the_dealer_to_the_kill_and_the_doubled_limits() -> None:
    """Two wins in a row: the dealer is told who kills; the next posting phase asks for it."""
    table = two_wins()
    assert (table.state.kill_leg, table.state.kill_legs) == (1, 2)
    texts = [i["text"] for i in table.outcome.instructions] if table.outcome else []
    assert texts[-1] == (
        "Seat 1 won two pots in a row: it kills the next hand, posting 20; limits doubled to "
        "20/40 (turn the kill button over)"
    )
    started = table.run(StartHand())
    assert started.instructions[0]["code"] == "kill_pot"
    assert started.instructions[0]["text"].startswith(
        "Kill pot: seat 1 posts the kill blind of 20; limits are doubled to 20/40 this hand"
    )
    table.act(3, "post")
    table.act(4, "post")
    assert table.legal() == {
        "seat": 1,
        "phase": "posting",
        "legal": [{"action": "post", "amount": 20, "owes": ["kill"]}],
    }
    table.act(1, "post")
    assert table.hand.player(1).bet == 20 and table.hand.pot == 35


def test_KILL_02_refuses_a_second_leg_without_a_full_bet() -> None:
    """A walk (a pot of 10, less than the big bet of 20) keeps the leg but earns no kill."""
    table = Table([500, 500, 500, 500], rules=KILL)
    table.start(button=4)
    _raise(table, 3, 20)
    for seat in (4, 1, 2):
        table.act(seat, "fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 1)
    table.start()  # button 1: seat 3 is the big blind and everyone folds to it
    for seat in (4, 1, 2):
        table.act(seat, "fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 1)
    table.start()
    assert table.hand.kill_seat is None


def test_KILL_02_allows_another_winner_to_take_the_leg() -> None:
    """A different seat winning the next pot takes the leg (a first leg: no size needed)."""
    table = Table([500, 500, 500, 500], rules=KILL)
    table.start(button=4)
    _raise(table, 3, 20)
    for seat in (4, 1, 2):
        table.act(seat, "fold")
    table.start()
    _raise(table, 4, 20)
    for seat in (1, 2, 3):
        table.act(seat, "fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (4, 1)


def test_kills_off_change_nothing_after_two_wins() -> None:
    """With kill.mode off two wins in a row change nothing: no leg, no kill blind."""
    table = two_wins(HouseRules())
    assert (table.state.kill_leg, table.state.kill_legs) == (None, 0)
    table.start()
    assert table.hand.kill_seat is None and table.hand.player(1).bet == 0


# -- KILL-03: the kill button's status -----------------------------------------------------------


def test_KILL_03_accepts_a_split_that_keeps_the_holders_leg() -> None:
    """A leg-holder who shares the pot keeps the leg; a kill who shares it kills again."""
    assert next_leg(3, 1, {3, 5}, second_leg_ok=True) == (3, 1)
    assert next_leg(3, 2, {3, 5}, second_leg_ok=False) == (3, 2)


def test_KILL_03_refuses_the_leg_after_a_split_without_its_holder() -> None:
    """A split between two other seats leaves the kill button neutral."""
    assert next_leg(3, 1, {4, 5}, second_leg_ok=True) == (None, 0)
    assert next_leg(None, 0, {4, 5}, second_leg_ok=True) == (None, 0)


def test_KILL_03_guides_a_neutral_button_while_the_holder_is_away() -> None:
    """The button is neutral once its holder leaves the table; the leg is kept for the player,
    and the state keeps it through its JSON."""
    table = one_win()
    left = table.run(RemovePlayer(1))
    assert (table.state.kill_leg, table.state.kill_legs, table.state.kill_leg_away) == (
        None,
        0,
        "P1",
    )
    assert [i["text"] for i in left.instructions] == [
        "The kill button is neutral: P1 left with a leg up and has it back if he sits down "
        "again before the next pot is won"
    ]
    assert TableState.from_dict(json.loads(json.dumps(table.state.to_dict()))) == table.state
    assert view(table.state, KILL, AT)["kill_leg"] is None


def test_KILL_03_accepts_the_leg_back_when_its_holder_returns() -> None:
    """The player who left with a leg sits down again, in another seat, before any pot is won:
    the leg is his again; winning the next pot (a big bet in it) makes him kill the one after."""
    table = one_win()
    table.run(RemovePlayer(1))
    back = table.run(SeatPlayer(5, "P1", 500))
    assert (table.state.kill_leg, table.state.kill_legs) == (5, 1)
    assert table.state.kill_leg_away is None and "kill_leg_away" not in table.state.to_dict()
    assert [i["text"] for i in back.instructions] == [
        "Seat 5 has a leg up: put the kill button in front of seat 5"
    ]
    table.start()  # dead button on seat 1, blinds 2 and 3; seat 5 posts a big blind to come in
    table.act(4, "fold")
    _raise(table, 5, 20)
    table.act(2, "fold")
    table.act(3, "fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (5, 2)
    table.start()
    assert table.hand.kill_seat == 5


def test_KILL_03_refuses_the_leg_to_a_returning_player_after_a_pot_won_meanwhile() -> None:
    """While the holder is away another seat wins a pot and takes the leg; the player coming
    back gets nothing, and his kept leg is gone for good."""
    table = one_win()
    table.run(RemovePlayer(1))
    table.start()
    _raise(table, 4, 20)
    for seat in (2, 3):
        table.act(seat, "fold")
    assert (table.state.kill_leg, table.state.kill_legs, table.state.kill_leg_away) == (
        4,
        1,
        None,
    )
    table.run(SeatPlayer(1, "P1", 500))
    assert (table.state.kill_leg, table.state.kill_legs) == (4, 1)


def test_KILL_03_refuses_the_leg_to_another_player_in_the_holders_seat() -> None:
    """Someone else sitting down in the seat the holder left gets no leg; the holder keeps it."""
    table = one_win()
    table.run(RemovePlayer(1))
    table.run(SeatPlayer(1, "P9", 500))
    assert (table.state.kill_leg, table.state.kill_legs) == (None, 0)
    assert table.state.kill_leg_away == "P1"
    table.start()
    assert table.hand.kill_seat is None


def test_KILL_03_allows_the_leg_to_move_with_a_seat_change() -> None:
    """A leg-holder who changes seats between hands takes the leg to the new seat."""
    table = two_wins()
    table.run(ChangeSeat(1, 6))
    assert (table.state.kill_leg, table.state.kill_legs) == (6, 2)


def _legs(table: Table) -> tuple[int | None, int, str | None]:
    state = table.state
    return state.kill_leg, state.kill_legs, state.kill_leg_away


def _misdeal(table: Table, rule_id: str = "IRREG-01", decision: str = "misdeal") -> None:
    outcome = table.run(Ruling(decision, rule_id=rule_id, note="redeal", effects=(Misdeal(),)))
    assert outcome.result is not None and outcome.result["misdeal"] is True


def away_during_hand_2() -> Table:
    """Seat 1 wins hand 1 (a leg up), sits out, and hand 2 is dealt to seats 2, 3 and 4."""
    table = one_win()
    table.run(SitOut(1))
    table.start()
    assert not table.hand.has(1) and _legs(table) == (1, 1, None)
    return table


def test_KILL_03_guides_a_neutral_button_after_a_misdeal_of_the_hand_the_holder_left() -> None:
    """The leg-holder, sitting out, leaves during hand 2, which is then misdealt: his seat is
    empty after the misdeal (the seat change stands), so the leg is kept for him, the button
    neutral; it is not left on his empty seat. He has it back when he sits down again."""
    table = away_during_hand_2()
    table.run(RemovePlayer(1))
    assert _legs(table) == (None, 0, "P1")
    _misdeal(table)
    assert table.state.seat(1).player is None
    assert _legs(table) == (None, 0, "P1")
    assert table.outcome is not None
    assert [i["code"] for i in table.outcome.instructions] == ["misdeal"]  # the leg stayed put
    assert view(table.state, KILL, AT)["kill_leg"] is None
    table.start()
    assert table.hand.kill_seat is None and not table.hand.has(1)
    table.run(SeatPlayer(5, "P1", 500))
    assert _legs(table) == (5, 1, None)


def test_KILL_03_accepts_the_leg_where_its_holder_sat_down_in_a_misdealt_hand() -> None:
    """The player who left with a leg sits down in seat 5 during hand 2, which is misdealt: he
    is still seated after the misdeal, so the leg stays his there, not kept as if away."""
    table = one_win()
    table.run(RemovePlayer(1))
    table.start()
    table.run(SeatPlayer(5, "P1", 500))
    assert _legs(table) == (5, 1, None)
    _misdeal(table)
    assert table.state.seat(5).player == "P1"
    assert _legs(table) == (5, 1, None)


def test_KILL_03_refuses_the_leg_to_a_player_in_the_holders_seat_after_a_misdeal() -> None:
    """The holder leaves during hand 2 and another player takes his seat before the misdeal:
    the newcomer has no leg, the holder keeps it."""
    table = away_during_hand_2()
    table.run(RemovePlayer(1))
    table.run(SeatPlayer(1, "P9", 500))
    _misdeal(table)
    assert table.state.seat(1).player == "P9"
    assert _legs(table) == (None, 0, "P1")


def test_KILL_03_allows_the_leg_to_stay_with_a_seat_change_made_in_a_misdealt_hand() -> None:
    """The holder, sitting out, moves from seat 1 to seat 6 during hand 2, which is misdealt:
    the move stands and the leg is in seat 6, not on the empty seat 1."""
    table = away_during_hand_2()
    table.run(ChangeSeat(1, 6))
    assert _legs(table) == (6, 1, None)
    _misdeal(table)
    assert table.state.seat(1).player is None and table.state.seat(6).player == "P1"
    assert _legs(table) == (6, 1, None)


def test_KILL_03_allows_the_leg_back_to_its_holder_when_a_won_pot_is_voided() -> None:
    """Seat 4 wins hand 2 and takes the leg; the holder, sitting out, leaves during the hand.
    The floor then voids the hand for a fouled deck (DECK-01): no pot was won, so the leg is
    the holder's again, kept for him while he is away, not seat 4's."""
    table = away_during_hand_2()
    table.run(RemovePlayer(1))
    _raise(table, 4, 20)
    for seat in (2, 3):
        table.act(seat, "fold")
    assert _legs(table) == (4, 1, None)
    _misdeal(table, rule_id="DECK-01", decision="void_refund")
    assert _legs(table) == (None, 0, "P1")
    assert table.outcome is not None
    assert [i["text"] for i in table.outcome.instructions if i["code"] == "kill_button"] == [
        "The kill button is neutral: P1 left with a leg up and has it back if he sits down "
        "again before the next pot is won"
    ]


# -- KILL-04: action order -------------------------------------------------------------------------


def test_KILL_04_guides_the_action_to_start_left_of_the_kill() -> None:
    """Before the draw seat 2 (left of the kill, seat 1) acts first and the kill acts last."""
    table = kill_pot()
    order = []
    for seat_action in ("call", "call", "call"):
        order.append(table.hand.to_act)
        table.act(table.hand.to_act, seat_action)
    assert order == [2, 3, 4]
    assert table.hand.to_act == 1
    assert {"action": "check"} in (table.legal() or {})["legal"]


def test_KILL_04_rejects_the_kill_acting_first() -> None:
    """The kill may not act before the seats to its left: KILL-04 says who is to act."""
    table = kill_pot()
    refusal = _refused(table, 1, "check")
    assert refusal.rule_id is RuleId.KILL_04
    assert refusal.message.startswith("It is seat 2's turn (kill pot: the action starts left")


def test_KILL_04_guides_normal_order_after_the_draw() -> None:
    """After the draw the first seat left of the button acts first, as in any hand."""
    table = kill_pot()
    for seat in (2, 3, 4):
        table.act(seat, "call")
    table.act(1, "check")
    for seat in (3, 4, 1, 2):
        table.act(seat, "draw", count=0)
    assert table.hand.to_act == 3


# -- KILL-05: kill obligations ---------------------------------------------------------------------


def test_KILL_05_rejects_sit_out_from_the_seat_that_owes_the_kill() -> None:
    """The seat due to kill may not sit out at its post, and is told what to do instead."""
    table = two_wins()
    table.run(StartHand())
    table.act(3, "post")
    table.act(4, "post")
    refusal = _refused(table, 1, "sit_out")
    assert refusal.rule_id is RuleId.KILL_05
    assert refusal.message == (
        "Seat 1 won the last two pots and must kill this hand: it may not sit out or leave "
        "before it posts the kill; post 20."
    )
    assert refusal.allowed == [{"action": "post", "amount": 20, "owes": ["kill"]}]


def test_KILL_05_rejects_sitting_out_between_hands_when_due_to_kill() -> None:
    """Between hands the seat due to kill may not sit out either."""
    table = two_wins()
    with pytest.raises(RuleViolation) as caught:
        table.run(SitOut(1))
    assert caught.value.rule_id is RuleId.KILL_05
    assert "posts the kill (20)" in caught.value.message


def test_KILL_05_rejects_leaving_the_table_when_due_to_kill() -> None:
    """Between hands the seat due to kill may not leave the table either: it is told to post
    the kill, and what the dealer and the floor do if the player is gone."""
    table = two_wins()
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.run(RemovePlayer(1))
    assert caught.value.rule_id is RuleId.KILL_05 and caught.value.seat == 1
    assert caught.value.message == (
        "Seat 1 won two pots in a row and must kill the next hand: it posts the kill (20) and "
        "plays that hand before it may leave the table; if the player is gone, post the kill "
        "from his chips, the floor kills his hand once dealt, and he leaves after that hand."
    )
    assert caught.value.allowed == [{"action": "start_hand"}]
    assert table.state == before


def test_KILL_05_accepts_leaving_after_the_kill_pot_the_floor_killed() -> None:
    """The player due to kill is gone: the kill is posted from his chips, the floor kills his
    hand once dealt, and after the hand his seat may leave; the winner takes the leg. During
    the kill pot the seat is in the hand (GAME-01), not refused for the kill."""
    table = kill_pot()
    with pytest.raises(RuleViolation) as caught:
        table.run(RemovePlayer(1))
    assert caught.value.rule_id is RuleId.GAME_01
    table.run(Ruling("kill_absent", rule_id="DEAL-02", effects=(KillHand(1),)))
    assert table.hand.player(1).folded and table.hand.player(1).committed == 20
    _raise(table, 2, 40)
    table.act(3, "fold")
    table.act(4, "fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (2, 1)
    table.run(RemovePlayer(1))
    assert table.state.seat(1).player is None and table.state.kill_leg_away is None


def test_KILL_05_allows_other_seats_to_leave_before_the_kill_pot() -> None:
    """A seat that owes no kill may leave before the kill pot; the kill still plays."""
    table = two_wins()
    table.run(RemovePlayer(2))
    table.start()
    assert table.hand.kill_seat == 1 and not table.hand.has(2)


def test_KILL_05_allows_other_seats_to_sit_out() -> None:
    """A seat that owes no kill may still sit out of a kill pot."""
    table = two_wins()
    table.run(SitOut(2))
    table.start()
    assert table.hand.kill_seat == 1 and not table.hand.has(2)


# -- KILL-06: one kill, no straddle ----------------------------------------------------------------


STRADDLES = replace(KILL, blinds=BlindRules(straddle_allowed=True))


def test_KILL_06_accepts_a_kill_pot_without_a_straddle_offer() -> None:
    """Where straddles are allowed, a kill pot offers none: the seat after the big blind
    posts nothing and the hand is dealt."""
    table = two_wins(STRADDLES)
    table.run(StartHand())
    table.act(3, "post")
    table.act(4, "post")
    assert table.hand.to_act == 1
    table.act(1, "post")
    assert table.hand.phase.value == "betting_1" and table.hand.straddle_seat is None


def test_KILL_06_refuses_a_straddle_in_a_kill_pot() -> None:
    """A straddle entered in a kill pot is refused with KILL-06."""
    table = two_wins(STRADDLES)
    table.run(StartHand())
    table.act(3, "post")
    table.act(4, "post")
    refusal = _refused(table, 1, "post", option="straddle")
    assert refusal.rule_id is RuleId.KILL_06
    assert refusal.message.startswith("No straddle in a kill pot (seat 1 kills this hand)")


# -- KILL-01 optional: the voluntary kill ----------------------------------------------------------


def newcomer(rules: HouseRules = OPTIONAL, stack: int = 300, table_class: type = Table) -> Table:
    """Seats 1, 2 and 4 play hand 1 (button 1, blinds 2 and 4; everyone folds to the big
    blind); then a newcomer sits in seat 3. In hand 2 (button 2, small blind 4, big blind 1)
    seat 3 is between the button and the small blind, where a newcomer waits (BLIND-06)."""
    table: Table = table_class([500, 500, 0, 500], rules=rules)
    table.start(button=1)
    table.act(1, "fold")
    table.act(2, "fold")
    table.run(SeatPlayer(3, "New", stack))
    return table


def _refused_start(table: Table, **fields: int) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.run(StartHand(**fields))
    return caught.value


def test_KILL_01_accepts_a_newcomer_killing_to_be_dealt_in_at_once() -> None:
    """The newcomer who would wait (BLIND-06) kills: it is dealt in, owes the kill blind of
    20, the dealer is told, the hand_started event records the kill, the limits double."""
    assert newcomer().run(StartHand()).state.hand.waiting == ((3, "BLIND-06"),)
    table = newcomer()
    started = table.run(StartHand(kill_seat=3))
    assert table.hand.kill_seat == 3 and table.hand.waiting == ()
    assert table.hand.player(3).owes_what == ("kill",) and table.hand.player(3).owes == 20
    (record,) = [e for e in started.events_json() if e["type"] == "hand_started"]
    assert record["kill"] == {"seat": 3, "blind": 20, "small_bet": 20, "big_bet": 40}
    assert started.instructions[0]["text"] == (
        "Kill pot: seat 3 kills voluntarily and posts the kill blind of 20; limits are doubled "
        "to 20/40 this hand; before the draw the action starts to seat 3's left and seat 3 "
        "acts last"
    )
    table.act(4, "post")
    table.act(1, "post")
    assert table.legal() == {
        "seat": 3,
        "phase": "posting",
        "legal": [{"action": "post", "amount": 20, "owes": ["kill"]}],
    }
    table.act(3, "post")
    assert table.hand.to_act == 4 and table.hand.current_bet == 20
    assert {"action": "raise", "min": 40, "max": 40} in (table.legal() or {})["legal"]
    assert not table.state.seat(3).new_player


def test_KILL_01_rejects_a_volunteer_kill_where_kills_are_off() -> None:
    """A profile without kill pots refuses kill_seat and says to start without it."""
    refusal = _refused_start(newcomer(HouseRules()), kill_seat=3)
    assert refusal.rule_id is RuleId.KILL_01 and refusal.seat == 3
    assert refusal.message == (
        "Profile default plays no kill pots: seat 3 may not kill; start the hand without kill_seat."
    )
    assert refusal.allowed == [{"action": "start_hand"}]


def test_KILL_01_rejects_a_volunteer_kill_in_a_required_kill_game() -> None:
    """Where kills are required a kill is owed after two wins, never chosen."""
    refusal = _refused_start(newcomer(KILL), kill_seat=3)
    assert refusal.rule_id is RuleId.KILL_01
    assert "plays required kills only" in refusal.message


def test_KILL_01_rejects_a_volunteer_kill_from_a_seat_not_dealt_in() -> None:
    """An empty seat or a seat sitting out may not kill; a seat beyond the table is bad input."""
    empty = _refused_start(newcomer(), kill_seat=5)
    assert empty.rule_id is RuleId.KILL_01
    assert empty.message.startswith("Seat 5 is not dealt in this hand (the seat is empty)")
    table = newcomer()
    table.run(SitOut(2))
    away = _refused_start(table, kill_seat=2)
    assert away.rule_id is RuleId.KILL_01 and "(it is sitting out)" in away.message
    with pytest.raises(InvalidInput):
        table.run(StartHand(kill_seat=9))


def test_KILL_01_rejects_a_volunteer_kill_short_of_the_kill_blind() -> None:
    """A seat with 15 in chips cannot kill for 20: a voluntary kill is posted in full."""
    refusal = _refused_start(newcomer(stack=15), kill_seat=3)
    assert refusal.rule_id is RuleId.KILL_01
    assert refusal.message == (
        "Seat 3 has 15 in chips, less than the 20 it would post to kill: a voluntary kill is "
        "posted in full; start the hand without kill_seat, or add chips first."
    )


def test_KILL_01_accepts_a_volunteer_in_the_big_blind_posting_the_kill_instead() -> None:
    """The big blind that kills posts the kill of 20 in place of its blind (not 30)."""
    table = newcomer()
    table.run(StartHand(kill_seat=1))
    assert table.hand.big_blind_seat == 1
    assert (table.hand.player(1).owes_what, table.hand.player(1).owes) == (("kill",), 20)
    assert table.hand.waiting == ((3, "BLIND-06"),)


def returning(rules: HouseRules) -> Table:
    """Seat 3 sits out after hand 1, misses the big blind of hand 2, then comes back to wait."""
    table = Table([500, 500, 500, 500], rules=rules)
    table.start(button=4)  # blinds 1 and 2
    for seat in (3, 4, 1):
        table.act(seat, "fold")
    table.run(SitOut(3))
    table.start()  # the big blind passes seat 3, sitting out, to seat 4
    table.act(1, "fold")
    table.act(2, "fold")
    table.run(ReturnToPlay(3, wait=True))
    return table


def test_KILL_01_accepts_a_returning_seat_killing_with_its_dead_small_blind() -> None:
    """A seat that missed the big blind and must wait for it may kill to come back at once;
    the kill replaces the live big blind and the dead small blind is still owed: 20 + 5."""
    blinds = BlindRules(missed_blinds_return=MissedBlindsReturn.WAIT_FOR_BIG_BLIND)
    rules = replace(OPTIONAL, blinds=blinds)
    assert returning(rules).run(StartHand()).state.hand.waiting == ((3, "BLIND-08"),)
    table = returning(rules)
    table.run(StartHand(kill_seat=3))
    player = table.hand.player(3)
    assert table.hand.kill_seat == 3 and table.hand.waiting == ()
    assert (player.owes_what, player.owes) == (("kill", "dead_small_blind"), 25)


def test_KILL_01_accepts_a_half_volunteer_kill() -> None:
    """An optional half kill is 1.5x: a kill blind of 15 and limits of 15/30."""
    half = replace(HouseRules(), kill=KillRules(mode=KillMode.OPTIONAL, size=KillSize.HALF))
    table = newcomer(half)
    table.run(StartHand(kill_seat=3))
    assert table.hand.player(3).owes == 15


def test_KILL_01_accepts_a_volunteer_kill_through_stored_state() -> None:
    """A voluntary kill pot read back from storage before every entry answers the same."""
    table = newcomer(table_class=StoredTable)
    table.start(kill_seat=3)
    assert table.hand.kill_seat == 3 and table.hand.pot == 35


def test_KILL_02_guides_no_legs_in_an_optional_kill_game() -> None:
    """Two wins in a row make nobody due to kill where kills are optional: no leg is kept."""
    table = two_wins(OPTIONAL)
    assert (table.state.kill_leg, table.state.kill_legs) == (None, 0)
    assert view(table.state, OPTIONAL, AT)["kill_leg"] is None
    table.start()
    assert table.hand.kill_seat is None and table.hand.player(1).bet == 0
    assert table.state.kill_leg is None


def newcomer_kill_pot() -> Table:
    """Hand 2 of ``newcomer`` with seat 3 killing it and every post made."""
    table = newcomer()
    table.start(kill_seat=3)
    return table


def test_KILL_04_guides_the_action_left_of_a_volunteer_kill() -> None:
    """Before the draw the seat left of the voluntary kill acts first and the kill last."""
    table = newcomer_kill_pot()
    order = []
    for _ in range(3):
        order.append(table.hand.to_act)
        table.act(table.hand.to_act, "call")
    assert order == [4, 1, 2] and table.hand.to_act == 3
    assert {"action": "check"} in (table.legal() or {})["legal"]


def test_KILL_04_rejects_the_big_blind_acting_before_the_seat_left_of_a_volunteer_kill() -> None:
    """In a voluntary kill pot the big blind (seat 1) waits for seat 4, left of the kill."""
    refusal = _refused(newcomer_kill_pot(), 1, "call")
    assert refusal.rule_id is RuleId.KILL_04
    assert refusal.message.startswith("It is seat 4's turn (kill pot: the action starts left")


def test_KILL_05_rejects_a_volunteer_sitting_out_before_the_kill_post() -> None:
    """The seat that chose to kill posts it: it may not sit out once the kill is announced."""
    table = newcomer()
    table.run(StartHand(kill_seat=3))
    table.act(4, "post")
    table.act(1, "post")
    refusal = _refused(table, 3, "sit_out")
    assert refusal.rule_id is RuleId.KILL_05
    assert refusal.message == (
        "Seat 3 chose to kill this hand: it may not sit out or leave before it posts the "
        "kill; post 20."
    )


def test_KILL_06_rejects_a_volunteer_beside_the_required_kill() -> None:
    """One kill per deal: while seat 1 owes the kill, seat 2 may not kill too."""
    refusal = _refused_start(two_wins(), kill_seat=2)
    assert refusal.rule_id is RuleId.KILL_06
    assert refusal.message == (
        "One kill per deal: seat 1 won the last two pots and kills this hand, so seat 2 may "
        "not kill it too; start the hand without kill_seat."
    )


def test_KILL_06_accepts_a_volunteer_kill_pot_without_a_straddle_offer() -> None:
    """Where straddles are allowed, a voluntary kill pot offers none. (Four players, so the
    seat left of the big blind is not the button: BLIND-14 offers a limit button none.)"""
    rules = replace(OPTIONAL, blinds=BlindRules(straddle_allowed=True))
    offers = []
    for kill_seat in (None, 3):
        table = newcomer(rules)
        table.run(SeatPlayer(5, "Five", 500))
        table.run(StartHand(kill_seat=kill_seat))
        offers.append([p.seat for p in table.hand.players if "straddle_offer" in p.owes_what])
    assert offers[0] and offers[1] == []


# -- state compatibility ---------------------------------------------------------------------------

# SHA-256 of the canonical JSON of the states of test_state's triple-draw hand (seated; dealt;
# after a draw), computed with the code before kill pots existed (commit 746adc9, whose journal
# snapshot already sorts its keys): a table that never uses kills encodes byte for byte as
# before, so recorded state_sha256 values still verify.
BEFORE_KILLS = (
    "2cdba13ab66b43fd31c58bdeff54750785cb9ea012b717d9631792bd1633303e",
    "266042a770726bf944a00f27d50395060d12eff0348fe0a6e758bbb28ed55bd0",
    "781bab247f2442459652d96f8b4d0e120c4af8cd10bff74ce92d8765868b3f6b",
)


def test_a_state_without_kills_encodes_byte_for_byte_as_before() -> None:
    """The kill fields are left out at their defaults: the same bytes as before they existed."""
    table = Table([100, 100, 100], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, mode=Mode.CARD)
    states = [table.state]
    table.start(button=3)
    for seat, cards in ((1, "2c 3c 4c 5c 7d"), (2, "Ah Ad Ac Kd Ks"), (3, "9h 9d 9c 9s Qd")):
        table.act(seat, "deal", cards=cards)
    states.append(table.state)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    table.act(1, "draw", discards="7d", cards="8h")
    states.append(table.state)
    # the form those states were recorded in (form 1: instructions without message IDs)
    digests = tuple(state_sha256(s, LEGACY_STATE_FORM) for s in states)
    assert digests == BEFORE_KILLS
    assert all("kill_leg" not in s.to_dict() for s in states)


def test_a_kill_state_round_trips_with_its_kill_fields() -> None:
    """A kill pot's state writes kill_leg, kill_legs and kill_seat and reads them back."""
    table = kill_pot()
    data = json.loads(json.dumps(table.state.to_dict()))
    assert (data["kill_leg"], data["kill_legs"], data["hand"]["kill_seat"]) == (1, 2, 1)
    assert TableState.from_dict(data) == table.state
    shown = view(table.state, KILL, AT)
    assert shown["kill_leg"] == {"seat": 1, "legs": 2, "kills_next": True}
    assert shown["hand"]["kill_seat"] == 1
