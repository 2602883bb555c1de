"""The posting phase: options, the live straddle, the full-blind call (BLIND-04, BLIND-14)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_table import LIMIT, NO_LIMIT, Table

from dealerassist.rules.model.actions import ReturnToPlay, SeatPlayer, SitOut, Structure, Variant
from dealerassist.rules.model.house_rules import (
    BlindRules,
    ButtonMethod,
    HouseRules,
    KillMode,
    KillRules,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation

STRADDLE = HouseRules(blinds=BlindRules(straddle_allowed=True))


def test_BLIND_04_accepts_a_call_of_the_full_blind_after_a_short_big_blind() -> None:
    """The big blind is all in for 6; the next player calls the full 10."""
    table = Table([100, 100, 6])
    table.start(button=1)
    table.act(1, "call", amount=10)
    assert table.hand.player(1).bet == 10


def test_BLIND_04_rejects_a_call_of_only_the_short_blind() -> None:
    """Calling just the 6 chips of a short all-in big blind is refused."""
    table = Table([100, 100, 6])
    table.start(button=1)
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(1, "call", amount=6)
    assert error.value.rule_id is RuleId.BLIND_04
    assert error.value.allowed[0] == {"action": "call", "amount": 10}
    assert table.state is before


def test_BLIND_14_accepts_a_live_straddle_that_acts_last_with_the_option() -> None:
    """The seat left of the big blind straddles 20; action starts to its left and comes back."""
    table = Table([100] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 4
    assert {"action": "post", "option": "straddle", "amount": 20} in legal["legal"]
    table.act(4, "post", option="straddle")
    assert table.hand.straddle_seat == 4 and table.hand.player(4).bet == 20
    assert table.hand.to_act == 1
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "call")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 4
    assert [a["action"] for a in legal["legal"]] == ["check", "raise", "fold"]


def test_BLIND_14_accepts_declining_the_straddle() -> None:
    """Declining leaves the normal order: first to act is left of the big blind."""
    table = Table([100] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "post", option="no_straddle")
    assert table.hand.phase.value == "betting_1" and table.hand.to_act == 4
    assert table.hand.straddle_seat is None


def test_BLIND_14_rejects_a_straddle_where_the_house_does_not_allow_it() -> None:
    """Without straddle_allowed no seat is offered a straddle."""
    table = Table([100] * 4)
    table.start(button=1, post=False)
    table.act(2, "post")
    with pytest.raises(RuleViolation) as error:
        table.act(3, "post", option="straddle")
    assert error.value.rule_id is RuleId.BLIND_14


def test_BLIND_14_rejects_a_straddle_from_another_seat() -> None:
    """Only the seat left of the big blind may straddle; the small blind may not."""
    table = Table([100] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post", option="straddle")
    assert error.value.rule_id is RuleId.BLIND_14


def test_wait_is_refused_for_an_ordinary_blind() -> None:
    """BLIND-01: the small blind owes its blind; it may not choose to wait."""
    table = Table([100] * 3)
    table.start(button=1, post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post", option="wait")
    assert error.value.rule_id is RuleId.BLIND_01


def test_BLIND_14_accepts_a_straddle_counting_as_a_raise_toward_the_cap() -> None:
    """Fixed limit, bet + 3 raises: blind 10, straddle 20, then only 30 and 40 are left."""
    table = Table([200] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "post", option="straddle")
    table.act(1, "raise", amount=30)
    table.act(2, "raise", amount=40)
    legal = table.legal()
    assert legal is not None and legal["seat"] == 3
    assert [a["action"] for a in legal["legal"]] == ["call", "fold"]


def test_BLIND_14_guides_the_dealer_to_offer_the_straddle() -> None:
    """The start-of-hand instructions name the seat that may straddle and the amount."""
    table = Table([100] * 4, rules=STRADDLE)
    outcome = table.start(button=1, post=False)
    offers = [i for i in outcome.instructions if i["code"] == "straddle"]
    assert [(i["seat"], i["count"]) for i in offers] == [(4, 20)]


# -- BLIND-02: a sit-out at the post that leaves two players ------------------------------------


def refused(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    """The violation an entry raises; the table is left as it was."""
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(seat, action, **fields)
    assert table.state is before
    return error.value


def folded_out(table: Table) -> None:
    """Everyone folds in turn until the hand is over."""
    while table.state.hand is not None and table.hand.phase.value != "complete":
        table.act(table.hand.to_act or 0, "fold")


def second_hand_three_handed(
    rules: HouseRules | None = None,
    structure: Structure = Structure.FIXED_LIMIT,
    kill_seat: int | None = None,
) -> Table:
    """Hand 1 button 1 (blinds 2 and 3), folded out; hand 2 started, nothing posted yet: button
    2, small blind 3, big blind 1."""
    if structure is Structure.NO_LIMIT:
        game = Variant.DEUCE_TO_SEVEN_SINGLE_DRAW
        table = Table([100] * 3, game, structure, NO_LIMIT, rules)
    else:
        table = Table([100] * 3, rules=rules)
    table.start(button=1)
    folded_out(table)
    table.start(post=False, kill_seat=kill_seat)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 1)
    return table


@pytest.mark.parametrize("method", list(ButtonMethod))
def test_BLIND_02_accepts_the_button_posting_the_small_blind_when_the_small_blind_sits_out(
    method: ButtonMethod,
) -> None:
    """Seat 3 sits out instead of posting its small blind: seats 1 and 2 play heads-up, the
    button (seat 2) posts the small blind first and acts first before the draw. Seat 3 is marked
    for the small blind it skipped; the stored blind positions stay where the hand put them."""
    table = second_hand_three_handed(rules=HouseRules(blinds=BlindRules(method)))
    table.act(3, "sit_out")
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 2, 1)
    assert hand.player(2).owes_what == ("small_blind",) and hand.player(2).owes == 5
    legal = table.legal()
    assert legal is not None and legal["seat"] == 2
    assert legal["legal"] == [
        {"action": "post", "amount": 5, "owes": ["small_blind"]},
        {"action": "sit_out"},
    ]
    table.act(2, "post", amount=5)
    table.act(1, "post", amount=10)
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 2
    assert (hand.player(2).bet, hand.player(1).bet) == (5, 10)
    state = table.state
    assert (state.small_blind_position, state.big_blind_position) == (3, 1)
    assert state.seat(3).missed_blind == "small"


def test_BLIND_02_rejects_the_big_blind_posting_before_the_heads_up_small_blind() -> None:
    """After the small blind sits out, the big blind (seat 1) may not post first, and the button
    may not post a big blind: it owes the small blind of 5."""
    table = second_hand_three_handed()
    table.act(3, "sit_out")
    early = refused(table, 1, "post")
    assert early.rule_id is RuleId.BLIND_01 and "Seat 2 posts first" in early.message
    assert early.allowed[0] == {"action": "post", "amount": 5, "owes": ["small_blind"]}
    wrong = refused(table, 2, "post", amount=10)
    assert wrong.rule_id is RuleId.BLIND_01 and "post exactly 5" in wrong.message


def test_BLIND_02_accepts_the_small_blind_after_the_big_blind_has_posted() -> None:
    """Four-handed with antes, hand 2 (button 2, blinds 3 and 4): seat 3 sits out (the small
    blind is dead, three play on), seat 4 posts the big blind and its ante, then seat 1 sits out
    instead of posting its ante. Heads-up, the button posts the small blind and its ante after
    the big blind, and acts first before the draw."""
    table = Table([100] * 4, stakes=replace(LIMIT, ante=1))
    table.start(button=1)
    folded_out(table)
    table.start(post=False)
    assert (table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat) == (2, 3, 4)
    table.act(3, "sit_out")
    assert table.hand.small_blind_seat is None and table.hand.to_act == 4
    table.act(4, "post")
    table.act(1, "sit_out")
    hand = table.hand
    assert (hand.small_blind_seat, hand.to_act) == (2, 2)
    assert hand.player(2).owes_what == ("small_blind", "ante") and hand.player(2).owes == 6
    table.act(2, "post", amount=6)
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 2
    assert (hand.player(2).bet, hand.player(4).bet) == (5, 10)


def test_BLIND_02_accepts_the_button_small_blind_live_in_place_of_its_dead_small_blind() -> None:
    """Three-handed, seat 3 sits out hand 2 (its small blind, played heads-up) and comes back
    for hand 3 on the button owing the small blind dead (BLIND-09); when the small blind (seat
    1) sits out, seat 3 posts the heads-up small blind, live, and owes nothing more: the live
    small blind makes up the one it missed."""
    table = Table([100, 100, 100])
    table.start(button=1)
    folded_out(table)
    table.run(SitOut(3))
    table.start()
    folded_out(table)
    assert table.state.seat(3).missed_blind == "small"
    table.run(ReturnToPlay(3, wait=False))
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 1, 2)
    assert hand.player(3).owes_what == ("dead_small_blind",)
    table.act(1, "sit_out")
    hand = table.hand
    assert (hand.small_blind_seat, hand.to_act) == (3, 3)
    assert hand.player(3).owes_what == ("small_blind",) and hand.player(3).owes == 5
    table.act(3, "post")
    table.act(2, "post")
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 3
    assert (hand.player(3).bet, hand.player(3).dead, hand.player(2).bet) == (5, 0, 10)
    assert table.state.seat(3).missed_blind is None


def test_BLIND_02_refuses_a_straddle_from_the_heads_up_button() -> None:
    """No limit, straddles allowed: three-handed the button (seat 2) is offered the straddle;
    once the small blind sits out it is the heads-up small blind and may not straddle
    (BLIND-14 needs three players)."""
    table = second_hand_three_handed(rules=STRADDLE, structure=Structure.NO_LIMIT)
    assert "straddle_offer" in table.hand.player(2).owes_what
    table.act(3, "sit_out")
    assert table.hand.player(2).owes_what == ("small_blind",)
    error = refused(table, 2, "post", option="straddle")
    assert error.rule_id is RuleId.BLIND_14
    assert error.allowed[0] == {"action": "post", "amount": 5, "owes": ["small_blind"]}
    table.act(2, "post")
    table.act(1, "post")
    assert table.hand.straddle_seat is None and table.hand.to_act == 2


def test_BLIND_02_accepts_the_kill_of_the_button_standing_for_its_small_blind() -> None:
    """Optional kill: the button (seat 2) kills hand 2; when the small blind sits out the kill
    stands for the button's small blind (KILL-01): it owes the kill blind alone and posts first,
    and the kill acts last before the draw (KILL-04)."""
    rules = replace(HouseRules(), kill=KillRules(mode=KillMode.OPTIONAL))
    table = second_hand_three_handed(rules=rules, kill_seat=2)
    assert table.hand.kill_seat == 2 and table.hand.player(2).owes_what == ("kill",)
    table.act(3, "sit_out")
    hand = table.hand
    assert (hand.small_blind_seat, hand.to_act) == (2, 2)
    assert hand.player(2).owes_what == ("kill",) and hand.player(2).owes == 20
    table.act(2, "post")
    table.act(1, "post")
    assert table.hand.phase.value == "betting_1" and table.hand.to_act == 1


def big_blind_moved_onto_the_button_and_drawn() -> Table:
    """Hand 2 (button 2, blinds 3 and 1): seat 3 posts its small blind, seat 1 sits out and the
    big blind moves onto the button (BLIND-07); seat 3 calls, seat 2 checks, both draw one."""
    table = second_hand_three_handed()
    table.act(3, "post")
    table.act(1, "sit_out")
    table.act(2, "post")
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 2)
    assert hand.phase.value == "betting_1" and hand.to_act == 3
    table.act(3, "call")
    table.act(2, "check")
    assert table.hand.phase.value == "draw_1"
    while table.hand.phase.value == "draw_1":
        table.act(table.hand.to_act or 0, "draw", count=1)
    return table


def test_BLIND_02_accepts_the_small_blind_off_the_button_acting_last_after_the_draw() -> None:
    """Heads-up with the big blind on the button, the small blind (seat 3) acts first before
    the draw and last after it: seat 2 checks first, then seat 3 checks; checked down, seat 2
    (first to act in the last round) shows first (SHOW-01). The stored positions are the
    hand's."""
    table = big_blind_moved_onto_the_button_and_drawn()
    hand = table.hand
    assert hand.phase.value == "betting_2" and hand.to_act == 2
    table.act(2, "check")
    assert table.hand.phase.value == "betting_2" and table.hand.to_act == 3
    table.act(3, "check")
    assert table.hand.phase.value == "showdown" and table.hand.to_act == 2
    state = table.state
    assert (state.button, state.small_blind_position, state.big_blind_position) == (2, 3, 2)


def test_BLIND_02_rejects_the_small_blind_off_the_button_acting_first_after_the_draw() -> None:
    """After the draw seat 3 (the small blind) may not check or bet before seat 2, the big
    blind on the button: the refusal names BLIND-02 and seat 2's choices."""
    table = big_blind_moved_onto_the_button_and_drawn()
    for action, fields in (("check", {}), ("bet", {"amount": 20})):
        error = refused(table, 3, action, **fields)
        assert error.rule_id is RuleId.BLIND_02 and "seat 3, acts last" in error.message
        assert {"seat": 2, "action": "check"} in error.allowed
        assert {error_seat["seat"] for error_seat in error.allowed} == {2}


# -- KILL-01 / BLIND-07: the big blind moves onto the seat that kills ---------------------------

OPTIONAL_KILL = replace(HouseRules(), kill=KillRules(mode=KillMode.OPTIONAL))


def moved_onto_the_kill() -> Table:
    """Optional kill: the button (seat 2) kills hand 2; the small blind (seat 3) posts, then the
    big blind (seat 1) sits out and the big blind moves on to the next seat that has not
    posted: the kill seat."""
    table = second_hand_three_handed(rules=OPTIONAL_KILL, kill_seat=2)
    table.act(3, "post")
    table.act(1, "sit_out")
    assert (table.hand.big_blind_seat, table.hand.to_act) == (2, 2)
    return table


def test_KILL_01_accepts_the_kill_standing_for_a_big_blind_moved_onto_it() -> None:
    """The kill seat takes the big blind but owes the kill blind alone (20, not 20 + 10): the
    blind is part of the kill. It posts 20 live, the kill is the bet to call (seat 3 owes 15)
    and the kill acts last before the draw (KILL-04); seat 1 is marked for the big blind and
    the stored big blind is the kill seat."""
    table = moved_onto_the_kill()
    hand = table.hand
    assert hand.kill_seat == 2
    assert hand.player(2).owes_what == ("kill",) and hand.player(2).owes == 20
    legal = table.legal()
    assert legal is not None and legal["legal"] == [
        {"action": "post", "amount": 20, "owes": ["kill"]}
    ]
    stack = hand.player(2).stack
    outcome = table.act(2, "post", amount=20)
    assert {"type": "posted", "seat": 2, "amount": 20} in outcome.events
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 3
    assert (hand.player(2).bet, hand.player(2).dead, hand.player(2).stack) == (20, 0, stack - 20)
    assert hand.current_bet == 20
    legal = table.legal()
    assert legal is not None and {"action": "call", "amount": 15} in legal["legal"]
    assert table.state.big_blind_position == 2
    assert table.state.seat(1).missed_blind == "big"


def test_KILL_01_refuses_the_big_blind_on_top_of_the_kill_or_in_its_place() -> None:
    """Posting 30 (the kill and the moved big blind) is refused, and so is posting the big
    blind of 10 alone: the kill seat posts exactly the kill blind of 20, and may not sit out
    (KILL-05)."""
    table = moved_onto_the_kill()
    for amount in (30, 10):
        error = refused(table, 2, "post", amount=amount)
        assert error.rule_id is RuleId.KILL_01 and "post exactly 20" in error.message
        assert error.allowed == [{"action": "post", "amount": 20, "owes": ["kill"]}]
    assert refused(table, 2, "sit_out").rule_id is RuleId.KILL_05


# -- BLIND-05/07/08: the big blind moves onto a seat that owes a live big blind to come in -------


def moved_onto_a_newcomer() -> Table:
    """Seats 1-4 play an orbit, then a newcomer takes seat 6 (hand 6: button 2, blinds 3 and 4,
    seat 6 owes a big blind to enter, BLIND-05). The small blind posts, the big blind (seat 4)
    sits out and the big blind moves on to the next seat that has not posted: the newcomer."""
    table = Table([100] * 4)
    table.start(button=1)
    folded_out(table)
    for _ in range(4):  # an orbit: the game is no longer new (BLIND-11 c)
        table.start()
        folded_out(table)
    table.run(SeatPlayer(6, "New", 100))
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    assert hand.player(6).owes_what == ("entering_big_blind",)
    table.act(3, "post")
    table.act(4, "sit_out")
    assert (table.hand.big_blind_seat, table.hand.to_act) == (6, 6)
    return table


def moved_onto_a_returning_seat() -> Table:
    """Five players; seat 5 sits out while the big blind passes it (marked "big") and comes back
    posting for hand 6 (button 2, blinds 3 and 4), owing its big blind live and the small blind
    dead (BLIND-08). The small blind posts, the big blind (seat 4) sits out and the big blind
    moves on to seat 5."""
    table = Table([100] * 5)
    table.start(button=1)
    folded_out(table)
    table.run(SitOut(5))
    for _ in range(4):
        table.start()
        folded_out(table)
    assert table.state.seat(5).missed_blind == "big"
    table.run(ReturnToPlay(5, wait=False))
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    assert hand.player(5).owes_what == ("returning_big_blind", "dead_small_blind")
    table.act(3, "post")
    table.act(4, "sit_out")
    assert (table.hand.big_blind_seat, table.hand.to_act) == (5, 5)
    return table


def test_BLIND_05_accepts_the_entry_big_blind_standing_for_a_big_blind_moved_onto_it() -> None:
    """The newcomer takes the big blind and owes one big blind (10, not 10 + 10): his live big
    blind is his entry. He posts 10 live and is the hand's big blind: the first to act is on
    his left and he keeps the option; seat 4 is marked for the big blind it skipped."""
    table = moved_onto_a_newcomer()
    hand = table.hand
    assert hand.player(6).owes == 10 and hand.player(6).owes_what == ("entering_big_blind",)
    legal = table.legal()
    assert legal is not None and legal["legal"] == [
        {"action": "post", "amount": 10, "owes": ["entering_big_blind"]},
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]
    stack = hand.player(6).stack
    outcome = table.act(6, "post", amount=10)
    assert {"type": "posted", "seat": 6, "amount": 10} in outcome.events
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 1
    assert (hand.player(6).bet, hand.player(6).dead, hand.player(6).stack) == (10, 0, stack - 10)
    assert hand.current_bet == 10
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "call")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 6
    assert [a["action"] for a in legal["legal"]] == ["check", "raise", "fold"]
    state = table.state
    assert state.big_blind_position == 6 and state.seat(4).missed_blind == "big"
    assert not state.seat(6).new_player


def test_BLIND_05_refuses_the_moved_big_blind_on_top_of_the_entry() -> None:
    """Posting 20 (the moved big blind and the entry big blind) is refused: the newcomer posts
    exactly 10, and the refusal names what he may do."""
    table = moved_onto_a_newcomer()
    error = refused(table, 6, "post", amount=20)
    assert error.rule_id is RuleId.BLIND_05 and "post exactly 10" in error.message
    assert error.allowed == [
        {"action": "post", "amount": 10, "owes": ["entering_big_blind"]},
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]


def test_BLIND_08_accepts_the_returning_big_blind_standing_for_a_big_blind_moved_onto_it() -> None:
    """The returning seat takes the big blind and owes one big blind live and the small blind
    it missed, dead (15, not 25). It posts 10 live and 5 dead, is the hand's big blind and its
    marker clears."""
    table = moved_onto_a_returning_seat()
    hand = table.hand
    assert hand.player(5).owes == 15
    assert hand.player(5).owes_what == ("returning_big_blind", "dead_small_blind")
    table.act(5, "post", amount=15)
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 1
    assert (hand.player(5).bet, hand.player(5).dead) == (10, 5)
    assert hand.current_bet == 10
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "call")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 5
    assert [a["action"] for a in legal["legal"]] == ["check", "raise", "fold"]
    state = table.state
    assert state.big_blind_position == 5 and state.seat(5).missed_blind is None
    assert state.seat(4).missed_blind == "big"


def test_BLIND_08_refuses_the_moved_big_blind_on_top_of_the_returning_big_blind() -> None:
    """Posting 25 (the moved big blind, the missed big blind and the dead small blind) is
    refused: the seat posts exactly 15, 10 live and 5 dead."""
    table = moved_onto_a_returning_seat()
    error = refused(table, 5, "post", amount=25)
    assert error.rule_id is RuleId.BLIND_08 and "post exactly 15" in error.message
    assert "10 live, 5 dead" in error.message
    assert error.allowed == [
        {"action": "post", "amount": 15, "owes": ["returning_big_blind", "dead_small_blind"]},
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]


def test_BLIND_07_accepts_the_big_blind_moving_on_when_the_newcomer_waits() -> None:
    """The newcomer who took the moved big blind may still wait for the big blind (BLIND-05):
    he is not dealt in and the big blind moves on to the next seat that has not posted (seat
    1), which owes one big blind."""
    table = moved_onto_a_newcomer()
    table.act(6, "post", option="wait")
    hand = table.hand
    assert not hand.has(6) and table.state.seat(6).waiting == "BLIND-05"
    assert (hand.big_blind_seat, hand.to_act) == (1, 1)
    assert hand.player(1).owes_what == ("big_blind",) and hand.player(1).owes == 10
    table.act(1, "post")
    assert table.hand.phase.value == "betting_1" and table.state.big_blind_position == 1
