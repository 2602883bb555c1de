"""Seats between hands: buy-in, sit out, return, missed blinds, newcomers, seat changes, dodging
(BLIND-05..09, 12, 13, 15)."""

from __future__ import annotations

import json

import pytest
from engine_table import AT, Table

from dealerassist.audit.replay import LEGACY_STATE_FORM, state_sha256
from dealerassist.errors import InvalidInput
from dealerassist.rules.engine import view
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    AddChips,
    ChangeSeat,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    Stakes,
    StartHand,
    command_from_dict,
    command_to_dict,
)
from dealerassist.rules.model.house_rules import (
    BlindRules,
    HouseRules,
    MissedBlindsReturn,
    NewPlayerBetweenBlindsAndButton,
    TableRules,
)
from dealerassist.rules.model.ruling_commands import Misdeal, Ruling
from dealerassist.rules.model.state import TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.rules.table.blinds import unpassed_seats


def refused(table: Table, command: object) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.run(command)
    assert table.state is before
    return error.value


def fold_out(table: Table) -> None:
    """Everyone folds to the last player."""
    while table.hand.phase.value != "complete":
        table.act(table.hand.to_act, "fold")


def play_hands(table: Table, count: int) -> None:
    """Start ``count`` hands, every obligation posted, each folded out."""
    for _ in range(count):
        table.start()
        fold_out(table)


def blinds_rules(**options: object) -> HouseRules:
    return HouseRules(blinds=BlindRules(**options))  # type: ignore[arg-type]


def sat_out_through_big_blind(rules: HouseRules | None = None) -> Table:
    """Six players; seat 4 sits out while the big blind passes it (it gets the ML marker)."""
    table = Table([100] * 6, rules=rules)
    table.start(button=1)  # blinds 2, 3
    fold_out(table)
    table.run(SitOut(4))
    table.start()  # dead button: big blind skips 4 and goes to 5
    fold_out(table)
    return table


@pytest.mark.parametrize(
    "command",
    [SitOut(2), ReturnToPlay(3), ReturnToPlay(3, wait=True), ChangeSeat(1, 6), AddChips(2, 50)],
)
def test_seat_commands_round_trip_through_their_dicts(command: object) -> None:
    """The between-hands commands have a JSON form."""
    assert command_from_dict(command_to_dict(command)) == command  # type: ignore[arg-type]


def test_buy_in_within_the_profile_limits_is_accepted() -> None:
    """A buy-in between min_buy_in and max_buy_in seats the player."""
    table = Table([], rules=HouseRules(table=TableRules(min_buy_in=40, max_buy_in=200)))
    table.run(SeatPlayer(1, "Ann", 40))
    table.run(SeatPlayer(2, "Bob", 200))
    assert table.stacks() == {1: 40, 2: 200}


def test_buy_in_outside_the_profile_limits_is_refused() -> None:
    """Too small or too large a buy-in is refused with the limits."""
    table = Table([], rules=HouseRules(table=TableRules(min_buy_in=40, max_buy_in=200)))
    with pytest.raises(InvalidInput, match="40-200"):
        table.run(SeatPlayer(1, "Ann", 39))
    with pytest.raises(InvalidInput, match="40-200"):
        table.run(SeatPlayer(1, "Ann", 201))


def test_leave_and_sit_out_are_refused_while_dealt_in() -> None:
    """A player in the hand neither leaves nor sits out until it is over."""
    table = Table([100, 100, 100])
    table.start(button=1)
    assert refused(table, RemovePlayer(2)).rule_id is RuleId.GAME_01
    assert refused(table, SitOut(2)).rule_id is RuleId.GAME_01


def test_sitting_out_seat_is_not_dealt_in_and_gets_the_big_blind_marker() -> None:
    """BLIND-07: the big blind passing a sitting-out seat marks it ML; it is not dealt in."""
    table = sat_out_through_big_blind()
    assert table.state.seat(4).missed_blind == "big"
    assert table.hand.big_blind_seat == 5
    assert not table.hand.has(4)
    seats = view(table.state, table.rules, AT)["seats"]
    assert seats[3]["missed_blind"] == "big" and seats[3]["status"] == "sitting_out"


def test_seat_passed_only_by_the_small_blind_gets_the_small_marker() -> None:
    """BLIND-07: last hand's big blind sits out; the small blind passes it (MS)."""
    table = Table([100] * 6)
    table.start(button=1)  # big blind 3
    fold_out(table)
    table.run(SitOut(3))
    table.start()  # dead button: button 2, dead small blind at 3, big blind 4
    assert table.state.seat(3).missed_blind == "small"
    assert table.hand.small_blind_seat is None


def test_BLIND_08_accepts_a_return_posting_big_live_and_small_dead() -> None:
    """The returning seat posts 15: 10 live (its bet) and 5 dead in the middle."""
    table = sat_out_through_big_blind()
    table.run(ReturnToPlay(4))
    outcome = table.start(post=False)
    said = ("text", "text_id", "params")
    assert {k: v for k, v in outcome.instructions[-1].items() if k not in said} == {
        "code": "post",
        "seat": 4,
        "count": 15,
    }
    while table.hand.to_act != 4:
        table.act(table.hand.to_act, "post")
    legal = table.legal()
    assert legal is not None
    assert legal["legal"][0] == {
        "action": "post",
        "amount": 15,
        "owes": ["returning_big_blind", "dead_small_blind"],
    }
    table.act(4, "post", amount=15)
    player = table.hand.player(4)
    assert (player.bet, player.dead, player.stack) == (10, 5, 85)
    assert table.state.seat(4).missed_blind is None


def test_BLIND_08_accepts_the_returning_seat_keeping_its_option() -> None:
    """The returning seat's live blind keeps its option to raise when the action reaches it."""
    table = sat_out_through_big_blind()
    table.run(ReturnToPlay(4))
    table.start()
    while table.hand.to_act != 4:
        table.act(table.hand.to_act, "call")
    legal = table.legal()
    assert legal is not None
    assert [a["action"] for a in legal["legal"]] == ["check", "raise", "fold"]


def test_BLIND_08_accepts_waiting_for_the_big_blind() -> None:
    """A returning seat may wait: it is not dealt in until the big blind reaches it."""
    table = sat_out_through_big_blind()
    table.run(ReturnToPlay(4))
    table.start(post=False)
    while table.hand.to_act != 4:
        table.act(table.hand.to_act, "post")
    table.act(4, "post", option="wait")
    assert not table.hand.has(4)
    assert table.state.seat(4).waiting == "BLIND-08"
    fold_out(table)
    table.start()  # the big blind moves to 1: seat 4 still waits
    assert not table.hand.has(4) and dict(table.hand.waiting)[4] == "BLIND-08"
    fold_out(table)
    play_hands(table, 2)  # big blinds 2 and 3; then it reaches 4
    table.start()
    assert table.hand.big_blind_seat == 4 and table.hand.player(4).bet == 10
    assert table.state.seat(4).waiting is None and table.state.seat(4).missed_blind is None


def test_BLIND_08_rejects_a_post_of_only_the_big_blind() -> None:
    """A returning seat that owes 15 may not post 10."""
    table = sat_out_through_big_blind()
    table.run(ReturnToPlay(4))
    table.start(post=False)
    while table.hand.to_act != 4:
        table.act(table.hand.to_act, "post")
    with pytest.raises(RuleViolation) as error:
        table.act(4, "post", amount=10)
    assert error.value.rule_id is RuleId.BLIND_08
    assert "10 live, 5 dead" in error.value.message


def test_BLIND_08_rejects_posting_back_in_where_the_house_makes_it_wait() -> None:
    """missed_blinds_return = wait_for_big_blind: a return that posts is refused; waiting works."""
    rules = blinds_rules(missed_blinds_return=MissedBlindsReturn.WAIT_FOR_BIG_BLIND)
    table = sat_out_through_big_blind(rules)
    assert refused(table, ReturnToPlay(4)).rule_id is RuleId.BLIND_08
    table.run(ReturnToPlay(4, wait=True))
    table.start()
    assert not table.hand.has(4)


def test_BLIND_09_accepts_a_missed_small_blind_posted_dead() -> None:
    """MS: the seat posts just the small blind, dead, to be dealt in."""
    table = Table([100] * 6)
    table.start(button=1)
    fold_out(table)
    table.run(SitOut(3))
    table.start()
    fold_out(table)
    table.run(ReturnToPlay(3))
    table.start(post=False)
    while table.hand.to_act != 3:
        table.act(table.hand.to_act, "post")
    table.act(3, "post", amount=5)
    player = table.hand.player(3)
    assert (player.bet, player.dead, player.stack) == (0, 5, table.state.seat(3).stack - 5)


def test_BLIND_09_rejects_a_live_post_for_a_missed_small_blind() -> None:
    """MS: posting a big blind instead of the dead small blind is refused."""
    table = Table([100] * 6)
    table.start(button=1)
    fold_out(table)
    table.run(SitOut(3))
    table.start()
    fold_out(table)
    table.run(ReturnToPlay(3))
    table.start(post=False)
    while table.hand.to_act != 3:
        table.act(table.hand.to_act, "post")
    with pytest.raises(RuleViolation) as error:
        table.act(3, "post", amount=10)
    assert error.value.rule_id is RuleId.BLIND_09


def test_BLIND_05_accepts_a_newcomer_posting_a_big_blind_to_play_at_once() -> None:
    """A newcomer outside the blinds posts a live big blind and is dealt in."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    fold_out(table)
    play_hands(table, 4)  # an orbit: the game is no longer new (BLIND-11 c)
    table.run(SeatPlayer(6, "New", 100))
    assert table.state.seat(6).new_player
    table.start(post=False)  # button 2, blinds 3 and 4; seat 6 is not between button and blinds
    while table.hand.to_act != 6:
        table.act(table.hand.to_act, "post")
    legal = table.legal()
    assert legal is not None
    assert {"action": "post", "option": "wait"} in legal["legal"]
    table.act(6, "post", amount=10)
    assert table.hand.player(6).bet == 10
    assert not table.state.seat(6).new_player


def test_BLIND_05_accepts_a_newcomer_in_the_big_blind_seat_as_the_big_blind() -> None:
    """A newcomer whose seat takes the big blind is simply the big blind."""
    table = Table([100, 100, 100])
    table.start(button=1)  # blinds 2, 3
    fold_out(table)
    table.run(SeatPlayer(4, "New", 100))
    table.start()  # dead button: big blind to 4
    assert table.hand.big_blind_seat == 4
    assert table.hand.player(4).owes_what == ("big_blind",)


def test_BLIND_05_rejects_a_newcomer_posting_less_than_a_big_blind() -> None:
    """A newcomer enters with a full big blind, not the small blind."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    fold_out(table)
    play_hands(table, 4)  # an orbit: the game is no longer new (BLIND-11 c)
    table.run(SeatPlayer(6, "New", 100))
    table.start(post=False)
    while table.hand.to_act != 6:
        table.act(table.hand.to_act, "post")
    with pytest.raises(RuleViolation) as error:
        table.act(6, "post", amount=5)
    assert error.value.rule_id is RuleId.BLIND_05


def newcomer_between_button_and_small_blind(rules: HouseRules | None = None) -> Table:
    """Seats 1, 3, 4, 5; after a hand with blinds 1 and 3, a newcomer takes seat 2 (dead
    button: the next button is 1 and the small blind 3, so seat 2 sits between them)."""
    table = Table([100, 0, 100, 100, 100], rules=rules)
    table.start(button=5)
    fold_out(table)
    table.run(SeatPlayer(2, "New", 100))
    return table


def test_BLIND_06_guides_a_newcomer_between_the_blinds_and_the_button_to_wait() -> None:
    """The newcomer is not dealt in; the dealer is told why."""
    table = newcomer_between_button_and_small_blind()
    outcome = table.start(post=False)
    assert (table.hand.button, table.hand.small_blind_seat) == (1, 3)
    assert not table.hand.has(2)
    assert dict(table.hand.waiting) == {2: "BLIND-06"}
    skip = [i for i in outcome.instructions if i["code"] == "skip"]
    assert skip[0]["seat"] == 2 and "BLIND-06" in skip[0]["text"]
    assert view(table.state, table.rules, AT)["hand"]["waiting"] == {"2": "BLIND-06"}


def test_BLIND_06_rejects_a_post_from_a_newcomer_who_must_wait() -> None:
    """A post for the waiting newcomer is refused with the rule."""
    table = newcomer_between_button_and_small_blind()
    table.start(post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post")
    assert error.value.rule_id is RuleId.BLIND_06


def test_BLIND_06_accepts_buying_the_button_where_the_house_allows() -> None:
    """buy_button: the newcomer posts a live big blind plus a dead small blind."""
    rules = blinds_rules(between_blinds_and_button=NewPlayerBetweenBlindsAndButton.BUY_BUTTON)
    table = newcomer_between_button_and_small_blind(rules)
    table.start(post=False)
    player = table.hand.player(2)
    assert (player.owes, player.owes_what) == (15, ("entering_big_blind", "dead_small_blind"))
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    assert (table.hand.player(2).bet, table.hand.player(2).dead) == (10, 5)


BUY_BUTTON = NewPlayerBetweenBlindsAndButton.BUY_BUTTON


def test_BLIND_06_accepts_the_buyer_on_the_button_in_the_next_hand() -> None:
    """buy_button (WSOP 158), dead button: seat 2 buys in hand 2 (button 1, blinds 3 and 4);
    in hand 3 it has the button where the dead button would have gone to seat 3, the blinds
    move on as usual (4 and 5), and seat 3, which had its small blind, is dealt in."""
    table = newcomer_between_button_and_small_blind(
        blinds_rules(between_blinds_and_button=BUY_BUTTON)
    )
    table.start()
    assert (table.hand.button, table.hand.player(2).dead) == (1, 5)
    fold_out(table)
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 4, 5)
    assert hand.has(3) and hand.player(3).owes_what == ()
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.start(post=False)  # then the button follows the blinds again
    assert (table.hand.button, table.hand.small_blind_seat) == (4, 5)


def test_BLIND_06_rejects_the_skipping_button_after_a_bought_button() -> None:
    """The dealer may not put the button where the dead button would have gone (seat 3): the
    refusal names the buyer's seat."""
    table = newcomer_between_button_and_small_blind(
        blinds_rules(between_blinds_and_button=BUY_BUTTON)
    )
    table.start()
    fold_out(table)
    error = refused(table, StartHand(3))
    assert error.rule_id is RuleId.BLIND_03
    assert error.allowed == [{"action": "start_hand", "button": 2}]


def test_BLIND_06_rejects_the_button_for_a_newcomer_who_waited_instead_of_buying() -> None:
    """Only a newcomer who paid the big blind and the dead small blind gets the button; one who
    waits for the big blind is skipped by the dead button."""
    table = newcomer_between_button_and_small_blind(
        blinds_rules(between_blinds_and_button=BUY_BUTTON)
    )
    table.start(post=False)
    while table.hand.to_act != 2:
        table.act(table.hand.to_act, "post")
    table.act(2, "post", option="wait")
    fold_out(table)
    table.start(post=False)
    assert (table.hand.button, table.hand.small_blind_seat) == (3, 4)
    assert dict(table.hand.waiting) == {2: "BLIND-05"}


def test_BLIND_06_rejects_the_bought_button_after_a_misdeal() -> None:
    """A misdealt hand is dealt again as it was: the buyer buys again, the button stays."""
    table = newcomer_between_button_and_small_blind(
        blinds_rules(between_blinds_and_button=BUY_BUTTON)
    )
    table.start()
    table.run(Ruling(decision="misdeal", effects=(Misdeal(),), rule_id="IRREG-01"))
    table.start(post=False)
    assert table.hand.button == 1
    assert table.hand.player(2).owes_what == ("entering_big_blind", "dead_small_blind")


def posted_up_to_the_buyer(rules: HouseRules) -> Table:
    """Hand 2 (button 1, blinds 3 and 4): the blinds post and seat 2, the newcomer between the
    button and the small blind, is to post."""
    table = newcomer_between_button_and_small_blind(rules)
    table.start(post=False)
    while table.hand.to_act != 2:
        table.act(table.hand.to_act, "post")
    return table


BIG_BLIND_ONLY = {"action": "post", "option": "big_blind_only", "amount": 10}


def test_BLIND_06_accepts_buying_in_with_the_big_blind_alone_the_button_skipping_him() -> None:
    """buy_button (WSOP 158), the other choice: the newcomer posts just the big blind (10, all
    live, no dead small blind) and is dealt in at once; in hand 3 the button skips him (the
    dead button goes to seat 3, the blinds move on to 4 and 5) and he plays as a player like
    the others, owing nothing and marked for nothing."""
    table = posted_up_to_the_buyer(blinds_rules(between_blinds_and_button=BUY_BUTTON))
    legal = table.legal()
    assert legal is not None and legal["seat"] == 2
    assert legal["legal"] == [
        {"action": "post", "amount": 15, "owes": ["entering_big_blind", "dead_small_blind"]},
        BIG_BLIND_ONLY,
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]
    stack = table.hand.player(2).stack
    outcome = table.act(2, "post", option="big_blind_only", amount=10)
    assert {"type": "posted", "seat": 2, "amount": 10, "option": "big_blind_only"} in (
        outcome.events_json()
    )
    hand = table.hand
    assert hand.phase.value == "betting_1"
    player = hand.player(2)
    assert (player.bet, player.dead, player.stack) == (10, 0, stack - 10)
    assert hand.current_bet == 10 and hand.dead == 0
    assert not table.state.seat(2).new_player
    fold_out(table)
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 4, 5)
    assert hand.has(2) and hand.player(2).owes_what == () and hand.player(2).owes == 0
    seat = table.state.seat(2)
    assert (seat.new_player, seat.waiting, seat.missed_blind) == (False, None, None)


def test_BLIND_06_guides_the_dealer_to_the_big_blind_alone_when_the_button_is_sold() -> None:
    """The start-of-hand instructions offer the buyer the big blind alone, beside his post of
    the big blind and the dead small blind; the tablet-facing option is the one the engine
    accepts."""
    table = newcomer_between_button_and_small_blind(
        blinds_rules(between_blinds_and_button=BUY_BUTTON)
    )
    outcome = table.start(post=False)
    offers = [i for i in outcome.instructions if i["code"] == "big_blind_only"]
    assert [(i["seat"], i["count"]) for i in offers] == [(2, 10)]
    assert "button skips him" in offers[0]["text"]


def test_BLIND_06_rejects_the_big_blind_alone_where_the_house_does_not_sell_the_button() -> None:
    """Under the house option ``wait`` the newcomer between the blinds and the button is not
    dealt in: a post of the big blind alone is refused with BLIND-06, as any post."""
    table = newcomer_between_button_and_small_blind()
    table.start(post=False)
    assert dict(table.hand.waiting) == {2: "BLIND-06"}
    error = refused(table, Act(2, ActionKind.POST, amount=10, option="big_blind_only"))
    assert error.rule_id is RuleId.BLIND_06 and error.seat == 2


def test_BLIND_06_rejects_the_big_blind_alone_from_a_seat_that_buys_no_button() -> None:
    """Where the house sells the button, only the buyer may post the big blind alone: the small
    blind may not (refused with BLIND-06, naming its post), nor may the buyer post any other
    amount with the option."""
    table = newcomer_between_button_and_small_blind(
        blinds_rules(between_blinds_and_button=BUY_BUTTON)
    )
    table.start(post=False)
    assert table.hand.to_act == 3
    error = refused(table, Act(3, ActionKind.POST, option="big_blind_only"))
    assert error.rule_id is RuleId.BLIND_06 and "may not post the big blind alone" in error.message
    assert error.allowed == [
        {"action": "post", "amount": 5, "owes": ["small_blind"]},
        {"action": "sit_out"},
    ]
    table.act(3, "post")
    table.act(4, "post")
    error = refused(table, Act(2, ActionKind.POST, amount=15, option="big_blind_only"))
    assert error.rule_id is RuleId.BLIND_06 and "post exactly 10" in error.message
    assert BIG_BLIND_ONLY in error.allowed


NOT_REQUIRED = {"new_player_must_post": False}


def test_BLIND_06_rejects_a_free_hand_between_the_blinds_and_the_button_in_no_limit() -> None:
    """new_player_must_post = false (WSOP 104-a) does not let a newcomer in between the button
    and the small blind for nothing: he waits (house option wait) and a post is refused."""
    table = newcomer_between_button_and_small_blind(blinds_rules(**NOT_REQUIRED))
    table.start(post=False)
    assert not table.hand.has(2) and dict(table.hand.waiting) == {2: "BLIND-06"}
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post")
    assert error.value.rule_id is RuleId.BLIND_06


def test_BLIND_06_accepts_a_newcomer_once_the_button_passed_him_in_no_limit() -> None:
    """Where newcomers need not post, the newcomer who waited between the blinds and the button
    plays free in the next hand (the button has passed him) and is a player like the others."""
    table = newcomer_between_button_and_small_blind(blinds_rules(**NOT_REQUIRED))
    table.start()
    fold_out(table)
    table.start(post=False)
    assert table.hand.button == 3 and table.hand.player(2).owes_what == ()
    assert not table.state.seat(2).new_player


def test_BLIND_06_accepts_buying_the_button_in_no_limit() -> None:
    """buy_button where newcomers need not post: between the blinds and the button he buys the
    button (big blind live, small blind dead) or waits."""
    rules = blinds_rules(between_blinds_and_button=BUY_BUTTON, **NOT_REQUIRED)
    table = newcomer_between_button_and_small_blind(rules)
    table.start(post=False)
    player = table.hand.player(2)
    assert (player.owes, player.owes_what) == (15, ("entering_big_blind", "dead_small_blind"))
    while table.hand.to_act != 2:
        table.act(table.hand.to_act, "post")
    assert {"action": "post", "option": "wait"} in (table.legal() or {})["legal"]


def test_BLIND_06_accepts_a_newcomer_who_declined_the_buy_once_the_button_passed() -> None:
    """buy_button where newcomers need not post: one who waits rather than buy waits only for
    the button to pass him, not for the big blind, and then plays free."""
    rules = blinds_rules(between_blinds_and_button=BUY_BUTTON, **NOT_REQUIRED)
    table = newcomer_between_button_and_small_blind(rules)
    table.start(post=False)
    while table.hand.to_act != 2:
        table.act(table.hand.to_act, "post")
    table.act(2, "post", option="wait")
    fold_out(table)
    table.start(post=False)
    assert table.hand.button == 3 and table.hand.player(2).owes_what == ()
    seat = table.state.seat(2)
    assert (seat.new_player, seat.waiting) == (False, None)


def test_BLIND_11_accepts_a_newcomer_in_a_new_game_where_no_blind_passed() -> None:
    """BLIND-11 (c): after hand 1 (button 1, blinds 2 and 3) a player sits in seat 5, which no
    blind has passed: he is dealt in hand 2 without posting, like those who started the game,
    and takes the big blind when it reaches him in hand 3."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    fold_out(table)
    table.run(SeatPlayer(5, "New", 100))
    assert not table.state.seat(5).new_player
    table.start(post=False)
    assert table.hand.big_blind_seat == 4 and table.hand.player(5).owes_what == ()
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.start(post=False)
    assert table.hand.big_blind_seat == 5 and table.hand.player(5).owes_what == ("big_blind",)


def test_BLIND_11_rejects_a_free_hand_in_a_seat_a_blind_has_passed() -> None:
    """BLIND-11 (c) only while no blind has passed the seat: seat 2, empty in hand 1 between the
    button (1) and the small blind (3), was passed; a player who sits there is a newcomer who
    posts a big blind or waits (BLIND-05)."""
    table = Table([100, 0, 100, 100])
    table.start(button=1)
    assert (table.hand.small_blind_seat, table.hand.big_blind_seat) == (3, 4)
    fold_out(table)
    table.run(SeatPlayer(2, "New", 100))
    assert table.state.seat(2).new_player
    table.start(post=False)
    assert table.hand.player(2).owes_what == ("entering_big_blind",)


def test_BLIND_11_rejects_a_free_hand_once_the_button_has_gone_round() -> None:
    """BLIND-11 (c) only in a new game: once the button has gone round, a player who sits in a
    seat the blinds are still to reach is a newcomer who posts a big blind or waits."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    fold_out(table)
    play_hands(table, 4)
    assert table.hand.button == 1
    table.run(SeatPlayer(5, "New", 100))
    table.start(post=False)
    assert table.hand.big_blind_seat == 4
    assert table.hand.player(5).owes_what == ("entering_big_blind",)


ORBIT = blinds_rules(new_game_orbit=True)  # BLIND-11 (c) through the whole first orbit


def test_BLIND_11_accepts_a_newcomer_after_the_second_hand_where_no_blind_passed() -> None:
    """``new_game_orbit``: hands 1 and 2 (big blinds 3 and 4) of a new game at five players; a
    player who sits in seat 6 before hand 3 is dealt in without posting, takes the big blind
    when it reaches him in hand 4, and the orbit ends when the big blind reaches the first
    button (seat 1): only the seats it has not reached are kept, and nothing after that."""
    table = Table([100] * 5, rules=ORBIT)
    table.start(button=1)
    fold_out(table)
    assert table.state.first_orbit == ()  # hand 1 is the table's hand: nothing to keep
    play_hands(table, 1)
    assert table.state.first_orbit == (5, 6, 1)
    table.run(SeatPlayer(6, "New", 100))
    assert not table.state.seat(6).new_player
    table.start(post=False)
    assert table.hand.big_blind_seat == 5 and table.hand.player(6).owes_what == ()
    assert table.state.first_orbit == (6, 1)
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.start()
    assert table.hand.big_blind_seat == 6 and table.state.first_orbit == (1,)
    fold_out(table)
    table.start()
    assert table.hand.big_blind_seat == 1 and table.state.first_orbit == ()
    assert "first_orbit" not in table.state.to_dict()


def test_BLIND_11_rejects_a_free_hand_after_the_second_hand_without_the_orbit_option() -> None:
    """A profile without ``new_game_orbit`` (every version before it) keeps no record of the
    first orbit: after hand 2 the newcomer in seat 6 posts a big blind or waits, as recorded
    hands were dealt, and the table state never holds ``first_orbit``."""
    table = Table([100] * 5)
    table.start(button=1)
    fold_out(table)
    play_hands(table, 1)
    assert "first_orbit" not in table.state.to_dict()
    table.run(SeatPlayer(6, "New", 100))
    assert table.state.seat(6).new_player
    table.start(post=False)
    assert table.hand.player(6).owes_what == ("entering_big_blind",)


# SHA-256 of the canonical JSON of four first-orbit states (below), computed with the code
# before new_game_orbit existed (commit 6c0462d): without the option the states encode byte for
# byte as before, so the state_sha256 recorded under earlier profile versions still verify.
BEFORE_NEW_GAME_ORBIT = (
    "1e6c94484597fd2ce44305b80403f6082e8ec573906ec938ac6a887ef217f9c3",
    "b0fe33398e390f10776eb2875bd54789658b70e9fa5bdaedeb5727213e2139b1",
    "b74f07cbafc531ed4bf2aa4550969a1ef7708c2b10724649ef6160be80c4a05a",
    "0b821d8c80df565d32522fffd8048bb15e53e81212e2652d5640cdd71f27670b",
)


def test_BLIND_11_rejects_a_changed_state_in_the_first_orbit_without_the_option() -> None:
    """Without ``new_game_orbit``, a first orbit with a seat change (after hand 1: seat 4 to
    seat 6, BLIND-12) and a newcomer (after hand 2, in seat 4) gives the states it gave
    before the option existed, byte for byte."""
    table = Table([100] * 5)
    states = []
    table.start(button=1)
    fold_out(table)
    table.run(ChangeSeat(4, 6))
    states.append(table.state)
    table.start()
    states.append(table.state)
    fold_out(table)
    table.run(SeatPlayer(4, "New", 100))
    states.append(table.state)
    table.start(post=False)
    states.append(table.state)
    # the form those states were recorded in (form 1: instructions without message IDs)
    digests = tuple(state_sha256(s, LEGACY_STATE_FORM) for s in states)
    assert digests == BEFORE_NEW_GAME_ORBIT
    assert (states[-1].seat(6).waiting, states[-1].seat(4).new_player) == ("BLIND-12", True)


def test_BLIND_11_accepts_a_first_orbit_state_round_trip() -> None:
    """The kept seats are written as a list and read back into the same state."""
    table = Table([100] * 5, rules=ORBIT)
    table.start(button=1)
    fold_out(table)
    play_hands(table, 1)
    data = json.loads(json.dumps(table.state.to_dict()))
    assert data["first_orbit"] == [5, 6, 1]
    assert TableState.from_dict(data) == table.state


def test_BLIND_11_accepts_a_newcomer_after_the_big_blind_moved_on_at_the_post() -> None:
    """Hand 2 (button 2, blinds 3 and 4): the big blind sits out at the post and seat 5 takes
    it (BLIND-07), so the blinds have reached seat 5 but not seats 6 and 1: a player who sits
    in seat 6 is dealt in free; hand 3's big blind is his."""
    table = Table([100] * 5, rules=ORBIT)
    table.start(button=1)
    fold_out(table)
    table.start(post=False)
    table.act(3, "post")
    table.act(4, "sit_out")
    assert table.hand.big_blind_seat == 5
    assert unpassed_seats(table.state) == [6, 1]
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.run(SeatPlayer(6, "New", 100))
    assert not table.state.seat(6).new_player
    table.start(post=False)
    assert table.hand.big_blind_seat == 6 and table.hand.player(6).owes_what == ("big_blind",)


def test_BLIND_11_rejects_a_free_hand_after_the_big_blind_moved_past_the_first_button() -> None:
    """Seats 1-4; the first button (seat 1) leaves after hand 1. In hand 2 (button 2, blinds 3
    and 4) the big blind sits out at the post and moves on past seats 5, 6 and 1 to seat 2:
    the blinds have gone round, so a player who sits in seat 6 is a newcomer (BLIND-05)."""
    table = Table([100] * 4, rules=ORBIT)
    table.start(button=1)
    fold_out(table)
    table.run(RemovePlayer(1))
    table.start(post=False)
    assert table.state.first_orbit == (5, 6, 1)
    table.act(3, "post")
    table.act(4, "sit_out")
    assert table.hand.big_blind_seat == 2 and unpassed_seats(table.state) == []
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.run(SeatPlayer(6, "New", 100))
    assert table.state.seat(6).new_player


def test_BLIND_11_accepts_a_newcomer_in_the_first_orbit_after_a_misdealt_first_hand() -> None:
    """Hand 1 is misdealt (IRREG-01) and dealt again as hand 2 (button 1, blinds 2 and 3): that
    deal starts the game, so after hand 3 (big blind 4) a player who sits in seat 6, which no
    blind has passed, is dealt in without posting."""
    table = Table([100] * 5, rules=ORBIT)
    table.start(button=1)
    table.run(Ruling(decision="misdeal", effects=(Misdeal(),), rule_id="IRREG-01"))
    table.start()
    assert (table.hand.hand_no, table.hand.button, table.hand.big_blind_seat) == (2, 1, 3)
    assert table.state.first_orbit == (4, 5, 6, 1)
    fold_out(table)
    play_hands(table, 1)
    table.run(SeatPlayer(6, "New", 100))
    assert not table.state.seat(6).new_player
    table.start(post=False)
    assert table.hand.big_blind_seat == 5 and table.hand.player(6).owes_what == ()


def test_BLIND_11_accepts_a_newcomer_moving_from_a_passed_seat_to_one_no_blind_passed() -> None:
    """Hand 1: button 1, blinds 3 and 4 (seat 2 empty, passed). A player who sits in seat 2 is
    a newcomer who owes a big blind; he moves to seat 6, which no blind has passed, and is dealt
    in hand 2 without posting, like a player who sat down there."""
    table = Table([100, 0, 100, 100, 100], rules=ORBIT)
    table.start(button=1)
    fold_out(table)
    table.run(SeatPlayer(2, "New", 100))
    assert table.state.seat(2).new_player
    table.run(ChangeSeat(2, 6))
    seat = table.state.seat(6)
    assert (seat.player, seat.new_player, seat.waiting) == ("New", False, None)
    table.start(post=False)
    assert table.hand.big_blind_seat == 5 and table.hand.player(6).owes_what == ()


def test_BLIND_11_rejects_a_free_move_to_a_seat_a_blind_has_passed() -> None:
    """In the first orbit too, a move to a seat the blinds have passed is a BLIND-12 move:
    seat 5, next in line for the big blind, moves to the empty seat 2 (between hand 1's button
    and small blind) and waits for the big blind; moved to seat 6 instead, it would not."""
    table = Table([100, 0, 100, 100, 100], rules=ORBIT)
    table.start(button=1)  # blinds 3 and 4
    fold_out(table)
    table.run(ChangeSeat(5, 2))
    assert table.state.seat(2).waiting == "BLIND-12"
    assert refused(table, ReturnToPlay(2)).rule_id is RuleId.BLIND_12
    table.run(ChangeSeat(2, 6))
    assert table.state.seat(6).waiting is None


def test_BLIND_12_accepts_a_move_that_takes_no_free_hand() -> None:
    """The button moves to an empty seat no further from the big blind: dealt in at once."""
    table = Table([100] * 5)
    table.start(button=1)  # blinds 2, 3
    fold_out(table)
    table.run(ChangeSeat(1, 6))
    assert table.state.seat(6).player == "P1" and table.state.seat(1).player is None
    assert table.state.seat(6).waiting is None
    table.start()
    assert table.hand.has(6)


def test_BLIND_12_rejects_a_move_away_from_the_coming_big_blind() -> None:
    """Seat 4, next to take the big blind, moves behind it: it waits for the big blind."""
    table = Table([100] * 5)
    table.start(button=1)  # blinds 2, 3: seat 4 is next
    fold_out(table)
    table.run(ChangeSeat(4, 6))
    assert table.state.seat(6).waiting == "BLIND-12"
    assert refused(table, ReturnToPlay(6)).rule_id is RuleId.BLIND_12
    table.start(post=False)
    assert dict(table.hand.waiting) == {6: "BLIND-12"}
    with pytest.raises(RuleViolation) as error:
        table.act(6, "post")
    assert error.value.rule_id is RuleId.BLIND_12
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.start()
    assert table.hand.big_blind_seat == 6 and table.state.seat(6).waiting is None


def test_BLIND_12_rejects_a_seat_change_during_the_hand() -> None:
    """A player dealt in changes seats only between hands."""
    table = Table([100] * 3)
    table.start(button=1)
    assert refused(table, ChangeSeat(2, 5)).rule_id is RuleId.BLIND_12


SINGLE = HouseRules(blinds=BlindRules(single_blind=True))


def single_blind_table(stacks: list[int]) -> Table:
    return Table(stacks, stakes=Stakes(big_blind=10, small_bet=10, big_bet=20), rules=SINGLE)


def test_BLIND_13_accepts_half_a_blind_as_a_full_blind() -> None:
    """Single blind: a blind of 5 chips (half) is all in and counts as the blind."""
    table = single_blind_table([100, 5, 100])
    table.start(button=1)
    assert table.hand.big_blind_seat == 2
    assert table.hand.player(3).bet == 0 and table.hand.to_act == 3


def test_BLIND_13_guides_the_next_player_to_take_the_blind_after_a_short_one() -> None:
    """Single blind: 4 chips is less than half; the next seat posts the blind as well."""
    table = single_blind_table([100, 4, 100])
    table.start(button=1)
    assert table.hand.player(2).bet == 4
    assert table.hand.player(3).bet == 10 and table.hand.big_blind_seat == 3
    assert table.hand.to_act == 1


def test_BLIND_13_rejects_a_return_that_does_not_wait_for_the_blind() -> None:
    """Single blind: a seat that skipped the blind may re-enter only on the blind."""
    table = single_blind_table([100, 100, 100, 100])
    table.start(button=1, post=False)
    table.act(2, "sit_out")
    assert table.hand.big_blind_seat == 3
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    assert table.state.seat(2).missed_blind == "big"
    assert refused(table, ReturnToPlay(2)).rule_id is RuleId.BLIND_13
    table.run(ReturnToPlay(2, wait=True))
    assert table.state.seat(2).waiting == "BLIND-08"


def test_BLIND_15_accepts_a_return_after_a_full_orbit_without_a_flag() -> None:
    """A seat that sat out away from the blinds is not flagged when it returns."""
    table = Table([100] * 6)
    table.start(button=1)  # blinds 2, 3
    fold_out(table)
    table.run(SitOut(6))  # not due a blind next hand
    play_hands(table, 3)
    outcome = table.run(ReturnToPlay(6))
    assert table.state.seat(6).missed_blind == "big"
    assert [n.rule_id for n in outcome.notices] == []


def test_BLIND_15_rejects_dodging_the_big_blind_by_flagging_the_floor() -> None:
    """Sitting out just before the big blind and returning after it passed is flagged; the
    seat still owes the missed blinds."""
    table = Table([100] * 6)
    table.start(button=1)  # blinds 2, 3: seat 4 is next
    fold_out(table)
    table.run(SitOut(4))
    table.start()
    fold_out(table)
    outcome = table.run(ReturnToPlay(4))
    assert [n.rule_id for n in outcome.notices] == [RuleId.BLIND_15]
    assert table.state.seat(4).missed_blind == "big"


def test_BLIND_02_accepts_the_last_big_blind_taking_the_button_when_heads_up() -> None:
    """Three become two: last hand's big blind gets the button, so it is not big blind again."""
    table = Table([100, 100, 100])
    table.start(button=1)  # blinds 2, 3
    fold_out(table)
    table.run(RemovePlayer(1))
    table.start()
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 3, 2)


def test_BLIND_02_rejects_a_heads_up_button_that_gives_the_big_blind_twice() -> None:
    """Naming seat 2 as the button would make seat 3 the big blind twice running."""
    table = Table([100, 100, 100])
    table.start(button=1)
    fold_out(table)
    table.run(RemovePlayer(1))
    assert refused(table, StartHand(button=2)).rule_id is RuleId.BLIND_02


def test_a_busted_player_who_rebuys_owes_the_blinds_he_missed() -> None:
    """BLIND-11 (a): a seat with no chips misses the blinds; after a rebuy it owes them (it is
    not a new player)."""
    table = Table([100, 100, 100, 100, 100, 10])
    table.start(button=4)  # blinds 5, 6: seat 6 is all in for its 10
    table.act(1, "call")
    for seat in (2, 3, 4, 5):
        table.act(seat, "fold")
    shown = {1: "Ah Ad Ac Kd Ks", 6: "2c 3d 4h 5s 7c"}
    while table.hand.phase.value != "complete":
        legal = table.legal()
        assert legal is not None
        seat, name = legal["seat"], legal["legal"][0]["action"]
        if name == "show":
            table.act(seat, "show", cards=shown[seat])
        else:
            table.act(seat, name, **({"count": 0} if name == "draw" else {}))
    assert table.state.seat(6).stack == 0
    table.start()  # dead button: big blind 1; seat 6 has no chips and is not dealt in
    fold_out(table)
    assert table.state.seat(6).missed_blind == "small"
    table.start()
    fold_out(table)
    table.run(AddChips(6, 100))
    assert not table.state.seat(6).new_player
    table.start(post=False)
    assert table.hand.player(6).owes_what == ("dead_small_blind",)


def test_add_chips_is_refused_above_the_maximum_buy_in_and_during_the_hand() -> None:
    """A top-up may not take the stack over max_buy_in, nor happen while dealt in."""
    table = Table([100, 100, 100], rules=HouseRules(table=TableRules(max_buy_in=150)))
    with pytest.raises(InvalidInput, match="at most 150"):
        table.run(AddChips(1, 60))
    table.run(AddChips(1, 50))
    assert table.state.seat(1).stack == 150
    table.start(button=1)
    assert refused(table, AddChips(2, 10)).rule_id is RuleId.GAME_01


def test_BLIND_05_accepts_a_newcomer_dealt_in_free_where_posting_is_not_required() -> None:
    """new_player_must_post = false (WSOP 104-a, no limit): the newcomer plays at once."""
    table = Table([100, 100, 100, 100], rules=blinds_rules(new_player_must_post=False))
    table.start(button=1)
    fold_out(table)
    table.run(SeatPlayer(6, "New", 100))
    table.start(post=False)
    assert table.hand.player(6).owes_what == ()


def test_BLIND_12_rejects_sitting_out_and_back_to_skip_the_wait() -> None:
    """A seat that must wait after a seat change still waits after sitting out and returning."""
    table = Table([100] * 5)
    table.start(button=1)
    fold_out(table)
    table.run(ChangeSeat(4, 6))
    table.run(SitOut(6))
    assert refused(table, ReturnToPlay(6)).rule_id is RuleId.BLIND_12
    table.run(ReturnToPlay(6, wait=True))
    assert table.state.seat(6).waiting == "BLIND-12"


def test_BLIND_09_rejects_a_missed_small_blind_posting_in_before_the_button_passes() -> None:
    """sb_only_wait_for_button: an MS seat on the button waits; once the button has passed it
    posts its dead small blind."""
    table = Table([100] * 6, rules=blinds_rules(sb_only_wait_for_button=True))
    table.start(button=1)
    fold_out(table)
    table.run(SitOut(3))
    table.start()  # dead small blind at 3
    fold_out(table)
    table.run(ReturnToPlay(3))
    table.start(post=False)  # the button is on seat 3
    assert table.hand.button == 3 and dict(table.hand.waiting) == {3: "BLIND-09"}
    with pytest.raises(RuleViolation) as error:
        table.act(3, "post")
    assert error.value.rule_id is RuleId.BLIND_09
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    fold_out(table)
    table.start(post=False)  # the button has passed seat 3
    assert table.hand.player(3).owes_what == ("dead_small_blind",)


def test_view_previews_what_each_seat_owes_in_the_next_hand() -> None:
    """Between hands the view shows the next button, blinds, each seat's posts and who waits."""
    table = sat_out_through_big_blind()
    table.run(ReturnToPlay(4))
    preview = view(table.state, table.rules, AT)["next_hand"]
    assert preview["big_blind"] == 6 and preview["small_blind"] == 5
    assert preview["owes"]["4"] == {
        "amount": 15,
        "owes": ["returning_big_blind", "dead_small_blind"],
    }
    assert preview["waiting"] == {}
    table.start(post=False)
    assert view(table.state, table.rules, AT)["next_hand"] is None
    assert table.hand.player(4).owes == 15
